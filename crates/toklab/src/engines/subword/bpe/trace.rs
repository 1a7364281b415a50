//! The explanation of a BPE encoding: per piece, what cut it (the pre-tokenizer alternative, a
//! special token, SentencePiece's user-defined pieces), the merge steps under both formal
//! semantics and where they part ([`WordSteps`], the one step representation the workbench's
//! merges view also replays), what the model adds around the merges (a whole-piece lookup,
//! byte fallback, the unknown token, SentencePiece's unused pieces), and the tokens with ids.

use crate::core::token::Span;
use crate::core::trace::{
    MAX_TRACE_LINES, Role, Trace, TraceLine, WordSteps, omitted_items, quote,
};

/// Every piece of the text, in order.
#[derive(Clone, Debug)]
pub struct BpeTrace {
    /// The text the model merged, when it normalizes first (SentencePiece).
    pub normalized: Option<String>,
    /// The pieces in text order: the first [`MAX_TRACE_LINES`] of them.
    pub pieces: Vec<PieceTrace>,
    /// Pieces after those, counted but not traced (a trace keeps what is shown).
    pub omitted_pieces: usize,
}

/// One piece: where it is, what made it a piece, its merge steps and the tokens it became.
#[derive(Clone, Debug)]
pub struct PieceTrace {
    /// The piece in the original text.
    pub span: Span,
    /// The pre-tokenizer alternative that matched, `special`, `user-defined`, …
    pub alternative: &'static str,
    /// A special token (or user-defined piece): one token, no merges.
    pub special: bool,
    /// Set when the whole piece was found in the vocabulary and taken without merging
    /// (tiktoken does this); the steps then show what merging alone does.
    pub whole_piece: Option<u32>,
    /// The merge steps under both semantics; `None` for special tokens, unigram models and
    /// pieces too long to keep them for ([`keeps_steps`]).
    pub steps: Option<WordSteps>,
    /// Set when the piece is too long for its merge steps to be kept.
    pub steps_left_out: bool,
    /// What happened after merging, one line each (byte fallback, unknown runs, unused pieces).
    pub notes: Vec<String>,
    /// Form, id and span of each resulting token.
    pub tokens: Vec<(String, Option<u32>, Span)>,
}

/// The longest piece (in bytes) whose merge steps a trace derives and keeps: any piece of at
/// most [`MAX_TRACE_LINES`] characters. A longer one has hundreds of thousands of steps, which
/// the trace's lines cannot hold and nobody replays one by one, and deriving them under both
/// semantics took ~300 bytes a byte (a 1 MB SentencePiece line is one piece).
pub const MAX_STEPS_PIECE_BYTES: usize = 4 * MAX_TRACE_LINES;

/// Whether the merge steps of a piece of `len` bytes are derived and kept.
pub fn keeps_steps(len: usize) -> bool {
    len <= MAX_STEPS_PIECE_BYTES
}

impl BpeTrace {
    /// The words with merge steps, for the workbench's merges view.
    pub fn words(&self) -> impl Iterator<Item = &WordSteps> {
        self.pieces.iter().filter_map(|p| p.steps.as_ref())
    }

    /// The trace as `explain` returns it: the lines, and the words for the merges view.
    pub fn into_trace(self, text: &str) -> Trace {
        let lines = self.lines(text);
        let left_out = self.pieces.iter().filter(|p| p.steps_left_out).count();
        let words = self.pieces.into_iter().filter_map(|p| p.steps).collect();
        Trace::with_merges(lines, words).with_merges_left_out(left_out)
    }

    /// The trace as display lines: a line per piece, then its merge steps (each line's span
    /// the text the merged token covers, widened to whole characters), what followed, and the
    /// tokens.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        if let Some(normalized) = &self.normalized {
            lines.push(
                TraceLine::new(0, None)
                    .part(Role::Label, "normalized ")
                    .part(Role::Token, quote(normalized)),
            );
        }
        let mut shown = 0;
        for piece in &self.pieces {
            // A piece takes a head, a line per merge step and a tokens line at least: one
            // that cannot fit is left out whole below anyway, so its lines are not built (a
            // SentencePiece line is one piece, with a step per merge of the whole line).
            let at_least = match &piece.steps {
                _ if piece.steps_left_out => MAX_TRACE_LINES + 1,
                steps => 2 + steps.as_ref().map_or(0, |s| s.derivation.steps.len()),
            };
            if lines.len() >= MAX_TRACE_LINES || lines.len() + at_least > MAX_TRACE_LINES {
                break;
            }
            shown += 1;
            let mut head = TraceLine::new(0, Some(piece.span))
                .part(
                    Role::Label,
                    if piece.special { "special " } else { "piece " },
                )
                .part(Role::Detail, format!("{:>9} ", piece.span.to_string()))
                .part(Role::Token, quote(piece.span.slice(text)))
                .part(Role::Detail, format!("  {}", piece.alternative));
            if let Some(steps) = &piece.steps {
                head = head.part(Role::Detail, format!(" · {}", steps.summary()));
            }
            lines.push(head);
            if let Some(id) = piece.whole_piece {
                let reached = piece
                    .steps
                    .as_ref()
                    .is_some_and(|s| s.derivation.result.len() == 1);
                lines.push(
                    TraceLine::new(1, Some(piece.span))
                        .part(Role::Label, "lookup ")
                        .part(Role::Plain, "the whole piece is token ")
                        .part(Role::Detail, id.to_string())
                        .part(
                            Role::Plain,
                            if reached {
                                ", taken without merging; the merges reach it too:"
                            } else {
                                ", taken without merging; merging alone would not reach it:"
                            },
                        ),
                );
            }
            if let Some(steps) = &piece.steps {
                lines.extend(steps.step_lines(text, 1));
            }
            for note in &piece.notes {
                lines.push(
                    TraceLine::new(1, Some(piece.span))
                        .part(Role::Label, "then ")
                        .part(Role::Plain, note.clone()),
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
        if lines.len() > MAX_TRACE_LINES {
            // The last piece shown ran past the cap: it is left out whole.
            while lines.len() > MAX_TRACE_LINES || lines.last().is_some_and(|l| l.depth > 0) {
                lines.pop();
            }
            lines.pop();
            shown -= 1;
        }
        let more = self.omitted_pieces + self.pieces.len() - shown;
        if more > 0 {
            lines.push(omitted_items(more, "pieces"));
        }
        lines
    }
}
