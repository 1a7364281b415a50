//! One EM iteration over the counted words: the E step sums, for every piece, its expected
//! count over all segmentations of every word (forward–backward over the word's lattice, the
//! unigram model's own [`Lattice`]); the M step turns the counts into log-probabilities with
//! SentencePiece's Bayesian update ψ(count) − ψ(total), dropping pieces expected less than
//! half a time (characters are kept).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::engines::subword::unigram::lattice::Lattice;
use crate::engines::subword::unigram::viterbi::{Node, Search, Viterbi, best_path};

/// The pieces of the current vocabulary by text, for building word lattices.
pub struct PieceIndex<'p> {
    ids: FxHashMap<&'p str, usize>,
    max_len: usize,
}

/// A candidate piece of a word: byte range and piece index.
#[derive(Clone, Copy, Debug)]
pub struct Arc {
    pub start: usize,
    pub end: usize,
    pub piece: usize,
}

impl<'p> PieceIndex<'p> {
    pub fn new(pieces: &'p [(String, f64)], max_len: usize) -> PieceIndex<'p> {
        PieceIndex {
            ids: pieces
                .iter()
                .enumerate()
                .map(|(i, (p, _))| (p.as_str(), i))
                .collect(),
            max_len,
        }
    }

    /// Every vocabulary piece inside `word`, in order of start, and the word's character
    /// boundaries.
    pub fn arcs(&self, word: &str) -> (Vec<Arc>, Vec<usize>) {
        let bounds: Vec<usize> = word
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(word.len()))
            .collect();
        let mut arcs = Vec::new();
        for (k, &start) in bounds.iter().enumerate() {
            for &end in bounds.iter().skip(k + 1).take(self.max_len) {
                if let Some(&piece) = self.ids.get(&word[start..end]) {
                    arcs.push(Arc { start, end, piece });
                }
            }
        }
        (arcs, bounds)
    }
}

/// The best segmentation of `word` (piece indices), or `None` when the pieces cannot spell it.
pub fn viterbi(index: &PieceIndex, pieces: &[(String, f64)], word: &str) -> Option<Vec<usize>> {
    best_without(index, pieces, word, None)
}

/// The best segmentation of `word` that does not use piece `without`, through the shared
/// unigram search (f64 totals, no unknown piece): the trainer's Viterbi counts and the
/// pruning's second-best segmentation of a piece.
pub fn best_without(
    index: &PieceIndex,
    pieces: &[(String, f64)],
    word: &str,
    without: Option<usize>,
) -> Option<Vec<usize>> {
    let (arcs, _) = index.arcs(word);
    let options = Viterbi {
        unknown: None,
        reset: None,
        record: false,
    };
    // The arcs are ordered by start, then end: the ones at each start are offered in turn.
    let mut next = 0;
    let path = best_path(word, &options, |search: &mut Search<f64>| {
        while arcs.get(next).is_some_and(|a| a.start < search.start()) {
            next += 1;
        }
        while let Some(arc) = arcs.get(next).filter(|a| a.start == search.start()) {
            if Some(arc.piece) != without {
                search.offer(arc.end - arc.start, arc.piece as u32, pieces[arc.piece].1);
            }
            next += 1;
        }
    })?;
    Some(path.pieces.iter().map(|&(_, _, id)| id as usize).collect())
}

/// What an E step found.
pub struct Expectation {
    /// Expected count of every piece (indices as in the vocabulary).
    pub expected: Vec<f64>,
    /// Negative log-likelihood per word occurrence.
    pub loss: f64,
    /// Tokens of the corpus on the best segmentations.
    pub tokens: u64,
}

/// The E step.
pub fn em_step(words: &[(String, u64)], pieces: &[(String, f64)], max_len: usize) -> Expectation {
    let index = PieceIndex::new(pieces, max_len);
    let mut expected = vec![0.0; pieces.len()];
    let mut log_likelihood = 0.0;
    let mut occurrences = 0u64;
    let mut tokens = 0u64;
    for (word, freq) in words {
        let (arcs, _) = index.arcs(word);
        let nodes = arcs
            .iter()
            .map(|arc| Node {
                start: arc.start,
                end: arc.end,
                id: arc.piece as u32,
                score: pieces[arc.piece].1,
            })
            .collect();
        let Some((shares, z)) = Lattice::from_nodes(word.len(), nodes).posteriors(1.0) else {
            continue;
        };
        let f = *freq as f64;
        for (arc, share) in arcs.iter().zip(shares) {
            expected[arc.piece] += f * share;
        }
        log_likelihood += f * z;
        occurrences += freq;
        tokens += freq * viterbi(&index, pieces, word).map_or(0, |p| p.len() as u64);
    }
    Expectation {
        expected,
        loss: -log_likelihood / occurrences.max(1) as f64,
        tokens,
    }
}

/// The M step: new log-probabilities from expected counts.
pub fn m_step(pieces: &[(String, f64)], expected: &[f64], chars: &[String]) -> Vec<(String, f64)> {
    let keep: FxHashSet<&str> = chars.iter().map(String::as_str).collect();
    let kept: Vec<(String, f64)> = pieces
        .iter()
        .zip(expected)
        .filter(|((p, _), e)| **e >= 0.5 || keep.contains(p.as_str()))
        // A character never expected still needs a count for ψ: a small one.
        .map(|((p, _), e)| (p.clone(), e.max(1e-3)))
        .collect();
    let total: f64 = kept.iter().map(|(_, e)| e).sum();
    let log_total = super::digamma(total);
    kept.into_iter()
        .map(|(p, e)| (p, super::digamma(e) - log_total))
        .collect()
}
