use unicode_segmentation::UnicodeSegmentation;

use super::Matcher;
use crate::core::pieces::{char_boundary_where, nearest_cut, space_between_ascii_letters};
use crate::core::token::Span;

/// `words`: the segments between Unicode word boundaries (UAX #29), whitespace-only segments
/// dropped. Punctuation becomes one token per character, as the standard prescribes.
pub struct WordsMatcher;

impl Matcher for WordsMatcher {
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        for (start, segment) in text.split_word_bound_indices() {
            if !segment.chars().all(char::is_whitespace) {
                found(Span::new(start, start + segment.len()), "word segment");
            }
        }
    }

    /// A space between ASCII letters, or two characters of scripts written without spaces
    /// that UAX #29 gives no word-boundary property ([`no_word_property`]): every rule that
    /// keeps characters together or looks past its pair (WB4 to WB16) needs a character with a
    /// property (a letter, digit, mid-word punctuation, space, joiner, regional indicator)
    /// next to the boundary, so the boundary is there whatever surrounds the two, and each part
    /// is segmented as in the whole text.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let unspaced = |text: &str, from: usize| {
            char_boundary_where(text, from, |before, at| {
                no_word_property(before) && no_word_property(at)
            })
        };
        nearest_cut(text, from, &[&space_between_ascii_letters, &unspaced])
    }
}

/// Whether UAX #29 gives `c` no word-break property (`Other`): hiragana, CJK ideographs and the
/// ideographic comma, full stop and corner brackets. (Katakana, full-width forms and the
/// iteration marks have properties of their own.)
fn no_word_property(c: char) -> bool {
    matches!(c,
        '\u{3041}'..='\u{3096}' // hiragana letters
        | '\u{3400}'..='\u{4DBF}' // CJK extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK unified ideographs
        | '\u{3001}'..='\u{3002}' // 、。
        | '\u{300C}'..='\u{300F}' // 「」『』
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tokenizer::Tokenizer;
    use crate::engines::simple::MatchTokenizer;

    fn forms(text: &str) -> Vec<&str> {
        let t = MatchTokenizer::new("words", WordsMatcher).tokenize(text);
        t.tokens.iter().map(|tok| tok.span.slice(text)).collect()
    }

    #[test]
    fn follows_uax29() {
        assert_eq!(
            forms("We're 350 dogs! Um, lunch?"),
            ["We're", "350", "dogs", "!", "Um", ",", "lunch", "?"]
        );
        assert_eq!(
            forms("3.14 e.g. U.S.A."),
            ["3.14", "e.g", ".", "U.S.A", "."]
        );
        assert_eq!(forms("日本語 👍🏽!"), ["日", "本", "語", "👍🏽", "!"]);
    }

    #[test]
    fn cuts_at_spaces_between_letters_and_between_ideographs_and_kana() {
        let words = MatchTokenizer::new("words", WordsMatcher);
        assert_eq!(words.cut_point("ab cd", 0), Some(2));
        assert_eq!(words.cut_point("a. b", 0), None);
        let text = "カタカナは東京、ｘ";
        assert_eq!(words.cut_point(text, 0), Some("カタカナは".len()));
        assert_eq!(words.cut_point(text, 16), Some("カタカナは東".len()));
        assert_eq!(
            words.cut_point(text, "カタカナは東京".len()),
            Some("カタカナは東京".len())
        );
        assert_eq!(words.cut_point(text, "カタカナは東京、".len()), None);
    }
}
