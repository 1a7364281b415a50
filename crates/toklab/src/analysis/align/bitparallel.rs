//! Distance-only algorithms that process 64 DP cells per machine word, for inputs too long for
//! the matrix: Myers' bit-vector Levenshtein in Hyyrö's multi-word form, and the bit-parallel
//! longest common subsequence (Allison & Dix; Hyyrö 2004) from which the insertion/deletion
//! distance follows. Both take O(⌈m/64⌉·n) time and O(⌈m/64⌉) words of state, m being the
//! shorter input.

use rustc_hash::FxHashMap;

use super::short::{PatternTable, SHORT};

/// For each symbol, the bit-vector of positions where it occurs in the pattern (Myers' `Peq`),
/// one `u64` per 64 positions. Symbols below 256 (ASCII, bytes) are in a flat table; the rest
/// (CJK, interned tokens) in a map, so memory follows the pattern, not the alphabet. A table
/// can be [`PatternMatch::set`] to another pattern, so many pairs in a row reuse one.
#[derive(Default)]
pub(super) struct PatternMatch {
    pub(super) words: usize,
    low: Vec<u64>,
    /// Which symbols below 256 have bits in `low`: what the next pattern has to clear.
    low_used: [u64; 4],
    high: FxHashMap<u32, Vec<u64>>,
    /// The vector of a symbol the pattern does not have.
    absent: Vec<u64>,
}

impl PatternMatch {
    pub(super) fn new(pattern: &[u32]) -> PatternMatch {
        let mut table = PatternMatch::default();
        table.set(pattern);
        table
    }

    /// Makes this the table of `pattern`, in the memory of the previous one: only the rows the
    /// previous pattern set are cleared, not the whole table.
    pub(super) fn set(&mut self, pattern: &[u32]) {
        for (chunk, used) in self.low_used.iter_mut().enumerate() {
            while *used != 0 {
                let symbol = 64 * chunk + used.trailing_zeros() as usize;
                self.low[symbol * self.words..(symbol + 1) * self.words].fill(0);
                *used &= *used - 1;
            }
        }
        self.high.clear();
        let words = pattern.len().div_ceil(64);
        self.words = words;
        self.low.resize(256 * words, 0);
        self.absent.resize(words, 0);
        for (position, &symbol) in pattern.iter().enumerate() {
            let (word, bit) = (position / 64, 1u64 << (position % 64));
            if symbol < 256 {
                self.low[symbol as usize * words + word] |= bit;
                self.low_used[symbol as usize / 64] |= 1 << (symbol % 64);
            } else {
                self.high.entry(symbol).or_insert_with(|| vec![0; words])[word] |= bit;
            }
        }
    }

    /// The match vector of `symbol`, one word per 64 pattern positions: looked up once per
    /// column, so a map lookup is not repeated for every word.
    #[inline]
    pub(super) fn vector(&self, symbol: u32) -> &[u64] {
        if symbol < 256 {
            let start = symbol as usize * self.words;
            &self.low[start..start + self.words]
        } else {
            self.high.get(&symbol).map_or(&self.absent, Vec::as_slice)
        }
    }

    /// The match vector of `symbol` as an array of the pattern's `N` words (all zero if the
    /// pattern has another number of words).
    #[inline]
    pub(super) fn words_of<const N: usize>(&self, symbol: u32) -> [u64; N] {
        self.vector(symbol)
            .first_chunk::<N>()
            .copied()
            .unwrap_or([0; N])
    }
}

/// The shorter input as the pattern (fewer words per column), the longer as the text.
fn pattern_and_text<'s>(a: &'s [u32], b: &'s [u32]) -> (&'s [u32], &'s [u32]) {
    if a.len() <= b.len() { (a, b) } else { (b, a) }
}

/// Levenshtein distance (insertion, deletion and substitution each 1). Without the common
/// prefix and suffix, a shorter side of one word runs in one word per column; longer ones run
/// banded (see `band`), the longer side as the pattern so there are fewer columns.
pub fn levenshtein(a: &[u32], b: &[u32]) -> usize {
    let (a, b) = super::strip_common(a, b);
    let (short, long) = pattern_and_text(a, b);
    if short.is_empty() {
        long.len()
    } else if short.len() <= 64 {
        let table = PatternTable::<1, 128>::new(short);
        myers_words(short.len(), long, |symbol| table.vector(symbol))
    } else if short.len() <= SHORT {
        let table = PatternTable::<2, 256>::new(short);
        myers_words(short.len(), long, |symbol| table.vector(symbol))
    } else {
        super::band::levenshtein_banded(long, short)
    }
}

/// Myers' algorithm over whole columns for a pattern of `N` words (`rows` symbols, `eqs`
/// giving each symbol's match vector): for short patterns the band's bookkeeping costs more
/// than the words it leaves out, and a fixed number of words unrolls.
fn myers_words<const N: usize>(rows: usize, text: &[u32], eqs: impl Fn(u32) -> [u64; N]) -> usize {
    let (mut vp, mut vn) = ([!0u64; N], [0u64; N]);
    let top = 1u64 << ((rows - 1) % 64);
    let mut score = rows;
    for &symbol in text {
        let (mut hp_in, mut hn_in) = (1u64, 0u64);
        let eqs = eqs(symbol);
        for word in 0..N {
            let block = Block::advance(eqs[word], vp[word], vn[word], hp_in, hn_in);
            (vp[word], vn[word]) = (block.vp, block.vn);
            (hp_in, hn_in) = block.carry(if word + 1 == N { top } else { 1 << 63 });
        }
        score = score + hp_in as usize - hn_in as usize;
    }
    score
}

/// The last row of the Levenshtein matrix of `pattern` (rows) against `text` (columns):
/// `D[|pattern|, j]` for every `j`, in O(⌈|pattern|/64⌉·|text|). Hirschberg's split needs
/// exactly this row.
pub fn levenshtein_row(pattern: &[u32], text: &[u32]) -> Vec<usize> {
    let mut row = Vec::with_capacity(text.len() + 1);
    row.push(pattern.len());
    myers_columns(pattern, text, |score| row.push(score));
    row
}

/// Runs Myers' algorithm (Hyyrö's multi-word form) over the columns of the matrix of `pattern`
/// against `text`, reporting `D[|pattern|, j]` after each column `j ≥ 1`.
fn myers_columns(pattern: &[u32], text: &[u32], mut column: impl FnMut(usize)) {
    if pattern.is_empty() {
        (1..=text.len()).for_each(column);
        return;
    }
    let peq = PatternMatch::new(pattern);
    let words = peq.words;
    let top = 1u64 << ((pattern.len() - 1) % 64);
    // Column state: the vertical deltas of the current column, +1 (vp) and -1 (vn) per row.
    // Column 0 is 0, 1, 2, … so every vertical delta is +1.
    let mut vp = vec![!0u64; words];
    let mut vn = vec![0u64; words];
    let mut score = pattern.len();
    for &symbol in text {
        // The horizontal delta entering word 0 from row 0: D[0, j] - D[0, j-1] = +1.
        let (mut hp_in, mut hn_in) = (1u64, 0u64);
        let eqs = peq.vector(symbol);
        for word in 0..words {
            let block = Block::advance(eqs[word], vp[word], vn[word], hp_in, hn_in);
            vp[word] = block.vp;
            vn[word] = block.vn;
            (hp_in, hn_in) = block.carry(if word + 1 == words { top } else { 1 << 63 });
        }
        score = score + hp_in as usize - hn_in as usize;
        column(score);
    }
}

/// One 64-row block of one column of Myers' algorithm: the vertical deltas of the column
/// (`vp`: `D[i, j] - D[i-1, j] = +1`, `vn`: `-1`) and the horizontal ones
/// (`hp`: `D[i, j] - D[i, j-1] = +1`, `hn`: `-1`), bit `k` being row `64·word + k + 1`. The
/// distance needs only the vertical ones; an alignment's backtrace reads all four.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Block {
    pub(super) vp: u64,
    pub(super) vn: u64,
    pub(super) hp: u64,
    pub(super) hn: u64,
}

impl Block {
    /// The block of the next column from the block above it in this column's (`hp_in`, `hn_in`:
    /// the horizontal delta entering at its first row, 0 or 1 each), the previous column's
    /// vertical deltas here (`vp`, `vn`) and the match vector `eq` of the column's symbol.
    #[inline(always)]
    pub(super) fn advance(eq: u64, vp: u64, vn: u64, hp_in: u64, hn_in: u64) -> Block {
        let x = eq | hn_in;
        let d0 = ((x & vp).wrapping_add(vp) ^ vp) | x | vn;
        let hp = vn | !(d0 | vp);
        let hn = d0 & vp;
        let shifted_hp = (hp << 1) | hp_in;
        let shifted_hn = (hn << 1) | hn_in;
        Block {
            vp: shifted_hn | !(d0 | shifted_hp),
            vn: shifted_hp & d0,
            hp,
            hn,
        }
    }

    /// The horizontal deltas leaving the block at the row of the bit `last` (its top bit, or
    /// the pattern's last row in the last block), as the next block's `hp_in`, `hn_in`.
    #[inline(always)]
    pub(super) fn carry(&self, last: u64) -> (u64, u64) {
        (
            u64::from(self.hp & last != 0),
            u64::from(self.hn & last != 0),
        )
    }
}

/// Length of a longest common subsequence. With it the insertion/deletion distance is
/// `|a| + |b| - 2·lcs`, and any costs where a substitution is no cheaper than a deletion plus
/// an insertion reduce to it. The common prefix and suffix count without work; the rest runs
/// banded (see `lcs`) with the longer side as the pattern, so there are fewer columns.
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (prefix, suffix) = super::common_affixes(a, b);
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let (short, long) = pattern_and_text(a, b);
    prefix
        + suffix
        + if short.is_empty() {
            0
        } else {
            super::lcs::lcs_banded(long, short)
        }
}

/// The LCS lengths of `pattern` with every prefix of `text` (`j = 0..=|text|`), for
/// Hirschberg's split under insertion/deletion costs.
pub fn lcs_row(pattern: &[u32], text: &[u32]) -> Vec<usize> {
    let mut row = Vec::with_capacity(text.len() + 1);
    row.push(0);
    lcs_columns(pattern, text, true, |length| row.push(length));
    row
}

/// The bit-parallel LCS over the columns of `text`. `every_column` reports the length after
/// each column (a popcount per column); otherwise only after the last.
fn lcs_columns(pattern: &[u32], text: &[u32], every_column: bool, mut column: impl FnMut(usize)) {
    if pattern.is_empty() {
        (0..text.len()).for_each(|_| column(0));
        return;
    }
    let peq = PatternMatch::new(pattern);
    let words = peq.words;
    let used = pattern.len() % 64;
    let last_mask = if used == 0 { !0 } else { (1u64 << used) - 1 };
    let length = |s: &[u64]| -> usize {
        s.iter()
            .enumerate()
            .map(|(word, &bits)| {
                let mask = if word + 1 == words { last_mask } else { !0 };
                (!bits & mask).count_ones() as usize
            })
            .sum()
    };
    // S has a 0 bit for each pattern position matched so far by the LCS frontier.
    let mut s = vec![!0u64; words];
    for (j, &symbol) in text.iter().enumerate() {
        let mut carry = 0;
        for (slot, &eq) in s.iter_mut().zip(peq.vector(symbol)) {
            (*slot, carry) = super::lcs::lcs_word(*slot, eq, carry);
        }
        if every_column || j + 1 == text.len() {
            column(length(&s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix, codepoints};
    use super::*;

    fn dp(a: &str, b: &str, costs: Costs) -> u64 {
        Matrix::new(&codepoints(a), &codepoints(b), costs)
            .distance()
            .unwrap()
    }

    #[test]
    fn textbook_pairs() {
        let lev = |a: &str, b: &str| levenshtein(&codepoints(a), &codepoints(b));
        assert_eq!(lev("intention", "execution"), 5);
        assert_eq!(lev("", "abc"), 3);
        assert_eq!(lev("abc", ""), 3);
        assert_eq!(
            lcs_len(&codepoints("intention"), &codepoints("execution")),
            5
        );
    }

    #[test]
    fn several_words_agree_with_the_matrix() {
        // Lengths around the word boundaries, over a small alphabet so edits cluster.
        let base: String = (0..300).map(|i| ["a", "b", "c", "語"][i * 7 % 4]).collect();
        for cut in [63, 64, 65, 127, 128, 129, 200, 300] {
            let a: String = base.chars().take(cut).collect();
            let b: String = base.chars().rev().take(cut * 2 / 3).collect();
            let (x, y) = (codepoints(&a), codepoints(&b));
            assert_eq!(
                levenshtein(&x, &y) as u64,
                dp(&a, &b, Costs::LEVENSHTEIN),
                "len {cut}"
            );
            let indel = (x.len() + y.len() - 2 * lcs_len(&x, &y)) as u64;
            assert_eq!(indel, dp(&a, &b, Costs::INDEL), "len {cut}");
        }
    }
}
