//! Pruning (SentencePiece's `PruneSentencePieces`): for every piece, how much likelihood the
//! corpus loses when the piece is removed and its occurrences are spelled by its own second-best
//! segmentation; the pieces that lose least go, down to `shrinking_factor` of the vocabulary
//! (never below the desired size). Characters always stay.

use rustc_hash::FxHashSet;

use super::UnigramConfig;
use super::em::{PieceIndex, best_over_arcs, best_without};

/// The second-best segmentation of a piece under the others: the best one that does not use
/// the piece itself, right to left: the order the loss below sums its pieces in.
fn alternative(index: &PieceIndex, pieces: &[(String, f64)], i: usize) -> Option<Vec<usize>> {
    let mut path = best_without(index, pieces, &pieces[i].0, Some(i))?;
    path.reverse();
    Some(path)
}

/// The pruned vocabulary.
pub fn prune(
    words: &[(String, u64)],
    pieces: &[(String, f64)],
    chars: &[String],
    desired: usize,
    config: &UnigramConfig,
) -> Vec<(String, f64)> {
    let index = PieceIndex::new(pieces, config.max_piece_len);
    let is_char: FxHashSet<&str> = chars.iter().map(String::as_str).collect();
    // Viterbi counts, and for each piece the words whose best path uses it.
    let mut freq = vec![0.0f64; pieces.len()];
    let mut word_freq = vec![0.0f64; pieces.len()];
    let mut arcs = Vec::new();
    for (word, f) in words {
        index.arcs_into(word, pieces, &mut arcs);
        let Some(path) = best_over_arcs(word, &arcs, None) else {
            continue;
        };
        for (k, &p) in path.iter().enumerate() {
            freq[p] += *f as f64;
            // A word's path is a few pieces: a scan finds a repeat as fast as a set would.
            if !path[..k].contains(&p) {
                word_freq[p] += *f as f64;
            }
        }
    }
    let sum: f64 = freq.iter().sum();
    let log_sum = sum.ln();
    let mut always = Vec::new();
    let mut candidates: Vec<(usize, f64)> = Vec::new();
    for (i, (piece, _)) in pieces.iter().enumerate() {
        if is_char.contains(piece.as_str()) {
            always.push(i);
            continue;
        }
        if freq[i] == 0.0 {
            // Never on a best path: it goes first.
            candidates.push((i, f64::NEG_INFINITY));
            continue;
        }
        let Some(alt) = alternative(&index, pieces, i) else {
            always.push(i);
            continue;
        };
        // The corpus without the piece: its occurrences spelled by the alternative.
        let share = word_freq[i] / sum;
        let log_prob = freq[i].ln() - log_sum;
        let log_sum_alt = (sum + freq[i] * (alt.len() as f64 - 1.0)).ln();
        let log_prob_alt: f64 = alt
            .iter()
            .map(|&n| (freq[n] + freq[i]).ln() - log_sum_alt)
            .sum();
        candidates.push((i, share * (log_prob - log_prob_alt)));
    }
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let target = desired.max((config.shrinking_factor * pieces.len() as f64) as usize);
    let mut kept: Vec<usize> = always;
    for (i, _) in candidates {
        if kept.len() >= target {
            break;
        }
        kept.push(i);
    }
    kept.sort_unstable();
    kept.into_iter().map(|i| pieces[i].clone()).collect()
}
