//! The banded fast paths (Ukkonen's band over Myers' bit-vectors, tried with a doubling bound;
//! the banded backtrace; Hirschberg's split from banded passes) give what the plain DP gives:
//! the distance, and an alignment that replays the source into the target at that cost, on
//! text with non-ASCII symbols, long runs of one symbol (ties everywhere), near-copies (a
//! narrow band) and unrelated strings (the band grows to the whole matrix).

use proptest::prelude::*;
use toklab::analysis::align::{self, Costs, Matrix};

/// Symbols from a small mixed alphabet: ASCII, Latin-1, CJK and an emoji (the map side of
/// the bit-vectors), in runs of one symbol up to 80 long.
fn text(max_runs: usize) -> impl Strategy<Value = Vec<u32>> {
    let symbol = prop_oneof![
        Just(u32::from('a')),
        Just(u32::from('b')),
        Just(u32::from(' ')),
        Just(u32::from('é')),
        Just(u32::from('語')),
        Just(u32::from('😀')),
    ];
    prop::collection::vec(
        (symbol, prop_oneof![3 => 1usize..3, 1 => 3usize..80]),
        0..max_runs,
    )
    .prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(s, n)| std::iter::repeat_n(s, n))
            .collect()
    })
}

/// `a` and a copy of it with `edits` made: (where, 0 substitute / 1 delete / 2 insert, symbol).
fn edited(a: Vec<u32>, edits: Vec<(prop::sample::Index, u8, u32)>) -> (Vec<u32>, Vec<u32>) {
    let mut b = a.clone();
    for (at, kind, symbol) in edits {
        let at = at.index(b.len() + 1);
        match kind {
            0 if at < b.len() => b[at] = symbol,
            1 if at < b.len() => drop(b.remove(at)),
            _ => b.insert(at, symbol),
        }
    }
    (a, b)
}

/// `a` and a copy with some substitutions, deletions and insertions (near-copies keep the band
/// narrow, so its edges are exercised), or an unrelated text.
fn pair() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
    let edits = prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, 0u32..0x1F600), 0..40);
    prop_oneof![
        (text(120), edits).prop_map(|(a, edits)| edited(a, edits)),
        (text(60), text(60)),
    ]
}

/// The plain two-row DP (no bit-vectors, no band).
fn dp(a: &[u32], b: &[u32], costs: Costs) -> u64 {
    align::general_distance(a, b, costs)
}

fn check_alignment(a: &[u32], b: &[u32], costs: Costs) -> Result<(), TestCaseError> {
    let alignment = align::align(a, b, costs);
    prop_assert_eq!(alignment.cost, dp(a, b, costs));
    let summed: u64 = alignment.pairs.iter().map(|p| costs.of(p.op)).sum();
    prop_assert_eq!(summed, alignment.cost);
    let replayed = alignment
        .replay(a, b)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed, b.to_vec());
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(120))]

    #[test]
    fn banded_distance_is_the_dp((a, b) in pair()) {
        prop_assert_eq!(align::levenshtein(&a, &b) as u64, dp(&a, &b, Costs::LEVENSHTEIN));
        prop_assert_eq!(align::distance(&a, &b, Costs::LEVENSHTEIN), dp(&a, &b, Costs::LEVENSHTEIN));
        prop_assert_eq!(align::distance(&a, &b, Costs::new(3, 3, 3)), dp(&a, &b, Costs::new(3, 3, 3)));
        prop_assert_eq!(align::distance(&a, &b, Costs::INDEL), dp(&a, &b, Costs::INDEL));
    }

    #[test]
    fn banded_alignment_costs_the_dp_and_replays((a, b) in pair()) {
        check_alignment(&a, &b, Costs::LEVENSHTEIN)?;
        check_alignment(&a, &b, Costs::new(2, 2, 2))?;
    }

    #[test]
    fn banded_backtrace_is_the_matrix_backtrace((a, b) in pair()) {
        prop_assume!(a.len() * b.len() <= 200_000);
        let matrix = Matrix::new(&a, &b, Costs::LEVENSHTEIN).backtrace().unwrap();
        prop_assert_eq!(align::backtrace(&a, &b, Costs::LEVENSHTEIN), matrix.clone());
        prop_assert_eq!(align::align(&a, &b, Costs::LEVENSHTEIN), matrix);
    }
}

/// A sequence whose length sits at or near a word boundary of the short path's bit-vectors
/// (one word up to 64 symbols, two up to 128, the band above), of symbols from a small
/// alphabet with non-ASCII ones (ties), or of any `u32` (sparse, colliding hash slots).
fn boundary_sequence() -> impl Strategy<Value = Vec<u32>> {
    let length = prop_oneof![
        0usize..70,
        60usize..70,
        120usize..135,
        Just(64usize),
        Just(65usize),
        Just(128usize),
        Just(129usize),
    ];
    let symbol = prop_oneof![
        4 => prop_oneof![Just(u32::from('a')), Just(u32::from('b')), Just(u32::from('é')), Just(u32::from('語')), Just(u32::from('😀'))],
        1 => any::<u32>(),
    ];
    length.prop_flat_map(move |n| prop::collection::vec(symbol.clone(), n))
}

/// A short sequence against either a near-copy (a few edits) or another sequence of any
/// length up to 300, in either order, so the short side is the rows or the columns.
fn short_pair() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
    let edits = prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, 0u32..0x1F600), 0..12);
    let near = (boundary_sequence(), edits).prop_map(|(a, edits)| edited(a, edits));
    let other = (boundary_sequence(), text(8), any::<bool>())
        .prop_map(|(short, other, swap)| if swap { (other, short) } else { (short, other) });
    prop_oneof![near, other]
}

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    /// The short path (a side of at most 128 symbols: whole columns of one or two words, the
    /// short side as the pattern even when it is the target) is the matrix's backtrace.
    #[test]
    fn short_side_backtrace_is_the_matrix_backtrace((a, b) in short_pair()) {
        let matrix = Matrix::new(&a, &b, Costs::LEVENSHTEIN).backtrace().unwrap();
        prop_assert_eq!(align::backtrace(&a, &b, Costs::LEVENSHTEIN), matrix.clone());
        prop_assert_eq!(align::align(&a, &b, Costs::LEVENSHTEIN), matrix);
        check_alignment(&a, &b, Costs::new(4, 4, 4))?;
    }

    /// So are the distances of a short side (whole columns, the pattern's table on the stack).
    #[test]
    fn short_side_distances_are_the_dp((a, b) in short_pair()) {
        prop_assert_eq!(align::distance(&a, &b, Costs::LEVENSHTEIN), dp(&a, &b, Costs::LEVENSHTEIN));
        prop_assert_eq!(align::distance(&a, &b, Costs::INDEL), dp(&a, &b, Costs::INDEL));
    }
}

/// Two unrelated 12,000-symbol texts: the band is the whole matrix and too large to keep
/// (12,000 columns × 188 blocks), so the alignment is split, and still costs the distance.
#[test]
fn split_alignment_of_unrelated_long_texts() {
    let kinds = ['a', 'b', 'c', 'é', '語', ' '];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        u32::from(kinds[(state % kinds.len() as u64) as usize])
    };
    let a: Vec<u32> = (0..12_000).map(|_| next()).collect();
    let b: Vec<u32> = (0..11_500).map(|_| next()).collect();
    let distance = dp(&a, &b, Costs::LEVENSHTEIN);
    assert_eq!(align::distance(&a, &b, Costs::LEVENSHTEIN), distance);
    let alignment = align::align(&a, &b, Costs::LEVENSHTEIN);
    assert_eq!(alignment.cost, distance);
    assert_eq!(alignment.replay(&a, &b).unwrap(), b);
}
