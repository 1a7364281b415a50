//! A pre-tokenizer from any regex, as HuggingFace's `Split` with behaviour `Isolated`: the
//! matches are pieces and so is the text between them, so nothing is lost.

use crate::core::token::Span;
use crate::engines::simple::{GAVE_UP, Matcher, PatternError, each_match};

/// Splits text into the matches of a pattern and the gaps between them.
pub struct RegexSplit {
    regex: fancy_regex::Regex,
}

impl RegexSplit {
    /// Compiles `pattern` (fancy-regex syntax, so look-arounds as in HuggingFace's patterns).
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        fancy_regex::Regex::new(pattern)
            .map(|regex| RegexSplit { regex })
            .map_err(PatternError::from)
    }
}

impl From<fancy_regex::Regex> for RegexSplit {
    /// A pattern compiled elsewhere (a `tokenizer.json`'s `Split`) is used as it is.
    fn from(regex: fancy_regex::Regex) -> Self {
        RegexSplit { regex }
    }
}

impl Matcher for RegexSplit {
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let mut at = 0;
        let gave_up = each_match(&self.regex, text, |m| {
            if m.start > at {
                found(Span::new(at, m.start), "between matches");
            }
            if !m.is_empty() {
                found(m, "match");
            }
            at = at.max(m.end);
        });
        // Past fancy-regex's backtrack limit the rest of the text is one piece, marked.
        if let Some(at) = gave_up {
            found(Span::new(at, text.len()), GAVE_UP);
        } else if at < text.len() {
            found(Span::new(at, text.len()), "between matches");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_are_pieces() {
        let split = RegexSplit::new(r"\d+").unwrap();
        let mut pieces = Vec::new();
        split.find("ab12c3", &mut |s, _| {
            pieces.push(s.slice("ab12c3").to_string())
        });
        assert_eq!(pieces, ["ab", "12", "c", "3"]);
    }
}
