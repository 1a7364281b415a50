//! BERT's basic tokenizer, as HuggingFace's `BertNormalizer` + `BertPreTokenizer` do it:
//! control characters dropped, whitespace split, CJK ideographs and punctuation isolated,
//! accents stripped (NFD, non-spacing marks removed) and text lowercased — on a
//! [`NormalizedString`], so every normalized character knows the original character it came
//! from.

use std::ops::Range;
use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;

use crate::core::normalized::NormalizedString;
use crate::engines::subword::pretok::CharClass;

struct Classes {
    other: CharClass,
    nonspacing_mark: CharClass,
    punctuation: CharClass,
}

static CLASSES: LazyLock<Classes> = LazyLock::new(|| Classes {
    other: CharClass::from_regex(r"\p{C}"),
    nonspacing_mark: CharClass::from_regex(r"\p{Mn}"),
    punctuation: CharClass::from_regex(r"\p{P}"),
});

/// Whether `c` is a non-spacing mark (general category Mn), what stripping accents removes
/// after NFD.
pub(crate) fn is_nonspacing_mark(c: char) -> bool {
    CLASSES.nonspacing_mark.contains(c)
}

pub(crate) fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && CLASSES.other.contains(c)
}

/// Whether normalizing removes `c`: control characters (and unassigned ones), NUL, U+FFFD.
pub(crate) fn is_removed(c: char) -> bool {
    c == '\0' || c == '\u{FFFD}' || is_control(c)
}

pub(crate) fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// The CJK ideograph blocks BERT pads with spaces.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

pub(crate) fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || CLASSES.punctuation.contains(c)
}

/// BERT's normalization of `text`: control characters, NUL and U+FFFD removed; with
/// `strip_accents`, every character but CJK ideographs and whitespace decomposed (NFD) and
/// stripped of non-spacing marks; with `lowercase`, lowercased (its pieces all come from it).
/// HuggingFace's `BertNormalizer` takes the two flags apart (`strip_accents: false` with
/// `lowercase: true` exists: Devanagari vowel signs are marks that must stay).
pub fn normalize(text: &str, lowercase: bool, strip_accents: bool) -> NormalizedString<'_> {
    let mut normalized = NormalizedString::new(text);
    let mut expanded = String::new();
    normalized.map_chars(|c, out| {
        if is_removed(c) {
            return;
        }
        if !(lowercase || strip_accents) || is_whitespace(c) || is_cjk(c) {
            out.push(c);
            return;
        }
        expanded.clear();
        let mut push = |d: char| match lowercase {
            true => expanded.extend(d.to_lowercase()),
            false => expanded.push(d),
        };
        match strip_accents {
            true => std::iter::once(c)
                .nfd()
                .filter(|d| !CLASSES.nonspacing_mark.contains(*d))
                .for_each(&mut push),
            false => push(c),
        }
        out.push_str(&expanded);
    });
    normalized
}

/// Splits normalized text into words (byte ranges): whitespace separates them, CJK
/// ideographs and punctuation are words of their own.
pub fn words(text: &str, out: &mut Vec<Range<usize>>) {
    let mut word = 0..0;
    let flush = |word: &mut Range<usize>, out: &mut Vec<Range<usize>>, at: usize| {
        if word.start < word.end {
            out.push(word.clone());
        }
        *word = at..at;
    };
    for (at, c) in text.char_indices() {
        let next = at + c.len_utf8();
        if is_whitespace(c) {
            flush(&mut word, out, next);
        } else if is_cjk(c) || is_punctuation(c) {
            flush(&mut word, out, at);
            out.push(at..next);
            word = next..next;
        } else {
            word.end = next;
        }
    }
    flush(&mut word, out, text.len());
}

/// The words of HuggingFace's `Whitespace` pre-tokenizer (`\w+|[^\w\s]+`, what is not
/// matched dropped) over BERT-normalized text, where CJK ideographs stand alone (the
/// normalizer's `handle_chinese_chars` pads them with spaces).
pub fn whitespace_words(text: &str, out: &mut Vec<Range<usize>>) {
    static WORD: LazyLock<fancy_regex::Regex> =
        LazyLock::new(|| fancy_regex::Regex::new(r"\w+|[^\w\s]+").expect("valid pattern"));
    for m in WORD.find_iter(text).flatten() {
        let mut start = m.start();
        for (i, c) in m.as_str().char_indices() {
            if is_cjk(c) {
                let at = m.start() + i;
                if at > start {
                    out.push(start..at);
                }
                out.push(at..at + c.len_utf8());
                start = at + c.len_utf8();
            }
        }
        if start < m.end() {
            out.push(start..m.end());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::token::Span;

    fn forms(text: &str) -> Vec<String> {
        let normalized = normalize(text, true, true);
        let mut out = Vec::new();
        words(normalized.normalized(), &mut out);
        out.into_iter()
            .map(|w| normalized.normalized()[w].to_string())
            .collect()
    }

    #[test]
    fn splits_like_bert() {
        assert_eq!(forms("Héllo, WORLD!"), ["hello", ",", "world", "!"]);
        assert_eq!(forms("日本語x"), ["日", "本", "語", "x"]);
        assert_eq!(forms("a\u{200b}b\tc$"), ["ab", "c", "$"]);
    }

    #[test]
    fn lowercase_keeps_marks_when_accents_stay() {
        assert_eq!(
            normalize("Éa\u{93f}", true, false).normalized(),
            "éa\u{93f}"
        );
        assert_eq!(normalize("É", false, true).normalized(), "E");
    }

    #[test]
    fn whitespace_words_split_word_characters_from_the_rest() {
        let text = "ab,.c 中d\u{93f}";
        let mut out = Vec::new();
        whitespace_words(text, &mut out);
        let words: Vec<&str> = out.into_iter().map(|r| &text[r]).collect();
        assert_eq!(words, ["ab", ",.", "c", "中", "d\u{93f}"]);
    }

    /// What `WordPiece::starts_word` rests on: every CJK ideograph and punctuation character
    /// normalizing keeps normalizes, with any flags, to text that starts with one again (an
    /// ideograph stays itself), so a word starts there whatever precedes it.
    #[test]
    fn ideographs_and_punctuation_normalize_to_what_starts_a_word() {
        let isolated = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| (is_cjk(c) || is_punctuation(c)) && !is_removed(c));
        for c in isolated {
            for (lowercase, strip_accents) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                let text = c.to_string();
                let normalized = normalize(&text, lowercase, strip_accents);
                let first = normalized.normalized().chars().next();
                let kept = match is_cjk(c) {
                    true => first == Some(c),
                    false => first.is_some_and(|f| is_cjk(f) || is_punctuation(f)),
                };
                assert!(kept, "{c:?} ({lowercase}, {strip_accents}) → {first:?}");
            }
        }
    }

    #[test]
    fn characters_remember_their_origin() {
        let normalized = normalize("xé", true, true);
        assert_eq!(normalized.normalized(), "xe");
        assert_eq!(normalized.original_span(1..2), Span::new(1, 3));
    }
}
