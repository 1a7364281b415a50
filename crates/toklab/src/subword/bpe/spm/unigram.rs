//! SentencePiece unigram models: the best segmentation by total piece score (Viterbi), as
//! SentencePiece computes it — user-defined pieces scored by length, unused pieces left out,
//! an unknown character scored 10 below the lowest piece, runs of unknowns fused (and spelled
//! in byte pieces when the model has byte fallback).
//!
//! The best path is found as SentencePiece's `EncodeOptimized` finds it: one pass over the
//! start positions, each candidate piece updating the best path ending where it ends when its
//! total is strictly greater (so among equal totals the earliest start wins), with every total
//! a `f32` sum. Where piece scores are exact multiples (runs of `a`, of `▁`: `▁▁▁▁` scores four
//! `▁`) which equal-looking paths win is decided by `f32` rounding of the growing totals, so
//! `f64` sums choose differently.

use super::proto::{PieceType, ProtoPiece};
use super::{SpmModel, SpmToken};
use crate::subword::bpe::vocab::Vocab;

/// What the lattice needs besides the vocabulary.
pub struct Unigram {
    scores: Vec<f32>,
    kinds: Vec<PieceType>,
    max_len: usize,
    max_score: f32,
    min_score: f32,
}

const UNK_PENALTY: f32 = 10.0;

/// A candidate piece over `start..end` of the text.
pub(super) struct Node {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) id: u32,
    pub(super) score: f32,
}

impl Unigram {
    pub fn new(pieces: &[ProtoPiece], _vocab: &Vocab) -> Unigram {
        let normal = pieces.iter().filter(|p| p.kind == PieceType::Normal);
        // SentencePiece starts the maximum at FLT_MIN, the smallest *positive* float, so with
        // the usual all-negative scores user-defined pieces score `length × FLT_MIN − 0.1`.
        let max_score = normal
            .clone()
            .map(|p| p.score)
            .fold(f32::MIN_POSITIVE, f32::max);
        let min_score = normal.map(|p| p.score).fold(f32::MAX, f32::min);
        Unigram {
            scores: pieces.iter().map(|p| p.score).collect(),
            kinds: pieces.iter().map(|p| p.kind).collect(),
            max_len: pieces.iter().map(|p| p.piece.len()).max().unwrap_or(1),
            max_score,
            min_score,
        }
    }

    /// The candidate pieces starting at byte `i` of `text` (first character `c`); the unknown
    /// piece when no piece covers `c` alone.
    pub(super) fn candidates(
        &self,
        model: &SpmModel,
        text: &str,
        i: usize,
        c: char,
        unk: u32,
    ) -> Vec<Node> {
        let mut nodes = Vec::new();
        let mut single_char = false;
        let ends = text[i..]
            .char_indices()
            .skip(1)
            .map(|(k, _)| i + k)
            .chain(std::iter::once(text.len()))
            .take_while(|&j| j - i <= self.max_len);
        for j in ends {
            let Some(id) = model.bpe.vocab.id(&text.as_bytes()[i..j]) else {
                continue;
            };
            // Computed in double (the C++ `- 0.1` is a double), added as a float.
            let score = match self.kinds[id as usize] {
                PieceType::Normal => self.scores[id as usize],
                PieceType::UserDefined => ((j - i) as f64 * f64::from(self.max_score) - 0.1) as f32,
                _ => continue,
            };
            single_char |= j == i + c.len_utf8();
            nodes.push(Node {
                start: i,
                end: j,
                id,
                score,
            });
        }
        if !single_char {
            let score = self.min_score - UNK_PENALTY;
            nodes.push(Node {
                start: i,
                end: i + c.len_utf8(),
                id: unk,
                score,
            });
        }
        nodes
    }

    /// Appends the best segmentation of `text` (a segment starting at `base` of the normalized
    /// text) to `out`.
    pub fn encode(&self, model: &SpmModel, text: &str, base: usize, out: &mut Vec<SpmToken>) {
        let unk = model
            .bpe
            .unk
            .expect("SentencePiece models have an unknown piece");
        let n = text.len();
        // best[j]: the best total of a path over text[..j], its last piece and that piece's start.
        let mut best: Vec<Option<(f32, u32, usize)>> = vec![None; n + 1];
        best[0] = Some((0.0, unk, 0));
        for (i, c) in text.char_indices() {
            let Some((here, _, _)) = best[i] else {
                continue;
            };
            for node in self.candidates(model, text, i, c, unk) {
                let total = here + node.score;
                if best[node.end].is_none_or(|(b, _, _)| total > b) {
                    best[node.end] = Some((total, node.id, node.start));
                }
            }
        }
        let mut path = Vec::new();
        let mut at = n;
        while at > 0 {
            let (_, id, start) = best[at].expect("every character boundary is reached");
            path.push((start, at, id));
            at = start;
        }
        path.reverse();
        self.emit(model, text, base, &path, out);
    }

    /// Appends the tokens of a path of pieces `(start, end, id)` over `text` (a segment starting
    /// at `base`) to `out` as SentencePiece outputs them: runs of unknowns fused into one, then
    /// spelled in byte pieces when the model has byte fallback. Shared by the best path, the
    /// n-best paths and sampled paths.
    pub(super) fn emit(
        &self,
        model: &SpmModel,
        text: &str,
        base: usize,
        path: &[(usize, usize, u32)],
        out: &mut Vec<SpmToken>,
    ) {
        let unk = model.bpe.unk.unwrap_or(u32::MAX);
        let mut tokens: Vec<SpmToken> = Vec::with_capacity(path.len());
        for &(start, end, id) in path {
            match tokens.last_mut() {
                Some(last) if last.id == unk && id == unk => last.end = base + end,
                _ => tokens.push(SpmToken {
                    id,
                    start: base + start,
                    end: base + end,
                }),
            }
        }
        for token in tokens {
            match &model.bpe.byte_fallback {
                Some(bytes) if token.id == unk => {
                    out.extend((token.start..token.end).map(|at| SpmToken {
                        id: bytes[text.as_bytes()[at - base] as usize],
                        start: at,
                        end: at + 1,
                    }))
                }
                _ => out.push(token),
            }
        }
    }
}
