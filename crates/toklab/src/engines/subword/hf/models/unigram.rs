//! `Unigram` in `tokenizer.json`: the best segmentation by total piece score, as the
//! reference's `encode_optimized` computes it. It differs from SentencePiece's own unigram
//! (`spm/unigram.rs`) in ways that change ids, so it is its own lattice: scores are summed
//! in f64, every piece (control and user-defined ones too) is a candidate with its file score,
//! the unknown score is 10 below the lowest score of all pieces, and byte fallback spells
//! each fused unknown run in `<0xNN>` pieces when all exist.

use std::path::Path;

use serde::Deserialize;

use super::{Piece, Steps, Tokens};
use crate::core::error::{Error, Result};
use crate::core::trace::quote;
use crate::engines::subword::bpe::load::line_of_key;
use crate::engines::subword::bpe::merge_loop::NO_ID;
use crate::engines::subword::hf::json::ModelJson;

/// How far below the lowest piece score an unknown character scores.
const UNK_PENALTY: f64 = 10.0;

/// A unigram vocabulary with scores.
pub struct Unigram {
    /// The vocabulary.
    pub tokens: Tokens,
    /// The unknown token.
    pub unk: Option<u32>,
    /// Score of each id.
    scores: Vec<f64>,
    /// The longest piece, in bytes.
    max_len: usize,
    /// Score of an unknown character.
    unk_score: f64,
    /// Spell unknown runs in byte pieces.
    byte_fallback: bool,
}

/// One entry of the vocabulary list: `[piece, score]`.
#[derive(Deserialize)]
struct Entry(String, f64);

/// The best path to a position: its score, where its last token starts and its id.
#[derive(Clone, Copy)]
struct Best {
    score: f64,
    start: Option<usize>,
    id: u32,
}

impl Unigram {
    /// Reads the model section of a Unigram model.
    pub fn from_json(
        path: &Path,
        text: &str,
        json: &ModelJson,
        warnings: &mut Vec<String>,
    ) -> Result<Unigram> {
        let entries: Vec<Entry> = serde_json::from_str(json.vocab.get()).map_err(|e| {
            Error::format(
                path,
                line_of_key(text, "vocab"),
                format!("model Unigram vocab: {e}"),
            )
        })?;
        let scores: Vec<f64> = entries.iter().map(|e| e.1).collect();
        let max_len = entries.iter().map(|e| e.0.len()).max().unwrap_or(1);
        let min_score = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let tokens = Tokens::from_entries(
            path,
            text,
            entries
                .into_iter()
                .enumerate()
                .map(|(id, e)| (e.0, id as u64)),
            false,
            warnings,
        )?;
        let unk = match json.unk_id {
            Some(id) if id as usize >= scores.len() => {
                return Err(Error::format(
                    path,
                    line_of_key(text, "unk_id"),
                    format!(
                        "model Unigram unk_id {id} is outside the vocabulary of {}",
                        scores.len()
                    ),
                ));
            }
            other => other.map(|id| id as u32),
        };
        Ok(Unigram {
            tokens,
            unk,
            scores,
            max_len,
            unk_score: min_score - UNK_PENALTY,
            byte_fallback: json.byte_fallback,
        })
    }

    /// The best segmentation of one pre-token.
    pub fn tokenize(&self, text: &str, out: &mut Vec<Piece>, mut steps: Option<&mut Steps>) {
        let n = text.len();
        let unk = self.unk.unwrap_or(NO_ID);
        let mut best = vec![
            Best {
                score: 0.0,
                start: None,
                id: unk
            };
            n + 1
        ];
        // The lattice's nodes, for the trace: (start, end, id, score).
        let mut nodes: Vec<(usize, usize, u32, f64)> = Vec::new();
        let tracing = steps.is_some();
        let mut start = 0;
        while start < n {
            let here = best[start].score;
            let width = text[start..].chars().next().map_or(1, char::len_utf8);
            let mut single = false;
            let mut end = start + width;
            while end <= n && end - start <= self.max_len {
                if let Some(id) = self.tokens.vocab.id(&text.as_bytes()[start..end]) {
                    if tracing {
                        nodes.push((start, end, id, self.scores[id as usize]));
                    }
                    let score = here + self.scores[id as usize];
                    let target = &mut best[end];
                    if target.start.is_none() || score > target.score {
                        *target = Best {
                            score,
                            start: Some(start),
                            id,
                        };
                    }
                    single |= end - start == width;
                }
                end += text[end..].chars().next().map_or(1, char::len_utf8);
            }
            if !single {
                if tracing {
                    nodes.push((start, start + width, unk, self.unk_score));
                }
                let score = here + self.unk_score;
                let target = &mut best[start + width];
                if target.start.is_none() || score > target.score {
                    *target = Best {
                        score,
                        start: Some(start),
                        id: unk,
                    };
                }
            }
            start += width;
        }
        // Back from the end; runs of unknown characters fuse into one token.
        let mut path: Vec<Piece> = Vec::new();
        let mut at = n;
        while at > 0 {
            let node = best[at];
            let from = node.start.unwrap_or(0);
            match path.last_mut() {
                Some(last) if node.id == unk && last.id == unk => last.start = from,
                _ => path.push(Piece {
                    id: node.id,
                    start: from,
                    end: at,
                }),
            }
            at = from;
        }
        path.reverse();
        if let Some(steps) = steps.as_deref_mut() {
            for (start, end, id, score) in &nodes {
                steps.note(
                    "node",
                    format!(
                        "[{start}..{end}] {}:{id} score {score:.4}",
                        quote(&text[*start..*end])
                    ),
                );
            }
            let shown: Vec<String> = path
                .iter()
                .map(|p| {
                    format!(
                        "{}:{} [{}..{}]",
                        quote(&text[p.start..p.end]),
                        p.id,
                        p.start,
                        p.end
                    )
                })
                .collect();
            steps.note(
                "viterbi",
                format!("best path, score {:.4}: {}", best[n].score, shown.join(" ")),
            );
        }
        for piece in path {
            if piece.id == unk && self.byte_fallback {
                let bytes = &text.as_bytes()[piece.start..piece.end];
                let ids: Option<Vec<u32>> = bytes
                    .iter()
                    .map(|b| self.tokens.vocab.id(format!("<0x{b:02X}>").as_bytes()))
                    .collect();
                if let Some(ids) = ids {
                    if let Some(steps) = steps.as_deref_mut() {
                        steps.note(
                            "then",
                            format!(
                                "byte fallback spells {} in {} byte pieces",
                                quote(&text[piece.start..piece.end]),
                                ids.len()
                            ),
                        );
                    }
                    // Each byte piece covers its own byte, so spans follow the byte-level
                    // convention (a character's last byte owns it) and placing n pieces costs
                    // n, not n times the run's length.
                    out.extend(ids.into_iter().enumerate().map(|(i, id)| Piece {
                        id,
                        start: piece.start + i,
                        end: piece.start + i + 1,
                    }));
                    continue;
                }
            }
            out.push(piece);
        }
    }
}
