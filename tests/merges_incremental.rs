//! Incremental re-tokenization (Algorithm 1 with Remark 3) always equals tokenizing the new
//! text whole: random dictionaries, random texts, random edits, both semantics.

use proptest::prelude::*;
use toklab::engines::subword::formal::{
    Dictionary, Rule, Semantics, SymbolUnit, encode_ends, retokenize,
};

fn dictionary() -> impl Strategy<Value = Dictionary> {
    // Mostly rules that join two tokens made so far (as training does), some arbitrary ones
    // (improper dictionaries: the algorithm holds for both semantics whatever the dictionary).
    let side = prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'd']), 1..4)
        .prop_map(|v| v.into_iter().collect::<String>());
    let pick = (0usize..1000, 0usize..1000, 0u8..4, side.clone(), side);
    prop::collection::vec(pick, 0..20).prop_map(|picks| {
        let mut tokens: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut rules = Vec::new();
        for (rank, (l, r, how, left, right)) in picks.into_iter().enumerate() {
            let (left, right) = if how == 0 {
                (left, right)
            } else {
                (
                    tokens[l % tokens.len()].clone(),
                    tokens[r % tokens.len()].clone(),
                )
            };
            tokens.push(format!("{left}{right}"));
            rules.push(Rule::new(&left, &right, rank as u32));
        }
        Dictionary::new(SymbolUnit::Byte, rules).unwrap()
    })
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'd', 'é']), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(1000))]

    #[test]
    fn equals_full_retokenization(
        d in dictionary(),
        old in text(80),
        at in any::<prop::sample::Index>(),
        len in 0usize..6,
        insert in text(6),
        hf in any::<bool>(),
    ) {
        let semantics = if hf { Semantics::HuggingFace } else { Semantics::SentencePiece };
        let chars: Vec<char> = old.chars().collect();
        let start = if chars.is_empty() { 0 } else { at.index(chars.len() + 1) };
        let end = (start + len).min(chars.len());
        let new: String = chars[..start].iter().chain(insert.chars().collect::<Vec<_>>().iter())
            .chain(chars[end..].iter()).collect();
        let mut old_ends = Vec::new();
        encode_ends(&d, old.as_bytes(), semantics, &mut old_ends);
        let mut full = Vec::new();
        encode_ends(&d, new.as_bytes(), semantics, &mut full);
        let mut encode = |piece: &[u8], out: &mut Vec<usize>| encode_ends(&d, piece, semantics, out);
        let r = retokenize(old.as_bytes(), &old_ends, new.as_bytes(), &mut encode);
        prop_assert_eq!(r.ends, full, "{:?} -> {:?}", old, new);
    }
}
