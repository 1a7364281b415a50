//! o200k_base's pre-tokenization pattern (tiktoken), matched by hand. Words are split at
//! case changes, keep a following English contraction, and the pattern is:
//!
//! ```text
//! [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! The first alternative backtracks over the overlap of its two classes (modifier and other
//! letters and marks are in both); see [`upper_lower_end`]. Mistral's tekken files write the
//! same pattern without the contractions and with single digits ([`TEKKEN_PATTERN`]), which
//! the same code matches ([`TekkenMatcher`]). Property tests check both matchers against
//! fancy-regex running the patterns themselves.

use std::sync::LazyLock;

use super::cl100k::CLASSES;
use super::class::CharClass;
use super::scan::{char_at, contraction_end, run_end, whitespace_end};
use crate::core::token::Span;
use crate::engines::simple::Matcher;

/// The pattern as tiktoken defines it for o200k_base (its parts joined by `|`).
pub const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+",
);

/// The pattern of Mistral's tekken files (`config.pattern`): o200k_base's without the
/// contractions, with `\p{N}` for `\p{N}{1,3}`.
pub const TEKKEN_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
    "|",
    r"\p{N}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+",
);

/// What sets the two patterns apart: whether a word keeps a following contraction, and how
/// many digits a number piece holds at most.
#[derive(Clone, Copy)]
struct Shape {
    contractions: bool,
    digits: usize,
}

const O200K: Shape = Shape {
    contractions: true,
    digits: 3,
};

const TEKKEN: Shape = Shape {
    contractions: false,
    digits: 1,
};

struct Cases {
    /// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`
    upper: CharClass,
    /// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`
    lower: CharClass,
}

static CASES: LazyLock<Cases> = LazyLock::new(|| Cases {
    upper: CharClass::from_regex(r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
    lower: CharClass::from_regex(r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
});

/// The o200k_base pre-tokenizer.
pub struct O200kMatcher;

impl Matcher for O200kMatcher {
    /// The pieces cover the text, spaces included; read back from `toklab tokenize` text, whose
    /// tokens lose their spaces, they are words.
    fn joining(&self) -> crate::engines::simple::Joining {
        crate::engines::simple::Joining::KeptSpacesOrWords
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        super::scan::each_piece(text, found, |text, at| next_piece(text, at, O200K));
    }

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        super::scan::space_between_letters(text, &CLASSES.letter, from)
    }
}

/// The pre-tokenizer of Mistral's tekken files ([`TEKKEN_PATTERN`]).
pub struct TekkenMatcher;

impl Matcher for TekkenMatcher {
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        super::scan::each_piece(text, found, |text, at| next_piece(text, at, TEKKEN));
    }

    /// As o200k_base's: the letter runs end at a space and the space starts the next word, the
    /// same with or without contractions and whatever a number piece holds.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        super::scan::space_between_letters(text, &CLASSES.letter, from)
    }
}

/// `U*L+` from `at` (U, L the two classes): the greedy `U*` gives back characters until `L+`
/// can start. If the character after the upper run is lower, `L+` runs on from there; else the
/// last character of the upper run that is also lower is the whole `L+`.
fn upper_lower_end(text: &str, at: usize, cases: &Cases) -> Option<usize> {
    let upper_end = run_end(text, at, &cases.upper);
    if char_at(text, upper_end).is_some_and(|c| cases.lower.contains(c)) {
        return Some(run_end(text, upper_end, &cases.lower));
    }
    text[at..upper_end]
        .char_indices()
        .rev()
        .find(|&(_, c)| cases.lower.contains(c))
        .map(|(i, c)| at + i + c.len_utf8())
}

/// `U+L*` from `at`.
fn upper_then_lower_end(text: &str, at: usize, cases: &Cases) -> Option<usize> {
    let upper_end = run_end(text, at, &cases.upper);
    (upper_end > at).then(|| run_end(text, upper_end, &cases.lower))
}

fn with_contraction(text: &str, end: usize, shape: Shape) -> usize {
    match shape.contractions {
        true => contraction_end(text, end).unwrap_or(end),
        false => end,
    }
}

fn next_piece(text: &str, at: usize, shape: Shape) -> (usize, &'static str) {
    let classes = &*CLASSES;
    let cases = &*CASES;
    let c0 = char_at(text, at).expect("at < len");
    let prefixed = classes.is_word_prefix(c0).then(|| at + c0.len_utf8());
    // Alternative 1, first with the optional prefix character, then without.
    for start in prefixed.into_iter().chain([at]) {
        if let Some(end) = upper_lower_end(text, start, cases) {
            return (with_contraction(text, end, shape), "word");
        }
    }
    // Alternative 2.
    for start in prefixed.into_iter().chain([at]) {
        if let Some(end) = upper_then_lower_end(text, start, cases) {
            return (with_contraction(text, end, shape), "capitalized word");
        }
    }
    if classes.number.contains(c0) {
        return (classes.digits_end(text, at, shape.digits), "digits");
    }
    if let Some(end) = classes.punctuation_end(text, at, c0, b"\r\n/") {
        return (end, "punctuation");
    }
    whitespace_end(text, at, &classes.space)
}

#[cfg(test)]
mod tekken_tests {
    use super::*;

    crate::engines::subword::pretok::agrees_with_fancy_regex!(
        TekkenMatcher,
        TEKKEN_PATTERN,
        "[ a-zA-Z0-9'.,!/\\t\\r\\n\u{a0}\u{3000}éſÉǅʰ語½\u{301}😀-]{0,40}"
    );

    #[test]
    fn examples() {
        assert_eq!(
            pieces("HTTPServer's I'm 123 a/b"),
            [
                "HTTPServer",
                "'s",
                " I",
                "'m",
                " ",
                "1",
                "2",
                "3",
                " a",
                "/b"
            ]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::engines::subword::pretok::agrees_with_fancy_regex!(
        O200kMatcher,
        O200K_PATTERN,
        "[ a-zA-Z0-9'.,!/\\t\\r\\n\u{a0}\u{3000}éſÉǅʰ語½\u{301}😀-]{0,40}"
    );

    #[test]
    fn examples() {
        assert_eq!(
            pieces("HTTPServer's camelCase I'm 12345 a/b\n/x"),
            [
                "HTTPServer's",
                " camel",
                "Case",
                " I'm",
                " ",
                "123",
                "45",
                " a",
                "/b",
                "\n",
                "/x"
            ]
        );
    }
}
