//! The matrix backtrace when one side is short (at most [`SHORT`] symbols): Myers' bit-vectors
//! of every whole column, one or two words each, without the band's per-column bookkeeping
//! (which costs more than the words it leaves out at this size). The short side is the
//! pattern; when it is the target, the stored matrix is the transpose, which under unit costs
//! holds the same values (`D[i, j]` of `a` against `b` is `D[j, i]` of `b` against `a`), so the
//! backtrace asks the same questions and takes the same steps as [`super::Matrix::backtrace`].

use super::AlignedPair;
use super::bitalign::Ties;
use super::bitparallel::Block;

/// The longest short side: two words of bit-vectors per column.
pub(super) const SHORT: usize = 128;

/// The alignment of `a` (rows) against `b` (columns), neither empty, and its distance, if one
/// side has at most [`SHORT`] symbols and its columns fit in `budget` band blocks (the same
/// memory budget as the band's); `None` otherwise.
pub(super) fn backtrace(
    a: &[u32],
    b: &[u32],
    budget: usize,
    ties: Ties,
) -> Option<(Vec<AlignedPair>, usize)> {
    debug_assert!(!a.is_empty() && !b.is_empty());
    let words = |side: &[u32]| side.len().div_ceil(64);
    // Fewer words per column first; with as many, fewer columns.
    let a_is_pattern = (words(a), b.len()) <= (words(b), a.len());
    let (pattern, text) = if a_is_pattern { (a, b) } else { (b, a) };
    if pattern.len() > SHORT || text.len().saturating_mul(words(pattern)) > budget {
        return None;
    }
    Some(if pattern.len() <= 64 {
        Columns::<1>::fill::<128>(pattern, text).trace(a, b, a_is_pattern, ties)
    } else {
        Columns::<2>::fill::<256>(pattern, text).trace(a, b, a_is_pattern, ties)
    })
}

/// For each symbol of a pattern of at most `64·N` symbols, the bit-vector of the rows where it
/// occurs, in an open-addressing table of `SLOTS` (a power of two, at least twice the
/// pattern's length) on the stack: no allocation and no hashing library for a hundred symbols.
pub(super) struct PatternTable<const N: usize, const SLOTS: usize> {
    symbols: [u32; SLOTS],
    /// All zero in an empty slot: a symbol in the table occurs at least once.
    rows: [[u64; N]; SLOTS],
}

impl<const N: usize, const SLOTS: usize> PatternTable<N, SLOTS> {
    pub(super) fn new(pattern: &[u32]) -> Self {
        debug_assert!(SLOTS.is_power_of_two() && 2 * pattern.len() <= SLOTS);
        debug_assert!(pattern.len() <= 64 * N);
        let mut table = PatternTable {
            symbols: [0; SLOTS],
            rows: [[0; N]; SLOTS],
        };
        for (row, &symbol) in pattern.iter().enumerate() {
            let slot = table.slot(symbol);
            table.symbols[slot] = symbol;
            table.rows[slot][row / 64] |= 1 << (row % 64);
        }
        table
    }

    /// The slot holding `symbol`, or the empty slot where it would go (the table is never more
    /// than half full, so there is one).
    #[inline(always)]
    fn slot(&self, symbol: u32) -> usize {
        let mut slot = (symbol.wrapping_mul(0x9e37_79b1) >> (32 - SLOTS.trailing_zeros())) as usize;
        while self.symbols[slot] != symbol && self.rows[slot] != [0; N] {
            slot = (slot + 1) & (SLOTS - 1);
        }
        slot
    }

    /// The rows where `symbol` occurs (none if the pattern does not have it).
    #[inline(always)]
    pub(super) fn vector(&self, symbol: u32) -> [u64; N] {
        self.rows[self.slot(symbol)]
    }
}

/// The vertical deltas of every column of the matrix of a pattern of `64·(N-1) + 1` to `64·N`
/// symbols (rows) against a text (columns): bit `k` of word `w` is row `64·w + k + 1`, `+1` in
/// the first array, `-1` in the second. Column 0 (all `+1`) is not stored.
struct Columns<const N: usize> {
    columns: Vec<([u64; N], [u64; N])>,
    distance: usize,
}

impl<const N: usize> Columns<N> {
    /// Myers' algorithm in Hyyrö's form over whole columns, keeping each column.
    fn fill<const SLOTS: usize>(pattern: &[u32], text: &[u32]) -> Columns<N> {
        debug_assert!(pattern.len().div_ceil(64) == N);
        let table = PatternTable::<N, SLOTS>::new(pattern);
        let top = 1u64 << ((pattern.len() - 1) % 64);
        let mut columns = Vec::with_capacity(text.len());
        let (mut vp, mut vn) = ([!0u64; N], [0u64; N]);
        let mut distance = pattern.len();
        for &symbol in text {
            let eqs = table.vector(symbol);
            // The horizontal delta entering the first row from row 0 is +1.
            let (mut hp, mut hn) = (1u64, 0u64);
            for word in 0..N {
                let block = Block::advance(eqs[word], vp[word], vn[word], hp, hn);
                (vp[word], vn[word]) = (block.vp, block.vn);
                (hp, hn) = block.carry(if word + 1 == N { top } else { 1 << 63 });
            }
            distance = distance + hp as usize - hn as usize;
            columns.push((vp, vn));
        }
        Columns { columns, distance }
    }

    /// `D[row, column]` of the pattern against the text: the column's index (its value in row
    /// 0) plus the vertical deltas down to the row.
    #[inline(always)]
    fn value(&self, row: usize, column: usize) -> usize {
        let Some((vp, vn)) = column.checked_sub(1).map(|c| &self.columns[c]) else {
            return row;
        };
        let mut value = column;
        for word in 0..N {
            let below = row.saturating_sub(64 * word).min(64) as u32;
            let mask = u64::MAX.checked_shr(64 - below).unwrap_or(0);
            value = value + (vp[word] & mask).count_ones() as usize
                - (vn[word] & mask).count_ones() as usize;
        }
        value
    }

    /// The matrix's backtrace of `a` against `b`, the pattern being `a` if `a_is_pattern`, else
    /// `b` (the stored matrix then being the transpose), and the distance.
    fn trace(
        &self,
        a: &[u32],
        b: &[u32],
        a_is_pattern: bool,
        ties: Ties,
    ) -> (Vec<AlignedPair>, usize) {
        let mut pairs = Vec::with_capacity((a.len() + b.len() + self.distance).div_ceil(2));
        let value = |i, j| {
            Some(if a_is_pattern {
                self.value(i, j)
            } else {
                self.value(j, i)
            })
        };
        super::bitalign::trace(a, b, self.distance, (0, 0), ties, &mut pairs, &value);
        (pairs, self.distance)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix};
    use super::*;

    #[test]
    fn values_are_the_matrix_values_both_ways_round() {
        let a: Vec<u32> = (0..100u32)
            .map(|i| [97, 98, 0x8a9e, 7][(i * 7 % 11 % 4) as usize])
            .collect();
        let b: Vec<u32> = a.iter().rev().skip(30).copied().collect();
        let matrix = Matrix::new(&a, &b, Costs::LEVENSHTEIN);
        let columns = Columns::<2>::fill::<256>(&a, &b);
        let transposed = Columns::<2>::fill::<256>(&b, &a);
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                let truth = matrix.value(i, j).unwrap() as usize;
                assert_eq!(columns.value(i, j), truth, "({i}, {j})");
                assert_eq!(transposed.value(j, i), truth, "({i}, {j}) transposed");
            }
        }
        assert_eq!(columns.distance, matrix.distance().unwrap() as usize);
    }

    #[test]
    fn symbols_with_one_home_slot_are_all_found() {
        // 64 distinct symbols (the most a one-word pattern has) hashing to the same slot: the
        // table is then half full and every lookup probes past the others.
        let home = |symbol| PatternTable::<1, 128>::new(&[]).slot(symbol);
        let pattern: Vec<u32> = (0..)
            .filter(|&symbol| home(symbol) == home(0))
            .take(64)
            .collect();
        let table = PatternTable::<1, 128>::new(&pattern);
        for (row, &symbol) in pattern.iter().enumerate() {
            assert_eq!(table.vector(symbol), [1 << row]);
        }
        let absent = (1..).find(|&s| home(s) == home(0) && !pattern.contains(&s));
        assert_eq!(table.vector(absent.unwrap()), [0]);
    }

    #[test]
    fn the_long_side_may_be_either() {
        let short: Vec<u32> = (0..40u32).map(|i| i % 3).collect();
        let long: Vec<u32> = (0..300u32).map(|i| i % 5).collect();
        for (a, b) in [(&short, &long), (&long, &short)] {
            let (pairs, distance) = backtrace(a, b, usize::MAX, Ties::Matrix).unwrap();
            let matrix = Matrix::new(a, b, Costs::LEVENSHTEIN).backtrace().unwrap();
            assert_eq!(pairs, matrix.pairs);
            assert_eq!(distance as u64, matrix.cost);
        }
        assert!(
            backtrace(&long, &long, usize::MAX, Ties::Matrix).is_none(),
            "both long"
        );
        assert!(
            backtrace(&short, &long, 299, Ties::Matrix).is_none(),
            "over the budget"
        );
    }
}
