//! A [`BpeModel`] as a [`Tokenizer`]: tokens with ids, spans in the original text and the
//! exact piece bytes; `explain` gives the pieces and, per piece, the merges in order.
//!
//! **Spans of byte-level tokens.** A byte-level token can hold part of a UTF-8 character
//! (`é` may be split over two tokens). Spans stay on character boundaries and never overlap:
//! the token holding a character's *last* byte owns the whole character; a token that holds
//! no character's last byte gets an empty span where the character starts. The form of such a
//! token keeps its exact bytes: valid UTF-8 as text, other bytes as `<0xNN>`.

use std::path::PathBuf;
use std::sync::Arc;

use super::merge::NO_ID;
use super::model::{BpeModel, Piece};
use super::trace::{BpeTrace, PieceTrace, StepTrace};
use crate::engine::{Tokenizer, Trace};
use crate::token::{Origin, Span, Token, TokenKind, Tokenization};

/// A loaded BPE model under a name, with what loading found.
pub struct BpeTokenizer {
    name: String,
    model: Arc<BpeModel>,
    warnings: Vec<String>,
    sources: Vec<PathBuf>,
}

impl BpeTokenizer {
    /// Wraps a model under a name (the spec), with the warnings and files of its loading.
    pub fn new(
        name: impl Into<String>,
        model: impl Into<Arc<BpeModel>>,
        warnings: Vec<String>,
        sources: Vec<PathBuf>,
    ) -> Self {
        BpeTokenizer {
            name: name.into(),
            model: model.into(),
            warnings,
            sources,
        }
    }

    /// The model, for views and analyses that need more than tokens (vocabulary, merge rules).
    pub fn model(&self) -> &Arc<BpeModel> {
        &self.model
    }
}

/// The largest char boundary at or before `at`.
pub(crate) fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Bytes for display: UTF-8 as text, anything else as `<0xNN>`.
pub fn render_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("<0x{b:02X}>"));
        }
    }
    out
}

/// The tokens of one piece, appended to `tokens`.
pub(crate) fn piece_tokens(model: &BpeModel, text: &str, piece: &Piece, tokens: &mut Vec<Token>) {
    for (i, symbol) in piece.symbols.iter().enumerate() {
        let (start, end) = piece.symbol_range(i);
        let span = Span::new(floor_boundary(text, start), floor_boundary(text, end));
        let exact = &text.as_bytes()[start..end];
        let form_bytes = match symbol.id {
            NO_ID => exact,
            id => model
                .vocab
                .bytes(id)
                .or_else(|| model.specials.text(id).map(str::as_bytes))
                .unwrap_or(exact),
        };
        let kind = if piece.special {
            TokenKind::Special
        } else if symbol.id == NO_ID || Some(symbol.id) == model.unk {
            TokenKind::Unknown
        } else {
            TokenKind::Subword
        };
        let mut token = Token::new(span, kind);
        if symbol.id != NO_ID {
            token = token.with_id(symbol.id).with_origin(Origin::Subword {
                id: symbol.id,
                rank: model.rank_of_token(symbol.id),
            });
        }
        if form_bytes != span.slice(text).as_bytes() {
            token = token.with_form(render_bytes(form_bytes));
        }
        tokens.push(token);
    }
}

impl Tokenizer for BpeTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = Vec::with_capacity(text.len() / 3);
        self.model.encode_pieces(text, &mut |piece| {
            piece_tokens(&self.model, text, piece, &mut tokens);
        });
        Tokenization::new(tokens)
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::Bpe(explain(&self.model, text))
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }
}

/// The trace of encoding `text`: each piece with the merges applied to it, in order.
pub fn explain(model: &BpeModel, text: &str) -> BpeTrace {
    let mut pieces = Vec::new();
    let steps = std::cell::RefCell::new(Vec::new());
    let mut scratch = Vec::new();
    let form = |id: u32| {
        model
            .vocab
            .bytes(id)
            .map(render_bytes)
            .unwrap_or_else(|| "?".into())
    };
    model.encode_traced(
        text,
        &mut |step| steps.borrow_mut().push(step),
        &mut |piece| {
            let mut steps = steps.borrow_mut();
            let piece_text = std::str::from_utf8(piece.bytes).unwrap_or("");
            // A whole-piece hit skips the merges; replay them for the explanation.
            let shortcut = !piece.special
                && model.whole_piece_first
                && piece.symbols.len() == 1
                && steps.is_empty()
                && piece.bytes.len() > 1;
            if shortcut {
                let mut replay = |step| steps.push(step);
                model.initial_symbols(piece_text, &mut scratch);
                model.merge_symbols(piece.bytes, &mut scratch, &mut replay);
            }
            let map = |x: u32| {
                floor_boundary(
                    text,
                    piece.span.start + (x as usize).saturating_sub(piece.inserted),
                )
            };
            let mut tokens = Vec::new();
            piece_tokens(model, text, piece, &mut tokens);
            pieces.push(PieceTrace {
                span: piece.span,
                alternative: piece.alternative,
                special: piece.special,
                whole_piece: shortcut.then(|| piece.symbols[0].id),
                steps: steps
                    .drain(..)
                    .map(|step| {
                        let merged_len =
                            model.vocab.bytes(step.merged).map_or(0, <[u8]>::len) as u32;
                        StepTrace {
                            rank: step.rank,
                            left: form(step.left),
                            right: form(step.right),
                            merged: form(step.merged),
                            merged_id: step.merged,
                            offset: step.start as usize,
                            span: Span::new(map(step.start), map(step.start + merged_len)),
                        }
                    })
                    .collect(),
                tokens: tokens
                    .into_iter()
                    .map(|t| (t.form(text).to_string(), t.id, t.span))
                    .collect(),
            });
        },
    );
    BpeTrace {
        normalized: None,
        pieces,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::merges::{Merge, MergeTable};
    use crate::bpe::model::Rules;
    use crate::bpe::vocab::Vocab;

    /// Every byte a token, plus one merge: `a` `b` → `ab`.
    fn bytes_model() -> BpeModel {
        let mut vocab = Vocab::default();
        for b in 0..=255u8 {
            vocab.insert(u32::from(b), &[b]).unwrap();
        }
        vocab.insert(256, b"ab").unwrap();
        let mut table = MergeTable::default();
        table.insert(
            u32::from(b'a'),
            u32::from(b'b'),
            Merge {
                rank: 0,
                merged: 256,
            },
        );
        BpeModel::new(vocab, Rules::Table(table))
    }

    #[test]
    fn the_token_with_the_last_byte_owns_the_character() {
        let tokenizer = BpeTokenizer::new("t", bytes_model(), vec![], vec![]);
        let text = "abé!";
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let shown: Vec<(Span, &str, Option<u32>)> = tokens
            .tokens
            .iter()
            .map(|t| (t.span, t.form(text), t.id))
            .collect();
        assert_eq!(
            shown,
            [
                (Span::new(0, 2), "ab", Some(256)),
                (Span::new(2, 2), "<0xC3>", Some(0xC3)),
                (Span::new(2, 4), "<0xA9>", Some(0xA9)),
                (Span::new(4, 5), "!", Some(u32::from(b'!'))),
            ]
        );
        assert_eq!(
            tokens.tokens[0].origin,
            Origin::Subword {
                id: 256,
                rank: Some(0)
            }
        );
    }

    #[test]
    fn explain_lists_merges_with_rank_and_position() {
        let text = "xab";
        let trace = explain(&bytes_model(), text);
        assert_eq!(trace.pieces.len(), 1);
        let step = &trace.pieces[0].steps[0];
        assert_eq!((step.rank, step.offset, step.span), (0, 1, Span::new(1, 3)));
        let shown = Trace::Bpe(trace).to_text(text);
        assert!(
            shown.contains("merge rank 0      «a» + «b» → «ab»  id 256 at byte 1"),
            "{shown}"
        );
    }
}
