//! The units the encoder merges one by one: the pre-tokenizer that cuts text into pieces, a
//! piece before merging ([`PreToken`]: what incremental re-tokenization cuts again in a
//! window) and a piece with the tokens it became ([`Piece`]: what tokens and traces are built
//! from).

use super::merge_loop::Symbol;
use crate::core::token::Span;
use crate::engines::simple::Matcher;

/// The pre-tokenizer: a named matcher, or none (the whole text is one piece).
pub struct PreTokenizer {
    /// `gpt2`, `cl100k`, `o200k`, `none`, or `regex …` for a `Split` pattern: for messages.
    pub name: String,
    /// `None` leaves the text in one piece.
    pub matcher: Option<Box<dyn Matcher>>,
}

impl PreTokenizer {
    /// One of the named patterns (`gpt2`, `r50k`, `p50k`, `cl100k`, `o200k`) or `none`.
    pub fn named(name: &str) -> Option<PreTokenizer> {
        if name == "none" {
            return Some(PreTokenizer::none());
        }
        Some(PreTokenizer {
            name: name.to_string(),
            matcher: Some(crate::engines::subword::pretok::matcher(name)?),
        })
    }

    /// No pre-tokenization: the whole text is one piece.
    pub fn none() -> PreTokenizer {
        PreTokenizer {
            name: "none".into(),
            matcher: None,
        }
    }
}

impl std::fmt::Debug for PreTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PreTokenizer({})", self.name)
    }
}

/// A piece of input the encoder merges as a unit: a pre-tokenizer piece or a special token.
#[derive(Clone, Copy, Debug)]
pub struct PreToken<'a> {
    /// The piece in the original text.
    pub span: Span,
    /// The bytes to merge: the piece, with an inserted leading space when the model adds one.
    pub bytes: &'a [u8],
    /// Bytes at the start of `bytes` that are not in the original text (0 or 1).
    pub inserted: usize,
    /// The pre-tokenizer alternative that matched, or `special`.
    pub alternative: &'static str,
    /// The id of a special token matched in the text.
    pub special: Option<u32>,
}

impl<'a> PreToken<'a> {
    /// The piece together with the tokens it became.
    pub fn with_symbols<'s>(&self, symbols: &'s [Symbol]) -> Piece<'s>
    where
        'a: 's,
    {
        Piece {
            span: self.span,
            bytes: self.bytes,
            inserted: self.inserted,
            alternative: self.alternative,
            symbols,
            special: self.special.is_some(),
        }
    }

    /// Where byte `x` of `bytes` is in the original text (an inserted space maps to the start).
    pub fn to_text(&self, x: usize) -> usize {
        self.span.start + x.saturating_sub(self.inserted)
    }
}

/// A piece of input the encoder handled as a unit, and the tokens it became.
#[derive(Debug)]
pub struct Piece<'a> {
    /// The piece in the original text.
    pub span: Span,
    /// The bytes that were merged: the piece, with an inserted leading space when the model
    /// adds one (`add_prefix_space`).
    pub bytes: &'a [u8],
    /// Bytes at the start of `bytes` that are not in the original text (0 or 1).
    pub inserted: usize,
    /// The pre-tokenizer alternative that matched, or `special`.
    pub alternative: &'static str,
    /// The tokens: ids (`NO_ID` for bytes the vocabulary lacks) and start offsets in `bytes`.
    pub symbols: &'a [Symbol],
    /// A special token matched in the text (one symbol, its id).
    pub special: bool,
}

impl Piece<'_> {
    /// The original-text byte range of symbol `i` (exact bytes, possibly inside a character).
    pub fn symbol_range(&self, i: usize) -> (usize, usize) {
        let end = self
            .symbols
            .get(i + 1)
            .map_or(self.bytes.len(), |s| s.start as usize);
        let start = self.symbols[i].start as usize;
        (self.to_text(start), self.to_text(end))
    }

    /// Where byte `x` of `bytes` is in the original text (an inserted space maps to the start).
    pub fn to_text(&self, x: usize) -> usize {
        self.span.start + x.saturating_sub(self.inserted)
    }
}
