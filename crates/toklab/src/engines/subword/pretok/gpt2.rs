//! GPT-2's pre-tokenization pattern, matched by hand:
//!
//! ```text
//! 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//! ```
//!
//! The `regex` crate has no look-ahead; the `\s+(?!\S)` alternative is implemented by its
//! meaning: a run of whitespace that is not directly followed by a non-space, which leaves the
//! last space of a run in front of a word to be that word's leading space. A property test
//! checks this matcher against fancy-regex on the pattern itself.

use super::cl100k::{CLASSES, Classes};
use crate::core::token::Span;
use crate::engines::simple::Matcher;

/// The pattern as written in GPT-2's `encoder.py` (and tiktoken's r50k/p50k).
pub const GPT2_PATTERN: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

/// The GPT-2 pre-tokenizer.
pub struct Gpt2Matcher;

impl Matcher for Gpt2Matcher {
    /// The pieces cover the text, spaces included; read back from `toklab tokenize` text, whose
    /// tokens lose their spaces, they are words.
    fn joining(&self) -> crate::engines::simple::Joining {
        crate::engines::simple::Joining::KeptSpacesOrWords
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let classes = &*CLASSES;
        super::scan::each_piece(text, found, |text, at| next_piece(classes, text, at));
    }

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        super::scan::space_between_letters(text, &CLASSES.letter, from)
    }
}

const CONTRACTIONS: [&str; 7] = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"];

/// The end of the piece starting at `at` and the alternative that matched. Every position
/// matches some alternative (the last two cover whitespace, the others everything else).
fn next_piece(classes: &Classes, text: &str, at: usize) -> (usize, &'static str) {
    let rest = &text[at..];
    if rest.starts_with('\'')
        && let Some(c) = CONTRACTIONS.iter().find(|c| rest.starts_with(*c))
    {
        return (at + c.len(), "contraction");
    }
    let mut chars = rest.chars();
    let first = chars.next().expect("at < len");
    // ` ?X+` for the three classes: an optional single space, then one or more of the class.
    let (body_start, body_first) = if first == ' ' {
        match chars.next() {
            Some(c) => (at + 1, c),
            None => (at, first),
        }
    } else {
        (at, first)
    };
    let is_other = |c: char| {
        !classes.space.contains(c) && !classes.letter.contains(c) && !classes.number.contains(c)
    };
    let runs: [(&dyn Fn(char) -> bool, &'static str); 3] = [
        (&|c| classes.letter.contains(c), "letters"),
        (&|c| classes.number.contains(c), "digits"),
        (&is_other, "punctuation"),
    ];
    for (class, name) in runs {
        if class(body_first) {
            return (run_end(text, body_start, class), name);
        }
    }
    // Whitespace: `\s+(?!\S)` then `\s+`.
    let end = run_end(text, at, &|c| classes.space.contains(c));
    debug_assert!(
        end > at,
        "a character that is no letter, number or other must be a space"
    );
    super::scan::space_end(text, at, end)
}

fn run_end(text: &str, from: usize, class: &dyn Fn(char) -> bool) -> usize {
    text[from..]
        .char_indices()
        .find(|&(_, c)| !class(c))
        .map_or(text.len(), |(i, _)| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::engines::subword::pretok::agrees_with_fancy_regex!(
        Gpt2Matcher,
        GPT2_PATTERN,
        "[ a-zA-Z0-9'.,!\\t\\n\u{a0}\u{3000}é語½\u{301}😀-]{0,40}"
    );

    #[test]
    fn textbook_example() {
        assert_eq!(
            pieces("We're 350 dogs! Um, lunch?"),
            ["We", "'re", " 350", " dogs", "!", " Um", ",", " lunch", "?"]
        );
    }

    #[test]
    fn whitespace_runs_leave_one_space_for_the_next_word() {
        assert_eq!(pieces("a   b"), ["a", "  ", " b"]);
        assert_eq!(pieces("a \n\tb"), ["a", " \n", "\t", "b"]);
        assert_eq!(pieces("a  "), ["a", "  "]);
        assert_eq!(pieces(" \u{3000}x"), [" ", "\u{3000}", "x"]);
        assert_eq!(pieces("x\u{3000}y"), ["x", "\u{3000}", "y"]);
    }

    #[test]
    fn apostrophes_outside_contractions_are_punctuation() {
        assert_eq!(
            pieces("'tis 'Re don't"),
            ["'t", "is", " '", "Re", " don", "'t"]
        );
    }
}
