//! The merge loop: repeatedly apply the lowest-ranked rule among adjacent pairs, leftmost
//! first on ties — the semantics of tiktoken, HuggingFace tokenizers and SentencePiece
//! (Definition 3 of Berglund & van der Merwe; see `formal/cases.json` in the conformance data).
//!
//! Short pieces use a linear scan (the common case, a word or two); long ones a tournament
//! tree over the ranks of adjacent pairs, O(n log n) in the piece length, so a megabyte
//! without a pre-tokenizer split stays fast. The tree keeps one rank a symbol and a small
//! summary above them, and a merged-away symbol is only marked (its neighbours are found by
//! stepping over marked ones, never more than a token's length), so a piece costs its symbols
//! and about 5 bytes more each, whatever the merges do: the bound `toklab tokenize` keeps on
//! one huge line with no cut. Both give the same result; a property test checks it.

use crate::core::trace::Observer;

use super::merge_table::{Merge, MergeTable};
use super::vocab::Vocab;

/// No token: a symbol the vocabulary lacks. It never merges.
pub const NO_ID: u32 = u32::MAX;

/// A symbol of a piece being merged: its token id and its first byte within the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The token id, or [`NO_ID`].
    pub id: u32,
    /// The first byte of the symbol within its piece; it ends where the next one starts.
    pub start: u32,
}

/// One applied merge, for traces: the rule, and where its left symbol starts in the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeStep {
    /// The rule's rank.
    pub rank: u32,
    /// Id of the left symbol.
    pub left: u32,
    /// Id of the right symbol.
    pub right: u32,
    /// Id of the token they became.
    pub merged: u32,
    /// Byte offset of the merged pair within the piece.
    pub start: u32,
}

/// Where the rule for two adjacent symbols comes from.
pub trait PairLookup {
    /// The rule for `left` followed by `right`, which ends at byte `end` of `piece`.
    fn pair(&self, piece: &[u8], left: Symbol, right: Symbol, end: u32) -> Option<Merge>;
}

impl PairLookup for MergeTable {
    #[inline]
    fn pair(&self, _piece: &[u8], left: Symbol, right: Symbol, _end: u32) -> Option<Merge> {
        self.get(left.id, right.id)
    }
}

/// Rank-only vocabularies (tiktoken): two symbols merge when their concatenation is a token,
/// ranked by that token's rank (its id). Needs no rule table, so loading stays fast.
pub struct ByConcatenation<'a>(pub &'a Vocab);

impl PairLookup for ByConcatenation<'_> {
    #[inline]
    fn pair(&self, piece: &[u8], left: Symbol, right: Symbol, end: u32) -> Option<Merge> {
        if left.id == NO_ID || right.id == NO_ID {
            return None;
        }
        let id = self.0.id(&piece[left.start as usize..end as usize])?;
        Some(Merge {
            rank: id,
            merged: id,
        })
    }
}

/// Pieces up to this many symbols use the linear scan with its ranks on the stack.
const STACK: usize = 16;
/// Pieces up to this many symbols use the linear scan; longer ones the tree.
const SMALL: usize = 128;
/// Leaves a block of the tree summarizes: its minimum is found again by a scan of the block.
/// Short blocks scan fast; a piece of more than [`KEEP`] symbols has blocks twice as long, so
/// its summary (rounded up to a power of two) stays near half a byte a symbol.
fn block_of(n: usize) -> usize {
    if n > KEEP { 16 } else { 8 }
}
/// Pieces of more symbols than this give their buffers back when merged, so what the caller
/// makes of the symbols next reuses that memory rather than adding to it.
const KEEP: usize = 1 << 16;
/// No rule: the rank of a pair that does not merge.
const NO_RANK: u32 = u32::MAX;
/// The `start` of a symbol merged into the one before it, while the tree runs.
const MERGED: u32 = u32::MAX;

thread_local! {
    /// Buffers reused across pieces, so long pieces do not allocate per call.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

#[derive(Default)]
struct Scratch {
    ranks: Vec<(u32, u32)>,
    /// By symbol: the rank of the pair it starts with its next live symbol ([`NO_RANK`]).
    leaves: Vec<u32>,
    /// A segment tree of the blocks' minimum ranks (root at 1, blocks from `tree.len() / 2`).
    tree: Vec<u32>,
}

/// Merges the symbols of `piece` in place. `observe` sees every step in order (pass `|_| {}`
/// to encode).
#[inline]
pub fn merge(
    symbols: &mut Vec<Symbol>,
    piece: &[u8],
    table: &impl PairLookup,
    observe: &mut (impl Observer<MergeStep> + ?Sized),
) {
    if symbols.len() < 2 {
        return;
    }
    let n = symbols.len();
    if n <= STACK {
        let mut ranks = [(u32::MAX, NO_ID); STACK];
        merge_small(symbols, piece, table, &mut ranks, observe);
        return;
    }
    SCRATCH.with(|cell| {
        // A re-entrant call (an observer that encodes) gets fresh buffers.
        let mut fresh = Scratch::default();
        let mut borrowed = cell.try_borrow_mut();
        let scratch = match borrowed.as_deref_mut() {
            Ok(scratch) => scratch,
            Err(_) => &mut fresh,
        };
        if n <= SMALL {
            scratch.ranks.clear();
            scratch.ranks.resize(n, (u32::MAX, NO_ID));
            merge_small(symbols, piece, table, &mut scratch.ranks, observe);
        } else {
            merge_tree(symbols, piece, table, scratch, observe);
            if n > KEEP {
                *scratch = Scratch::default();
            }
        }
    });
}

#[inline]
fn rank_at(table: &impl PairLookup, piece: &[u8], symbols: &[Symbol], i: usize) -> (u32, u32) {
    let end = symbols.get(i + 2).map_or(piece.len() as u32, |s| s.start);
    match table.pair(piece, symbols[i], symbols[i + 1], end) {
        Some(m) => (m.rank, m.merged),
        None => (u32::MAX, NO_ID),
    }
}

/// The linear scan: a rank per adjacent pair, the first minimum merged, its neighbours'
/// ranks refreshed. Quadratic in the worst case, but only for pieces of at most `SMALL`.
fn merge_small(
    symbols: &mut Vec<Symbol>,
    piece: &[u8],
    table: &impl PairLookup,
    ranks: &mut [(u32, u32)],
    observe: &mut (impl Observer<MergeStep> + ?Sized),
) {
    let n = symbols.len();
    for (i, slot) in ranks.iter_mut().enumerate().take(n - 1) {
        *slot = rank_at(table, piece, symbols, i);
    }
    let mut len = n;
    loop {
        let mut best = usize::MAX;
        let mut best_rank = u32::MAX;
        for (i, &(rank, _)) in ranks.iter().enumerate().take(len - 1) {
            if rank < best_rank {
                best_rank = rank;
                best = i;
            }
        }
        if best == usize::MAX {
            break;
        }
        let merged = ranks[best].1;
        observe.observe(MergeStep {
            rank: best_rank,
            left: symbols[best].id,
            right: symbols[best + 1].id,
            merged,
            start: symbols[best].start,
        });
        symbols[best].id = merged;
        symbols.remove(best + 1);
        ranks.copy_within(best + 2..len, best + 1);
        len -= 1;
        if best + 1 < len {
            ranks[best] = rank_at(table, piece, symbols, best);
        }
        if best > 0 {
            ranks[best - 1] = rank_at(table, piece, symbols, best - 1);
        }
        if len < 2 {
            break;
        }
    }
}

/// The tournament tree: the rank of each live symbol's pair with the next live one, the
/// minimum of each block of them ([`block_of`]), and a segment tree of those minimums. The
/// lowest rank is at the root; going down to the left child whenever it holds that rank, then
/// scanning the block, finds the leftmost pair with it. A merge changes the ranks of at most
/// three symbols (the merged one, the one merged away, the one before), each mended up its
/// path. Merged-away symbols stay in place, marked by a `start` of [`MERGED`], until the end.
fn merge_tree(
    symbols: &mut Vec<Symbol>,
    piece: &[u8],
    table: &impl PairLookup,
    scratch: &mut Scratch,
    observe: &mut (impl Observer<MergeStep> + ?Sized),
) {
    let n = symbols.len();
    let Scratch { leaves, tree, .. } = scratch;
    leaves.clear();
    leaves.extend((0..n).map(|i| match i + 1 < n {
        true => rank_at(table, piece, symbols, i).0,
        false => NO_RANK,
    }));
    let size = block_of(n);
    let blocks = n.div_ceil(size).next_power_of_two();
    tree.clear();
    tree.resize(2 * blocks, NO_RANK);
    for (b, block) in leaves.chunks(size).enumerate() {
        tree[blocks + b] = block.iter().copied().min().unwrap_or(NO_RANK);
    }
    for node in (1..blocks).rev() {
        tree[node] = tree[2 * node].min(tree[2 * node + 1]);
    }
    let live = |symbols: &[Symbol], k: usize| symbols[k].start != MERGED;
    let next = |symbols: &[Symbol], i: usize| (i + 1..n).find(|&k| live(symbols, k)).unwrap_or(n);
    let end_at = |symbols: &[Symbol], k: usize| match k < n {
        true => symbols[k].start,
        false => piece.len() as u32,
    };
    let rank = |symbols: &[Symbol], i: usize, j: usize, end: usize| match j < n {
        true => table.pair(piece, symbols[i], symbols[j], end_at(symbols, end)),
        false => None,
    };
    loop {
        let best = tree[1];
        if best == NO_RANK {
            break;
        }
        let mut node = 1;
        while node < blocks {
            node = 2 * node + usize::from(tree[2 * node] != best);
        }
        let first = (node - blocks) * size;
        let Some(i) = (first..(first + size).min(n)).find(|&k| leaves[k] == best) else {
            break;
        };
        let j = next(symbols, i);
        let after = next(symbols, j);
        let Some(m) = rank(symbols, i, j, after).filter(|m| m.rank == best) else {
            // The tree's ranks are those of the pairs as they are; nothing else can happen.
            break;
        };
        observe.observe(MergeStep {
            rank: best,
            left: symbols[i].id,
            right: symbols[j].id,
            merged: m.merged,
            start: symbols[i].start,
        });
        symbols[i].id = m.merged;
        symbols[j].start = MERGED;
        leaves[j] = NO_RANK;
        let beyond = match after < n {
            true => next(symbols, after),
            false => n,
        };
        leaves[i] = rank(symbols, i, after, beyond).map_or(NO_RANK, |m| m.rank);
        let before = (0..i).rev().find(|&k| live(symbols, k));
        if let Some(before) = before {
            leaves[before] = rank(symbols, before, i, after).map_or(NO_RANK, |m| m.rank);
        }
        // The blocks of `before`, `i` and `j`, in order, each mended once.
        let mut last = usize::MAX;
        for k in [before.unwrap_or(i), i, j] {
            if k / size != last {
                last = k / size;
                mend(leaves, tree, blocks, size, last);
            }
        }
    }
    symbols.retain(|s| s.start != MERGED);
}

/// Takes the minimum of block `b` (of `size` leaves) again and mends the minimums above it, as far as
/// they change.
#[inline]
fn mend(leaves: &[u32], tree: &mut [u32], blocks: usize, size: usize, b: usize) {
    let first = b * size;
    let block = &leaves[first..(first + size).min(leaves.len())];
    let least = block.iter().copied().min().unwrap_or(NO_RANK);
    let mut node = blocks + b;
    if tree[node] == least {
        return;
    }
    tree[node] = least;
    while node > 1 {
        node /= 2;
        let least = tree[2 * node].min(tree[2 * node + 1]);
        if tree[node] == least {
            break;
        }
        tree[node] = least;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::trace::Quiet;
    use proptest::prelude::*;

    /// The paper's Example 1 dictionary over a=0, b=1: [ab a (rank 0) → aba=3, a b (rank 1) → ab=2].
    fn example_one() -> MergeTable {
        let mut t = MergeTable::default();
        t.insert(2, 0, Merge { rank: 0, merged: 3 });
        t.insert(0, 1, Merge { rank: 1, merged: 2 });
        t
    }

    fn symbols(ids: &[u32]) -> Vec<Symbol> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| Symbol {
                id,
                start: i as u32,
            })
            .collect()
    }

    fn ids(s: &[Symbol]) -> Vec<u32> {
        s.iter().map(|s| s.id).collect()
    }

    #[test]
    fn highest_priority_leftmost_on_an_improper_dictionary() {
        // abababab → aba b aba b (SentencePiece semantics, what the libraries do).
        let t = example_one();
        let word = [0, 1, 0, 1, 0, 1, 0, 1];
        let mut small = symbols(&word);
        merge_small(
            &mut small,
            &[0; 8],
            &t,
            &mut [(u32::MAX, NO_ID); 8],
            &mut Quiet,
        );
        assert_eq!(ids(&small), [3, 1, 3, 1]);
        let mut heap = symbols(&word);
        merge_tree(&mut heap, &[0; 8], &t, &mut Scratch::default(), &mut Quiet);
        assert_eq!(ids(&heap), [3, 1, 3, 1]);
        assert_eq!(heap[1].start, 3);
    }

    #[test]
    fn steps_are_reported_in_order() {
        let t = example_one();
        let mut steps = Vec::new();
        let mut s = symbols(&[0, 1, 0]);
        merge(&mut s, &[0; 3], &t, &mut |step: MergeStep| {
            steps.push((step.rank, step.start))
        });
        assert_eq!(steps, [(1, 0), (0, 0)]);
        assert_eq!(ids(&s), [3]);
    }

    #[test]
    fn unknown_symbols_never_merge() {
        let t = example_one();
        let mut s = symbols(&[0, NO_ID, 1]);
        merge(&mut s, &[0; 3], &t, &mut Quiet);
        assert_eq!(ids(&s), [0, NO_ID, 1]);
    }

    proptest! {
        #[test]
        fn tree_and_scan_agree(word in proptest::collection::vec(0u32..3, 0..300)) {
            // A dictionary over a=0 b=1 c=2 with overlapping rules.
            let mut t = MergeTable::default();
            t.insert(0, 1, Merge { rank: 0, merged: 3 });
            t.insert(1, 2, Merge { rank: 1, merged: 4 });
            t.insert(3, 2, Merge { rank: 2, merged: 5 });
            t.insert(0, 4, Merge { rank: 2, merged: 5 });
            t.insert(5, 5, Merge { rank: 3, merged: 6 });
            t.insert(2, 2, Merge { rank: 4, merged: 7 });
            let bytes = vec![0u8; word.len()];
            let mut a = symbols(&word);
            let mut b = symbols(&word);
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            if a.len() >= 2 {
                if a.len() <= SMALL {
                    merge_small(&mut a, &bytes, &t, &mut vec![(u32::MAX, NO_ID); word.len()], &mut |s: MergeStep| sa.push(s));
                }
                merge_tree(&mut b, &bytes, &t, &mut Scratch::default(), &mut |s: MergeStep| sb.push(s));
                if word.len() <= SMALL {
                    prop_assert_eq!(&a, &b);
                    prop_assert_eq!(sa, sb);
                }
            }
        }
    }
}
