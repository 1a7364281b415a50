//! The explanation of a BPE encoding: the pre-tokenizer's pieces and, per piece, the merges
//! in the order they were applied, with rank and position, then the resulting tokens.

use crate::engine::{Role, TraceLine, quote};
use crate::token::Span;

/// Every piece of the text, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpeTrace {
    /// The text the model merged, when it normalizes first (SentencePiece).
    pub normalized: Option<String>,
    pub pieces: Vec<PieceTrace>,
}

/// One piece: where it is, which pre-tokenizer alternative (or special token) made it, the
/// merges applied to it and the tokens it became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTrace {
    pub span: Span,
    pub alternative: &'static str,
    pub special: bool,
    /// Set when the whole piece was found in the vocabulary and taken without merging (tiktoken
    /// does this); the steps are then the merges that reach the same token.
    pub whole_piece: Option<u32>,
    pub steps: Vec<StepTrace>,
    /// Form, id and span of each resulting token.
    pub tokens: Vec<(String, Option<u32>, Span)>,
}

/// One merge: the rule (rank, the two parts, the result) and where it applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepTrace {
    pub rank: u32,
    pub left: String,
    pub right: String,
    pub merged: String,
    pub merged_id: u32,
    /// Byte offset of the merged pair within the piece.
    pub offset: usize,
    /// The original text the merged token covers.
    pub span: Span,
}

impl BpeTrace {
    /// The trace as display lines: a line per piece, an indented line per merge (its span is
    /// the text the merged token covers, so selecting it highlights the pair), then the tokens.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        if let Some(normalized) = &self.normalized {
            lines.push(
                TraceLine::new(0, None)
                    .part(Role::Label, "normalized ")
                    .part(Role::Token, quote(normalized)),
            );
        }
        for piece in &self.pieces {
            let head = TraceLine::new(0, Some(piece.span))
                .part(
                    Role::Label,
                    if piece.special { "special " } else { "piece " },
                )
                .part(Role::Detail, format!("{:>9} ", piece.span.to_string()))
                .part(Role::Token, quote(piece.span.slice(text)))
                .part(Role::Detail, format!("  {}", piece.alternative));
            lines.push(head);
            if let Some(id) = piece.whole_piece {
                lines.push(
                    TraceLine::new(1, Some(piece.span))
                        .part(Role::Label, "lookup ")
                        .part(Role::Plain, "the whole piece is token ")
                        .part(Role::Detail, id.to_string())
                        .part(
                            Role::Plain,
                            ", taken without merging; the merges reach it so:",
                        ),
                );
            }
            for step in &piece.steps {
                lines.push(
                    TraceLine::new(1, Some(step.span))
                        .part(Role::Label, "merge ")
                        .part(Role::Detail, format!("rank {:<6} ", step.rank))
                        .part(Role::Token, quote(&step.left))
                        .part(Role::Plain, " + ")
                        .part(Role::Token, quote(&step.right))
                        .part(Role::Plain, " → ")
                        .part(Role::Token, quote(&step.merged))
                        .part(
                            Role::Detail,
                            format!("  id {} at byte {}", step.merged_id, step.offset),
                        ),
                );
            }
            let mut result = TraceLine::new(1, Some(piece.span)).part(Role::Label, "tokens ");
            for (i, (form, id, _)) in piece.tokens.iter().enumerate() {
                if i > 0 {
                    result = result.part(Role::Plain, " ");
                }
                result = match id {
                    Some(id) => result
                        .part(Role::Token, quote(form))
                        .part(Role::Detail, format!(":{id}")),
                    None => result
                        .part(Role::Backtrack, quote(form))
                        .part(Role::Detail, ":unknown"),
                };
            }
            lines.push(result);
        }
        lines
    }
}
