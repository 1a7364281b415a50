//! The two BPE semantics of Berglund & van der Merwe on the paper's examples, on the improper
//! dictionaries of conformance/bpe/data/formal with what real libraries output, and the
//! paper's theorems as properties of random dictionaries.

use crate::common;

use proptest::prelude::*;
use toklab::engines::subword::formal::{
    Analysis, Comparison, Derivation, Dictionary, Rule, Semantics, SymbolUnit, chain_bound,
    encode_strings, never_useful,
};

fn dict(rules: &str) -> Dictionary {
    Dictionary::parse_paper(rules).unwrap()
}

fn tokens(d: &Derivation) -> Vec<String> {
    d.tokens()
        .into_iter()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect()
}

#[test]
fn example_1_steps() {
    let d = dict("a b, a bc, b c, ab c");
    let der = Derivation::new(&d, b"abcbcab", Semantics::SentencePiece);
    let rules: Vec<usize> = der.steps.iter().map(|s| s.rule).collect();
    assert_eq!(rules, [0, 0, 2, 3]);
    assert_eq!(tokens(&der), ["abc", "bc", "ab"]);
    let c = Comparison::new(&d, b"abcbcab");
    assert_eq!(c.parts_at, None);
    // a ⟩ bc is never applied, and Corollary 1 finds it from «abc» alone.
    assert_eq!(never_useful(&d, Semantics::SentencePiece), [1]);
}

#[test]
fn example_2_changes_ripple() {
    let d = dict("c ab, ab c, a b");
    let sp = |w: &str| encode_strings(&d, w, Semantics::SentencePiece);
    assert_eq!(sp("abcabcabcabc"), ["abc", "abc", "abc", "abc"]);
    assert_eq!(sp("bcabcabcabc"), ["b", "cab", "cab", "cab", "c"]);
    assert_eq!(sp("cabcabcabcabc"), ["cab", "cab", "cab", "cab", "c"]);
    // After five steps the tokenization is abc ⟩ abc ⟩ ab ⟩ c ⟩ a ⟩ b ⟩ c (left to right).
    let der = Derivation::new(&d, b"abcabcabcabc", Semantics::SentencePiece);
    let after5: Vec<String> = der
        .tokens_after(5)
        .into_iter()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    assert_eq!(after5[..2], ["abc", "abc"]);
}

#[test]
fn example_3_parts() {
    let d = dict("ab a, a b");
    let c = Comparison::new(&d, b"abababab");
    assert_eq!(tokens(&c.sp), ["aba", "b", "aba", "b"]);
    assert_eq!(tokens(&c.hf), ["ab", "ab", "ab", "ab"]);
    assert_eq!(c.parts_at, Some(1));
    assert_eq!((c.sp.steps[1].rule, c.hf.steps[1].rule), (0, 1));
    assert!(!Analysis::new(&d).is_proper());
}

#[test]
fn formal_cases_agree_with_the_libraries() {
    let Some(shared) = common::shared_dir("formal_cases_agree_with_the_libraries") else {
        return;
    };
    let path = shared.join("conformance/bpe/data/formal/cases.json");
    let cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut agree, mut total) = (0, 0);
    for case in cases.as_array().unwrap() {
        let rules = case["merges"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(rank, pair)| {
                Rule::new(
                    pair[0].as_str().unwrap(),
                    pair[1].as_str().unwrap(),
                    rank as u32,
                )
            })
            .collect();
        let d = Dictionary::new(SymbolUnit::Char, rules).unwrap();
        let word = case["word"].as_str().unwrap();
        let sp = encode_strings(&d, word, Semantics::SentencePiece);
        let hf = encode_strings(&d, word, Semantics::HuggingFace);
        let expect =
            |key: &str| -> Vec<String> { serde_json::from_value(case[key].clone()).unwrap() };
        for (mine, reference) in [(&sp, expect("sp_semantics")), (&hf, expect("hf_semantics"))] {
            total += 1;
            agree += usize::from(*mine == reference);
        }
        // Which semantics each real library follows.
        for (library, observed) in case["observed"].as_object().unwrap() {
            let observed: Vec<String> = serde_json::from_value(observed.clone()).unwrap();
            let follows = if library.contains("encoder.py") || library.contains("via_table") {
                &hf
            } else {
                &sp
            };
            total += 1;
            agree += usize::from(*follows == observed);
        }
    }
    println!("formal cases: {agree}/{total} agree");
    assert_eq!(agree, total);
}

/// Random dictionaries over {a, b, c}: `proper` ones are built like training does (each rule
/// joins two tokens that exist already), others from arbitrary strings.
fn dictionary(proper: bool) -> impl Strategy<Value = Dictionary> {
    prop::collection::vec((0usize..64, 0usize..64, 1usize..4, 1usize..4), 1..10).prop_map(
        move |picks| {
            let mut tokens: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
            let mut rules = Vec::new();
            for (rank, (l, r, ll, rl)) in picks.into_iter().enumerate() {
                let (left, right) = if proper {
                    (
                        tokens[l % tokens.len()].clone(),
                        tokens[r % tokens.len()].clone(),
                    )
                } else {
                    let s = |seed: usize, len: usize| {
                        (0..len)
                            .map(|k| ["a", "b", "c"][(seed >> k) % 3])
                            .collect::<String>()
                    };
                    (s(l, ll), s(r, rl))
                };
                tokens.push(format!("{left}{right}"));
                rules.push(Rule::new(&left, &right, rank as u32));
            }
            Dictionary::new(SymbolUnit::Char, rules).unwrap()
        },
    )
}

fn word(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(400))]

    /// Lemma 1: on a proper dictionary both semantics take the same steps.
    #[test]
    fn proper_dictionaries_agree(d in dictionary(true), w in word(24)) {
        prop_assert!(Analysis::new(&d).is_proper());
        let c = Comparison::new(&d, w.as_bytes());
        prop_assert_eq!(c.parts_at, None);
    }

    /// Corollary 1: a rule that applies anywhere applies on its own string.
    #[test]
    fn never_useful_rules_never_apply(
        proper in any::<bool>(),
        d in dictionary(false),
        p in dictionary(true),
        w in word(24),
    ) {
        let d = if proper { p } else { d };
        for semantics in [Semantics::SentencePiece, Semantics::HuggingFace] {
            let never = never_useful(&d, semantics);
            let der = Derivation::new(&d, w.as_bytes(), semantics);
            for step in &der.steps {
                prop_assert!(!never.contains(&step.rule), "rule {} applied on {w}", step.rule);
            }
        }
    }

    /// Theorem 2 with Remark 5's chain length: whatever is appended, every token of T(w) but
    /// the last c(D) stays.
    #[test]
    fn chain_length_bounds_the_lookahead(d in dictionary(true), w in word(30), tail in word(12)) {
        let (c, _) = chain_bound(&d);
        let before = encode_strings(&d, &w, Semantics::SentencePiece);
        let after = encode_strings(&d, &format!("{w}{tail}"), Semantics::SentencePiece);
        let stable = before.len().saturating_sub(c);
        prop_assert_eq!(&before[..stable], &after[..stable.min(after.len())]);
    }
}

/// Example 4: appending one symbol changes the last |D| tokens, so the chain bound is tight.
#[test]
fn example_4_needs_the_whole_chain() {
    let d = dict("d e, c de, b cde, a bcde");
    let (c, _) = chain_bound(&d);
    assert_eq!(c, 4);
    let before = encode_strings(&d, "zabcd", Semantics::SentencePiece);
    let after = encode_strings(&d, "zabcde", Semantics::SentencePiece);
    assert_eq!(before, ["z", "a", "b", "c", "d"]);
    assert_eq!(after, ["z", "abcde"]);
    let kept = before
        .iter()
        .zip(&after)
        .take_while(|(a, b)| a == b)
        .count();
    assert_eq!(before.len() - kept, c);
}

/// Definitions 3 and 4 read literally, O(n²) per step: the reference the heap encoder must
/// match on every dictionary, proper or not.
fn by_definition(rules: &[(String, String)], w: &str, hf: bool) -> Vec<String> {
    let mut tau: Vec<String> = w.chars().map(String::from).collect();
    let applicable = |tau: &[String], r: usize| {
        (0..tau.len().saturating_sub(1)).find(|&i| tau[i] == rules[r].0 && tau[i + 1] == rules[r].1)
    };
    loop {
        let Some((r, _)) = (0..rules.len()).find_map(|r| applicable(&tau, r).map(|i| (r, i)))
        else {
            return tau;
        };
        if hf {
            // Apply rule r left to right until it no longer applies.
            while let Some(i) = applicable(&tau, r) {
                let right = tau.remove(i + 1);
                tau[i].push_str(&right);
            }
        } else {
            let i = applicable(&tau, r).unwrap();
            let right = tau.remove(i + 1);
            tau[i].push_str(&right);
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(600))]

    #[test]
    fn encoder_follows_the_definitions(
        proper in any::<bool>(),
        d in dictionary(false),
        p in dictionary(true),
        w in word(30),
    ) {
        let d = if proper { p } else { d };
        let rules: Vec<(String, String)> = d
            .rules()
            .iter()
            .map(|r| (String::from_utf8(r.left.to_vec()).unwrap(), String::from_utf8(r.right.to_vec()).unwrap()))
            .collect();
        prop_assert_eq!(encode_strings(&d, &w, Semantics::SentencePiece), by_definition(&rules, &w, false));
        prop_assert_eq!(encode_strings(&d, &w, Semantics::HuggingFace), by_definition(&rules, &w, true));
    }
}
