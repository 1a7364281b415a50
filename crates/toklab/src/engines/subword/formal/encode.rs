//! Applying a dictionary to one word (pre-token) under either semantics, in O(n log n): the
//! symbols form a linked list over their initial slots, candidate pairs wait in a heap keyed
//! by (rank, position), and a popped pair is checked against the current list before it is
//! applied (stale entries are skipped, never searched for).
//!
//! - SentencePiece (Definition 3): every step takes the highest-priority applicable rule at its
//!   leftmost position.
//! - HuggingFace (Definition 4): once a rule is chosen, it is applied at every occurrence left
//!   to right before the next rule is chosen. (A pass cannot create a new occurrence of its own
//!   rule, since `uv` equals neither `u` nor `v`, so one left-to-right sweep per choice is the
//!   whole pass.)
//!
//! One function serves encoding, step lists and analysis: callers that want the steps pass an
//! observer.

use crate::core::trace::{Observer, Quiet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::dict::{Dictionary, NO_ID, symbol_ends};

pub use crate::core::trace::Semantics;

/// One applied merge, as the encoder sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeEvent {
    /// Index of the rule in the dictionary.
    pub rule: usize,
    /// Initial-symbol slots of the two tokens (the merged token keeps the left slot).
    pub left_slot: usize,
    /// Initial-symbol slot of the right token.
    pub right_slot: usize,
    /// Byte offsets in the word: start of the left token, where the right one began, end.
    pub start: usize,
    /// Byte offset where the right token began.
    pub split: usize,
    /// Byte offset of the merged token's end.
    pub end: usize,
    /// Which choice of rule this merge belongs to: under SentencePiece every step is its own
    /// choice; under HuggingFace one choice covers a whole left-to-right pass.
    pub pass: usize,
}

/// Encodes `word`, appending the end offsets (relative to `word`) of its tokens to `ends`.
pub fn encode_ends(dict: &Dictionary, word: &[u8], semantics: Semantics, ends: &mut Vec<usize>) {
    encode_observed(dict, word, semantics, ends, &mut Quiet);
}

/// Encodes `word` like [`encode_ends`], calling `observe` for every merge in the order applied.
pub fn encode_observed(
    dict: &Dictionary,
    word: &[u8],
    semantics: Semantics,
    ends: &mut Vec<usize>,
    observe: &mut dyn for<'e> Observer<&'e MergeEvent>,
) {
    let mut state = State::new(dict, word);
    match semantics {
        Semantics::SentencePiece => state.run_sp(observe),
        Semantics::HuggingFace => state.run_hf(observe),
    }
    state.push_ends(ends);
}

/// A candidate pair in the heap, packed as `rank << 32 | left slot` so the heap stays small
/// (8 bytes an entry: a 1 MB line's heap fits in cache far better). It is valid while the
/// pair at `left` still has that rank: the heap then yields the leftmost pair of the lowest
/// rank, which is what Definition 3 asks (and SentencePiece's tie-break when two rules share
/// a rank).
type Candidate = Reverse<u64>;

fn unpack(c: Candidate) -> (u32, usize) {
    ((c.0 >> 32) as u32, (c.0 & 0xFFFF_FFFF) as usize)
}

struct State<'d> {
    dict: &'d Dictionary,
    start: Vec<usize>,
    end: Vec<usize>,
    id: Vec<u32>,
    next: Vec<usize>,
    prev: Vec<usize>,
    alive: Vec<bool>,
    heap: BinaryHeap<Candidate>,
}

const NONE: usize = usize::MAX;

impl<'d> State<'d> {
    fn new(dict: &'d Dictionary, word: &[u8]) -> State<'d> {
        let ends = symbol_ends(dict.unit(), word);
        let n = ends.len();
        let mut start = Vec::with_capacity(n);
        let mut id = Vec::with_capacity(n);
        let mut at = 0;
        for &e in &ends {
            start.push(at);
            id.push(dict.id(&word[at..e]).unwrap_or(NO_ID));
            at = e;
        }
        let mut state = State {
            dict,
            start,
            end: ends,
            id,
            next: (1..=n).map(|i| if i == n { NONE } else { i }).collect(),
            prev: (0..n).map(|i| if i == 0 { NONE } else { i - 1 }).collect(),
            alive: vec![true; n],
            heap: BinaryHeap::with_capacity(n),
        };
        for i in 0..n.saturating_sub(1) {
            state.push_pair(i, i + 1);
        }
        state
    }

    fn push_pair(&mut self, left: usize, right: usize) {
        if let Some(rule) = self.dict.rule_for(self.id[left], self.id[right]) {
            let rank = self.dict.rules()[rule].rank;
            self.heap
                .push(Reverse((u64::from(rank) << 32) | left as u64));
        }
    }

    /// The right neighbour of a candidate's left slot if the candidate still holds.
    fn valid(&self, c: Candidate) -> Option<usize> {
        let (rank, left) = unpack(c);
        if !self.alive[left] {
            return None;
        }
        let right = self.next[left];
        if right == NONE {
            return None;
        }
        let rule = self.dict.rule_for(self.id[left], self.id[right])?;
        (self.dict.rules()[rule].rank == rank).then_some(right)
    }

    /// Merges `left` with its successor `right`; returns the event.
    fn apply(&mut self, left: usize, right: usize, pass: usize) -> MergeEvent {
        let rule = self
            .dict
            .rule_for(self.id[left], self.id[right])
            .expect("validated candidate has a rule");
        let event = MergeEvent {
            rule,
            left_slot: left,
            right_slot: right,
            start: self.start[left],
            split: self.start[right],
            end: self.end[right],
            pass,
        };
        self.id[left] = self.dict.rule_ids(rule)[2];
        self.end[left] = self.end[right];
        self.alive[right] = false;
        let after = self.next[right];
        self.next[left] = after;
        if after != NONE {
            self.prev[after] = left;
        }
        event
    }

    fn push_neighbours(&mut self, slot: usize) {
        let before = self.prev[slot];
        if before != NONE {
            self.push_pair(before, slot);
        }
        let after = self.next[slot];
        if after != NONE {
            self.push_pair(slot, after);
        }
    }

    fn run_sp(&mut self, observe: &mut dyn for<'e> Observer<&'e MergeEvent>) {
        let mut pass = 0;
        while let Some(candidate) = self.heap.pop() {
            let Some(right) = self.valid(candidate) else {
                continue;
            };
            let (_, left) = unpack(candidate);
            let event = self.apply(left, right, pass);
            pass += 1;
            observe.observe(&event);
            self.push_neighbours(left);
        }
    }

    fn run_hf(&mut self, observe: &mut dyn for<'e> Observer<&'e MergeEvent>) {
        let mut pass = 0;
        let mut sweep = Vec::new();
        let mut later = Vec::new();
        while let Some(candidate) = self.heap.pop() {
            let Some(right) = self.valid(candidate) else {
                continue;
            };
            // The chosen rule is the leftmost one of the lowest rank; its pass applies it
            // wherever it occurs now. Rules that share the rank but make another token wait
            // for a later pass.
            let (rank, left) = unpack(candidate);
            let chosen = self.made(left, right);
            sweep.clear();
            sweep.push(candidate);
            while let Some(&top) = self.heap.peek()
                && unpack(top).0 == rank
            {
                self.heap.pop();
                sweep.push(top);
            }
            // Already in position order (the heap orders equal ranks by left slot).
            for &c in &sweep {
                let Some(right) = self.valid(c) else {
                    continue;
                };
                let (_, left) = unpack(c);
                if self.made(left, right) != chosen {
                    later.push(c);
                    continue;
                }
                let event = self.apply(left, right, pass);
                observe.observe(&event);
                self.push_neighbours(left);
            }
            self.heap.extend(later.drain(..));
            pass += 1;
        }
    }

    /// The token the rule for the pair `left`, `right` makes (both slots hold a rule).
    fn made(&self, left: usize, right: usize) -> u32 {
        let rule = self
            .dict
            .rule_for(self.id[left], self.id[right])
            .expect("validated candidate has a rule");
        self.dict.rule_ids(rule)[2]
    }

    fn push_ends(&self, ends: &mut Vec<usize>) {
        let mut slot = if self.alive.is_empty() { NONE } else { 0 };
        while slot != NONE {
            ends.push(self.end[slot]);
            slot = self.next[slot];
        }
    }
}

/// The tokens of `word` under a dictionary, as strings (for tests and small examples).
pub fn encode_strings(dict: &Dictionary, word: &str, semantics: Semantics) -> Vec<String> {
    let mut ends = Vec::new();
    encode_ends(dict, word.as_bytes(), semantics, &mut ends);
    let mut at = 0;
    ends.iter()
        .map(|&e| {
            let s = String::from_utf8_lossy(&word.as_bytes()[at..e]).into_owned();
            at = e;
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::formal::{Rule, SymbolUnit};

    #[test]
    fn example_3_semantics_differ() {
        let d = Dictionary::parse_paper("ab a, a b").unwrap();
        let sp = encode_strings(&d, "abababab", Semantics::SentencePiece);
        let hf = encode_strings(&d, "abababab", Semantics::HuggingFace);
        assert_eq!(sp, ["aba", "b", "aba", "b"]);
        assert_eq!(hf, ["ab", "ab", "ab", "ab"]);
    }

    #[test]
    fn overlapping_occurrences_merge_left_to_right() {
        let d = Dictionary::parse_paper("a a").unwrap();
        for s in [Semantics::SentencePiece, Semantics::HuggingFace] {
            assert_eq!(encode_strings(&d, "aaaaa", s), ["aa", "aa", "a"]);
        }
    }

    #[test]
    fn tied_ranks_take_turns_under_huggingface_semantics() {
        // Two rules of one rank (SentencePiece pieces of equal score): «ab» at 0 is chosen, so
        // the pass makes «ab» everywhere and «cd» waits for the next pass.
        let d = Dictionary::new(
            SymbolUnit::Char,
            vec![
                Rule::new("a", "b", 0),
                Rule::new("c", "d", 0),
                Rule::new("b", "c", 1),
            ],
        )
        .unwrap();
        let mut steps = Vec::new();
        let mut ends = Vec::new();
        encode_observed(
            &d,
            b"abcdab",
            Semantics::HuggingFace,
            &mut ends,
            &mut |e: &MergeEvent| steps.push((e.rule, e.pass)),
        );
        assert_eq!(steps, [(0, 0), (0, 0), (1, 1)]);
        assert_eq!(
            encode_strings(&d, "abcdab", Semantics::SentencePiece),
            ["ab", "cd", "ab"]
        );
    }

    #[test]
    fn unknown_symbols_stay_single() {
        let d = Dictionary::parse_paper("a b").unwrap();
        let out = encode_strings(&d, "xabé", Semantics::SentencePiece);
        assert_eq!(out, ["x", "ab", "é"]);
        assert!(encode_strings(&d, "", Semantics::SentencePiece).is_empty());
    }
}
