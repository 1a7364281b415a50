//! Special (added) tokens: strings matched literally in the input before anything else, each
//! one token (`<|endoftext|>`, `<|fim_prefix|>`).

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use crate::core::token::Span;

/// Pattern bytes up to which the special-token matcher may be a DFA.
const DFA_PATTERN_BYTES: usize = 4096;

/// The matcher of literal strings (special and added tokens, user-defined pieces) that finds the
/// leftmost, longest one, built in time linear in the patterns. The DFA is the fastest matcher
/// but costs a full byte table per trie state: for a long added token (100,000 characters) it
/// took half a minute to build, so beyond a few kilobytes of patterns the contiguous NFA
/// serves. An error (patterns beyond the automaton's state limit) says how large they were.
pub(crate) fn literal_matcher<P: AsRef<[u8]>>(
    patterns: &[P],
) -> Result<AhoCorasick, TooManyLiterals> {
    let total: usize = patterns.iter().map(|p| p.as_ref().len()).sum();
    let kind = (total > DFA_PATTERN_BYTES).then_some(AhoCorasickKind::ContiguousNFA);
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .kind(kind)
        .build(patterns)
        .map_err(|cause| TooManyLiterals {
            count: patterns.len(),
            bytes: total,
            cause,
        })
}

/// Literal tokens beyond what one automaton holds, with how many and how large they were so
/// the user sees which list is at fault.
#[derive(Debug)]
pub(crate) struct TooManyLiterals {
    count: usize,
    bytes: usize,
    cause: aho_corasick::BuildError,
}

impl std::fmt::Display for TooManyLiterals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} literal tokens of {} bytes in all: {}",
            self.count, self.bytes, self.cause
        )
    }
}

impl std::error::Error for TooManyLiterals {}

/// The special tokens of a model and a matcher that finds the leftmost, longest one.
#[derive(Clone, Debug, Default)]
pub struct Specials {
    tokens: Vec<(Box<str>, u32)>,
    matcher: Option<AhoCorasick>,
}

impl Specials {
    /// Empty strings are left out (they would match everywhere); callers check for them.
    pub fn new(tokens: Vec<(String, u32)>) -> Self {
        let tokens: Vec<(Box<str>, u32)> = tokens
            .into_iter()
            .filter(|(t, _)| !t.is_empty())
            .map(|(t, id)| (t.into_boxed_str(), id))
            .collect();
        let patterns: Vec<&[u8]> = tokens.iter().map(|(t, _)| t.as_bytes()).collect();
        let matcher = (!tokens.is_empty())
            .then(|| literal_matcher(&patterns).expect("special tokens are far below 2 GiB"));
        Specials { tokens, matcher }
    }

    /// The first special token at or after `from`: its span and id.
    #[inline]
    pub fn find(&self, text: &str, from: usize) -> Option<(Span, u32)> {
        let matcher = self.matcher.as_ref()?;
        let found = matcher.find(&text.as_bytes()[from..])?;
        let id = self.tokens[found.pattern().as_usize()].1;
        Some((Span::new(from + found.start(), from + found.end()), id))
    }

    /// The text of special token `id`.
    pub fn text(&self, id: u32) -> Option<&str> {
        self.tokens
            .iter()
            .find(|(_, i)| *i == id)
            .map(|(t, _)| &**t)
    }

    /// Every special token and its id, for listings and decoding.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.tokens.iter().map(|(t, id)| (&**t, *id))
    }

    /// Whether some special token holds the character `c`: where none does, no special token
    /// is matched across a cut before `c` or starts there.
    pub fn holds(&self, c: char) -> bool {
        self.tokens.iter().any(|(t, _)| t.contains(c))
    }

    /// Whether any text is matched specially at all.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// How many special tokens there are.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftmost_longest() {
        let s = Specials::new(vec![("<|a|>".into(), 1), ("<|a|><|b|>".into(), 2)]);
        assert_eq!(s.find("x<|a|><|b|>", 0), Some((Span::new(1, 11), 2)));
        assert_eq!(s.find("x<|a|>", 2), None);
        assert_eq!(s.text(1), Some("<|a|>"));
    }
}
