//! Incremental re-tokenization (Algorithm 1 with Remark 3) always equals tokenizing the new
//! text whole: random dictionaries, random texts, random edits, both semantics.

use proptest::prelude::*;
use toklab::merges::{Dictionary, Rule, Semantics, Unit, encode_ends, retokenize};

fn dictionary() -> impl Strategy<Value = Dictionary> {
    // Any rules over {a, b, c, d}: improper ones too, since the algorithm holds for both
    // semantics whatever the dictionary.
    let side = prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'd']), 1..4)
        .prop_map(|v| v.into_iter().collect::<String>());
    prop::collection::vec((side.clone(), side), 0..16).prop_map(|pairs| {
        let rules = pairs
            .into_iter()
            .enumerate()
            .map(|(rank, (l, r))| Rule::new(&l, &r, rank as u32))
            .collect();
        Dictionary::new(Unit::Byte, rules).unwrap()
    })
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'd', 'é']), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

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
