//! The derivation of one word under each semantics as a list of steps (rule, rank, position),
//! and the first step where the two semantics part: what a teacher replays step by step, and
//! what shows *why* an improper dictionary tokenizes differently under the two libraries.

use super::dict::{Dictionary, symbol_ends};
use super::encode::{MergeEvent, Semantics, encode_observed};

pub use crate::core::trace::{Derivation, Step, split_at_ends};

impl Derivation {
    /// Derives `word` under `semantics`.
    pub fn new(dict: &Dictionary, word: &[u8], semantics: Semantics) -> Derivation {
        let initial = symbol_ends(dict.unit(), word);
        let mut alive = Fenwick::ones(initial.len());
        let mut steps = Vec::new();
        let mut result = Vec::new();
        encode_observed(dict, word, semantics, &mut result, &mut |e: &MergeEvent| {
            steps.push(Step {
                rule: e.rule,
                rank: dict.rules()[e.rule].rank,
                position: alive.prefix(e.left_slot),
                start: e.start,
                split: e.split,
                end: e.end,
                pass: e.pass,
            });
            alive.remove(e.right_slot);
        });
        Derivation {
            semantics,
            word: word.to_vec(),
            initial,
            steps,
            result,
        }
    }
}

/// Both derivations of a word and where they part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The derivation under SentencePiece semantics.
    pub sp: Derivation,
    /// The derivation under HuggingFace semantics.
    pub hf: Derivation,
    /// The index of the first step that differs (a different rule or place, or one list ended
    /// before the other); `None` when the two derivations are the same step for step.
    pub parts_at: Option<usize>,
}

impl Comparison {
    /// Derives `word` both ways and finds the first step where they part.
    pub fn new(dict: &Dictionary, word: &[u8]) -> Comparison {
        let sp = Derivation::new(dict, word, Semantics::SentencePiece);
        let hf = Derivation::new(dict, word, Semantics::HuggingFace);
        let parts_at = parting_step(&sp, &hf);
        Comparison { sp, hf, parts_at }
    }

    /// Whether the final tokenizations differ (they can part and still meet again).
    pub fn results_differ(&self) -> bool {
        self.sp.result != self.hf.result
    }
}

/// The first step at which two derivations of the same word differ.
pub fn parting_step(a: &Derivation, b: &Derivation) -> Option<usize> {
    let same = |x: &Step, y: &Step| x.rule == y.rule && x.start == y.start && x.split == y.split;
    let common = a
        .steps
        .iter()
        .zip(&b.steps)
        .take_while(|(x, y)| same(x, y))
        .count();
    (common < a.steps.len().max(b.steps.len())).then_some(common)
}

/// Counts of live slots, so a step's `|φ|` costs O(log n) even on a long line.
struct Fenwick {
    tree: Vec<i64>,
}

impl Fenwick {
    fn ones(n: usize) -> Fenwick {
        let mut tree = vec![0i64; n + 1];
        for i in 1..=n {
            tree[i] += 1;
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                tree[parent] += tree[i];
            }
        }
        Fenwick { tree }
    }

    /// Live slots before `slot`.
    fn prefix(&self, slot: usize) -> usize {
        let mut i = slot;
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        sum as usize
    }

    fn remove(&mut self, slot: usize) {
        let mut i = slot + 1;
        while i < self.tree.len() {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(tokens: Vec<&[u8]>) -> Vec<String> {
        tokens
            .into_iter()
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .collect()
    }

    #[test]
    fn positions_are_token_indices() {
        let d = Dictionary::parse_paper("a b, a bc, b c, ab c").unwrap();
        let der = Derivation::new(&d, b"abcbcab", Semantics::SentencePiece);
        let positions: Vec<usize> = der.steps.iter().map(|s| s.position).collect();
        // ab at 0; ab at 4 (tokens ab c b c a b); bc at 2; abc at 0.
        assert_eq!(positions, [0, 4, 2, 0]);
        assert_eq!(
            strings(der.tokens_after(1)),
            ["ab", "c", "b", "c", "a", "b"]
        );
        assert_eq!(strings(der.tokens()), ["abc", "bc", "ab"]);
    }

    #[test]
    fn example_3_parts_at_the_second_step() {
        let d = Dictionary::parse_paper("ab a, a b").unwrap();
        let c = Comparison::new(&d, b"abababab");
        assert_eq!(c.parts_at, Some(1));
        assert!(c.results_differ());
        assert_eq!(c.sp.steps[1].rule, 0);
        assert_eq!(c.hf.steps[1].rule, 1);
    }
}
