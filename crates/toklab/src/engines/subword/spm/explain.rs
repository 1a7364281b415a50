//! The trace of a SentencePiece encoding, in the shape every BPE trace has: the normalized
//! text, then per stretch between user-defined pieces the merge steps under both semantics
//! (over the normalized text, each step's span mapped back to the original text), what
//! followed the merges (byte fallback, the unknown piece, unused pieces split back), and the
//! tokens.

use super::proto::PieceType;
use super::{SpmModel, SpmToken, SpmTokenizer};
use crate::core::token::Span;
use crate::core::trace::quote;
use crate::core::trace::render_bytes;
use crate::engines::subword::bpe::tokenizer::unknown_notes;
use crate::engines::subword::bpe::trace::{BpeTrace, PieceTrace, keeps_steps};

impl SpmModel {
    /// How the model encodes `text`, piece by piece.
    pub fn explain(&self, text: &str) -> BpeTrace {
        let normalized = self.normalizer.normalize(text);
        let norm = normalized.normalized();
        let to_original = |at: usize| normalized.original_offset(at);
        let mut pieces = Vec::new();
        let mut omitted_pieces = 0;
        self.segments(norm, &mut |start, end, user| {
            // Each piece is a line at least: past the trace's cap, only count them.
            if pieces.len() >= crate::core::trace::MAX_TRACE_LINES {
                omitted_pieces += 1;
                return;
            }
            let mut tokens = Vec::new();
            match user {
                Some(id) => tokens.push(SpmToken { id, start, end }),
                None => self.encode_segment(norm, start, end, &mut tokens),
            }
            let span = Span::new(to_original(start), to_original(end));
            let word = &norm.as_bytes()[start..end];
            let merged = user.is_none() && self.unigram.is_none();
            let steps_left_out = merged && !keeps_steps(end - start);
            let steps = (merged && !steps_left_out).then(|| {
                self.bpe.formal().word_steps(
                    word,
                    span,
                    Some((start..=end).map(to_original).collect()),
                    self.bpe.semantics,
                )
            });
            let mut notes = Vec::new();
            if let Some(steps) = &steps {
                let result = &steps.derivation.result;
                notes = unknown_notes(&self.bpe, word, result);
                let mut at = 0;
                for &e in result {
                    let unused = self
                        .bpe
                        .vocab
                        .id(&word[at..e])
                        .is_some_and(|id| self.pieces.kind(id as usize) == PieceType::Unused);
                    if unused {
                        notes.push(format!(
                            "{} is an unused piece: SentencePiece splits it back into the pieces that made it",
                            quote(&render_bytes(&word[at..e]))
                        ));
                    }
                    at = e;
                }
            }
            pieces.push(PieceTrace {
                span,
                alternative: match (user, &self.unigram) {
                    (Some(_), _) => "user-defined",
                    (None, Some(_)) => "unigram: the best total score",
                    (None, None) => "normalized text",
                },
                special: user.is_some(),
                whole_piece: None,
                steps,
                steps_left_out,
                notes,
                tokens: tokens
                    .iter()
                    .map(|t| {
                        let token = self.token(text, &normalized, t);
                        (token.form(text).to_string(), token.id, token.span)
                    })
                    .collect(),
            });
        });
        BpeTrace {
            normalized: Some(norm.to_string()),
            pieces,
            omitted_pieces,
        }
    }
}

impl SpmTokenizer {
    /// The normalized text, then each piece with its merge steps (BPE) and tokens.
    pub fn trace(&self, text: &str) -> BpeTrace {
        self.model.explain(text)
    }
}
