//! `Unigram` in `tokenizer.json`: the best segmentation by total piece score, as the
//! reference's `encode_optimized` computes it, through the shared search of
//! [`crate::engines::subword::unigram::viterbi`]. It differs from SentencePiece's own unigram in
//! ways that change ids, all of them parameters of that search: scores are summed in f64 (no
//! reset), every piece (control and user-defined ones too) is a candidate with its file score,
//! the unknown score is 10 below the lowest score of all pieces, and byte fallback spells each
//! fused unknown run in `<0xNN>` pieces when all exist.

use std::path::Path;

use serde::Deserialize;

use super::{Piece, Steps, Tokens};
use crate::core::error::{Error, Result};
use crate::core::trace::quote;
use crate::engines::subword::bpe::load::line_of_key;
use crate::engines::subword::bpe::merge_loop::NO_ID;
use crate::engines::subword::hf::json::ModelJson;
use crate::engines::subword::unigram::viterbi::{
    Resume, Search, Viterbi, best_path_resumed, find_cut,
};

/// How far below the lowest piece score an unknown character scores.
const UNK_PENALTY: f64 = 10.0;

/// A unigram vocabulary with scores.
pub struct Unigram {
    /// The vocabulary.
    pub tokens: Tokens,
    /// The unknown token.
    pub unk: Option<u32>,
    /// Score of each id.
    pub(super) scores: Vec<f64>,
    /// The longest piece, in bytes.
    pub(crate) max_len: usize,
    /// Score of an unknown character.
    pub(super) unk_score: f64,
    /// Spell unknown runs in byte pieces.
    pub(super) byte_fallback: bool,
}

/// One entry of the vocabulary list: `[piece, score]`.
#[derive(Deserialize)]
struct Entry(String, f64);

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
    pub fn tokenize(&self, text: &str, out: &mut Vec<Piece>, steps: Option<&mut Steps>) {
        self.tokenize_resumed(&Resume::at(0.0), text, out, steps);
    }

    /// How the reference searches: `f64` totals, never shifted, the unknown piece (or no id)
    /// where no piece covers a character alone.
    fn options(&self, record: bool) -> Viterbi<f64> {
        Viterbi {
            unknown: Some((self.unk.unwrap_or(NO_ID), self.unk_score)),
            reset: None,
            record,
        }
    }

    /// The vocabulary's pieces at each start of `text`, shortest first.
    fn candidates<'a>(&'a self, text: &'a str) -> impl FnMut(&mut Search<f64>) + 'a {
        let bytes = text.as_bytes();
        move |search: &mut Search<f64>| {
            let start = search.start();
            let mut end = start + search.width();
            while end <= bytes.len() && end - start <= self.max_len {
                if let Some(id) = self.tokens.vocab.id(&bytes[start..end]) {
                    search.offer(end - start, id, self.scores[id as usize]);
                }
                end += text[end..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }

    /// Where the best paths over `text` (a pre-token, or its part after such a cut, searched
    /// from `resume`) meet at or after normalized offset `from`, after a known piece and where
    /// `accept` allows (the pipeline's own conditions); only starts before `trusted` are
    /// scanned. The cut and the state the search of the rest takes up ([`find_cut`]).
    pub fn meeting_cut(
        &self,
        resume: &Resume<f64>,
        text: &str,
        from: usize,
        trusted: usize,
        accept: impl Fn(usize) -> bool,
    ) -> Option<(usize, Resume<f64>)> {
        let unk = self.unk.unwrap_or(NO_ID);
        let options = self.options(false);
        let candidates = self.candidates(text);
        find_cut(
            resume,
            text,
            &options,
            candidates,
            from,
            trusted,
            |at, id| id != unk && accept(at),
        )
    }

    /// [`Unigram::tokenize`] of a pre-token's part after a cut where the best paths meet, its
    /// search taken up where `resume` says the whole pre-token's was.
    pub fn tokenize_resumed(
        &self,
        resume: &Resume<f64>,
        text: &str,
        out: &mut Vec<Piece>,
        mut steps: Option<&mut Steps>,
    ) {
        let unk = self.unk.unwrap_or(NO_ID);
        let options = self.options(steps.is_some());
        let best = best_path_resumed(resume, text, &options, self.candidates(text))
            .expect("the unknown piece reaches every character boundary");
        // Runs of unknown characters fuse into one token.
        let mut path: Vec<Piece> = Vec::with_capacity(best.pieces.len());
        for &(start, end, id) in &best.pieces {
            match path.last_mut() {
                Some(last) if id == unk && last.id == unk => last.end = end,
                _ => path.push(Piece { id, start, end }),
            }
        }
        if let Some(steps) = steps.as_deref_mut() {
            for node in &best.nodes {
                let (start, end) = (node.start, node.end);
                steps.note(
                    "node",
                    format!(
                        "[{start}..{end}] {}:{} score {:.4}",
                        quote(&text[start..end]),
                        node.id,
                        node.score
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
                format!("best path, score {:.4}: {}", best.score, shown.join(" ")),
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
