//! Myers' bit-vector Levenshtein (Hyyrö's 64-row blocks) restricted to Ukkonen's band: given
//! a bound `max` on the distance, a column only needs the blocks holding cells that a path of
//! cost at most `max` can pass through. For two inputs one edit in ten apart that is a tenth
//! or less of the column. The first bound is the cost of the cheapest alignment within a
//! narrow strip (see `strip`), which holds the distance at once for close inputs; else the
//! distance is found by trying a small bound and doubling it until the band holds the answer
//! (the trials that fail stop early, once every block left is above the bound).
//!
//! Why the result is exact: blocks outside the band are not computed, and the band's edges are
//! given the largest values a neighbour could have (a horizontal delta of +1 entering the
//! first block, vertical deltas of +1 in a block that enters at the bottom). Every computed
//! value is then at least the true one, and equal to it on every minimum-cost path of cost at
//! most `max`, since such a path never leaves the band. The same holds for the stored columns
//! an alignment is traced back through (see `bitalign`).

use super::bitparallel::{Block, PatternMatch};

/// One 64-row block of the current column: its vertical deltas and `D` at its last row.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BandBlock {
    pub(super) vp: u64,
    pub(super) vn: u64,
    pub(super) score: usize,
}

impl BandBlock {
    /// `D` at row `64·w + bit + 1` of this block (block `w`), from `D` at its last row: the
    /// vertical deltas below that row, up to the last one (`valid` masks the rows the block
    /// has), are taken back off.
    #[inline]
    pub(super) fn value_at(&self, bit: usize, valid: u64) -> usize {
        let below = valid & !((2u64 << bit).wrapping_sub(1));
        self.score + (self.vn & below).count_ones() as usize
            - (self.vp & below).count_ones() as usize
    }
}

/// The columns of the Levenshtein matrix of a pattern (rows) against a text (columns), one at
/// a time, computing only the blocks a path of cost at most `max` can reach.
pub(super) struct Band<'p> {
    peq: &'p PatternMatch,
    rows: usize,
    max: usize,
    /// The diagonals `i - j` a path of cost at most `max` can use.
    low: isize,
    high: isize,
    /// The blocks computed in the current column: `first..end`.
    first: usize,
    end: usize,
    blocks: Vec<BandBlock>,
    /// The bit of the pattern's last row in the last block.
    top: u64,
    /// Columns done.
    column: usize,
}

impl<'p> Band<'p> {
    /// A band for the pattern `peq` was built from (`rows` symbols, at least one) against a text
    /// of `columns` symbols; `None` when the lengths alone differ by more than `max`.
    pub(super) fn new(
        peq: &'p PatternMatch,
        rows: usize,
        columns: usize,
        max: usize,
    ) -> Option<Band<'p>> {
        debug_assert!(rows > 0 && rows.div_ceil(64) == peq.words);
        let skew = rows as isize - columns as isize;
        let max_signed = max.min(usize::MAX / 8) as isize;
        if skew.abs() > max_signed {
            return None;
        }
        let slack = (max_signed - skew.abs()) / 2;
        Some(Band {
            peq,
            rows,
            max,
            low: skew.min(0) - slack,
            high: skew.max(0) + slack,
            first: 0,
            end: 0,
            blocks: vec![BandBlock::default(); peq.words],
            top: 1u64 << ((rows - 1) % 64),
            column: 0,
        })
    }

    /// How many blocks a column of the band can hold at most, for a memory budget before
    /// storing every column.
    pub(super) fn widest(rows: usize, max: usize) -> usize {
        rows.div_ceil(64).min(max.saturating_add(63) / 64 + 1)
    }

    fn rows_in(&self, block: usize) -> usize {
        (self.rows - 64 * block).min(64)
    }

    /// The mask of the rows block `w` has (all 64 but in the last block).
    pub(super) fn valid_mask(rows: usize, block: usize) -> u64 {
        let rows_in = (rows - 64 * block).min(64);
        if rows_in == 64 {
            !0
        } else {
            (1u64 << rows_in) - 1
        }
    }

    /// Computes the next column, of text symbol `symbol`. `false` when no block is left within
    /// the bound: the distance is above `max`.
    pub(super) fn advance(&mut self, symbol: u32) -> bool {
        let j = self.column + 1;
        let lowest = (j as isize + self.low).max(1) as usize;
        let highest = (j as isize + self.high).min(self.rows as isize) as usize;
        self.first = self.first.max((lowest - 1) / 64);
        let want_end = (highest - 1) / 64 + 1;
        // Blocks entering at the bottom start from the previous column's values, taken as
        // growing by one a row below the block above (the largest they can be).
        while self.end < want_end {
            let above = if self.end == 0 {
                j - 1
            } else {
                self.blocks[self.end - 1].score
            };
            self.blocks[self.end] = BandBlock {
                vp: !0,
                vn: 0,
                score: above + self.rows_in(self.end),
            };
            self.end += 1;
        }
        let eqs = self.peq.vector(symbol);
        let last = self.blocks.len() - 1;
        let (mut hp, mut hn) = (1u64, 0u64);
        let full_end = self.end.min(last);
        for (block, &eq) in self.blocks[self.first..full_end]
            .iter_mut()
            .zip(&eqs[self.first..full_end])
        {
            let next = Block::advance(eq, block.vp, block.vn, hp, hn);
            (hp, hn) = (next.hp >> 63, next.hn >> 63);
            block.vp = next.vp;
            block.vn = next.vn;
            block.score = block.score + hp as usize - hn as usize;
        }
        if self.end > last && self.first <= last {
            let block = &mut self.blocks[last];
            let next = Block::advance(eqs[last], block.vp, block.vn, hp, hn);
            (hp, hn) = next.carry(self.top);
            block.vp = next.vp;
            block.vn = next.vn;
            block.score = block.score + hp as usize - hn as usize;
        }
        self.column = j;
        while self.first < self.end && self.above_bound(self.first) {
            self.first += 1;
        }
        while self.end > self.first && self.above_bound(self.end - 1) {
            self.end -= 1;
        }
        self.first < self.end
    }

    /// Whether every cell of block `w` in the current column is above the bound: going up
    /// from its last row, `D` falls by one at most at each +1 vertical delta.
    #[inline]
    fn above_bound(&self, w: usize) -> bool {
        let block = &self.blocks[w];
        // The answer without counting, for most blocks: a block's 64 rows fall by 64 at most.
        if block.score <= self.max {
            return false;
        }
        if block.score > self.max.saturating_add(64) {
            return true;
        }
        let valid = if w + 1 == self.blocks.len() {
            (self.top << 1).wrapping_sub(1)
        } else {
            !0
        };
        let falls = (block.vp & valid).count_ones() as usize;
        block.score > self.max.saturating_add(falls)
    }

    /// Columns done: after a failed [`Band::advance`], the column where the band ran out.
    pub(super) fn columns_done(&self) -> usize {
        self.column
    }

    /// The distance once every column is done, if it is within the bound.
    pub(super) fn distance(&self) -> Option<usize> {
        let last = self.blocks.len() - 1;
        (self.end == self.blocks.len() && self.first <= last)
            .then(|| self.blocks[last].score)
            .filter(|&score| score <= self.max)
    }

    /// Once every column is done without the distance within the bound, the bound to try
    /// next: `D` at the last cell as computed (never below the distance, so that bound holds
    /// it for sure) when it is below [`next_bound`]'s guess, else the guess.
    pub(super) fn next_bound(&self, columns: usize) -> usize {
        let guess = next_bound(self.max, columns, columns);
        if self.end == self.blocks.len() {
            guess.min(self.blocks[self.blocks.len() - 1].score)
        } else {
            guess
        }
    }

    /// The index of the current column's first block and its blocks.
    pub(super) fn current(&self) -> (usize, &[BandBlock]) {
        (self.first, &self.blocks[self.first..self.end])
    }

    /// `D[i, j]` of the current column `j` for the rows the band holds, from the row above its
    /// first block (row 0 when that is the first block) to the last row of its last block:
    /// the first row's index and the values. Values outside the cheapest paths may be
    /// overestimates, never underestimates.
    pub(super) fn column_values(&self) -> (usize, Vec<usize>) {
        let start = 64 * self.first;
        let end_row = (64 * self.end).min(self.rows);
        let mut values = Vec::with_capacity(end_row - start + 1);
        for (offset, block) in self.blocks[self.first..self.end].iter().enumerate() {
            let w = self.first + offset;
            let valid = Band::valid_mask(self.rows, w);
            if offset == 0 {
                // D at the row above the block: its last row's value less every delta in it.
                values.push(
                    block.score + (block.vn & valid).count_ones() as usize
                        - (block.vp & valid).count_ones() as usize,
                );
            }
            let mut value = *values.last().expect("pushed above");
            for bit in 0..self.rows_in(w) {
                value = value + ((block.vp >> bit) & 1) as usize - ((block.vn >> bit) & 1) as usize;
                values.push(value);
            }
        }
        (start, values)
    }
}

/// The Levenshtein distance of `pattern` (rows, at least one symbol, `peq` built from it)
/// against `text` if it is at most `max`; else the bound to try next.
pub(super) fn levenshtein_within(
    peq: &PatternMatch,
    rows: usize,
    text: &[u32],
    max: usize,
) -> Result<usize, usize> {
    let next = |lasted| next_bound(max, lasted, text.len());
    let Some(mut band) = Band::new(peq, rows, text.len(), max) else {
        return Err(rows.abs_diff(text.len()));
    };
    for &symbol in text {
        if !band.advance(symbol) {
            return Err(next(band.columns_done()));
        }
    }
    band.distance().ok_or_else(|| band.next_bound(text.len()))
}

/// The first bound tried: one block's worth of band.
pub(super) const FIRST_BOUND: usize = 31;

/// The bound to try after `bound` failed, the band having lasted `lasted` of `columns`
/// columns: at least double, and at least twice the distance the rate so far points to (and
/// half a block more), so unrelated inputs do not try every power of two on the way up. The
/// band ends only once every block of a column is surely above the bound, after the bound was
/// crossed, so the rate underestimates: the factor two makes a second failed pass rare, while
/// the band stays narrower than one from a guess padded by a whole block (measured with
/// `benches/align_ops.py`: 1,000 and 10,000 symbols, one edit in ten).
pub(super) fn next_bound(bound: usize, lasted: usize, columns: usize) -> usize {
    let rate_estimate = bound
        .saturating_add(1)
        .saturating_mul(columns)
        .checked_div(lasted)
        .unwrap_or(usize::MAX);
    bound
        .saturating_mul(2)
        .max(rate_estimate.saturating_mul(2).saturating_add(32))
}

/// The Levenshtein distance of `pattern` (at least one symbol) against `text`, from the
/// strip's bound when it applies, else by bounds doubling from [`FIRST_BOUND`] until the band
/// holds it.
pub(super) fn levenshtein_banded(pattern: &[u32], text: &[u32]) -> usize {
    let peq = PatternMatch::new(pattern);
    let ceiling = pattern.len().max(text.len());
    let mut bound = super::strip::first_bound(&peq, pattern, text);
    loop {
        let max = bound.min(ceiling);
        match levenshtein_within(&peq, pattern.len(), text, max) {
            Ok(distance) => return distance,
            Err(next) => {
                debug_assert!(max < ceiling, "the distance is at most the longer length");
                bound = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix};
    use super::*;

    fn dp(a: &[u32], b: &[u32]) -> usize {
        Matrix::new(a, b, Costs::LEVENSHTEIN).distance().unwrap() as usize
    }

    #[test]
    fn bounds_below_the_distance_fail_and_above_give_it() {
        let a: Vec<u32> = (0..300u32).map(|i| i * 7 % 5).collect();
        let b: Vec<u32> = (0..260u32).map(|i| (i * 3 + 1) % 5).collect();
        let exact = dp(&a, &b);
        let peq = PatternMatch::new(&a);
        assert!(levenshtein_within(&peq, a.len(), &b, exact - 1).is_err());
        assert_eq!(levenshtein_within(&peq, a.len(), &b, exact), Ok(exact));
        assert_eq!(levenshtein_within(&peq, a.len(), &b, exact + 70), Ok(exact));
        assert_eq!(
            levenshtein_within(&peq, a.len(), &b, 39),
            Err(40),
            "lengths 40 apart"
        );
        assert!(
            next_bound(31, 10, 260) > 2 * 31,
            "a band that ran out early jumps"
        );
        assert_eq!(
            next_bound(31, 260, 260),
            2 * 32 + 32,
            "twice the rate, half a block more"
        );
        assert_eq!(
            next_bound(31, 100, 1000),
            2 * 320 + 32,
            "twice the rate's guess"
        );
        assert_eq!(levenshtein_banded(&a, &b), exact);
    }

    #[test]
    fn column_values_are_the_matrix_column_on_the_cheapest_paths() {
        let a: Vec<u32> = (0..200u32).map(|i| i % 7).collect();
        let mut b = a.clone();
        b.remove(90);
        b[150] = 9;
        let exact = dp(&a, &b);
        let matrix = Matrix::new(&a, &b, Costs::LEVENSHTEIN);
        let peq = PatternMatch::new(&a);
        let mut band = Band::new(&peq, a.len(), b.len(), exact).unwrap();
        for (j, &symbol) in b.iter().enumerate() {
            assert!(band.advance(symbol));
            let (start, values) = band.column_values();
            for (offset, &value) in values.iter().enumerate() {
                let truth = matrix.value(start + offset, j + 1).unwrap() as usize;
                assert!(value >= truth, "never below the matrix");
            }
        }
        assert_eq!(band.distance(), Some(exact));
    }
}
