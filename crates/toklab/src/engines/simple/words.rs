use unicode_segmentation::UnicodeSegmentation;

use super::Matcher;
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
}
