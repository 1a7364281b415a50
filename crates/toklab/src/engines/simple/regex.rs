use super::Matcher;
use crate::core::token::Span;

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

/// The label a matcher gives the rest of a text after its regex exceeded fancy-regex's
/// backtrack limit. Stopping there keeps the tool from hanging, and handing the rest on under
/// this label (a token of kind `Unknown` with [`crate::Origin::GaveUp`]) keeps it from being
/// dropped in silence: the CLI reports the line and exits non-zero.
pub const GAVE_UP: &str = "the pattern exceeded the regex engine's backtrack limit";

/// The matches of `regex` in `text`, left to right, empty ones included. Past fancy-regex's
/// backtrack limit it stops and returns the offset it gave up at (the end of the last match),
/// for every caller to say so rather than drop the rest.
pub(crate) fn each_match(
    regex: &fancy_regex::Regex,
    text: &str,
    mut each: impl FnMut(Span),
) -> Option<usize> {
    let mut at = 0;
    for m in regex.find_iter(text) {
        let Ok(m) = m else { return Some(at) };
        each(Span::new(m.start(), m.end()));
        at = m.end();
    }
    None
}

impl Matcher for RegexMatcher {
    /// The pattern decides whether the spaces are in the tokens.
    fn joining(&self) -> super::Joining {
        super::Joining::KeptSpacesOrWords
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let gave_up = each_match(&self.regex, text, |m| {
            if !m.is_empty() {
                found(m, "match");
            }
        });
        if let Some(at) = gave_up {
            found(Span::new(at, text.len()), GAVE_UP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tokenizer::Tokenizer;
    use crate::engines::simple::MatchTokenizer;

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
    fn backtrack_limit_is_an_unknown_token_over_the_rest() {
        let text = format!("{}! hello world", "a".repeat(30));
        let t = MatchTokenizer::new("re", RegexMatcher::new(r"(a|aa)+(?=b)|\w+").unwrap())
            .tokenize(&text);
        let gave_up = t.gave_up().expect("the engine gave up");
        assert_eq!(gave_up.reason, GAVE_UP);
        assert!(!gave_up.as_reference, "a backtrack limit is an error");
        assert_eq!(gave_up.span, Span::new(0, text.len()));
        assert_eq!(t.tokens[0].kind, crate::TokenKind::Unknown);
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
