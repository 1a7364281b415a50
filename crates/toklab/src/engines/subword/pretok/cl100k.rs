//! cl100k_base's pre-tokenization pattern (tiktoken), matched by hand:
//!
//! ```text
//! (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! Each alternative is tried in order at each position, with the backtracking a Perl-style
//! engine would do, worked out by hand: a property test checks the result against
//! fancy-regex running the pattern itself.

use std::sync::LazyLock;

use super::class::CharClass;
use super::scan::{char_at, contraction_end, run_end, whitespace_end};
use crate::core::token::Span;
use crate::engines::simple::Matcher;

/// The pattern as tiktoken defines it for cl100k_base.
pub const CL100K_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

pub(super) struct Classes {
    pub letter: CharClass,
    pub number: CharClass,
    pub space: CharClass,
}

pub(super) static CLASSES: LazyLock<Classes> = LazyLock::new(|| Classes {
    letter: CharClass::from_regex(r"\p{L}"),
    number: CharClass::from_regex(r"\p{N}"),
    space: CharClass::from_regex(r"\s"),
});

impl Classes {
    /// `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, controls.
    #[inline]
    pub fn is_other(&self, c: char) -> bool {
        !self.space.contains(c) && !self.letter.contains(c) && !self.number.contains(c)
    }

    /// `[^\r\n\p{L}\p{N}]`: the optional character before a word.
    #[inline]
    pub fn is_word_prefix(&self, c: char) -> bool {
        c != '\r' && c != '\n' && !self.letter.contains(c) && !self.number.contains(c)
    }

    /// `\p{N}{1,most}` at `at` (`{1,3}` in cl100k and o200k).
    pub fn digits_end(&self, text: &str, at: usize, most: usize) -> usize {
        let mut end = at;
        for _ in 0..most {
            match char_at(text, end) {
                Some(c) if self.number.contains(c) => end += c.len_utf8(),
                _ => break,
            }
        }
        end
    }

    /// ` ?[^\s\p{L}\p{N}]+` followed by any of `tail` (`[\r\n]*` or `[\r\n/]*`), if it matches.
    pub fn punctuation_end(&self, text: &str, at: usize, c0: char, tail: &[u8]) -> Option<usize> {
        let body = if c0 == ' ' && char_at(text, at + 1).is_some_and(|c| self.is_other(c)) {
            at + 1
        } else if self.is_other(c0) {
            at
        } else {
            return None;
        };
        let mut end = body;
        while let Some(c) = char_at(text, end) {
            if !self.is_other(c) {
                break;
            }
            end += c.len_utf8();
        }
        let bytes = text.as_bytes();
        while end < bytes.len() && tail.contains(&bytes[end]) {
            end += 1;
        }
        Some(end)
    }
}

/// Qwen2's pattern (Qwen2, Qwen2.5, Qwen3 `tokenizer.json` files): cl100k's with single
/// digits.
pub const QWEN2_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The cl100k_base pre-tokenizer.
pub struct Cl100kMatcher;

/// Qwen2's pre-tokenizer: cl100k's but for one digit a piece, so the same cut points.
pub struct Qwen2Matcher;

impl Matcher for Qwen2Matcher {
    fn joining(&self) -> crate::engines::simple::Joining {
        Cl100kMatcher.joining()
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let classes = &*CLASSES;
        super::scan::each_piece(text, found, |text, at| next_piece(classes, text, at, 1));
    }

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        Cl100kMatcher.cut_point(text, from)
    }
}

impl Matcher for Cl100kMatcher {
    /// The pieces cover the text, spaces included; read back from `toklab tokenize` text, whose
    /// tokens lose their spaces, they are words.
    fn joining(&self) -> crate::engines::simple::Joining {
        crate::engines::simple::Joining::KeptSpacesOrWords
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let classes = &*CLASSES;
        super::scan::each_piece(text, found, |text, at| next_piece(classes, text, at, 3));
    }

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        super::scan::space_between_letters(text, &CLASSES.letter, from)
    }
}

/// The piece at `at`, digit runs of at most `digits`.
fn next_piece(classes: &Classes, text: &str, at: usize, digits: usize) -> (usize, &'static str) {
    let c0 = char_at(text, at).expect("at < len");
    if c0 == '\''
        && let Some(end) = contraction_end(text, at)
    {
        return (end, "contraction");
    }
    // `[^\r\n\p{L}\p{N}]?\p{L}+`
    if classes.is_word_prefix(c0) {
        let body = at + c0.len_utf8();
        if char_at(text, body).is_some_and(|c| classes.letter.contains(c)) {
            return (run_end(text, body, &classes.letter), "letters");
        }
    } else if classes.letter.contains(c0) {
        return (run_end(text, at, &classes.letter), "letters");
    }
    if classes.number.contains(c0) {
        return (classes.digits_end(text, at, digits), "digits");
    }
    if let Some(end) = classes.punctuation_end(text, at, c0, b"\r\n") {
        return (end, "punctuation");
    }
    whitespace_end(text, at, &classes.space)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::engines::subword::pretok::agrees_with_fancy_regex!(
        Cl100kMatcher,
        CL100K_PATTERN,
        "[ a-zA-Z0-9'.,!/\\t\\r\\n\u{a0}\u{3000}éſ語½\u{301}😀-]{0,40}"
    );

    #[test]
    fn examples() {
        assert_eq!(
            pieces("We'RE 12345 dogs!\n\n  ok\tgo"),
            [
                "We", "'RE", " ", "123", "45", " dogs", "!\n\n", " ", " ok", "\tgo"
            ]
        );
        assert_eq!(pieces("a \n b"), ["a", " \n", " b"]);
    }
}

#[cfg(test)]
mod qwen2_tests {
    use super::*;

    crate::engines::subword::pretok::agrees_with_fancy_regex!(
        Qwen2Matcher,
        QWEN2_PATTERN,
        "[ a-zA-Z0-9'.,!/\\t\\r\\n\u{a0}\u{3000}éſ語½\u{301}😀-]{0,40}"
    );

    #[test]
    fn one_digit_a_piece() {
        assert_eq!(pieces("We 123!"), ["We", " ", "1", "2", "3", "!"]);
    }
}
