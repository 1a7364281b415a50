//! A pre-tokenizer from any regex as tiktoken applies its pattern: the matches are the pieces
//! and text no match covers is dropped (tiktoken's `find_iter`), so a pattern that does not
//! cover every character loses that text exactly as the reference library does.

use crate::core::token::Span;
use crate::engines::simple::{Matcher, PatternError};

/// The matches of a pattern, left to right.
pub struct RegexFindAll {
    regex: fancy_regex::Regex,
    source: String,
}

impl RegexFindAll {
    /// Compiles `pattern` (fancy-regex syntax: look-arounds, `\p{..}` classes, `(?i:..)`).
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        fancy_regex::Regex::new(pattern)
            .map(|regex| RegexFindAll {
                regex,
                source: pattern.to_string(),
            })
            .map_err(PatternError::from)
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }
}

impl Matcher for RegexFindAll {
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let mut at = 0;
        for m in self.regex.find_iter(text) {
            // Past fancy-regex's backtrack limit the rest of the text is one piece, so no
            // text is silently lost to a limit the reference does not have.
            let Ok(m) = m else {
                if at < text.len() {
                    found(Span::new(at, text.len()), "rest after the backtrack limit");
                }
                return;
            };
            if m.end() > m.start() {
                found(Span::new(m.start(), m.end()), "match");
            }
            at = m.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_between_matches_is_dropped() {
        let split = RegexFindAll::new(r"\d+").unwrap();
        let mut pieces = Vec::new();
        split.find("ab12c3", &mut |s, _| {
            pieces.push(s.slice("ab12c3").to_string())
        });
        assert_eq!(pieces, ["12", "3"]);
    }
}
