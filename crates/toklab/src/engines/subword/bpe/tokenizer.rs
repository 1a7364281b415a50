//! A [`BpeModel`] as a [`Tokenizer`]: tokens with ids, spans in the original text and the
//! exact piece bytes; `explain` gives the pieces and, per piece, the merge steps under both
//! semantics (`merges::WordSteps`) and what the model did around them; `retokenize` encodes
//! again only what an edit can change (`super::incremental`).
//!
//! **Spans of byte-level tokens.** A byte-level token can hold part of a UTF-8 character
//! (`é` may be split over two tokens). Spans stay on character boundaries and never overlap:
//! the token holding a character's *last* byte owns the whole character; a token that holds
//! no character's last byte gets an empty span where the character starts. The form of such a
//! token keeps its exact bytes: valid UTF-8 as text, other bytes as `<0xNN>`.

use std::path::PathBuf;
use std::sync::Arc;

use super::merge_loop::NO_ID;
use super::model::{BpeModel, Piece};
use super::trace::{BpeTrace, PieceTrace, keeps_steps};
use crate::core::token::{Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::render_bytes;
use crate::core::trace::{Trace, quote};

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

    /// The id of a token string as [`BpeModel::piece`] writes it.
    pub fn piece_id(&self, piece: &str) -> Option<u32> {
        self.model.piece_id(piece)
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

/// A token of a subword model: its kind (special, unknown or subword), id and merge rank, and
/// its form (`form`, rendered) when that is not the text under `span`.
pub(crate) fn subword_token(
    model: &BpeModel,
    text: &str,
    span: Span,
    id: u32,
    special: bool,
    form: &[u8],
) -> Token {
    let kind = if special {
        TokenKind::Special
    } else if id == NO_ID || Some(id) == model.unk {
        TokenKind::Unknown
    } else {
        TokenKind::Subword
    };
    let mut token = Token::new(span, kind);
    if id != NO_ID {
        token = token.with_id(id).with_origin(Origin::Subword {
            id,
            rank: model.rank_of_token(id),
        });
    }
    if form != span.slice(text).as_bytes() {
        token = token.with_form(render_bytes(form));
    }
    token
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
        let token = subword_token(model, text, span, symbol.id, piece.special, form_bytes)
            .with_bytes(Span::new(start, end));
        tokens.push(if piece.alternative == crate::engines::simple::GAVE_UP {
            token.with_origin(Origin::GaveUp {
                reason: crate::engines::simple::GAVE_UP,
            })
        } else {
            token
        });
    }
}

impl BpeTokenizer {
    /// Each piece with its merge steps, what followed them, and its tokens.
    pub fn trace(&self, text: &str) -> BpeTrace {
        explain(&self.model, text)
    }
}

impl Tokenizer for BpeTokenizer {
    /// The tokenizer itself: the views read its model (the unigram lesson, the merge table).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

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

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        self.model.cut_point(text, from)
    }

    fn explain(&self, text: &str) -> Trace {
        self.trace(text).into_trace(text)
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn retokenize(&self, old: &str, old_tokens: &Tokenization, new: &str) -> Tokenization {
        super::incremental::retokenize(&self.model, old, old_tokens, new)
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }

    /// The tokens' bytes, concatenated (special tokens as their text): exact for byte-level
    /// models (GPT-2, tiktoken), whose tokens are the bytes of the text.
    fn decode(&self, ids: &[u32]) -> crate::core::error::Result<String> {
        let bytes = self.model.decode(ids).map_err(|index| {
            crate::engines::subword::bytes::unknown_id(&self.name, ids[index], index)
        })?;
        crate::engines::subword::bytes::utf8(&self.name, bytes)
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.model.piece(id)
    }

    /// Token strings as [`BpeModel::piece`] writes them, through their ids and `decode`.
    fn detokenize(&self, tokens: &[&str]) -> crate::core::error::Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| self.piece_id(t))
    }
}

/// The trace of encoding `text`: each piece with its merge steps under both semantics (the
/// model's own shown, the other's parting point kept), what followed the merges, and its
/// tokens.
pub fn explain(model: &BpeModel, text: &str) -> BpeTrace {
    let formal = model.formal();
    let mut pieces = Vec::new();
    let mut omitted_pieces = 0;
    model.encode_pieces(text, &mut |piece| {
        // Each piece is a line at least: past the trace's cap, only count them.
        if pieces.len() >= crate::core::trace::MAX_TRACE_LINES {
            omitted_pieces += 1;
            return;
        }
        let mut tokens = Vec::new();
        piece_tokens(model, text, piece, &mut tokens);
        let steps_left_out = !piece.special && !keeps_steps(piece.bytes.len());
        let steps = (!piece.special && !steps_left_out).then(|| {
            let to_text = (piece.inserted > 0)
                .then(|| (0..=piece.bytes.len()).map(|x| piece.to_text(x)).collect());
            formal.word_steps(piece.bytes, piece.span, to_text, model.semantics)
        });
        let whole_piece = match (&steps, piece.symbols) {
            (Some(steps), [one])
                if model.whole_piece_first
                    && steps.derivation.initial.len() > 1
                    && model.vocab.id(piece.bytes) == Some(one.id) =>
            {
                Some(one.id)
            }
            _ => None,
        };
        let notes = match (&steps, whole_piece) {
            (Some(steps), None) => unknown_notes(model, piece.bytes, &steps.derivation.result),
            _ => Vec::new(),
        };
        pieces.push(PieceTrace {
            span: piece.span,
            alternative: piece.alternative,
            special: piece.special,
            whole_piece,
            steps,
            steps_left_out,
            notes,
            tokens: tokens
                .into_iter()
                .map(|t| (t.form(text).to_string(), t.id, t.span))
                .collect(),
        });
    });
    BpeTrace {
        normalized: None,
        pieces,
        omitted_pieces,
    }
}

/// What becomes of the tokens of `word` (ending at `ends`) that the vocabulary lacks: byte
/// fallback spells them in byte tokens, otherwise each run becomes the unknown token.
pub(crate) fn unknown_notes(model: &BpeModel, word: &[u8], ends: &[usize]) -> Vec<String> {
    let mut notes = Vec::new();
    let mut at = 0;
    for &end in ends {
        let token = &word[at..end];
        at = end;
        if model.vocab.id(token).is_some() {
            continue;
        }
        let shown = quote(&render_bytes(token));
        notes.push(match (&model.byte_fallback, model.unk) {
            (Some(bytes), _) => format!(
                "{shown} is not in the vocabulary: byte fallback spells it {}",
                token
                    .iter()
                    .map(|&b| format!("<0x{b:02X}>:{}", bytes[b as usize]))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            (None, Some(unk)) => format!(
                "{shown} is not in the vocabulary: the unknown token {unk} stands for it (one per run)"
            ),
            (None, None) => format!(
                "{shown} is not in the vocabulary, which has no unknown token: a token without id"
            ),
        });
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::bpe::merge_table::{Merge, MergeTable};
    use crate::engines::subword::bpe::model::Rules;
    use crate::engines::subword::bpe::vocab::Vocab;

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
    fn explain_gives_both_semantics_and_whole_characters() {
        let text = "xabé";
        let trace = explain(&bytes_model(), text);
        assert_eq!(trace.pieces.len(), 1);
        let steps = trace.pieces[0].steps.as_ref().unwrap();
        let step = &steps.derivation.steps[0];
        assert_eq!((step.rank, step.start, step.end), (0, 1, 3));
        assert_eq!(steps.other.as_ref().unwrap().parts_at, None);
        let trace = trace.into_trace(text);
        let lines = trace.lines();
        let shown = trace.to_text();
        assert_eq!(trace.merge_words().len(), 1);
        assert!(
            shown.contains("step   1 «a» ⟩ «b» → «ab»  rule #1 rank 0 at token 1"),
            "{shown}"
        );
        assert!(
            shown.contains("both semantics take the same steps"),
            "{shown}"
        );
        assert!(
            shown.contains("tokens «x»:120 «ab»:256 «<0xC3>»:195 «<0xA9>»:169"),
            "{shown}"
        );
        for line in lines {
            let span = line.span.unwrap();
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
    }
}
