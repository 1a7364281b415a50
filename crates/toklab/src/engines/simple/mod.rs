//! The simple tokenizers (`ws`, `words`, `regex:`): each is a matcher over the text, and one
//! generic engine turns matches into tokens and, for `explain`, into matches and gaps.
//!
//! ```
//! let text = "a  bc\td";
//! assert_eq!(toklab::load("ws").unwrap().tokenize(text).forms(text), ["a", "bc", "d"]);
//! let text = "ab12 c";
//! let regex = toklab::load(r"regex:\d+|\p{L}+").unwrap();
//! assert_eq!(regex.tokenize(text).forms(text), ["ab", "12", "c"]);
//! // Forward maximum matching over the shipped Chinese word list.
//! let text = "研究生命起源";
//! let maxmatch = toklab::load("maxmatch:../../samples/maxmatch/zh-words.txt").unwrap();
//! assert_eq!(maxmatch.tokenize(text).forms(text), ["研究生", "命", "起源"]);
//! ```

pub mod joining;
pub mod maxmatch;
pub mod ptb;
mod regex;
mod whitespace;
mod words;

use crate::core::error::Result;
use crate::core::pieces::{Carry, PART_TOKENS};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{GaveUp, Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::{NO_ID, Tokenizer};
use crate::core::trace::{Role, Trace, TraceLine, quote};

pub use self::joining::Joining;
#[cfg(feature = "subword")]
pub(crate) use self::regex::each_match;
pub use self::regex::{GAVE_UP, PatternError, RegexMatcher};
pub use self::whitespace::WhitespaceMatcher;
pub use self::words::WordsMatcher;

/// Finds the tokens of a text as non-overlapping, ascending spans, each labelled with the
/// alternative (of a pattern) that produced it.
pub trait Matcher: Send + Sync {
    /// Calls `found` for each token, left to right, with the alternative's label.
    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str));

    /// A byte offset at or after `from` where `text` may be cut without changing a match
    /// ([`Tokenizer::cut_point`]'s promise for the matches); the default knows none.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let _ = (text, from);
        None
    }

    /// How the tokens become text again for `detokenize`; the default suits tokens that are
    /// words with the whitespace dropped.
    fn joining(&self) -> Joining {
        Joining::Words
    }
}

/// Any [`Matcher`] as a [`Tokenizer`]: tokens are the matches, everything between is dropped.
pub struct MatchTokenizer<M> {
    name: String,
    matcher: M,
}

impl<M: Matcher> MatchTokenizer<M> {
    /// Wraps `matcher`; `name` is the label in views and messages.
    pub fn new(name: impl Into<String>, matcher: M) -> Self {
        MatchTokenizer {
            name: name.into(),
            matcher,
        }
    }
}

impl<M: Matcher> Tokenizer for MatchTokenizer<M> {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = Vec::new();
        self.matcher.find(text, &mut |span, alternative| {
            tokens.push(token(text, span, alternative));
        });
        Tokenization::new(tokens)
    }

    /// One id ([`NO_ID`]: a match has none) a match, no token made: a huge line of many
    /// matches (`regex:.`) costs four bytes a match.
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let mut gave_up = None;
        self.matcher.find(text, &mut |span, alternative| {
            ids.push(NO_ID);
            if alternative == GAVE_UP && gave_up.is_none() {
                gave_up = Tokenization::new(vec![token(text, span, alternative)]).gave_up();
            }
        });
        gave_up
    }

    /// The matches handed over [`PART_TOKENS`] at a time, so a line no cut reaches into is
    /// written without holding all its tokens.
    fn tokenize_piece_in_parts(
        &self,
        piece: &str,
        _carry: &mut Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        let mut tokens = Vec::new();
        self.matcher.find(piece, &mut |span, alternative| {
            tokens.push(token(piece, span, alternative));
            if tokens.len() == PART_TOKENS {
                part(Tokenization::new(std::mem::take(&mut tokens)));
            }
        });
        part(Tokenization::new(tokens));
    }

    /// The matcher's cut points: a token is its match, so what keeps the matches keeps the
    /// tokens.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        self.matcher.cut_point(text, from)
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    /// The matcher's [`Joining`]: tokens that are matches carry no marks of their own.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        Ok(self.matcher.joining().join(tokens))
    }
}

/// The token of a match: its kind by what it holds, or unknown where the pattern gave up.
fn token(text: &str, span: Span, alternative: &'static str) -> Token {
    if alternative == GAVE_UP {
        Token::new(span, TokenKind::Unknown).with_origin(Origin::GaveUp { reason: GAVE_UP })
    } else {
        Token::new(span, TokenKind::classify(span.slice(text)))
            .with_origin(Origin::Pattern { alternative })
    }
}

impl<M: Matcher> MatchTokenizer<M> {
    /// The text cut into matches and the gaps between them.
    pub fn trace(&self, text: &str) -> MatchTrace {
        let mut items = Vec::new();
        let mut at = 0;
        self.matcher.find(text, &mut |span, alternative| {
            if span.start > at {
                items.push(MatchItem::Gap(Span::new(at, span.start)));
            }
            items.push(MatchItem::Match { span, alternative });
            at = span.end;
        });
        if at < text.len() {
            items.push(MatchItem::Gap(Span::new(at, text.len())));
        }
        MatchTrace { items }
    }
}

/// The trace of a matcher: the text cut into matches and the gaps between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchTrace {
    /// The matches and gaps, in text order: together they cover the text.
    pub items: Vec<MatchItem>,
}

/// A match (a token) or a gap (dropped text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchItem {
    /// A token.
    Match {
        /// Where it is.
        span: Span,
        /// The pattern alternative that matched it.
        alternative: &'static str,
    },
    /// Text no match covered, dropped from the output.
    Gap(Span),
}

impl MatchTrace {
    /// One trace line per match or gap, quoting its text.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = crate::core::trace::LineBudget::default();
        for item in &self.items {
            lines.push_with(|| match *item {
                MatchItem::Match { span, alternative } => TraceLine::new(0, Some(span))
                    .part(Role::Label, "match ")
                    .part(Role::Detail, format!("{:>9} ", span.to_string()))
                    .part(Role::Token, quote(span.slice(text)))
                    .part(Role::Detail, format!("  {alternative}")),
                MatchItem::Gap(span) => TraceLine::new(0, Some(span))
                    .part(Role::Label, "gap   ")
                    .part(Role::Detail, format!("{:>9} ", span.to_string()))
                    .part(Role::Dropped, quote(span.slice(text)))
                    .part(Role::Detail, "  dropped"),
            });
        }
        lines.into_lines()
    }
}

/// `ws`: tokens are the runs of non-space characters.
pub const WS: Kind = Kind::new("ws", "ws", "split on whitespace", load_ws);

/// `words`: Unicode word boundaries.
pub const WORDS: Kind = Kind::new(
    "words",
    "words",
    "Unicode word boundaries (UAX #29), whitespace dropped",
    load_words,
);

/// `regex:PATTERN`: the pattern's matches. Takes no options, so a `?` stays in the pattern.
pub const REGEX: Kind = Kind::new(
    "regex",
    "regex:PATTERN",
    "tokens are the pattern's matches (as NLTK's regexp_tokenize); look-around allowed",
    load_regex,
)
.with_text_arg();

fn load_ws(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    Ok(Box::new(MatchTokenizer::new("ws", WhitespaceMatcher)))
}

fn load_words(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    Ok(Box::new(MatchTokenizer::new("words", WordsMatcher)))
}

fn load_regex(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    let matcher = RegexMatcher::new(&spec.arg).map_err(|e| spec.bad(e.to_string()))?;
    Ok(Box::new(MatchTokenizer::new(
        format!("regex:{}", spec.arg),
        matcher,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_covers_the_whole_text() {
        let tokenizer = MatchTokenizer::new("ws", WhitespaceMatcher);
        let text = " a  bc ";
        let trace = tokenizer.trace(text);
        let covered: String = trace
            .items
            .iter()
            .map(|item| match item {
                MatchItem::Match { span, .. } | MatchItem::Gap(span) => span.slice(text),
            })
            .collect();
        assert_eq!(covered, text);
        assert_eq!(trace.items.len(), 5);
        let shown = tokenizer.explain(text).to_text();
        assert!(
            shown.contains("match      1..2 «a»  non-space run"),
            "{shown}"
        );
        assert!(shown.contains("gap        2..4 «  »  dropped"), "{shown}");
    }

    /// Ids straight from the matches, and tokens in parts of [`PART_TOKENS`], are those of
    /// the whole tokenization, the give-up included.
    #[test]
    fn ids_and_parts_are_the_tokenization_s() {
        let text = format!("{} {}! hi", "ab ".repeat(PART_TOKENS), "a".repeat(30));
        for (pattern, gives_up) in [(r"\w+", false), (r"(a|aa)+(?=b)|\w+", true)] {
            let tokenizer = MatchTokenizer::new("re", RegexMatcher::new(pattern).unwrap());
            let whole = tokenizer.tokenize(&text);
            let mut ids = Vec::new();
            let gave_up = tokenizer.ids_into(&text, &mut ids);
            assert_eq!(ids, vec![NO_ID; whole.len()], "{pattern}");
            assert_eq!(gave_up, whole.gave_up(), "{pattern}");
            assert_eq!(gave_up.is_some(), gives_up, "{pattern}");
            let mut parts = Vec::new();
            tokenizer.tokenize_piece_in_parts(&text, &mut Carry::default(), &mut |part| {
                assert!(part.len() <= PART_TOKENS);
                parts.push(part);
            });
            assert!(parts.len() > 1, "{pattern}");
            let joined: Vec<Token> = parts.into_iter().flat_map(|p| p.tokens).collect();
            assert_eq!(joined, whole.tokens, "{pattern}");
        }
    }

    #[test]
    fn load_rejects_options_and_bad_patterns() {
        assert!(crate::load("regex:(unclosed").is_err());
        let e = crate::load("regex:(").err().unwrap().to_string();
        assert!(e.ends_with("(usage: regex:PATTERN)"), "{e}");
    }
}
