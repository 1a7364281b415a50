//! What can be known about a dictionary without any text: whether it is proper (Definition 5,
//! so both semantics agree by Lemma 1), which rules can never apply (Corollary 1), and how
//! much lookahead a left-to-right tokenizer needs (Definition 7 and Remark 5's chain length).
//! All three run in seconds on 200k-rule tables, so `toklab bpe check` can answer them live.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use super::dict::Dictionary;
use super::encode::{MergeEvent, Semantics, encode_observed};

/// Which side of a rule a properness violation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSide {
    /// The left side `u` of `u ⟩ v`.
    Left,
    /// The right side `v`.
    Right,
}

/// A rule that breaks Definition 5: one of its sides is longer than one symbol but no
/// higher-priority rule makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improper {
    /// Index of the rule.
    pub rule: usize,
    /// The side no earlier rule makes.
    pub side: RuleSide,
    /// The first rule that makes the side, if any does (it then has lower or equal priority).
    pub made_by: Option<usize>,
}

/// Definition 5, checked with one hash lookup per rule side: O(‖D‖) expected time, better than
/// Remark 2's O(‖D‖²).
pub fn improper_rules(dict: &Dictionary) -> Vec<Improper> {
    // merged id → first rule making it
    let mut first_maker: FxHashMap<u32, usize> = FxHashMap::default();
    for index in 0..dict.len() {
        first_maker.entry(dict.rule_ids(index)[2]).or_insert(index);
    }
    let mut found = Vec::new();
    for (index, rule) in dict.rules().iter().enumerate() {
        let [left, right, _] = dict.rule_ids(index);
        for (side, id, s) in [
            (RuleSide::Left, left, &rule.left),
            (RuleSide::Right, right, &rule.right),
        ] {
            if dict.symbol_count(s) <= 1 {
                continue;
            }
            let made_by = first_maker.get(&id).copied();
            let ok = made_by.is_some_and(|m| dict.rules()[m].rank < rule.rank);
            if !ok {
                found.push(Improper {
                    rule: index,
                    side,
                    made_by,
                });
            }
        }
    }
    found
}

/// Rules that are never applied to any string under `semantics`: by Corollary 1, exactly those
/// not applied when tokenizing their own string `uv`. Duplicated pairs are among them.
pub fn never_useful(dict: &Dictionary, semantics: Semantics) -> Vec<usize> {
    let mut never = Vec::new();
    let mut ends = Vec::new();
    for (index, rule) in dict.rules().iter().enumerate() {
        let word = rule.merged();
        let mut used = false;
        ends.clear();
        encode_observed(dict, &word, semantics, &mut ends, &mut |e: &MergeEvent| {
            used |= e.rule == index;
        });
        if !used {
            never.push(index);
        }
    }
    never
}

/// An upper bound on the chain length `c(D)` of Remark 5 and one chain that reaches it.
///
/// Two rules can trade places without changing any tokenization when neither string overlaps
/// the other (no suffix of one is a prefix of the other, neither contains the other). The
/// dictionaries reachable by such swaps are the orderings of the partial order that the
/// *interacting* pairs force, so any sequence of rules kept in order by all of them is a chain
/// of that order: `c(D)` is at most its longest chain, found by dynamic programming over the
/// rules in priority order, with hash maps from substrings, prefixes and suffixes of earlier
/// rules to the longest chain ending there.
pub fn chain_bound(dict: &Dictionary) -> (usize, Vec<usize>) {
    chain_of(dict)
}

fn chain_of<'d>(dict: &'d Dictionary) -> (usize, Vec<usize>) {
    let n = dict.len();
    let strings: Vec<&'d [u8]> = (0..n).map(|i| dict.string(dict.rule_ids(i)[2])).collect();
    // best (chain length, rule) among earlier rules, by key
    type Best = (u32, u32);
    let mut exact: FxHashMap<&'d [u8], Best> = FxHashMap::default();
    let mut contains: FxHashMap<&'d [u8], Best> = FxHashMap::default();
    let mut suffixes: FxHashMap<&'d [u8], Best> = FxHashMap::default();
    let mut prefixes: FxHashMap<&'d [u8], Best> = FxHashMap::default();
    let mut length = vec![0u32; n];
    let mut back = vec![u32::MAX; n];
    let bump = |map: &mut FxHashMap<&'d [u8], Best>, key, value: Best| {
        let slot = map.entry(key).or_insert((0, u32::MAX));
        if value.0 > slot.0 {
            *slot = value;
        }
    };
    for (j, &s) in strings.iter().enumerate() {
        let mut best: Best = (0, u32::MAX);
        let mut consider = |b: Option<&Best>| {
            if let Some(&b) = b
                && b.0 > best.0
            {
                best = b;
            }
        };
        for a in 0..s.len() {
            for b in a + 1..=s.len() {
                consider(exact.get(&s[a..b]));
            }
            consider(suffixes.get(&s[..=a]));
            consider(prefixes.get(&s[a..]));
        }
        consider(contains.get(s));
        length[j] = best.0 + 1;
        back[j] = best.1;
        let me = (length[j], j as u32);
        bump(&mut exact, s, me);
        for a in 0..s.len() {
            for b in a + 1..=s.len() {
                bump(&mut contains, &s[a..b], me);
            }
            bump(&mut suffixes, &s[a..], me);
            bump(&mut prefixes, &s[..=a], me);
        }
    }
    let Some((mut at, &len)) = length
        .iter()
        .enumerate()
        .max_by_key(|&(i, l)| (l, usize::MAX - i))
    else {
        return (0, Vec::new());
    };
    let mut chain = Vec::with_capacity(len as usize);
    loop {
        chain.push(at);
        if back[at] == u32::MAX {
            break;
        }
        at = back[at] as usize;
    }
    chain.reverse();
    (len as usize, chain)
}

/// Everything `toklab bpe check` reports about one dictionary.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// How many rules the dictionary has.
    pub rules: usize,
    /// Rules whose pair an earlier rule has (never applied).
    pub duplicates: Vec<usize>,
    /// Rules that break Definition 5 (empty: the dictionary is proper).
    pub improper: Vec<Improper>,
    /// Rules that never apply under SentencePiece semantics (Corollary 1).
    pub never_useful_sp: Vec<usize>,
    /// Rules that never apply under HuggingFace semantics.
    pub never_useful_hf: Vec<usize>,
    /// `max{|uv|}` in symbols.
    pub max_rule_symbols: usize,
    /// Definition 7: `|D| · max|uv|`.
    pub sufficient_lookahead: u64,
    /// Remark 5: an upper bound on `c(D)`, a chain reaching it, and `c · max|uv|`.
    pub chain_bound: usize,
    /// A chain of rules reaching `chain_bound`.
    pub chain: Vec<usize>,
    /// `chain_bound · max|uv|`: the lookahead bound that follows from the chain.
    pub chain_lookahead: u64,
    /// How long each part took.
    pub timings: Vec<(&'static str, Duration)>,
}

impl Analysis {
    /// Runs every check on `dict`, timing each.
    pub fn new(dict: &Dictionary) -> Analysis {
        let mut timings = Vec::new();
        let mut timed = |name, started: Instant| timings.push((name, started.elapsed()));
        let t = Instant::now();
        let improper = improper_rules(dict);
        timed("properness", t);
        let t = Instant::now();
        let never_useful_sp = never_useful(dict, Semantics::SentencePiece);
        let never_useful_hf = never_useful(dict, Semantics::HuggingFace);
        timed("usefulness (both semantics)", t);
        let t = Instant::now();
        let (chain_bound, chain) = chain_bound(dict);
        timed("chain length", t);
        let max_rule_symbols = dict.max_rule_symbols();
        Analysis {
            rules: dict.len(),
            duplicates: dict.duplicates().to_vec(),
            improper,
            never_useful_sp,
            never_useful_hf,
            max_rule_symbols,
            sufficient_lookahead: dict.len() as u64 * max_rule_symbols as u64,
            chain_bound,
            chain,
            chain_lookahead: chain_bound as u64 * max_rule_symbols as u64,
            timings,
        }
    }

    /// Definition 5 holds.
    pub fn is_proper(&self) -> bool {
        self.improper.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Dictionary {
        Dictionary::parse_paper(text).unwrap()
    }

    #[test]
    fn properness_of_the_papers_dictionaries() {
        assert!(improper_rules(&d("b c, a b, c d, ab cd")).is_empty());
        let ex3 = improper_rules(&d("ab a, a b"));
        assert_eq!(
            ex3,
            [Improper {
                rule: 0,
                side: RuleSide::Left,
                made_by: Some(1)
            }]
        );
        let ex1 = improper_rules(&d("a b, a bc, b c, ab c"));
        assert_eq!(ex1.len(), 1);
        assert_eq!((ex1[0].rule, ex1[0].side), (1, RuleSide::Right));
    }

    #[test]
    fn never_useful_rules() {
        // The paper: ab ⟩ cd is proper but never useful; a ⟩ bc in Example 1 never applies.
        assert_eq!(
            never_useful(&d("b c, a b, c d, ab cd"), Semantics::SentencePiece),
            [3]
        );
        assert_eq!(
            never_useful(&d("a b, a bc, b c, ab c"), Semantics::SentencePiece),
            [1]
        );
        let ex3 = d("ab a, a b");
        assert!(never_useful(&ex3, Semantics::SentencePiece).is_empty());
        // Under HuggingFace semantics `ab a` on «aba»: a b a ⇒ ab a ⇒ aba, still useful.
        assert!(never_useful(&ex3, Semantics::HuggingFace).is_empty());
    }

    #[test]
    fn chain_of_remark_5() {
        let (c, chain) = chain_bound(&d("a b, c d, ab cd"));
        assert_eq!(c, 2);
        assert_eq!(chain, [0, 2]);
        // Example 4's dictionary is one chain: every rule contains the previous one.
        let (c, _) = chain_bound(&d("d e, c de, b cde, a bcde"));
        assert_eq!(c, 4);
        // Overlap (suffix of one = prefix of the other) keeps two rules in order.
        assert_eq!(chain_bound(&d("a b, b c")).0, 2);
        assert_eq!(chain_bound(&d("a b, c d")).0, 1);
    }
}
