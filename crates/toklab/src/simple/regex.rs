use super::Matcher;
use crate::token::Span;

/// `regex:PATTERN`: the pattern's non-empty matches, left to right, as NLTK's
/// `regexp_tokenize` (which discards empty matches). fancy-regex runs plain patterns on the
/// linear-time `regex` engine and only backtracks for look-around and back-references.
#[derive(Debug)]
pub struct RegexMatcher {
    regex: fancy_regex::Regex,
}

impl RegexMatcher {
    /// Compiles `pattern`; an empty one is refused, as it would match nothing.
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        if pattern.is_empty() {
            return Err(PatternError::Empty);
        }
        fancy_regex::Regex::new(pattern)
            .map(|regex| RegexMatcher { regex })
            .map_err(PatternError::from)
    }
}

/// Why a user's regular expression (a `regex:` spec, a tokenizer.json `Split`) cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// No pattern at all; the message shows what one looks like.
    #[error("regex: needs a pattern, as in regex:\\w+|[^\\w\\s]")]
    Empty,
    /// fancy-regex rejects the pattern, with its reason.
    #[error("pattern does not compile: {0}")]
    DoesNotCompile(Box<fancy_regex::Error>),
}

impl From<fancy_regex::Error> for PatternError {
    fn from(error: fancy_regex::Error) -> Self {
        PatternError::DoesNotCompile(Box::new(error))
    }
}

impl From<PatternError> for crate::Error {
    fn from(error: PatternError) -> Self {
        crate::Error::invalid(error)
    }
}

impl Matcher for RegexMatcher {
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        for m in self.regex.find_iter(text) {
            // A pattern that exceeds fancy-regex's backtrack limit ends the matches here rather
            // than hanging the tool; the remaining text shows as a gap in the trace.
            let Ok(m) = m else { break };
            if !m.as_str().is_empty() {
                found(Span::new(m.start(), m.end()), "match");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simple::MatchTokenizer;
    use crate::tokenizer::Tokenizer;

    fn forms(pattern: &str, text: &str) -> Vec<String> {
        let t = MatchTokenizer::new("re", RegexMatcher::new(pattern).unwrap()).tokenize(text);
        t.tokens
            .iter()
            .map(|tok| tok.form(text).to_string())
            .collect()
    }

    #[test]
    fn tokens_are_matches() {
        assert_eq!(
            forms(r"\w+|[^\w\s]+", "Good muffins cost $3.88"),
            ["Good", "muffins", "cost", "$", "3", ".", "88"]
        );
    }

    #[test]
    fn empty_matches_are_discarded() {
        assert_eq!(forms(r"\d*", "a12b3"), ["12", "3"]);
    }

    #[test]
    fn look_around_is_supported() {
        assert_eq!(forms(r"\w+(?=!)", "hey you! now!"), ["you", "now"]);
    }

    #[test]
    fn empty_or_broken_pattern_is_an_error() {
        assert!(RegexMatcher::new("").is_err());
        assert!(
            RegexMatcher::new("(a")
                .unwrap_err()
                .to_string()
                .contains("does not compile")
        );
    }
}
