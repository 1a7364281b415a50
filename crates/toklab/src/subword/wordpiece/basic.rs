//! BERT's basic tokenizer, as HuggingFace's `BertNormalizer` + `BertPreTokenizer` do it:
//! control characters dropped, whitespace split, CJK ideographs and punctuation isolated,
//! accents stripped (NFD, non-spacing marks removed) and text lowercased — with every
//! normalized character remembering the original character it came from.

use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;

use crate::subword::pretok::CharClass;

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

/// A normalized character and the original character (byte range) it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NormChar {
    pub c: char,
    pub start: usize,
    pub end: usize,
    /// Whether this is the last normalized character made from its original character: the
    /// token holding it owns the original character.
    pub last: bool,
}

/// A word of the basic tokenizer: its normalized characters.
pub type Word = Vec<NormChar>;

fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && CLASSES.other.contains(c)
}

fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// The CJK ideograph blocks BERT pads with spaces.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || CLASSES.punctuation.contains(c)
}

/// Splits `text` (starting at byte `base` of the original) into words.
pub fn words(text: &str, base: usize, lowercase: bool, out: &mut Vec<Word>) {
    let mut word: Word = Vec::new();
    let flush = |word: &mut Word, out: &mut Vec<Word>| {
        if !word.is_empty() {
            out.push(std::mem::take(word));
        }
    };
    let mut expanded: Vec<char> = Vec::with_capacity(4);
    for (i, c) in text.char_indices() {
        let (start, end) = (base + i, base + i + c.len_utf8());
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            flush(&mut word, out);
            continue;
        }
        if is_cjk(c) {
            flush(&mut word, out);
            out.push(vec![NormChar {
                c,
                start,
                end,
                last: true,
            }]);
            continue;
        }
        expanded.clear();
        if lowercase {
            for d in std::iter::once(c).nfd() {
                if !CLASSES.nonspacing_mark.contains(d) {
                    expanded.extend(d.to_lowercase());
                }
            }
        } else {
            expanded.push(c);
        }
        let count = expanded.len();
        for (k, &d) in expanded.iter().enumerate() {
            let nc = NormChar {
                c: d,
                start,
                end,
                last: k + 1 == count,
            };
            if is_punctuation(d) {
                flush(&mut word, out);
                out.push(vec![nc]);
            } else if is_whitespace(d) {
                flush(&mut word, out);
            } else {
                word.push(nc);
            }
        }
        if count == 0 {
            // A lone combining mark vanishes; its character is dropped text, like whitespace.
        }
    }
    flush(&mut word, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        words(text, 0, true, &mut out);
        out.iter()
            .map(|w| w.iter().map(|n| n.c).collect())
            .collect()
    }

    #[test]
    fn splits_like_bert() {
        assert_eq!(forms("Héllo, WORLD!"), ["hello", ",", "world", "!"]);
        assert_eq!(forms("日本語x"), ["日", "本", "語", "x"]);
        assert_eq!(forms("a\u{200b}b\tc$"), ["ab", "c", "$"]);
    }

    #[test]
    fn characters_remember_their_origin() {
        let mut out = Vec::new();
        words("xé", 10, true, &mut out);
        assert_eq!(
            out[0][1],
            NormChar {
                c: 'e',
                start: 11,
                end: 13,
                last: true
            }
        );
    }
}
