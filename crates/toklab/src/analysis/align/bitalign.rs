//! The matrix backtrace without the matrix: under costs where every operation costs the same,
//! Myers' bit-vectors of every column (four words per 64 cells instead of 64 values and 64
//! arrow sets) hold enough to recover any cell's neighbours on the way back, so the alignment
//! is [`Matrix::backtrace`]'s, tie for tie, at the speed of the bit-parallel distance.
//! Other costs fill the matrix directly.

use super::bitparallel::{Block, PatternMatch};
use super::{AlignedPair, Alignment, Costs, Matrix, Op};

/// The alignment [`Matrix::backtrace`] gives for `a` (rows) against `b` (columns): diagonal
/// first, then deletion, then insertion wherever several are optimal.
pub fn backtrace(a: &[u32], b: &[u32], costs: Costs) -> Alignment {
    let unit = costs.ins == costs.del && costs.del == costs.sub && costs.ins > 0;
    if unit && !a.is_empty() {
        let (pairs, distance) = unit_backtrace(a, b);
        Alignment {
            pairs,
            cost: distance * u64::from(costs.ins),
        }
    } else {
        Matrix::new(a, b, costs)
            .backtrace()
            .expect("a new matrix is complete")
    }
}

/// Every column's blocks of the Levenshtein matrix of `pattern` (rows) against `text`, column
/// `j ≥ 1` at `(j - 1) · words`, and `D[|pattern|, |text|]`.
fn columns(pattern: &[u32], text: &[u32]) -> (Vec<Block>, usize, u64) {
    let peq = PatternMatch::new(pattern);
    let words = peq.words;
    let top = 1u64 << ((pattern.len() - 1) % 64);
    let mut blocks = Vec::with_capacity(words * text.len());
    // Column 0 is 0, 1, 2, …: every vertical delta +1.
    let mut previous = vec![
        Block {
            vp: !0,
            ..Block::default()
        };
        words
    ];
    let mut score = pattern.len() as u64;
    for &symbol in text {
        let (mut hp_in, mut hn_in) = (1u64, 0u64);
        let eqs = peq.vector(symbol);
        for (word, (&eq, before)) in eqs.iter().zip(previous.iter_mut()).enumerate() {
            let block = Block::advance(eq, before.vp, before.vn, hp_in, hn_in);
            (hp_in, hn_in) = block.carry(if word + 1 == words { top } else { 1 << 63 });
            *before = block;
        }
        score = score + hp_in - hn_in;
        blocks.extend_from_slice(&previous);
    }
    (blocks, words, score)
}

/// The backtrace under unit costs, and the distance. `a` must not be empty.
fn unit_backtrace(a: &[u32], b: &[u32]) -> (Vec<AlignedPair>, u64) {
    let (blocks, words, distance) = columns(a, b);
    // The delta of a cell over its neighbour above (`vertical`) or to its left.
    let delta = |plus: u64, minus: u64, bit: u64| -> i64 {
        i64::from(plus & bit != 0) - i64::from(minus & bit != 0)
    };
    let block = |i: usize, j: usize| -> (&Block, u64) {
        (
            &blocks[(j - 1) * words + (i - 1) / 64],
            1u64 << ((i - 1) % 64),
        )
    };
    let vertical = |i: usize, j: usize| -> i64 {
        if j == 0 {
            return 1;
        }
        let (block, bit) = block(i, j);
        delta(block.vp, block.vn, bit)
    };
    let horizontal = |i: usize, j: usize| -> i64 {
        let (block, bit) = block(i, j);
        delta(block.hp, block.hn, bit)
    };
    let (mut i, mut j) = (a.len(), b.len());
    let mut here = distance as i64;
    let mut pairs = Vec::with_capacity(i.max(j));
    while i > 0 && j > 0 {
        let left = here - horizontal(i, j);
        let diagonal = left - vertical(i, j - 1);
        let equal = a[i - 1] == b[j - 1];
        if diagonal + i64::from(!equal) == here {
            let op = if equal { Op::Match } else { Op::Sub };
            pairs.push(AlignedPair {
                op,
                a: Some(i - 1),
                b: Some(j - 1),
            });
            (i, j, here) = (i - 1, j - 1, diagonal);
            continue;
        }
        let up = here - vertical(i, j);
        if up + 1 == here {
            pairs.push(AlignedPair {
                op: Op::Del,
                a: Some(i - 1),
                b: None,
            });
            (i, here) = (i - 1, up);
        } else {
            pairs.push(AlignedPair {
                op: Op::Ins,
                a: None,
                b: Some(j - 1),
            });
            (j, here) = (j - 1, left);
        }
    }
    pairs.extend((0..i).rev().map(|i| AlignedPair {
        op: Op::Del,
        a: Some(i),
        b: None,
    }));
    pairs.extend((0..j).rev().map(|j| AlignedPair {
        op: Op::Ins,
        a: None,
        b: Some(j),
    }));
    pairs.reverse();
    (pairs, distance)
}

#[cfg(test)]
mod tests {
    use super::super::codepoints;
    use super::*;

    #[test]
    fn same_backtrace_as_the_matrix_across_word_boundaries() {
        let base: Vec<u32> = (0..300u32).map(|i| i * 7 % 4).collect();
        for (cut_a, cut_b) in [(1, 5), (63, 40), (64, 64), (65, 130), (129, 100), (200, 0)] {
            let a = &base[..cut_a];
            let b: Vec<u32> = base.iter().rev().take(cut_b).copied().collect();
            for costs in [Costs::LEVENSHTEIN, Costs::new(3, 3, 3), Costs::INDEL] {
                let matrix = Matrix::new(a, &b, costs).backtrace().unwrap();
                assert_eq!(backtrace(a, &b, costs), matrix, "{cut_a}×{cut_b} {costs}");
            }
        }
        let (a, b) = (codepoints("intention"), codepoints("execution"));
        assert_eq!(backtrace(&a, &b, Costs::LEVENSHTEIN).cost, 5);
    }
}
