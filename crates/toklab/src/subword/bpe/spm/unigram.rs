//! SentencePiece unigram models: the best segmentation by total piece score (Viterbi), as
//! SentencePiece computes it — user-defined pieces scored by length, unused pieces left out,
//! an unknown character scored 10 below the lowest piece, runs of unknowns fused.

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

impl Unigram {
    pub fn new(pieces: &[ProtoPiece], _vocab: &Vocab) -> Unigram {
        let normal = pieces.iter().filter(|p| p.kind == PieceType::Normal);
        let max_score = normal.clone().map(|p| p.score).fold(f32::MIN, f32::max);
        let min_score = normal.map(|p| p.score).fold(f32::MAX, f32::min);
        Unigram {
            scores: pieces.iter().map(|p| p.score).collect(),
            kinds: pieces.iter().map(|p| p.kind).collect(),
            max_len: pieces.iter().map(|p| p.piece.len()).max().unwrap_or(1),
            max_score,
            min_score,
        }
    }

    /// Appends the best segmentation of `text` (a segment starting at `base` of the normalized
    /// text) to `out`.
    pub fn encode(&self, model: &SpmModel, text: &str, base: usize, out: &mut Vec<SpmToken>) {
        let unk = model
            .bpe
            .unk
            .expect("SentencePiece models have an unknown piece");
        let n = text.len();
        // best[i]: score of the best segmentation of text[..i], the last token and its start.
        let mut best: Vec<(f64, u32, usize)> = vec![(f64::NEG_INFINITY, unk, 0); n + 1];
        best[0].0 = 0.0;
        for (i, c) in text.char_indices() {
            let here = best[i].0;
            if here == f64::NEG_INFINITY {
                continue;
            }
            let mut single_char = false;
            // Every end j of a candidate piece: the character boundaries after i, up to max_len.
            let ends = text[i..]
                .char_indices()
                .skip(1)
                .map(|(k, _)| i + k)
                .chain(std::iter::once(n))
                .take_while(|&j| j - i <= self.max_len);
            for j in ends {
                let Some(id) = model.bpe.vocab.id(&text.as_bytes()[i..j]) else {
                    continue;
                };
                let score = match self.kinds[id as usize] {
                    PieceType::Normal => self.scores[id as usize],
                    PieceType::UserDefined => (j - i) as f32 * self.max_score - 0.1,
                    _ => continue,
                };
                if j == i + c.len_utf8() {
                    single_char = true;
                }
                let total = here + f64::from(score);
                if total > best[j].0 {
                    best[j] = (total, id, i);
                }
            }
            if !single_char {
                let j = i + c.len_utf8();
                let total = here + f64::from(self.min_score - UNK_PENALTY);
                if total > best[j].0 {
                    best[j] = (total, unk, i);
                }
            }
        }
        let mut tokens = Vec::new();
        let mut at = n;
        while at > 0 {
            let (_, id, start) = best[at];
            match tokens.last_mut() {
                Some(SpmToken {
                    id: last, start: s, ..
                }) if *last == unk && id == unk => {
                    *s = base + start;
                }
                _ => tokens.push(SpmToken {
                    id,
                    start: base + start,
                    end: base + at,
                }),
            }
            at = start;
        }
        out.extend(tokens.into_iter().rev());
    }
}
