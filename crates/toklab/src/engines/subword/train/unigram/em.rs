//! One EM iteration over the counted words: the E step sums, for every piece, its expected
//! count over all segmentations of every word (forward–backward over the word's lattice, the
//! unigram model's own [`Lattice`]); the M step turns the counts into log-probabilities with
//! SentencePiece's Bayesian update ψ(count) − ψ(total), dropping pieces expected less than
//! half a time (characters are kept).

use rustc_hash::FxHashSet;

use crate::engines::subword::unigram::lattice::PathSums;
use crate::engines::subword::unigram::trie::PieceTrie;
use crate::engines::subword::unigram::viterbi::{Node, Search, Viterbi, best_path};

/// The pieces of the current vocabulary in a byte trie (the unigram models' own), for
/// building word lattices: the pieces starting at a position come from one walk that stops
/// at the first byte no piece continues with, instead of a hash lookup of every substring up
/// to the longest piece.
pub struct PieceIndex {
    trie: PieceTrie,
}

/// A candidate piece of a word: its byte range, its index in the vocabulary as the id, and
/// its log-probability.
pub type Arc = Node<f64>;

impl PieceIndex {
    /// The index of `pieces`; those longer than `max_len` characters are left out, so no
    /// segmentation uses them.
    pub fn new(pieces: &[(String, f64)], max_len: usize) -> PieceIndex {
        let fitting = pieces
            .iter()
            .enumerate()
            .filter(|(_, (piece, _))| piece.chars().nth(max_len).is_none())
            // The trie's own score is not used: arcs take the exact `f64` one.
            .map(|(i, (piece, _))| (piece.as_bytes(), i as u32, 0.0));
        PieceIndex {
            trie: PieceTrie::new(fitting),
        }
    }

    /// Every vocabulary piece inside `word`, ordered by start, then end, into `arcs` (cleared
    /// first, so one buffer serves every word).
    pub fn arcs_into(&self, word: &str, pieces: &[(String, f64)], arcs: &mut Vec<Arc>) {
        arcs.clear();
        let bytes = word.as_bytes();
        for (start, _) in word.char_indices() {
            // A piece is whole characters, so a match from a character boundary ends on one.
            self.trie.prefixes(&bytes[start..], |length, id, _| {
                arcs.push(Node {
                    start,
                    end: start + length,
                    id,
                    score: pieces[id as usize].1,
                });
            });
        }
    }
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
    let mut arcs = Vec::new();
    index.arcs_into(word, pieces, &mut arcs);
    best_over_arcs(word, &arcs, without)
}

/// The best segmentation of `word` over its `arcs` (as [`PieceIndex::arcs_into`] finds them)
/// without piece `without`; `None` when the pieces cannot spell it.
pub fn best_over_arcs(word: &str, arcs: &[Arc], without: Option<usize>) -> Option<Vec<usize>> {
    let options = Viterbi {
        unknown: None,
        reset: None,
        record: false,
    };
    let without = without.map(|piece| piece as u32);
    // The arcs are ordered by start, then end: the ones at each start are offered in turn.
    let mut next = 0;
    let path = best_path(word, &options, |search: &mut Search<f64>| {
        while arcs.get(next).is_some_and(|a| a.start < search.start()) {
            next += 1;
        }
        while let Some(arc) = arcs.get(next).filter(|a| a.start == search.start()) {
            if Some(arc.id) != without {
                search.offer(arc.end - arc.start, arc.id, arc.score);
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

/// The E step. Each word's arcs are found once and serve both its forward–backward sums and
/// its best path; the buffers are reused from word to word.
pub fn em_step(words: &[(String, u64)], pieces: &[(String, f64)], max_len: usize) -> Expectation {
    let index = PieceIndex::new(pieces, max_len);
    let mut expected = vec![0.0; pieces.len()];
    let mut log_likelihood = 0.0;
    let mut occurrences = 0u64;
    let mut tokens = 0u64;
    let mut arcs = Vec::new();
    let mut sums = PathSums::default();
    for (word, freq) in words {
        index.arcs_into(word, pieces, &mut arcs);
        let Some((shares, z)) = sums.posteriors(word.len(), &arcs, 1.0) else {
            continue;
        };
        let f = *freq as f64;
        for (arc, share) in arcs.iter().zip(shares) {
            expected[arc.id as usize] += f * share;
        }
        log_likelihood += f * z;
        occurrences += freq;
        tokens += freq * best_over_arcs(word, &arcs, None).map_or(0, |p| p.len() as u64);
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rustc_hash::FxHashMap;

    use super::*;

    /// The arcs as a lookup of every substring of up to `max_len` characters finds them: what
    /// the trie must agree with.
    fn arcs_by_lookup(pieces: &[(String, f64)], max_len: usize, word: &str) -> Vec<Arc> {
        let ids: FxHashMap<&str, usize> = pieces
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (p.as_str(), i))
            .collect();
        let bounds: Vec<usize> = word
            .char_indices()
            .map(|(i, _)| i)
            .chain([word.len()])
            .collect();
        let mut arcs = Vec::new();
        for (k, &start) in bounds.iter().enumerate() {
            for &end in bounds.iter().skip(k + 1).take(max_len) {
                if let Some(&piece) = ids.get(&word[start..end]) {
                    let score = pieces[piece].1;
                    let id = piece as u32;
                    arcs.push(Node {
                        start,
                        end,
                        id,
                        score,
                    });
                }
            }
        }
        arcs
    }

    fn scored(names: &[&str]) -> Vec<(String, f64)> {
        let score = |i: usize| -1.0 - i as f64 / 8.0;
        names
            .iter()
            .enumerate()
            .map(|(i, p)| (p.to_string(), score(i)))
            .collect()
    }

    #[test]
    fn arcs_are_every_piece_inside_the_word_within_the_length() {
        let pieces = scored(&["▁", "a", "b", "▁ab", "ab", "abab", "語", "語a", ""]);
        let index = PieceIndex::new(&pieces, 3);
        let mut arcs = Vec::new();
        index.arcs_into("▁abab語a", &pieces, &mut arcs);
        let found: Vec<(usize, usize, u32)> = arcs.iter().map(|a| (a.start, a.end, a.id)).collect();
        // `abab` is 4 characters, over the length of 3; the empty piece is never an arc.
        let expected = [
            (0, 3, 0),
            (0, 5, 3),
            (3, 4, 1),
            (3, 5, 4),
            (4, 5, 2),
            (5, 6, 1),
            (5, 7, 4),
            (6, 7, 2),
            (7, 10, 6),
            (7, 11, 7),
            (10, 11, 1),
        ];
        assert_eq!(found, expected);
        assert_eq!(arcs, arcs_by_lookup(&pieces, 3, "▁abab語a"));
        // The buffer is cleared for the next word, and a word no piece spells has no path.
        index.arcs_into("c", &pieces, &mut arcs);
        assert!(arcs.is_empty());
        assert_eq!(best_without(&index, &pieces, "c", None), None);
        assert_eq!(
            best_without(&index, &pieces, "▁abab", None),
            Some(vec![3, 4])
        );
        assert_eq!(
            best_without(&index, &pieces, "▁abab", Some(3)),
            Some(vec![0, 4, 4])
        );
    }

    // Characters of one, two and three bytes, so that pieces and words share lead bytes.
    const ALPHABET: [&str; 6] = ["a", "b", "▁", "é", "語", "話"];

    fn text(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(0..ALPHABET.len(), 0..max)
            .prop_map(|picks| picks.into_iter().map(|k| ALPHABET[k]).collect())
    }

    proptest! {
        #[test]
        fn trie_arcs_equal_the_substring_lookup(
            names in prop::collection::vec(text(6), 0..40),
            words in prop::collection::vec(text(12), 1..8),
            max_len in 1usize..6,
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let pieces = scored(&names);
            let index = PieceIndex::new(&pieces, max_len);
            let mut arcs = Vec::new();
            for word in &words {
                index.arcs_into(word, &pieces, &mut arcs);
                prop_assert_eq!(&arcs, &arcs_by_lookup(&pieces, max_len, word), "word {:?}", word);
            }
        }
    }
}
