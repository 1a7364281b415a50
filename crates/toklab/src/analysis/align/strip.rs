//! A first bound for the band (see `band`) from one cheap pass: Myers' bit-vectors over a
//! strip of 64 diagonals around the line from the first cell to the last, one machine word per
//! column however long the pattern. The strip's cells are given the band's safe edges (a
//! horizontal delta of +1 entering at its top row, a vertical delta of +1 for the row that
//! enters at its bottom), so every value it computes is the cost of a real alignment and never
//! below the true one: its last cell is an upper bound on the distance, and the distance itself
//! whenever a cheapest alignment stays in the strip (inputs a few edits in a hundred apart, the
//! insertions and deletions balancing out). A band under that bound holds the distance at the
//! first try, where doubling from a small bound pays for passes that fail.

use super::band::FIRST_BOUND;
use super::bitparallel::{Block, PatternMatch};

/// The diagonals the strip covers: one word's rows per column.
const WIDTH: usize = 64;

/// The bound a band over `pattern` (rows, `peq` built from it) against `text` (neither empty)
/// starts from: the strip's upper bound on the distance when the pattern has at least a word of
/// rows, the lengths differ by less than the strip's width and the bound is at most an eighth
/// of the longer side; else [`FIRST_BOUND`] (or the length difference, below which no bound
/// holds), for the band to double from. The last condition keeps a cheapest alignment that
/// leaves the strip (a passage moved far) from paying for a band much wider than its distance:
/// doubling costs a few bands about twice the distance wide.
pub(super) fn first_bound(peq: &PatternMatch, pattern: &[u32], text: &[u32]) -> usize {
    let longer = pattern.len().max(text.len());
    strip_distance(peq, pattern.len(), text)
        .filter(|&bound| bound.saturating_mul(8) <= longer)
        .unwrap_or_else(|| FIRST_BOUND.max(pattern.len().abs_diff(text.len())))
}

/// The cost of the cheapest alignment within the strip, or `None` when the strip does not
/// apply (fewer than 64 rows, or lengths at least 64 apart).
fn strip_distance(peq: &PatternMatch, rows: usize, text: &[u32]) -> Option<usize> {
    let skew = rows as isize - text.len() as isize;
    if rows < WIDTH || text.is_empty() || skew.unsigned_abs() >= WIDTH {
        return None;
    }
    // The strip's diagonals (`i - j`) are `low..low + 64`: both ends' diagonals, 0 and the
    // skew, with the rest shared out on either side.
    let low = skew.min(0) - (WIDTH as isize - 1 - skew.abs()) / 2;
    let last_top = rows - (WIDTH - 1);
    // Column j's window is rows top..top + 63 (from 1): bit k is row top + k. It starts at the
    // matrix's first rows and moves down one row a column once the strip's diagonals call for
    // it, until it reaches the last row. `score` is `D` at the window's bottom row.
    let (mut vp, mut vn, mut top, mut score) = (!0u64, 0u64, 1usize, WIDTH);
    for (j, &symbol) in (1isize..).zip(text) {
        let wanted = (j + low).clamp(1, last_top as isize) as usize;
        let shift = wanted > top;
        if shift {
            // The row entering at the bottom is taken as one more than the row above it.
            (vp, vn, top) = ((vp >> 1) | 1 << 63, vn >> 1, wanted);
        }
        let eq = window(peq.vector(symbol), top - 1);
        let next = Block::advance(eq, vp, vn, 1, 0);
        score = if shift {
            // Along the row above the new bottom row, then down to it.
            score + (next.hp >> 62 & 1) as usize - (next.hn >> 62 & 1) as usize
                + (next.vp >> 63) as usize
                - (next.vn >> 63) as usize
        } else {
            score + (next.hp >> 63) as usize - (next.hn >> 63) as usize
        };
        (vp, vn) = (next.vp, next.vn);
    }
    debug_assert_eq!(top, last_top, "the strip ends at the last row");
    Some(score)
}

/// The 64 bits of a match vector from bit `offset` on (bits past the pattern are 0).
#[inline(always)]
fn window(vector: &[u64], offset: usize) -> u64 {
    let (word, bit) = (offset / 64, offset % 64);
    let low = vector[word] >> bit;
    match vector.get(word + 1) {
        Some(&high) if bit > 0 => low | high << (64 - bit),
        _ => low,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix};
    use super::*;

    fn dp(a: &[u32], b: &[u32]) -> usize {
        Matrix::new(a, b, Costs::LEVENSHTEIN).distance().unwrap() as usize
    }

    fn strip(a: &[u32], b: &[u32]) -> Option<usize> {
        strip_distance(&PatternMatch::new(a), a.len(), b)
    }

    #[test]
    fn close_inputs_give_the_distance() {
        let a: Vec<u32> = (0..700u32).map(|i| (i * 7 + i / 13) % 11).collect();
        let mut b = a.clone();
        for at in [600, 450, 300, 299, 120, 5] {
            b.remove(at);
        }
        for at in [650, 500, 200, 64, 63] {
            b.insert(at, 20);
        }
        b[400] = 21;
        assert_eq!(strip(&a, &b), Some(dp(&a, &b)));
        assert_eq!(strip(&b, &a), Some(dp(&a, &b)));
        assert_eq!(strip(&a, &a), Some(0));
    }

    #[test]
    fn a_path_outside_the_strip_gives_a_bound_above_the_distance() {
        // 100 symbols moved from the front to the back: the cheapest alignment runs 100
        // diagonals off the strip's, so the strip's alignment costs more, never less.
        let a: Vec<u32> = (0..500u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> 27)
            .collect();
        let b: Vec<u32> = a[100..].iter().chain(&a[..100]).copied().collect();
        let bound = strip(&a, &b).unwrap();
        assert!(bound > dp(&a, &b), "{bound}");
        assert!(bound <= a.len());
        // Above an eighth of the length the band doubles from the small bound instead.
        assert!(8 * bound > a.len());
        assert_eq!(first_bound(&PatternMatch::new(&a), &a, &b), FIRST_BOUND);
        let mut near = a.clone();
        near[250] = 99;
        assert_eq!(first_bound(&PatternMatch::new(&a), &a, &near), 1);
    }

    #[test]
    fn the_strip_applies_to_a_pattern_of_a_word_and_lengths_less_than_a_word_apart() {
        let a: Vec<u32> = (0..64u32).collect();
        assert_eq!(strip(&a, &a[..1]), Some(63));
        assert_eq!(strip(&a[..63], &a[..1]), None);
        let long: Vec<u32> = (0..200u32).collect();
        assert_eq!(strip(&long, &long[..137]), Some(63));
        assert_eq!(strip(&long, &long[..136]), None);
        assert_eq!(
            first_bound(&PatternMatch::new(&long), &long, &long[..36]),
            164
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Never below the distance; the distance itself when the edits are few.
        #[test]
        fn never_below_the_distance(
            a in proptest::collection::vec(0u32..5, 64..400),
            edits in proptest::collection::vec((0usize..400, 0u32..8), 0..60),
        ) {
            let b = super::super::edited(&a, &edits, 9, 8);
            let exact = dp(&a, &b);
            if let Some(bound) = strip(&a, &b) {
                proptest::prop_assert!(bound >= exact, "{} < {}", bound, exact);
                proptest::prop_assert!(bound <= a.len().max(b.len()));
            }
            let few: Vec<u32> = a.iter().enumerate().filter(|&(i, _)| i % 50 != 7).map(|(_, &s)| s).collect();
            proptest::prop_assert_eq!(strip(&a, &few), Some(dp(&a, &few)));
        }
    }
}
