//! The matrix backtrace without the matrix: under costs where every operation costs the same,
//! the bit-vectors of Myers' algorithm over the band of cells a cheapest path can reach (see
//! `band`) hold every value the backtrace asks for, so the alignment is
//! [`Matrix::backtrace`]'s, tie for tie, at the speed of the bit-parallel distance and in
//! memory proportional to the distance times the length (when a side is short, every whole
//! column is kept instead: see `short`). When even the band is too large to keep, the alignment is split in two by Hirschberg's method, the split found from two banded
//! passes, until the parts fit. Other costs fill the matrix directly.

use super::band::{Band, BandBlock, next_bound};
use super::bitparallel::{PatternMatch, levenshtein};
use super::strip::first_bound;
use super::{AlignedPair, Alignment, Costs, Matrix, Op, common_affixes, short};

/// The most band blocks (24 bytes each) kept for one backtrace: 24 MB, under the size above
/// which the allocator maps fresh zeroed pages for every call. Above it the alignment is split
/// until its parts fit.
pub(super) const STORED_BLOCKS: usize = 1 << 20;

/// The alignment [`Matrix::backtrace`] gives for `a` (rows) against `b` (columns): diagonal
/// first, then deletion, then insertion wherever several are optimal.
pub fn backtrace(a: &[u32], b: &[u32], costs: Costs) -> Alignment {
    if is_unit(costs)
        && !a.is_empty()
        && !b.is_empty()
        && let Ok((pairs, distance)) = doubling_backtrace(a, b, usize::MAX)
    {
        return Alignment {
            pairs,
            cost: distance as u64 * u64::from(costs.ins),
        };
    }
    Matrix::new(a, b, costs)
        .backtrace()
        .expect("a new matrix is complete")
}

/// Every operation at the same positive price: Levenshtein's distance scaled.
pub(super) fn is_unit(costs: Costs) -> bool {
    costs.ins == costs.del && costs.del == costs.sub && costs.ins > 0
}

/// One minimum-cost alignment under unit costs, and its number of edits: the matrix's
/// backtrace when the band fits in [`STORED_BLOCKS`], else Hirschberg's split into parts
/// that do (any of the cheapest alignments then).
pub(super) fn unit_align(a: &[u32], b: &[u32]) -> (Vec<AlignedPair>, usize) {
    let mut pairs = Vec::with_capacity(a.len().max(b.len()));
    if a.is_empty() || b.is_empty() {
        gaps(a.len(), b.len(), (0, 0), &mut pairs);
        return (pairs, a.len() + b.len());
    }
    let too_wide = match doubling_backtrace(a, b, STORED_BLOCKS) {
        Ok(found) => return found,
        Err(too_wide) => too_wide,
    };
    // The split needs a bound on the distance; when the band is the whole matrix anyway
    // (unrelated inputs), finding the distance first would be one more pass for nothing.
    let bound = if too_wide >= a.len().max(b.len()) {
        too_wide
    } else {
        levenshtein(a, b)
    };
    split(a, 0, b, 0, bound, STORED_BLOCKS, &mut pairs);
    let distance = pairs.iter().filter(|p| p.op != Op::Match).count();
    (pairs, distance)
}

/// The matrix's backtrace under unit costs (neither side empty), and the distance. The common
/// suffix is left out (the backtrace crosses it diagonally: equal last symbols make
/// `D[i, j] = D[i-1, j-1]`), not the prefix (the backtrace may leave it early). When a side
/// is short, from every whole column (see `short`); else from the band stored under a bound
/// that doubles from a small one (as the distance alone is found) until it holds the
/// distance; else the first bound whose band would not fit in `budget` blocks.
fn doubling_backtrace(
    a: &[u32],
    b: &[u32],
    budget: usize,
) -> Result<(Vec<AlignedPair>, usize), usize> {
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (rows, columns) = (a.len() - suffix, b.len() - suffix);
    let (mut pairs, distance) = if rows == 0 || columns == 0 {
        let mut pairs = Vec::with_capacity(a.len().max(b.len()));
        gaps(rows, columns, (0, 0), &mut pairs);
        (pairs, rows + columns)
    } else if let Some(found) = short::backtrace(&a[..rows], &b[..columns], budget, Ties::Matrix) {
        found
    } else {
        banded_backtrace(&a[..rows], &b[..columns], budget)?
    };
    pairs.extend((0..suffix).map(|k| AlignedPair {
        op: Op::Match,
        a: Some(rows + k),
        b: Some(columns + k),
    }));
    Ok((pairs, distance))
}

/// [`doubling_backtrace`] from the band (neither side empty).
fn banded_backtrace(
    a: &[u32],
    b: &[u32],
    budget: usize,
) -> Result<(Vec<AlignedPair>, usize), usize> {
    let peq = PatternMatch::new(a);
    let ceiling = a.len().max(b.len());
    let mut bound = first_bound(&peq, a, b);
    loop {
        let max = bound.min(ceiling);
        if !fits(a.len(), b.len(), max, budget) {
            return Err(max);
        }
        let mut stored = StoredBand::default();
        match stored.fill(&peq, a, b, max) {
            Ok(distance) => {
                let mut pairs = Vec::with_capacity(a.len().max(b.len()));
                stored.trace(a, b, distance, (0, 0), Ties::Matrix, &mut pairs);
                return Ok((pairs, distance));
            }
            Err(_) if max == ceiling => return Err(max),
            Err(next) => bound = next,
        }
    }
}

/// Whether the band of `rows` × `columns` under the bound `max` fits in `budget` blocks.
fn fits(rows: usize, columns: usize, max: usize, budget: usize) -> bool {
    columns.saturating_mul(Band::widest(rows, max)) <= budget
}

/// Deletions of `rows` source symbols then insertions of `columns` target symbols, from
/// `origin` on: an alignment with an empty side.
pub(super) fn gaps(
    rows: usize,
    columns: usize,
    origin: (usize, usize),
    out: &mut Vec<AlignedPair>,
) {
    out.extend((0..rows).map(|i| AlignedPair {
        op: Op::Del,
        a: Some(origin.0 + i),
        b: None,
    }));
    out.extend((0..columns).map(|j| AlignedPair {
        op: Op::Ins,
        a: None,
        b: Some(origin.1 + j),
    }));
}

/// Hirschberg's divide and conquer under unit costs, `distance` being a bound on the part's
/// distance (the distance itself for the narrowest bands): the part's common prefix and
/// suffix are matches; the rest is split at the middle column, in the row where the forward
/// and backward passes (both banded by the bound) add up to the least, and each side is
/// solved with its own distance. Parts whose band fits in `budget`
/// blocks are traced back.
fn split(
    a: &[u32],
    a0: usize,
    b: &[u32],
    b0: usize,
    distance: usize,
    budget: usize,
    out: &mut Vec<AlignedPair>,
) {
    let (prefix, suffix) = common_affixes(a, b);
    out.extend((0..prefix).map(|k| AlignedPair {
        op: Op::Match,
        a: Some(a0 + k),
        b: Some(b0 + k),
    }));
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let (a0, b0) = (a0 + prefix, b0 + prefix);
    if a.is_empty() || b.is_empty() {
        gaps(a.len(), b.len(), (a0, b0), out);
    } else if fits(a.len(), b.len(), distance, budget) || b.len() < 2 {
        let mut stored = StoredBand::default();
        match stored.fill(&PatternMatch::new(a), a, b, distance) {
            Ok(distance) => stored.trace(a, b, distance, (a0, b0), Ties::Matrix, out),
            Err(_) => shifted(backtrace(a, b, Costs::LEVENSHTEIN), (a0, b0), out),
        }
    } else {
        match split_point(a, b, distance, 0) {
            Some((row, left, right)) => {
                let column = b.len() / 2;
                split(&a[..row], a0, &b[..column], b0, left, budget, out);
                split(
                    &a[row..],
                    a0 + row,
                    &b[column..],
                    b0 + column,
                    right,
                    budget,
                    out,
                );
            }
            None => shifted(backtrace(a, b, Costs::LEVENSHTEIN), (a0, b0), out),
        }
    }
    let (a_end, b_end) = (a0 + a.len(), b0 + b.len());
    out.extend((0..suffix).map(|k| AlignedPair {
        op: Op::Match,
        a: Some(a_end + k),
        b: Some(b_end + k),
    }));
}

/// Appends `alignment`'s pairs with their indices moved by `origin`.
fn shifted(alignment: Alignment, origin: (usize, usize), out: &mut Vec<AlignedPair>) {
    out.extend(alignment.pairs.into_iter().map(|p| AlignedPair {
        op: p.op,
        a: p.a.map(|i| i + origin.0),
        b: p.b.map(|j| j + origin.1),
    }));
}

/// The row where a cheapest path crosses the middle column of `b`, and the distances before
/// and after it; `None` if `distance` was below the distance (never, for a right caller).
pub(super) fn split_point(
    a: &[u32],
    b: &[u32],
    distance: usize,
    first_row: usize,
) -> Option<(usize, usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let column = m / 2;
    let middle_column = |pattern: &[u32], text: &[u32]| -> Option<(usize, Vec<usize>)> {
        let peq = PatternMatch::new(pattern);
        let mut band = Band::new(&peq, n, m, distance)?;
        for &symbol in text {
            if !band.advance(symbol) {
                return None;
            }
        }
        Some(band.column_values())
    };
    let (start, forward) = middle_column(a, &b[..column])?;
    let a_reversed: Vec<u32> = a.iter().rev().copied().collect();
    let b_reversed: Vec<u32> = b[column..].iter().rev().copied().collect();
    let (back_start, backward) = middle_column(&a_reversed, &b_reversed)?;
    // Row i forward is row n - i backward.
    let lowest = start
        .max(n.saturating_sub(back_start + backward.len() - 1))
        .max(first_row);
    let highest = (start + forward.len() - 1).min(n - back_start);
    let (row, left, right) = (lowest..=highest)
        .map(|i| (i, forward[i - start], backward[n - i - back_start]))
        .min_by_key(|&(_, left, right)| left + right)?;
    (left + right <= distance).then_some((row, left, right))
}

/// The band's blocks of every column of the matrix of `a` (rows) against `b`: enough to read
/// any value a backtrace under unit costs asks for. Filling one again reuses its memory.
#[derive(Default)]
pub(super) struct StoredBand {
    rows: usize,
    /// Column `j`'s first block and where its blocks start in `blocks` (column 0 has none;
    /// one more entry marks the end).
    columns: Vec<(usize, usize)>,
    blocks: Vec<BandBlock>,
}

impl StoredBand {
    /// Stores the band of `a` (`peq` built from it) against `b` under the bound `max` (the
    /// distance, for the narrowest band) and returns the distance; if the distance is above the
    /// bound, the bound to try next (what is stored is then of no use). Neither may be empty.
    pub(super) fn fill(
        &mut self,
        peq: &PatternMatch,
        a: &[u32],
        b: &[u32],
        max: usize,
    ) -> Result<usize, usize> {
        let next = |lasted| next_bound(max, lasted, b.len());
        let Some(mut band) = Band::new(peq, a.len(), b.len(), max) else {
            return Err(a.len().abs_diff(b.len()));
        };
        let (columns, blocks) = (&mut self.columns, &mut self.blocks);
        self.rows = a.len();
        columns.clear();
        blocks.clear();
        columns.reserve(b.len() + 2);
        blocks.reserve(b.len().saturating_mul(Band::widest(a.len(), max)));
        columns.push((0, 0));
        for &symbol in b {
            if !band.advance(symbol) {
                return Err(next(band.columns_done()));
            }
            let (first, current) = band.current();
            columns.push((first, blocks.len()));
            blocks.extend_from_slice(current);
        }
        columns.push((0, blocks.len()));
        band.distance().ok_or_else(|| band.next_bound(b.len()))
    }

    /// The block holding row `i` (from 1) of column `j` (from 1) if the band kept it, and the
    /// row's bit in it.
    #[inline]
    fn block_of(&self, i: usize, j: usize) -> Option<(&BandBlock, usize)> {
        let (first, start) = self.columns[j];
        let end = self.columns[j + 1].1;
        let w = (i - 1) / 64;
        let index = start + w.checked_sub(first)?;
        (index < end).then(|| (&self.blocks[index], (i - 1) % 64))
    }

    /// Appends the backtrace from the last cell (of value `distance`), with indices moved by
    /// `origin`.
    pub(super) fn trace(
        &self,
        a: &[u32],
        b: &[u32],
        distance: usize,
        origin: (usize, usize),
        ties: Ties,
        out: &mut Vec<AlignedPair>,
    ) {
        trace(a, b, distance, origin, ties, out, self);
    }
}

/// What a backtrace under unit costs reads of the matrix. The two questions it asks at most
/// steps have default answers from [`Cells::value`]; cells that keep Myers' vertical deltas
/// answer them from one bit, which is what makes a long backtrace cheap.
pub(super) trait Cells {
    /// `D[i, j]`, or `None` where it was not kept (off the cheapest paths, which a backtrace
    /// never takes; a kept value there may also be an overestimate).
    fn value(&self, i: usize, j: usize) -> Option<usize>;

    /// Whether `D[i-1, j]` is one less than `D[i, j]`, which is `here` (`i`, `j` from 1): a
    /// deletion is a cheapest step.
    fn up_is_one_less(&self, i: usize, j: usize, here: usize) -> bool {
        here > 0 && self.value(i - 1, j) == Some(here - 1)
    }

    /// Whether `D[i, j-1]` is one less than `here` and `D[i-1, j-1]` equals it (`i`, `j` from
    /// 1): an insertion as cheap as the diagonal.
    fn left_is_one_less_below_equal(&self, i: usize, j: usize, here: usize) -> bool {
        here > 0 && self.value(i, j - 1) == Some(here - 1) && self.value(i - 1, j - 1) == Some(here)
    }
}

/// Any function of `(i, j)` giving `D[i, j]`, asked every question through it.
impl<F: Fn(usize, usize) -> Option<usize>> Cells for F {
    fn value(&self, i: usize, j: usize) -> Option<usize> {
        self(i, j)
    }
}

impl Cells for StoredBand {
    fn value(&self, i: usize, j: usize) -> Option<usize> {
        if j == 0 {
            return Some(i);
        }
        if i == 0 {
            return Some(j);
        }
        let (block, bit) = self.block_of(i, j)?;
        let w = (i - 1) / 64;
        Some(block.value_at(bit, Band::valid_mask(self.rows, w)))
    }

    fn up_is_one_less(&self, i: usize, j: usize, here: usize) -> bool {
        // Row i - 1 in the same block: `D[i-1, j]` is `D[i, j]` less the vertical delta of row
        // `i`, +1 exactly where VP has the row's bit (`D[i, j]` is `here`: the backtrace only
        // visits cells on a cheapest path, where the band's values are exact).
        match self.block_of(i, j) {
            Some((block, bit)) if bit > 0 => block.vp >> bit & 1 == 1,
            _ => here > 0 && self.value(i - 1, j) == Some(here - 1),
        }
    }

    fn left_is_one_less_below_equal(&self, i: usize, j: usize, here: usize) -> bool {
        // In column j - 1, `D[i, j-1]` is `D[i-1, j-1] - 1` exactly where VN has row i's bit;
        // without it the pair cannot be one less then equal, and the value is not looked up.
        match (j > 1).then(|| self.block_of(i, j - 1)).flatten() {
            Some((block, bit)) if bit > 0 => {
                block.vn >> bit & 1 == 1 && self.value(i - 1, j - 1) == Some(here)
            }
            _ => {
                here > 0
                    && self.value(i, j - 1) == Some(here - 1)
                    && self.value(i - 1, j - 1) == Some(here)
            }
        }
    }
}

/// Which of several equally cheap steps a backtrace under unit costs takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ties {
    /// Diagonal first, then up (deletion), then left (insertion), as [`Matrix::backtrace`]
    /// orders the arrows: what the workbench and `--matrix` show.
    Matrix,
    /// Deletion first; then insertion where the diagonal cell is one above the left one;
    /// else the diagonal: the order rapidfuzz's `Levenshtein.editops` reads its bit-vectors
    /// in, so `align --format ops` lists the operations a script written for it expects.
    Rapidfuzz,
}

impl Ties {
    /// The step back from cell `(i, j)` (both from 1) of value `here` whose symbols are
    /// `equal`, reading `cells`.
    #[inline]
    fn step(self, equal: bool, i: usize, j: usize, here: usize, cells: &impl Cells) -> Op {
        let diagonal = if equal { Op::Match } else { Op::Sub };
        match self {
            // Equal symbols make `D[i-1, j-1] = D[i, j]` (a cell is never below its diagonal
            // neighbour, nor more than one above its other neighbours): the diagonal is taken
            // without asking.
            Ties::Matrix if equal || (here > 0 && cells.value(i - 1, j - 1) == Some(here - 1)) => {
                diagonal
            }
            Ties::Matrix if cells.up_is_one_less(i, j, here) => Op::Del,
            Ties::Matrix => {
                debug_assert_eq!(cells.value(i, j - 1), here.checked_sub(1));
                Op::Ins
            }
            Ties::Rapidfuzz if cells.up_is_one_less(i, j, here) => Op::Del,
            // The diagonal neighbour one above the left one (and so equal to this cell) makes
            // the insertion a cheapest step, and rapidfuzz prefers it to the diagonal.
            Ties::Rapidfuzz if cells.left_is_one_less_below_equal(i, j, here) => Op::Ins,
            Ties::Rapidfuzz => diagonal,
        }
    }
}

/// Appends a backtrace of `a` (rows) against `b` (columns) under unit costs from the last cell
/// (of value `distance`), choosing among equally cheap steps by `ties`, with indices moved by
/// `origin`, reading the matrix from `cells`.
pub(super) fn trace(
    a: &[u32],
    b: &[u32],
    distance: usize,
    origin: (usize, usize),
    ties: Ties,
    out: &mut Vec<AlignedPair>,
    cells: &impl Cells,
) {
    let (mut i, mut j, mut here) = (a.len(), b.len(), distance);
    let start = out.len();
    while i > 0 && j > 0 {
        let op = ties.step(a[i - 1] == b[j - 1], i, j, here, cells);
        out.push(AlignedPair {
            op,
            a: (op != Op::Ins).then(|| origin.0 + i - 1),
            b: (op != Op::Del).then(|| origin.1 + j - 1),
        });
        i -= usize::from(op != Op::Ins);
        j -= usize::from(op != Op::Del);
        here = here.saturating_sub(usize::from(op != Op::Match));
    }
    out.extend((0..i).rev().map(|k| AlignedPair {
        op: Op::Del,
        a: Some(origin.0 + k),
        b: None,
    }));
    out.extend((0..j).rev().map(|k| AlignedPair {
        op: Op::Ins,
        a: None,
        b: Some(origin.1 + k),
    }));
    out[start..].reverse();
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

    #[test]
    fn split_alignments_cost_the_distance_and_replay() {
        // Budgets from none (split down to single columns) to a few columns' worth.
        let a: Vec<u32> = (0..900u32).map(|i| (i * 7 + i / 13) % 6).collect();
        let mut b = a.clone();
        for k in (0..b.len()).step_by(17).rev() {
            match k % 3 {
                0 => b[k] = 9,
                1 => drop(b.remove(k)),
                _ => b.insert(k, 8),
            }
        }
        let distance = levenshtein(&a, &b);
        for budget in [0, 10, 200, 2_000] {
            let mut pairs = Vec::new();
            split(&a, 0, &b, 0, distance, budget, &mut pairs);
            let alignment = Alignment {
                cost: pairs.iter().map(|p| Costs::LEVENSHTEIN.of(p.op)).sum(),
                pairs,
            };
            assert_eq!(alignment.replay(&a, &b).unwrap(), b, "budget {budget}");
            assert_eq!(alignment.cost, distance as u64, "budget {budget}");
        }
        assert_eq!(
            distance as u64,
            Matrix::new(&a, &b, Costs::LEVENSHTEIN).distance().unwrap()
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(150))]

        /// Splits down to any budget, under any bound at or above the distance, cost what the
        /// two-row DP says and replay.
        #[test]
        fn split_at_any_budget_is_a_cheapest_alignment(
            a in proptest::collection::vec(proptest::prop_oneof![0u32..3, proptest::strategy::Just(0x8a9e)], 0..400),
            edits in proptest::collection::vec((0usize..400, 0u32..4), 0..60),
            budget in 0usize..40,
            slack in proptest::prop_oneof![proptest::strategy::Just(0usize), 1usize..500],
        ) {
            let mut b = a.clone();
            for (at, what) in edits {
                let at = at.min(b.len());
                match what {
                    0 if at < b.len() => b[at] = 7,
                    1 if at < b.len() => drop(b.remove(at)),
                    _ => b.insert(at, what),
                }
            }
            let distance = levenshtein(&a, &b);
            proptest::prop_assert_eq!(distance as u64, super::super::general_distance(&a, &b, Costs::LEVENSHTEIN));
            let mut pairs = Vec::new();
            // Any bound at or above the distance does.
            split(&a, 0, &b, 0, distance + slack, budget, &mut pairs);
            let alignment = Alignment {
                cost: pairs.iter().map(|p| Costs::LEVENSHTEIN.of(p.op)).sum(),
                pairs,
            };
            proptest::prop_assert_eq!(alignment.cost, distance as u64);
            proptest::prop_assert_eq!(alignment.replay(&a, &b).unwrap(), b);
        }
    }
}
