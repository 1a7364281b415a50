//! Linear-memory dynamic programming: the distance under any costs with two rows, and
//! Hirschberg's divide and conquer, which finds a minimum-cost alignment of two long sequences
//! (10,000 tokens each) without the quadratic matrix.

#[cfg(test)]
use super::Matrix;
use super::bitparallel::{lcs_row, levenshtein_row};
use super::{AlignedPair, Alignment, Costs, Op, backtrace, common_affixes};

/// The last row of the DP matrix of `a` (rows, in the iterator's order) against `b`:
/// `D[|a|, j]` for every `j`. Each row is computed in two passes so the first vectorizes and
/// only the insertion chain of the second is sequential.
fn last_row<'s>(a: impl Iterator<Item = &'s u32>, b: &[u32], costs: Costs) -> Vec<u64> {
    let (ins, del, sub) = (
        u64::from(costs.ins),
        u64::from(costs.del),
        u64::from(costs.sub),
    );
    let mut row: Vec<u64> = (0..=b.len() as u64).map(|j| j * ins).collect();
    let mut best = vec![0u64; b.len()];
    for &x in a {
        // Deletion (from above) or the diagonal, for every column at once.
        for ((slot, window), &y) in best.iter_mut().zip(row.windows(2)).zip(b) {
            let diagonal = window[0] + if x == y { 0 } else { sub };
            *slot = diagonal.min(window[1] + del);
        }
        row[0] += del;
        // Then the insertions, left to right.
        let mut left = row[0];
        for (cell, &candidate) in row[1..].iter_mut().zip(&best) {
            left = candidate.min(left + ins);
            *cell = left;
        }
    }
    row
}

/// The edit distance under any costs in O(|a|·|b|) time and O(min(|a|, |b|)) memory.
pub fn general_distance(a: &[u32], b: &[u32], costs: Costs) -> u64 {
    if b.len() <= a.len() {
        last_row(a.iter(), b, costs)[b.len()]
    } else {
        // Swapping the sequences swaps the roles of insertion and deletion.
        let swapped = Costs::new(costs.del, costs.ins, costs.sub);
        last_row(b.iter(), a, swapped)[a.len()]
    }
}

/// The last row of the DP matrix of `a` (rows) against `b`, by the fastest algorithm the
/// costs allow: bit-parallel when every operation costs the same, or when a substitution is
/// never cheaper than a deletion plus an insertion (then the row follows from the LCS row);
/// the two-pass scalar DP otherwise.
fn fast_last_row(a: &[u32], b: &[u32], costs: Costs) -> Vec<u64> {
    let (ins, del, sub) = (
        u64::from(costs.ins),
        u64::from(costs.del),
        u64::from(costs.sub),
    );
    if ins == del && del == sub {
        levenshtein_row(a, b)
            .into_iter()
            .map(|d| d as u64 * ins)
            .collect()
    } else if sub >= ins + del {
        let n = a.len() as u64;
        lcs_row(a, b)
            .into_iter()
            .enumerate()
            .map(|(j, common)| (n - common as u64) * del + (j as u64 - common as u64) * ins)
            .collect()
    } else {
        last_row(a.iter(), b, costs)
    }
}

/// Subproblems up to this many cells are solved with the full matrix.
const BASE_CELLS: usize = 1 << 14;

/// A minimum-cost alignment in linear memory (Hirschberg 1975): split the source in half, find
/// where an optimal path crosses the middle row from a forward and a backward pass, recurse
/// on the two halves. Twice the time of the distance, a few rows of memory; the passes are
/// bit-parallel under Levenshtein and insertion/deletion costs.
pub fn hirschberg(a: &[u32], b: &[u32], costs: Costs) -> Alignment {
    let mut pairs = Vec::with_capacity(a.len().max(b.len()));
    solve(a, 0, b, 0, costs, &mut pairs);
    let cost = pairs.iter().map(|p| costs.of(p.op)).sum();
    Alignment { pairs, cost }
}

fn solve(a: &[u32], a0: usize, b: &[u32], b0: usize, costs: Costs, out: &mut Vec<AlignedPair>) {
    // A common prefix and suffix align as matches under any costs.
    let (prefix, suffix) = common_affixes(a, b);
    for k in 0..prefix {
        out.push(AlignedPair {
            op: Op::Match,
            a: Some(a0 + k),
            b: Some(b0 + k),
        });
    }
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let (a0, b0) = (a0 + prefix, b0 + prefix);

    if a.is_empty() || b.is_empty() || (a.len() + 1) * (b.len() + 1) <= BASE_CELLS || a.len() == 1 {
        let alignment = backtrace(a, b, costs);
        out.extend(alignment.pairs.into_iter().map(|p| AlignedPair {
            op: p.op,
            a: p.a.map(|i| i + a0),
            b: p.b.map(|j| j + b0),
        }));
    } else {
        let mid = a.len() / 2;
        let forward = fast_last_row(&a[..mid], b, costs);
        let a_reversed: Vec<u32> = a[mid..].iter().rev().copied().collect();
        let b_reversed: Vec<u32> = b.iter().rev().copied().collect();
        let backward = fast_last_row(&a_reversed, &b_reversed, costs);
        let m = b.len();
        let split = (0..=m)
            .min_by_key(|&k| forward[k] + backward[m - k])
            .expect("a row has at least one cell");
        solve(&a[..mid], a0, &b[..split], b0, costs, out);
        solve(&a[mid..], a0 + mid, &b[split..], b0 + split, costs, out);
    }

    let (a_end, b_end) = (a0 + a.len(), b0 + b.len());
    for k in 0..suffix {
        out.push(AlignedPair {
            op: Op::Match,
            a: Some(a_end + k),
            b: Some(b_end + k),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::codepoints;
    use super::*;

    #[test]
    fn two_rows_match_the_matrix_for_asymmetric_costs() {
        let costs = Costs::new(3, 1, 2);
        for (a, b) in [
            ("kitten", "sitting"),
            ("sitting", "kitten"),
            ("", "ab"),
            ("ab", ""),
        ] {
            let (x, y) = (codepoints(a), codepoints(b));
            let full = Matrix::new(&x, &y, costs).distance().unwrap();
            assert_eq!(general_distance(&x, &y, costs), full, "{a} → {b}");
        }
    }

    #[test]
    fn fast_rows_are_the_scalar_rows() {
        let a: Vec<u32> = (0..150u32).map(|i| i * 7 % 5).collect();
        let b: Vec<u32> = (0..170u32).map(|i| i * 3 % 4).collect();
        for costs in [
            Costs::LEVENSHTEIN,
            Costs::new(3, 3, 3),
            Costs::INDEL,
            Costs::new(1, 2, 5),
            Costs::new(2, 1, 2),
        ] {
            assert_eq!(
                fast_last_row(&a, &b, costs),
                last_row(a.iter(), &b, costs),
                "{costs}"
            );
        }
    }

    #[test]
    fn hirschberg_on_a_long_pair_costs_what_the_matrix_says() {
        let a: Vec<u32> = (0..700u32).map(|i| i * 7 % 5).collect();
        let b: Vec<u32> = (0..650u32).map(|i| i * 3 % 5).collect();
        for costs in [Costs::LEVENSHTEIN, Costs::INDEL, Costs::new(2, 3, 4)] {
            let alignment = hirschberg(&a, &b, costs);
            assert_eq!(alignment.replay(&a, &b).unwrap(), b);
            assert_eq!(
                alignment.cost,
                Matrix::new(&a, &b, costs).distance().unwrap()
            );
        }
    }
}
