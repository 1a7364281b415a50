//! The merge loop: repeatedly apply the lowest-ranked rule among adjacent pairs, leftmost
//! first on ties — the semantics of tiktoken, HuggingFace tokenizers and SentencePiece
//! (Definition 3 of Berglund & van der Merwe; see `formal/cases.json` in the conformance data).
//!
//! Short pieces use a linear scan (the common case, a word or two); long ones a heap over a
//! linked list, O(n log n) in the piece length, so a megabyte without a pre-tokenizer split
//! stays fast. Both give the same result; a property test checks it.

use crate::core::trace::Observer;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
/// Pieces up to this many symbols use the linear scan; longer ones the heap.
const SMALL: usize = 128;

thread_local! {
    /// Buffers reused across pieces, so long pieces do not allocate per call.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

#[derive(Default)]
struct Scratch {
    ranks: Vec<(u32, u32)>,
    next: Vec<u32>,
    prev: Vec<u32>,
    alive: Vec<bool>,
    heap: BinaryHeap<Reverse<u64>>,
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
    SCRATCH.with(|scratch| {
        // A re-entrant call (an observer that encodes) gets fresh buffers.
        let mut fresh = Scratch::default();
        let mut borrowed = scratch.try_borrow_mut();
        let scratch = match borrowed.as_deref_mut() {
            Ok(scratch) => scratch,
            Err(_) => &mut fresh,
        };
        if n <= SMALL {
            scratch.ranks.clear();
            scratch.ranks.resize(n, (u32::MAX, NO_ID));
            merge_small(symbols, piece, table, &mut scratch.ranks, observe);
        } else {
            merge_heap(symbols, piece, table, scratch, observe);
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

/// The heap: candidate pairs keyed by (rank, left index); stale entries (a neighbour has
/// changed since) are skipped when popped. Linked through `next`/`prev`; a merged-away
/// symbol is marked by `NO_ID` in `alive`.
fn merge_heap(
    symbols: &mut Vec<Symbol>,
    piece: &[u8],
    table: &impl PairLookup,
    scratch: &mut Scratch,
    observe: &mut (impl Observer<MergeStep> + ?Sized),
) {
    let n = symbols.len();
    let Scratch {
        next,
        prev,
        alive,
        heap,
        ..
    } = scratch;
    next.clear();
    next.extend(1..=n as u32);
    prev.clear();
    prev.extend((0..n as u32).map(|i| i.wrapping_sub(1)));
    alive.clear();
    alive.resize(n, true);
    heap.clear();
    let end = n as u32;
    let end_of = |next: &[u32], symbols: &[Symbol], j: u32| {
        let after = next[j as usize];
        if after == end {
            piece.len() as u32
        } else {
            symbols[after as usize].start
        }
    };
    let lookup = |next: &[u32], symbols: &[Symbol], i: u32, j: u32| {
        table.pair(
            piece,
            symbols[i as usize],
            symbols[j as usize],
            end_of(next, symbols, j),
        )
    };
    let push =
        |heap: &mut BinaryHeap<Reverse<u64>>, next: &[u32], symbols: &[Symbol], i: u32, j: u32| {
            if let Some(m) = lookup(next, symbols, i, j) {
                heap.push(Reverse((u64::from(m.rank) << 32) | u64::from(i)));
            }
        };
    for i in 0..n as u32 - 1 {
        push(heap, next, symbols, i, i + 1);
    }
    while let Some(Reverse(entry)) = heap.pop() {
        let rank = (entry >> 32) as u32;
        let i = entry as u32;
        let j = next[i as usize];
        if !alive[i as usize] || j == end {
            continue;
        }
        let Some(m) = lookup(next, symbols, i, j) else {
            continue;
        };
        if m.rank != rank {
            continue;
        }
        observe.observe(MergeStep {
            rank,
            left: symbols[i as usize].id,
            right: symbols[j as usize].id,
            merged: m.merged,
            start: symbols[i as usize].start,
        });
        symbols[i as usize].id = m.merged;
        alive[j as usize] = false;
        let after = next[j as usize];
        next[i as usize] = after;
        if after != end {
            prev[after as usize] = i;
            push(heap, next, symbols, i, after);
        }
        let before = prev[i as usize];
        if before != u32::MAX {
            push(heap, next, symbols, before, i);
        }
    }
    let mut keep = alive.iter();
    symbols.retain(|_| keep.next().copied().unwrap_or(false));
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
        merge_heap(&mut heap, &[0; 8], &t, &mut Scratch::default(), &mut Quiet);
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
        fn heap_and_scan_agree(word in proptest::collection::vec(0u32..3, 0..300)) {
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
                merge_heap(&mut b, &bytes, &t, &mut Scratch::default(), &mut |s: MergeStep| sb.push(s));
                if word.len() <= SMALL {
                    prop_assert_eq!(&a, &b);
                    prop_assert_eq!(sa, sb);
                }
            }
        }
    }
}
