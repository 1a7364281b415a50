//! What `Split`, `Replace` and the splitting pre-tokenizers look for, and how a piece is cut
//! at what they find (HuggingFace's `Pattern` and `SplitDelimiterBehavior`): every match
//! and every stretch between matches is a part; the behaviour says which parts are kept and
//! which are glued to a neighbour; `invert` swaps matches and the stretches between them.

use serde_json::Value;

use super::json::{ComponentError, kind};
use crate::core::normalized::NormalizedString;
use crate::engines::simple::Matcher;
use crate::engines::subword::pretok;

/// What is looked for.
pub enum Pattern {
    /// A literal string, every occurrence left to right.
    Literal(String),
    /// A regular expression (fancy-regex: look-arounds as in the patterns of real files).
    Regex(fancy_regex::Regex),
    /// One of the pre-tokenizer patterns toklab has a hand-written matcher for (GPT-2,
    /// cl100k, o200k): the same matches, faster. The name is the pattern's in
    /// [`pretok::NAMES`].
    Known(&'static str, Box<dyn Matcher>),
    /// Each character the predicate accepts, one match per character.
    Chars(fn(char) -> bool),
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pattern::Literal(s) => write!(f, "Literal({s:?})"),
            Pattern::Regex(r) => write!(f, "Regex({:?})", r.as_str()),
            Pattern::Known(name, _) => write!(f, "Known({name})"),
            Pattern::Chars(_) => write!(f, "Chars"),
        }
    }
}

/// What becomes of the matches when a piece is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behavior {
    /// Matches are dropped.
    Removed,
    /// Matches are parts of their own.
    Isolated,
    /// A match joins the part before it.
    MergedWithPrevious,
    /// A match joins the part after it.
    MergedWithNext,
    /// Adjacent matches become one part.
    Contiguous,
}

impl Behavior {
    /// The behaviour named in a file.
    pub fn parse(name: &str) -> Result<Behavior, ComponentError> {
        Ok(match name {
            "Removed" => Behavior::Removed,
            "Isolated" => Behavior::Isolated,
            "MergedWithPrevious" => Behavior::MergedWithPrevious,
            "MergedWithNext" => Behavior::MergedWithNext,
            "Contiguous" => Behavior::Contiguous,
            other => {
                return Err(ComponentError::unsupported(format!(
                    "split behavior {other} is not supported"
                )));
            }
        })
    }
}

impl Pattern {
    /// The `pattern` of a `Split` or `Replace`: `{"String": …}` or `{"Regex": …}`.
    pub fn from_json(owner: &Value) -> Result<Pattern, ComponentError> {
        let pattern = owner
            .get("pattern")
            .ok_or_else(|| ComponentError::invalid(format!("{} has no pattern", kind(owner))))?;
        if let Some(literal) = pattern.get("String").and_then(Value::as_str) {
            return Ok(Pattern::Literal(literal.to_string()));
        }
        if let Some(source) = pattern.get("Regex").and_then(Value::as_str) {
            return Pattern::regex(source);
        }
        Err(ComponentError::invalid(format!(
            "{} pattern is neither String nor Regex: {pattern}",
            kind(owner)
        )))
    }

    /// A regex, by the hand-written matcher when it is one of the known patterns.
    pub fn regex(source: &str) -> Result<Pattern, ComponentError> {
        for name in pretok::NAMES {
            if pretok::pattern(name) == Some(source) {
                return Ok(Pattern::Known(
                    name,
                    pretok::matcher(name).expect("a known name"),
                ));
            }
        }
        fancy_regex::Regex::new(source)
            .map(Pattern::Regex)
            .map_err(|e| {
                ComponentError::invalid(format!("pattern {source:?} does not compile: {e}"))
            })
    }

    /// The matches in `text`, left to right, as byte ranges (empty ones included, as the
    /// reference does; they cut nothing). A regex past fancy-regex's backtrack limit stops
    /// there: the offset it gave up at is returned, so the caller can say so.
    pub fn matches(&self, text: &str, each: &mut dyn FnMut(usize, usize)) -> Option<usize> {
        match self {
            Pattern::Literal(s) if s.is_empty() => {}
            Pattern::Literal(s) => {
                for (at, _) in text.match_indices(s.as_str()) {
                    each(at, at + s.len());
                }
            }
            Pattern::Regex(regex) => {
                return crate::engines::simple::each_match(regex, text, |m| each(m.start, m.end));
            }
            Pattern::Known(_, matcher) => {
                matcher.find(text, &mut |span, _| each(span.start, span.end))
            }
            Pattern::Chars(accept) => {
                for (at, c) in text.char_indices() {
                    if accept(c) {
                        each(at, at + c.len_utf8());
                    }
                }
            }
        }
        None
    }

    /// `text` cut into matches and the stretches between them: `(start, end, is_match)`,
    /// covering the text; and where the pattern gave up, if it did (the rest is one
    /// stretch).
    pub fn parts(&self, text: &str) -> (Vec<(usize, usize, bool)>, Option<usize>) {
        let mut parts = Vec::new();
        let mut at = 0;
        let gave_up = self.matches(text, &mut |start, end| {
            if start > at {
                parts.push((at, start, false));
            }
            parts.push((start, end, true));
            at = end;
        });
        if at < text.len() {
            parts.push((at, text.len(), false));
        }
        (parts, gave_up)
    }
}

/// Cuts `piece` at the matches of `pattern` (swapped with `invert`) by `behavior`, appending
/// the non-empty parts to `out`. Returns the original offset where the pattern gave up (past
/// the regex engine's backtrack limit), so the tokens from there on can say so.
pub fn split<'o>(
    piece: &NormalizedString<'o>,
    pattern: &Pattern,
    behavior: Behavior,
    invert: bool,
    out: &mut Vec<NormalizedString<'o>>,
) -> Option<usize> {
    let text = piece.normalized();
    let (mut parts, gave_up) = pattern.parts(text);
    let gave_up = gave_up.map(|at| piece.original_offset(at));
    if invert {
        for part in &mut parts {
            part.2 = !part.2;
        }
    }
    let ranges = apply_behavior(parts, behavior);
    if ranges.len() == 1 && ranges[0] == (0, text.len()) {
        out.push(piece.clone());
        return gave_up;
    }
    out.extend(
        ranges
            .into_iter()
            .filter(|(start, end)| end > start)
            .map(|(start, end)| piece.slice(start..end)),
    );
    gave_up
}

/// The ranges `behavior` keeps of the parts, merged as it says.
fn apply_behavior(parts: Vec<(usize, usize, bool)>, behavior: Behavior) -> Vec<(usize, usize)> {
    let mut kept: Vec<(usize, usize)> = Vec::with_capacity(parts.len());
    let mut previous_match = false;
    match behavior {
        Behavior::Isolated => kept.extend(parts.iter().map(|&(s, e, _)| (s, e))),
        Behavior::Removed => kept.extend(parts.iter().filter(|p| !p.2).map(|&(s, e, _)| (s, e))),
        Behavior::Contiguous => {
            for (start, end, is_match) in parts {
                match kept.last_mut() {
                    Some(last) if is_match == previous_match => last.1 = end,
                    _ => kept.push((start, end)),
                }
                previous_match = is_match;
            }
        }
        Behavior::MergedWithPrevious => {
            for (start, end, is_match) in parts {
                match kept.last_mut() {
                    Some(last) if is_match && !previous_match => last.1 = end,
                    _ => kept.push((start, end)),
                }
                previous_match = is_match;
            }
        }
        Behavior::MergedWithNext => {
            for &(start, end, is_match) in parts.iter().rev() {
                match kept.last_mut() {
                    Some(last) if is_match && !previous_match => last.0 = start,
                    _ => kept.push((start, end)),
                }
                previous_match = is_match;
            }
            kept.reverse();
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, pattern: &Pattern, behavior: Behavior, invert: bool) -> Vec<String> {
        let piece = NormalizedString::new(text);
        let mut out = Vec::new();
        split(&piece, pattern, behavior, invert, &mut out);
        out.iter().map(|p| p.normalized().to_string()).collect()
    }

    #[test]
    fn every_behavior_as_the_reference_documents_it() {
        let dash = Pattern::Literal("-".into());
        let text = "the-final--countdown";
        assert_eq!(
            cut(text, &dash, Behavior::Removed, false),
            ["the", "final", "countdown"]
        );
        assert_eq!(
            cut(text, &dash, Behavior::Isolated, false),
            ["the", "-", "final", "-", "-", "countdown"]
        );
        assert_eq!(
            cut(text, &dash, Behavior::MergedWithPrevious, false),
            ["the-", "final-", "-", "countdown"]
        );
        assert_eq!(
            cut(text, &dash, Behavior::MergedWithNext, false),
            ["the", "-final", "-", "-countdown"]
        );
        assert_eq!(
            cut(text, &dash, Behavior::Contiguous, false),
            ["the", "-", "final", "--", "countdown"]
        );
    }

    #[test]
    fn invert_keeps_the_matches() {
        let words = Pattern::regex(r"\w+").unwrap();
        assert_eq!(
            cut("hi, you!", &words, Behavior::Removed, true),
            ["hi", "you"]
        );
        assert_eq!(
            cut("hi, you!", &words, Behavior::Removed, false),
            [", ", "!"]
        );
    }

    #[test]
    fn known_patterns_use_the_hand_written_matcher() {
        let source = pretok::pattern("cl100k").unwrap();
        assert!(matches!(
            Pattern::regex(source).unwrap(),
            Pattern::Known(..)
        ));
        assert!(matches!(
            Pattern::regex(r"\p{N}").unwrap(),
            Pattern::Regex(_)
        ));
    }
}
