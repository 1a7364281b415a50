//! The bigram loop both of llama.cpp's merging tokenizers run (`llm_tokenizer_spm_session`
//! and `llm_tokenizer_bpe_session`): every adjacent pair that can merge goes into a queue by
//! priority (the merged token's score for SentencePiece, the merge's rank for BPE), ties to the
//! leftmost; the best pair merges, its new neighbours are queued, and pairs whose symbols
//! changed since they were queued are dropped when they come up.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A symbol: bytes `start..end` of the text being merged and what it is (a token id, or an
/// interned string for BPE; [`NONE`] for a character no token spells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sym {
    /// Where it starts.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// What it is.
    pub id: u32,
}

/// The id of a symbol that is no token.
pub const NONE: u32 = u32::MAX;

struct Candidate {
    priority: f64,
    left: usize,
    right: usize,
    size: usize,
    merged: u32,
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority
            .total_cmp(&other.priority)
            .then_with(|| other.left.cmp(&self.left))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

/// Merges `symbols` (adjacent, in order) while `pair` finds a merge for two neighbours: it
/// gives the merge's priority (higher first) and what the merged symbol is. Returns the
/// symbols left, in order.
pub fn merge(symbols: Vec<Sym>, pair: impl Fn(&Sym, &Sym) -> Option<(f64, u32)>) -> Vec<Sym> {
    let n = symbols.len();
    let mut syms = symbols;
    let mut next: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    let mut queue = BinaryHeap::new();
    let push = |queue: &mut BinaryHeap<Candidate>, syms: &[Sym], left: usize, right: usize| {
        if left >= n || right >= n {
            return;
        }
        if let Some((priority, merged)) = pair(&syms[left], &syms[right]) {
            queue.push(Candidate {
                priority,
                left,
                right,
                size: syms[right].end - syms[left].start,
                merged,
            });
        }
    };
    for i in 1..n {
        push(&mut queue, &syms, i - 1, i);
    }
    while let Some(c) = queue.pop() {
        if !alive[c.left] || !alive[c.right] || syms[c.right].end - syms[c.left].start != c.size {
            continue;
        }
        if next[c.left] != c.right {
            continue;
        }
        syms[c.left].end = syms[c.right].end;
        syms[c.left].id = c.merged;
        alive[c.right] = false;
        next[c.left] = next[c.right];
        if next[c.right] < n {
            prev[next[c.right]] = c.left;
        }
        push(&mut queue, &syms, prev[c.left], c.left);
        push(&mut queue, &syms, c.left, next[c.left]);
    }
    syms.into_iter()
        .zip(alive)
        .filter_map(|(s, a)| a.then_some(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> Vec<Sym> {
        (0..text.len())
            .map(|i| Sym {
                start: i,
                end: i + 1,
                id: NONE,
            })
            .collect()
    }

    #[test]
    fn best_pair_first_and_ties_to_the_left() {
        let text = "aaab";
        let ranks = [("aa", 0.0), ("ab", -1.0), ("aaa", -2.0)];
        let pair = |l: &Sym, r: &Sym| {
            let s = &text[l.start..r.end];
            ranks.iter().find(|(t, _)| *t == s).map(|&(_, p)| (p, 0))
        };
        let out: Vec<&str> = merge(chars(text), pair)
            .iter()
            .map(|s| &text[s.start..s.end])
            .collect();
        // `aa` merges at the left first; then `a`+`b` (priority -1) beats `aa`+`a` (-2).
        assert_eq!(out, ["aa", "ab"]);
    }
}
