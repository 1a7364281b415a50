//! The span model every engine speaks: tokens are byte spans of the *original* text, so views
//! and comparisons need nothing engine-specific.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

#[path = "token_kind.rs"]
mod kind;
pub use kind::TokenKind;

/// A half-open byte range `[start, end)` into the original input, always on UTF-8 char
/// boundaries, so that every view can slice the text it was given without re-normalizing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// First byte of the span.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`; `start` must not be past `end`.
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "span {start}..{end} runs backwards");
        Span { start, end }
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether it covers no text (a byte-level token that holds no character's last byte).
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The surface text this span covers in `text`.
    pub fn slice<'a>(&self, text: &'a str) -> &'a str {
        &text[self.start..self.end]
    }

    /// Whether byte offset `byte` lies inside it.
    pub fn contains(&self, byte: usize) -> bool {
        self.start <= byte && byte < self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A place in a resource file, so a token can point at the entry that made it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    /// The file as it was named when loaded, shared by every entry of the file.
    pub file: std::sync::Arc<str>,
    /// 1-based line number.
    pub line: usize,
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// An engine's own account of why a token exists, for engines whose provenance is more than
/// a few numbers (the rule engine: step, chart type, sem-class, the entry's file line). The
/// core knows it only through this trait, so it names no engine; the engine that made it can
/// get its type back with [`Origin::detail_as`].
///
/// Implement it (an empty `impl` will do) for a `Display + Debug + PartialEq + Send + Sync +
/// 'static` type; equality and downcasting come with it ([`ProvenanceAny`]).
pub trait Provenance: fmt::Display + fmt::Debug + Send + Sync + ProvenanceAny {
    /// The resource-file entry that made the token, if one did, so a view can point at it.
    fn source(&self) -> Option<&SourceLoc> {
        None
    }

    /// Why the engine stopped analysing the text at this token, when it did by design (the
    /// rule engine's depth limit, which utoken has too): the tokens are the reference's, so
    /// [`Tokenization::gave_up`] reports it as a warning rather than an error.
    fn gave_up(&self) -> Option<&'static str> {
        None
    }
}

/// Where and why an engine gave up on a text (see [`Tokenization::gave_up`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaveUp {
    /// The first token past the point where the engine gave up.
    pub span: Span,
    /// Why it gave up.
    pub reason: &'static str,
    /// Whether the tokens are still what the engine's reference gives (a documented limit,
    /// a warning) rather than text no rule looked at (an error: [`Origin::GaveUp`]).
    pub as_reference: bool,
}

/// The parts of [`Provenance`] that every `PartialEq + 'static` type has: a view as [`Any`]
/// for downcasting, and equality across trait objects (equal when of the same type and equal
/// as that type). Implemented for all such types; never implement it by hand.
pub trait ProvenanceAny: Any {
    /// This value as [`Any`], to downcast to the engine's type.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is a value of the same type, equal to this one.
    fn same_as(&self, other: &dyn Any) -> bool;
}

impl<T: Any + PartialEq> ProvenanceAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
}

/// Why a token exists: the provenance the workbench shows when a token is selected.
/// The small variants hold only numbers and static names, so most engines' tokens cost no
/// allocation; an engine with more to say uses [`Origin::Detail`].
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// No more to say than the engine's name.
    #[default]
    Engine,
    /// A match of a pattern (the `regex:` and `pretok:` kinds name the alternative that matched).
    Pattern {
        /// The alternative's name.
        alternative: &'static str,
    },
    /// A piece of maximum matching (`maxmatch:`): the scanning direction, whether the word list
    /// has it (else it is one uncovered character), and whether it lies where forward and
    /// backward matching disagree.
    MaxMatch {
        /// `forward` or `backward`.
        direction: &'static str,
        /// Whether the word list has the piece.
        in_dictionary: bool,
        /// Whether the two directions disagree here.
        ambiguous: bool,
    },
    /// A finite-state tokenizer's boundary: the state whose ε:boundary edge ended the token
    /// (numbered from 1 as in the paper and Datok: foma's state + 1), or, when `forced`, the
    /// state the automaton was stuck in with no boundary to go back to.
    Automaton {
        /// The state, numbered from 1.
        state: u32,
        /// Whether the token was cut with no boundary to go back to.
        forced: bool,
    },
    /// A subword model's token: its id, and the rank of the merge rule that makes it (`None`
    /// for base symbols, special tokens and models without merges such as WordPiece).
    Subword {
        /// The vocabulary id.
        id: u32,
        /// The rank of the merge that makes it, if one does.
        rank: Option<u32>,
    },
    /// Text an engine gave up on (a regex past its backtrack limit): `reason` says why. The
    /// token covers the text so nothing is lost, and [`Tokenization::gave_up`] finds it so
    /// callers can report the line as an error instead of trusting the tokens.
    GaveUp {
        /// Why the engine gave up.
        reason: &'static str,
    },
    /// An engine's own provenance (the rule engine's `RuleOrigin`). Behind a pointer so every
    /// other engine's tokens stay small (a token is copied millions of times when a corpus is
    /// tokenized), and shared so copying a token does not copy it.
    Detail(Arc<dyn Provenance>),
}

impl Origin {
    /// An engine's own provenance as an origin.
    pub fn detail(provenance: impl Provenance) -> Origin {
        Origin::Detail(Arc::new(provenance))
    }

    /// The engine's provenance, when it is of type `T`.
    pub fn detail_as<T: Provenance>(&self) -> Option<&T> {
        match self {
            // Deref to the trait object first: `as_any` on the `Arc` itself would see the Arc.
            Origin::Detail(detail) => (**detail).as_any().downcast_ref::<T>(),
            _ => None,
        }
    }

    /// The resource-file entry that made the token, when the engine knows one.
    pub fn source(&self) -> Option<&SourceLoc> {
        match self {
            Origin::Detail(detail) => detail.source(),
            _ => None,
        }
    }
}

/// Provenances are equal when of the same type and equal as that type, so tokens compare
/// whatever engine made them.
impl PartialEq for dyn Provenance {
    fn eq(&self, other: &dyn Provenance) -> bool {
        self.same_as(other.as_any())
    }
}

impl Eq for dyn Provenance {}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Engine => f.write_str("-"),
            Origin::Pattern { alternative } => write!(f, "pattern {alternative}"),
            Origin::GaveUp { reason } => write!(f, "gave up: {reason}"),
            Origin::MaxMatch {
                direction,
                in_dictionary,
                ambiguous,
            } => write!(
                f,
                "maxmatch {direction}, {}{}",
                if *in_dictionary {
                    "in dictionary"
                } else {
                    "not in dictionary"
                },
                if *ambiguous { ", ambiguous" } else { "" }
            ),
            Origin::Automaton {
                state,
                forced: false,
            } => write!(f, "ε:boundary of state {state}"),
            Origin::Automaton {
                state,
                forced: true,
            } => write!(f, "forced: no boundary, stuck in state {state}"),
            Origin::Subword {
                id,
                rank: Some(rank),
            } => write!(f, "id {id}, merge rank {rank}"),
            Origin::Subword { id, rank: None } => write!(f, "id {id}"),
            Origin::Detail(detail) => write!(f, "{detail}"),
        }
    }
}

/// One token: where it is in the original text, what the engine outputs for it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where the token is in the original text.
    pub span: Span,
    /// The output form when it differs from the surface (`won't` → `will`, a BPE piece);
    /// `None` means the form is exactly the text under `span`, which saves an allocation for
    /// the common case.
    pub rewritten: Option<Box<str>>,
    /// What the token is, coarsely.
    pub kind: TokenKind,
    /// Why the token exists.
    pub origin: Origin,
    /// The vocabulary id, for subword models.
    pub id: Option<u32>,
    /// How far the exact bytes start after `span.start` and end after `span.end` (see
    /// [`Token::bytes`]): byte-level pieces differ from their span by less than a character,
    /// so two small numbers keep the token the size it was.
    bytes_past: (i8, i8),
}

impl Token {
    /// A token whose form is its surface.
    pub fn new(span: Span, kind: TokenKind) -> Self {
        Token {
            span,
            rewritten: None,
            kind,
            origin: Origin::Engine,
            id: None,
            bytes_past: (0, 0),
        }
    }

    /// The input bytes the token encodes. A byte-level piece can hold part of a UTF-8
    /// character, which `span` cannot say (spans stay on character boundaries, the piece
    /// holding a character's last byte owning it): here `<0xF0><0x9F>` covers the first two
    /// bytes of `👨`, and the pieces of a text tile its bytes. For every other token it is
    /// `span`.
    ///
    /// ```
    /// use toklab::{Span, Token, TokenKind};
    /// let piece = Token::new(Span::new(9, 9), TokenKind::Subword).with_bytes(Span::new(9, 11));
    /// assert_eq!(piece.bytes(), Span::new(9, 11));
    /// assert_eq!(piece.span, Span::new(9, 9));
    /// ```
    pub fn bytes(&self) -> Span {
        let at = |base: usize, past: i8| base.saturating_add_signed(isize::from(past));
        let start = at(self.span.start, self.bytes_past.0);
        Span::new(start, at(self.span.end, self.bytes_past.1).max(start))
    }

    /// The token with its exact input bytes set (set `span` first: they are kept relative to
    /// it). A range further than 127 bytes from the span is not a piece of a character and
    /// is not kept: the bytes stay the span's.
    pub fn with_bytes(mut self, bytes: Span) -> Self {
        self.set_bytes(bytes);
        self
    }

    /// Sets the exact input bytes, as [`Token::with_bytes`] does.
    pub fn set_bytes(&mut self, bytes: Span) {
        let past = |byte: usize, base: usize| i8::try_from(byte as isize - base as isize).ok();
        self.bytes_past = match (
            past(bytes.start, self.span.start),
            past(bytes.end, self.span.end),
        ) {
            (Some(start), Some(end)) => (start, end),
            _ => (0, 0),
        };
    }

    /// Moves the token to `span`, keeping the input bytes it encodes.
    pub fn set_span(&mut self, span: Span) {
        let bytes = self.bytes();
        self.span = span;
        self.set_bytes(bytes);
    }

    /// The token moved `offset` bytes later, with the bytes it encodes: a token of a piece of a
    /// text as a token of the whole text ([`crate::core::pieces`]).
    pub fn shifted(mut self, offset: usize) -> Self {
        self.span = Span::new(self.span.start + offset, self.span.end + offset);
        self
    }

    /// The token with its provenance set.
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// The token with an output form that differs from its surface.
    pub fn with_form(mut self, form: impl Into<Box<str>>) -> Self {
        self.rewritten = Some(form.into());
        self
    }

    /// The token with its vocabulary id set.
    pub fn with_id(mut self, id: u32) -> Self {
        self.id = Some(id);
        self
    }

    /// The form the engine outputs: the rewritten form if any, else the surface in `text`.
    pub fn form<'a>(&'a self, text: &'a str) -> &'a str {
        match &self.rewritten {
            Some(form) => form,
            None => self.span.slice(text),
        }
    }

    /// The original text the token covers (its form may differ).
    pub fn surface<'a>(&self, text: &'a str) -> &'a str {
        self.span.slice(text)
    }
}

/// An engine's whole answer for one text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokenization {
    /// The tokens, in text order, never overlapping.
    pub tokens: Vec<Token>,
    /// Indices into `tokens` of the last token of each sentence, ascending. Engines without
    /// sentence detection leave it empty; [`Tokenization::sentences`] then treats the whole
    /// text as one sentence, as Datok does at the end of a text.
    pub sentence_ends: Vec<usize>,
}

impl Tokenization {
    /// A tokenization with no sentence ends marked (the whole text is one sentence).
    pub fn new(tokens: Vec<Token>) -> Self {
        Tokenization {
            tokens,
            sentence_ends: Vec::new(),
        }
    }

    /// Where the engine gave up on the text, if it did: the first such token (an
    /// [`Origin::GaveUp`] token, or one whose provenance says [`Provenance::gave_up`]), so
    /// every caller reports both the same way.
    pub fn gave_up(&self) -> Option<GaveUp> {
        self.tokens.iter().find_map(|t| match &t.origin {
            Origin::GaveUp { reason } => Some(GaveUp {
                span: t.span,
                reason,
                as_reference: false,
            }),
            Origin::Detail(detail) => detail.gave_up().map(|reason| GaveUp {
                span: t.span,
                reason,
                as_reference: true,
            }),
            _ => None,
        })
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The tokens in text order, so a caller reads `tokenization.iter()` rather than reaching
    /// into the field.
    pub fn iter(&self) -> std::slice::Iter<'_, Token> {
        self.tokens.iter()
    }

    /// The output form of every token of `text` (the text this tokenization was made of), in
    /// order: what most callers want first, and what a test compares against.
    ///
    /// ```
    /// let text = "Don't stop";
    /// let tokens = toklab::load("ptb").unwrap().tokenize(text);
    /// assert_eq!(tokens.forms(text), ["Do", "n't", "stop"]);
    /// ```
    pub fn forms<'a>(&'a self, text: &'a str) -> Vec<&'a str> {
        self.tokens.iter().map(|t| t.form(text)).collect()
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Whether token `index` ends a sentence (the last token always does, as in Datok).
    pub fn ends_sentence(&self, index: usize) -> bool {
        index + 1 == self.tokens.len() || self.sentence_ends.binary_search(&index).is_ok()
    }

    /// Token index ranges of the sentences, the last one closed at the end of the text.
    pub fn sentence_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges = Vec::new();
        let mut first = 0;
        for index in 0..self.tokens.len() {
            if self.ends_sentence(index) {
                ranges.push(first..index + 1);
                first = index + 1;
            }
        }
        ranges
    }

    /// Byte spans of the sentences: from the start of the first token to the end of the last.
    pub fn sentences(&self) -> Vec<Span> {
        self.sentence_ranges()
            .into_iter()
            .map(|r| {
                Span::new(
                    self.tokens[r.start].span.start,
                    self.tokens[r.end - 1].span.end,
                )
            })
            .collect()
    }

    /// Checks the invariants every engine promises: spans ordered, non-overlapping, inside the
    /// text and on char boundaries; sentence ends valid. Used by tests and debug builds.
    pub fn check(&self, text: &str) -> Result<(), SpanError> {
        let mut previous_end = 0;
        for (index, token) in self.tokens.iter().enumerate() {
            let Span { start, end } = token.span;
            if start > end || end > text.len() {
                return Err(SpanError::OutsideText {
                    index,
                    span: token.span,
                    text_len: text.len(),
                });
            }
            if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                return Err(SpanError::NotOnCharBoundaries {
                    index,
                    span: token.span,
                });
            }
            if start < previous_end {
                return Err(SpanError::Overlap {
                    index,
                    span: token.span,
                    previous_end,
                });
            }
            previous_end = end;
        }
        let mut previous = None;
        for &end in &self.sentence_ends {
            if end >= self.tokens.len() || previous.is_some_and(|p| p >= end) {
                return Err(SpanError::SentenceEnd {
                    end,
                    tokens: self.tokens.len(),
                });
            }
            previous = Some(end);
        }
        Ok(())
    }
}

/// `for token in &tokenization`, as for the slice of tokens.
impl<'a> IntoIterator for &'a Tokenization {
    type Item = &'a Token;
    type IntoIter = std::slice::Iter<'a, Token>;

    fn into_iter(self) -> Self::IntoIter {
        self.tokens.iter()
    }
}

/// A broken promise of the span model, found by [`Tokenization::check`]: which token (or
/// sentence end) breaks it and how, so a failing property test names the culprit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpanError {
    /// A span runs backwards or past the end of the text.
    #[error("token {index}: span {span} outside text of {text_len} bytes")]
    OutsideText {
        /// The token's index.
        index: usize,
        /// Its span.
        span: Span,
        /// The text's length in bytes.
        text_len: usize,
    },
    /// A span starts or ends inside a UTF-8 character.
    #[error("token {index}: span {span} not on char boundaries")]
    NotOnCharBoundaries {
        /// The token's index.
        index: usize,
        /// Its span.
        span: Span,
    },
    /// A span starts before the previous token ends.
    #[error("token {index}: span {span} overlaps the previous token ending at {previous_end}")]
    Overlap {
        /// The token's index.
        index: usize,
        /// Its span.
        span: Span,
        /// Where the previous token ends.
        previous_end: usize,
    },
    /// A sentence end past the last token or not after the previous one.
    #[error("sentence end {end} invalid for {tokens} tokens")]
    SentenceEnd {
        /// The token index given as a sentence end.
        end: usize,
        /// How many tokens there are.
        tokens: usize,
    },
}

#[cfg(test)]
#[path = "token_tests.rs"]
mod tests;
