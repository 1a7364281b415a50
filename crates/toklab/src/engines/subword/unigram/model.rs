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

use super::trie::PieceTrie;
use super::viterbi::{BestPath, Node, Resume, Search, Viterbi, best_path_resumed, find_cut};
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::engines::subword::spm::pieces::Pieces;
use crate::engines::subword::spm::proto::PieceType;
use crate::engines::subword::spm::{SpmModel, SpmToken};

/// What the lattice needs besides the vocabulary.
pub struct SpmUnigram {
    #[cfg(test)]
    scores: Vec<f32>,
    #[cfg(test)]
    kinds: Vec<PieceType>,
    /// The longest piece, in bytes: how far past a start the search looks.
    pub(crate) max_len: usize,
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

impl SpmUnigram {
    /// The lattice's pieces of a model: its normal and user-defined pieces.
    pub fn new(pieces: &Pieces) -> SpmUnigram {
        let min_score = pieces
            .iter()
            .filter(|p| p.kind == PieceType::Normal)
            .map(|p| p.score)
            .fold(f32::MAX, f32::min);
        let trie = PieceTrie::new((0..pieces.len()).filter_map(|id| {
            let bytes = pieces.bytes(id);
            let score = match pieces.kind(id) {
                PieceType::Normal => pieces.score(id),
                PieceType::UserDefined => user_defined_score(bytes.len()),
                _ => return None,
            };
            Some((bytes, id as u32, score))
        }));
        SpmUnigram::of(pieces, trie, min_score)
    }

    /// The model of `pieces` over its lattice's `trie` (and, in tests, what the hashing lattice
    /// they compare with reads of the pieces).
    fn of(pieces: &Pieces, trie: PieceTrie, min_score: f32) -> SpmUnigram {
        SpmUnigram {
            #[cfg(test)]
            scores: pieces.iter().map(|p| p.score).collect(),
            #[cfg(test)]
            kinds: pieces.iter().map(|p| p.kind).collect(),
            max_len: (0..pieces.len())
                .map(|id| pieces.bytes(id).len())
                .max()
                .unwrap_or(1),
            trie,
            min_score,
        }
    }

    /// Writes the lattice's pieces for [`SpmUnigram::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        self.trie.write_flat(w);
        w.u32(self.min_score.to_bits());
    }

    /// Reads what [`SpmUnigram::write_flat`] wrote for the model of `pieces`.
    pub fn read_flat(r: &mut FlatReader, pieces: &Pieces) -> Option<SpmUnigram> {
        let trie = PieceTrie::read_flat(r, pieces.len() as u32)?;
        let min_score = f32::from_bits(r.u32()?);
        Some(SpmUnigram::of(pieces, trie, min_score))
    }

    /// The pieces starting at byte `i` of `text` as the hashing lattice found them before the
    /// trie: a vocabulary lookup of every substring up to the longest piece. Kept as the
    /// reference the trie is tested against.
    #[cfg(test)]
    fn hashed_candidates(&self, model: &SpmModel, text: &str, lattice: &mut Search<f32>) {
        let i = lattice.start();
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

    /// How SentencePiece searches: `f32` totals, the unknown piece 10 below the lowest piece
    /// where no piece covers a character alone, totals shifted back past ±100,000.
    fn options(&self, model: &SpmModel, record: bool) -> Viterbi<f32> {
        let unk = model
            .bpe
            .unk
            .expect("SentencePiece models have an unknown piece");
        Viterbi {
            unknown: Some((unk, self.min_score - UNK_PENALTY)),
            reset: Some(SCORE_RESET),
            record,
        }
    }

    /// The best path over `text` with the pieces the trie offers, and every node offered when
    /// `record` (the whole lattice, for the n best paths, sampling and the lesson).
    pub(crate) fn search(&self, model: &SpmModel, text: &str, record: bool) -> BestPath<f32> {
        self.search_resumed(model, &Resume::at(0.0), text, record)
    }

    /// [`SpmUnigram::search`] of a piece of a longer text, taken up where `resume` says the
    /// whole text's search was at the piece's start.
    fn search_resumed(
        &self,
        model: &SpmModel,
        resume: &Resume<f32>,
        text: &str,
        record: bool,
    ) -> BestPath<f32> {
        best_path_resumed(
            resume,
            text,
            &self.options(model, record),
            self.candidates(text),
        )
        .expect("the unknown piece reaches every character boundary")
    }

    /// The pieces the trie offers at each start of `text`.
    fn candidates(&self, text: &str) -> impl FnMut(&mut Search<f32>) {
        move |search: &mut Search<f32>| {
            self.trie
                .prefixes(&text.as_bytes()[search.start()..], |length, id, score| {
                    search.offer(length, id, score)
                })
        }
    }

    /// Where the best paths over `text` (a piece's start, then a window of the text after
    /// it), searched from `resume`, meet at or after `from` at an offset `accept` allows
    /// ([`find_cut`]); starts are scanned up to `trusted`.
    pub fn meeting_cut(
        &self,
        model: &SpmModel,
        resume: &Resume<f32>,
        text: &str,
        from: usize,
        trusted: usize,
        accept: impl Fn(usize, u32) -> bool,
    ) -> Option<(usize, Resume<f32>)> {
        let options = self.options(model, false);
        find_cut(
            resume,
            text,
            &options,
            self.candidates(text),
            from,
            trusted,
            accept,
        )
    }

    #[cfg(test)]
    fn search_with(
        &self,
        model: &SpmModel,
        from: f32,
        text: &str,
        record: bool,
        candidates: impl FnMut(&mut Search<f32>),
    ) -> BestPath<f32> {
        best_path_resumed(
            &Resume::at(from),
            text,
            &self.options(model, record),
            candidates,
        )
        .expect("the unknown piece reaches every character boundary")
    }

    /// Every candidate piece of `text`, ordered by start, then shortest first.
    pub(crate) fn nodes(&self, model: &SpmModel, text: &str) -> Vec<Node<f32>> {
        self.search(model, text, true).nodes
    }

    /// Appends the best segmentation of `text` (a segment starting at `base` of the normalized
    /// text) to `out`.
    pub fn encode(&self, model: &SpmModel, text: &str, base: usize, out: &mut Vec<SpmToken>) {
        self.encode_resumed(model, &Resume::at(0.0), text, base, out);
    }

    /// [`SpmUnigram::encode`] of the part of a text after a cut every best path passes
    /// through, its search taken up where `resume` says the whole text's was there (the pieces
    /// on both sides of the cut are known, so no run of unknowns is fused across it); returns
    /// the total of the best path over `text`, which the part after it starts from when
    /// nothing spans their cut.
    pub fn encode_resumed(
        &self,
        model: &SpmModel,
        resume: &Resume<f32>,
        text: &str,
        base: usize,
        out: &mut Vec<SpmToken>,
    ) -> f32 {
        let path = self.search_resumed(model, resume, text, false);
        self.emit(model, text, base, &path.pieces, out);
        path.score
    }

    /// Appends the tokens of a path of pieces `(start, end, id)` over `text` (a segment starting
    /// at `base`) to `out` as SentencePiece outputs them: runs of unknowns fused into one, then
    /// spelled in byte pieces when the model has byte fallback. Shared by the best path, the
    /// n-best paths and sampled paths.
    pub(crate) fn emit(
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

    use super::*;
    use crate::engines::subword::spm::proto::{ModelProto, ModelType, NormalizerSpec, ProtoPiece};

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
        let path = unigram.search_with(model, 0.0, text, false, |lattice| {
            unigram.hashed_candidates(model, text, lattice)
        });
        unigram.emit(model, text, 3, &path.pieces, &mut hashed);
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
