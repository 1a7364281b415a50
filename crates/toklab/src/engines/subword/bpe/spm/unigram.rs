//! SentencePiece unigram models: the best segmentation by total piece score (Viterbi), as
//! SentencePiece (0.2.3) computes it — user-defined pieces scored by length, unused pieces left out,
//! an unknown character scored 10 below the lowest piece, runs of unknowns fused (and spelled
//! in byte pieces when the model has byte fallback).
//!
//! The best path is found as SentencePiece's `EncodeOptimized` finds it: one pass over the
//! start positions, each candidate piece updating the best path ending where it ends when its
//! total is strictly greater (so among equal totals the earliest start wins), with every total
//! a `f32` sum. Where piece scores are exact multiples (runs of `a`, of `▁`: `▁▁▁▁` scores four
//! `▁`) which equal-looking paths win is decided by `f32` rounding of the growing totals, so
//! `f64` sums choose differently. For the same reason the totals are shifted back to zero the
//! way SentencePiece shifts them when they pass ±100,000 on a long text.

use super::proto::{PieceType, ProtoPiece};
use super::trie::PieceTrie;
use super::{SpmModel, SpmToken};
use crate::engines::subword::bpe::vocab::Vocab;

/// What the lattice needs besides the vocabulary.
pub struct Unigram {
    #[cfg(test)]
    scores: Vec<f32>,
    #[cfg(test)]
    kinds: Vec<PieceType>,
    #[cfg(test)]
    max_len: usize,
    /// The pieces a path may use (normal and user-defined), with the score each adds.
    trie: PieceTrie,
    min_score: f32,
}

const UNK_PENALTY: f32 = 10.0;

/// Where SentencePiece shifts the running totals back to zero (`kScoreResetThreshold`).
const SCORE_RESET: f32 = 100_000.0;

/// A user-defined piece's score: positive and growing with its length in bytes, so it always
/// wins (SentencePiece 0.2.3's `GetUserDefinedScore`, a `float` of the `double` product).
fn user_defined_score(bytes: usize) -> f32 {
    (0.1 * (bytes as f64 - 1.0)) as f32
}

/// A candidate piece over `start..end` of the text, for the whole lattice (n-best, sampling,
/// the lesson).
pub(super) struct Node {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) id: u32,
    pub(super) score: f32,
}

/// The Viterbi lattice being filled: `best[j]` is the best total of a path over `text[..j]`,
/// its last piece and that piece's start; the rest describes the start being expanded.
struct Lattice {
    best: Vec<Option<(f32, u32, usize)>>,
    /// The best total reaching the start.
    here: f32,
    start: usize,
    /// The byte length of the character at the start.
    width: usize,
    /// Whether a piece covering that character alone was offered.
    single_char: bool,
    /// The furthest end any piece has reached: the totals a reset must shift.
    frontier: usize,
}

impl Lattice {
    /// A piece of `length` bytes from the start: kept where it ends when its total is strictly
    /// greater (so among equal totals the earliest start wins), as SentencePiece keeps it.
    #[inline]
    fn offer(&mut self, length: usize, id: u32, score: f32) {
        self.single_char |= length == self.width;
        self.offer_as(length, id, score);
    }

    #[inline]
    fn offer_as(&mut self, length: usize, id: u32, score: f32) {
        let total = self.here + score;
        let end = self.start + length;
        self.frontier = self.frontier.max(end);
        if self.best[end].is_none_or(|(b, _, _)| total > b) {
            self.best[end] = Some((total, id, self.start));
        }
    }
}

impl Unigram {
    pub fn new(pieces: &[ProtoPiece], _vocab: &Vocab) -> Unigram {
        let min_score = pieces
            .iter()
            .filter(|p| p.kind == PieceType::Normal)
            .map(|p| p.score)
            .fold(f32::MAX, f32::min);
        let trie = PieceTrie::new(pieces.iter().enumerate().filter_map(|(id, p)| {
            let score = match p.kind {
                PieceType::Normal => p.score,
                PieceType::UserDefined => user_defined_score(p.piece.len()),
                _ => return None,
            };
            Some((p.piece.as_bytes(), id as u32, score))
        }));
        Unigram {
            #[cfg(test)]
            scores: pieces.iter().map(|p| p.score).collect(),
            #[cfg(test)]
            kinds: pieces.iter().map(|p| p.kind).collect(),
            #[cfg(test)]
            max_len: pieces.iter().map(|p| p.piece.len()).max().unwrap_or(1),
            trie,
            min_score,
        }
    }

    /// The pieces starting at byte `i` of `text` as the hashing lattice found them before the
    /// trie: a vocabulary lookup of every substring up to the longest piece. Kept as the
    /// reference the trie is tested against.
    #[cfg(test)]
    fn hashed_candidates(&self, model: &SpmModel, text: &str, lattice: &mut Lattice) {
        let i = lattice.start;
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
            let score = match self.kinds[id as usize] {
                PieceType::Normal => self.scores[id as usize],
                PieceType::UserDefined => user_defined_score(j - i),
                _ => continue,
            };
            lattice.offer(j - i, id, score);
        }
    }

    /// The candidate pieces starting at byte `i` of `text` (first character `c`), shortest
    /// first, from the same trie the Viterbi search walks; the unknown piece when no piece
    /// covers `c` alone.
    pub(super) fn candidates(&self, text: &str, i: usize, c: char, unk: u32) -> Vec<Node> {
        let mut nodes = Vec::new();
        let mut single_char = false;
        self.trie
            .prefixes(&text.as_bytes()[i..], |length, id, score| {
                single_char |= length == c.len_utf8();
                nodes.push(Node {
                    start: i,
                    end: i + length,
                    id,
                    score,
                });
            });
        if !single_char {
            nodes.push(Node {
                start: i,
                end: i + c.len_utf8(),
                id: unk,
                score: self.min_score - UNK_PENALTY,
            });
        }
        nodes
    }

    /// Appends the best segmentation of `text` (a segment starting at `base` of the normalized
    /// text) to `out`.
    pub fn encode(&self, model: &SpmModel, text: &str, base: usize, out: &mut Vec<SpmToken>) {
        let bytes = text.as_bytes();
        self.viterbi(model, text, base, out, |lattice: &mut Lattice| {
            self.trie
                .prefixes(&bytes[lattice.start..], |length, id, score| {
                    lattice.offer(length, id, score)
                })
        });
    }

    /// The Viterbi search over the pieces `candidates` offers the lattice at each start
    /// (shortest first), the unknown piece added where no piece covers the start's character
    /// alone.
    fn viterbi(
        &self,
        model: &SpmModel,
        text: &str,
        base: usize,
        out: &mut Vec<SpmToken>,
        candidates: impl Fn(&mut Lattice),
    ) {
        let unk = model
            .bpe
            .unk
            .expect("SentencePiece models have an unknown piece");
        let n = text.len();
        let mut lattice = Lattice {
            best: vec![None; n + 1],
            here: 0.0,
            start: 0,
            width: 0,
            single_char: false,
            frontier: 0,
        };
        lattice.best[0] = Some((0.0, unk, 0));
        for (i, c) in text.char_indices() {
            let Some((mut here, _, _)) = lattice.best[i] else {
                continue;
            };
            if !(-SCORE_RESET..=SCORE_RESET).contains(&here) {
                let last = lattice.frontier.max(i);
                for (total, _, _) in lattice.best[i..=last].iter_mut().flatten() {
                    *total -= here;
                }
                here = 0.0;
            }
            (lattice.here, lattice.start, lattice.width) = (here, i, c.len_utf8());
            lattice.single_char = false;
            candidates(&mut lattice);
            if !lattice.single_char {
                let width = lattice.width;
                lattice.single_char = true;
                lattice.offer_as(width, unk, self.min_score - UNK_PENALTY);
            }
        }
        let best = lattice.best;
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::super::proto::{ModelProto, ModelType, NormalizerSpec};
    use super::*;

    /// A unigram model of `pieces` (text, score, user-defined?) after `<unk>`, `<s>`, `</s>`
    /// and, with byte fallback, the 256 byte pieces; a repeated text keeps its first entry.
    fn model(pieces: &[(String, f32, bool)], byte_fallback: bool) -> SpmModel {
        let piece = |piece: &str, score, kind| ProtoPiece {
            piece: piece.to_string(),
            score,
            kind,
        };
        let mut all = vec![
            piece("<unk>", 0.0, PieceType::Unknown),
            piece("<s>", 0.0, PieceType::Control),
            piece("</s>", 0.0, PieceType::Control),
        ];
        if byte_fallback {
            all.extend((0..=255u8).map(|b| piece(&format!("<0x{b:02X}>"), 0.0, PieceType::Byte)));
        }
        for (text, score, user) in pieces {
            if all.iter().all(|p| &p.piece != text) {
                let kind = if *user {
                    PieceType::UserDefined
                } else {
                    PieceType::Normal
                };
                all.push(piece(text, *score, kind));
            }
        }
        let proto = ModelProto {
            pieces: all,
            model_type: ModelType::Unigram,
            byte_fallback,
            treat_whitespace_as_suffix: false,
            normalizer: NormalizerSpec::default(),
        };
        SpmModel::from_proto(Path::new("test.model"), proto).expect("a valid model")
    }

    fn by_trie_and_by_hashing(model: &SpmModel, text: &str) -> (Vec<SpmToken>, Vec<SpmToken>) {
        let unigram = model.unigram.as_ref().expect("a unigram model");
        let (mut trie, mut hashed) = (Vec::new(), Vec::new());
        unigram.encode(model, text, 3, &mut trie);
        unigram.viterbi(model, text, 3, &mut hashed, |lattice| {
            unigram.hashed_candidates(model, text, lattice)
        });
        (trie, hashed)
    }

    #[test]
    fn trie_finds_the_pieces_hashing_found() {
        let pieces = [
            ("▁ab".to_string(), -1.0, false),
            ("a".to_string(), -2.0, false),
            ("b".to_string(), -2.0, false),
            ("ab".to_string(), -3.5, false),
            ("語é".to_string(), -1.0, true),
        ];
        let model = model(&pieces, true);
        let (trie, hashed) = by_trie_and_by_hashing(&model, "▁abab語é語z");
        assert_eq!(trie, hashed);
        assert_eq!(trie[0].id, 3 + 256);
        // `ab` (-3.5) beats `a` + `b` (-4); `語` alone and `z` are one unknown run, spelled in
        // bytes, 3 + 1 of them.
        assert_eq!(trie.iter().filter(|t| t.end - t.start == 1).count(), 4);
    }

    proptest! {
        #[test]
        fn trie_lattice_is_the_hashing_lattice(
            pieces in prop::collection::vec(
                ("[ab▁語é]{1,4}", prop_oneof![Just(-1.0f32), Just(-2.0), Just(-0.5), -8.0f32..0.0], prop::bool::weighted(0.1)),
                0..40,
            ),
            text in "[ab▁語éz]{0,30}",
            byte_fallback in any::<bool>(),
        ) {
            let model = model(&pieces, byte_fallback);
            let (trie, hashed) = by_trie_and_by_hashing(&model, &text);
            prop_assert_eq!(trie, hashed);
        }
    }
}
