//! The longest common subsequence by Hyyrö's bit-parallel algorithm, restricted to a band: a
//! common subsequence of length at least `min` only uses cells within `|b| - min` diagonals
//! below and `|a| - min` above the main one, so each column only updates the words there
//! (Hyyrö 2004, "Bit-parallel LCS-length computation revisited"). The insertion/deletion
//! distance is `|a| + |b| - 2·lcs`; a bound on it is a bound on the band, tried small first
//! and doubled, as for Levenshtein (see `band`).

use super::bitparallel::PatternMatch;
use super::short::{PatternTable, SHORT};

/// One word of the LCS update: `s` has a 0 bit for every row matched so far; `carry` is the
/// carry of the addition from the word below (lower rows).
#[inline(always)]
pub(super) fn lcs_word(s: u64, eq: u64, carry: u64) -> (u64, u64) {
    let u = s & eq;
    let wide = u128::from(s) + u128::from(u) + u128::from(carry);
    ((wide as u64) | (s - u), (wide >> 64) as u64)
}

/// The LCS length of the pattern `peq` was built from (`rows` symbols, at least one) and
/// `text`, if it is at least `min`; `None` if it is shorter.
pub(super) fn lcs_within(
    peq: &PatternMatch,
    rows: usize,
    text: &[u32],
    min: usize,
) -> Option<usize> {
    let columns = text.len();
    if min > rows.min(columns) {
        return None;
    }
    let (above, below) = (rows - min, columns - min);
    let mut s = vec![!0u64; peq.words];
    for (index, &symbol) in text.iter().enumerate() {
        let j = index + 1;
        // Rows j - below ..= j + above (1-based) can be on a long enough common subsequence.
        let first = (j.saturating_sub(below).max(1) - 1) / 64;
        let end = ((j + above).min(rows) - 1) / 64 + 1;
        let eqs = peq.vector(symbol);
        let mut carry = 0;
        for (slot, &eq) in s[first..end].iter_mut().zip(&eqs[first..end]) {
            (*slot, carry) = lcs_word(*slot, eq, carry);
        }
    }
    let length = matched(&s, rows);
    (length >= min).then_some(length)
}

/// The LCS length the state `s` holds: its 0 bits among the pattern's `rows`.
fn matched(s: &[u64], rows: usize) -> usize {
    let used = rows % 64;
    let last_mask = if used == 0 { !0 } else { (1u64 << used) - 1 };
    s.iter()
        .enumerate()
        .map(|(w, &bits)| {
            let mask = if w + 1 == s.len() { last_mask } else { !0 };
            (!bits & mask).count_ones() as usize
        })
        .sum()
}

/// The whole LCS for a pattern of `N` words (`rows` symbols, `eqs` giving each symbol's
/// match vector), without a band: for short patterns the band's bookkeeping costs more than
/// the words it leaves out, and a fixed number of words unrolls.
fn lcs_words<const N: usize>(rows: usize, text: &[u32], eqs: impl Fn(u32) -> [u64; N]) -> usize {
    let mut s = [!0u64; N];
    for &symbol in text {
        let eqs = eqs(symbol);
        let mut carry = 0;
        for (slot, &eq) in s.iter_mut().zip(&eqs) {
            (*slot, carry) = lcs_word(*slot, eq, carry);
        }
    }
    matched(&s, rows)
}

/// The first bound tried on the insertion/deletion distance.
const FIRST_BOUND: usize = 63;

/// The LCS length of `pattern` (at least one symbol) and `text`, by bounds on the
/// insertion/deletion distance doubling from [`FIRST_BOUND`] until the band holds it.
pub(super) fn lcs_banded(pattern: &[u32], text: &[u32]) -> usize {
    let rows = pattern.len();
    // Up to two words, the pattern's table is on the stack (see `short`).
    if rows <= 64 {
        let table = PatternTable::<1, 128>::new(pattern);
        return lcs_words(rows, text, |symbol| table.vector(symbol));
    } else if rows <= SHORT {
        let table = PatternTable::<2, 256>::new(pattern);
        return lcs_words(rows, text, |symbol| table.vector(symbol));
    }
    let peq = PatternMatch::new(pattern);
    match peq.words {
        3 => return lcs_words::<3>(rows, text, |symbol| peq.words_of(symbol)),
        4 => return lcs_words::<4>(rows, text, |symbol| peq.words_of(symbol)),
        _ => {}
    }
    let total = pattern.len() + text.len();
    let mut bound = FIRST_BOUND.max(pattern.len().abs_diff(text.len()));
    loop {
        // A distance of at most `bound` is a common subsequence of at least this.
        let min = total.saturating_sub(bound).div_ceil(2);
        if let Some(length) = lcs_within(&peq, pattern.len(), text, min) {
            return length;
        }
        debug_assert!(min > 0, "every pair has a common subsequence of length 0");
        bound = bound.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix};
    use super::*;

    #[test]
    fn band_below_the_length_fails_and_above_gives_it() {
        let a: Vec<u32> = (0..300u32).map(|i| i * 7 % 5).collect();
        let b: Vec<u32> = (0..260u32).map(|i| (i * 3 + 1) % 5).collect();
        let indel = Matrix::new(&a, &b, Costs::INDEL).distance().unwrap() as usize;
        let exact = (a.len() + b.len() - indel) / 2;
        let peq = PatternMatch::new(&a);
        assert_eq!(lcs_within(&peq, a.len(), &b, exact + 1), None);
        assert_eq!(lcs_within(&peq, a.len(), &b, exact), Some(exact));
        assert_eq!(lcs_within(&peq, a.len(), &b, 0), Some(exact));
        assert_eq!(lcs_banded(&a, &b), exact);
        assert_eq!(lcs_banded(&b, &a), exact);
        for cut in [1, 64, 65, 200, 256] {
            let whole = Matrix::new(&a[..cut], &b, Costs::INDEL).distance().unwrap() as usize;
            assert_eq!(
                lcs_banded(&a[..cut], &b),
                (cut + b.len() - whole) / 2,
                "{cut}"
            );
        }
    }
}
