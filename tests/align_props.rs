//! Properties of the edit-distance algorithms on random inputs: the fast algorithms agree with
//! the textbook matrix, and every alignment they produce replays the source into the target at
//! the cost they claim.

use proptest::prelude::*;
use toklab::analysis::align::{self, Costs, Matrix};

/// Sequences over a small alphabet (so edits cluster and ties abound), long enough to span
/// several 64-bit words, with a few symbols above 255 to reach the bit-vectors' map.
fn sequence(max: usize) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(prop_oneof![0u32..4, Just(300u32), Just(0x8a9e)], 0..max)
}

fn costs() -> impl Strategy<Value = Costs> {
    (0u32..5, 0u32..5, 0u32..9).prop_map(|(ins, del, sub)| Costs::new(ins, del, sub))
}

fn matrix_distance(a: &[u32], b: &[u32], costs: Costs) -> u64 {
    Matrix::new(a, b, costs).distance().unwrap()
}

proptest! {
    #![proptest_config(crate::common::proptest_config(200))]

    #[test]
    fn bit_parallel_levenshtein_is_the_matrix(a in sequence(300), b in sequence(300)) {
        prop_assert_eq!(align::levenshtein(&a, &b) as u64, matrix_distance(&a, &b, Costs::LEVENSHTEIN));
    }

    #[test]
    fn bit_parallel_lcs_gives_the_indel_distance(a in sequence(300), b in sequence(300)) {
        let indel = (a.len() + b.len() - 2 * align::lcs_len(&a, &b)) as u64;
        prop_assert_eq!(indel, matrix_distance(&a, &b, Costs::INDEL));
    }

    #[test]
    fn dispatcher_agrees_with_the_matrix_for_any_costs(a in sequence(120), b in sequence(120), costs in costs()) {
        prop_assert_eq!(align::distance(&a, &b, costs), matrix_distance(&a, &b, costs));
        prop_assert_eq!(align::general_distance(&a, &b, costs), matrix_distance(&a, &b, costs));
    }

    #[test]
    fn hirschberg_costs_what_the_matrix_costs_and_replays(a in sequence(400), b in sequence(400), costs in costs()) {
        let alignment = align::hirschberg(&a, &b, costs);
        prop_assert_eq!(alignment.cost, matrix_distance(&a, &b, costs));
        prop_assert_eq!(alignment.replay(&a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?, b.clone());
        let summed: u64 = alignment.pairs.iter().map(|p| costs.of(p.op)).sum();
        prop_assert_eq!(summed, alignment.cost);
    }

    #[test]
    fn every_enumerated_alignment_replays_at_the_distance(a in sequence(12), b in sequence(12), costs in costs()) {
        let matrix = Matrix::new(&a, &b, costs);
        let all = matrix.alignments(50);
        prop_assert!(!all.alignments.is_empty());
        prop_assert!(all.total >= all.alignments.len() as u128);
        prop_assert_eq!(&all.alignments[0], &matrix.backtrace().unwrap());
        for alignment in &all.alignments {
            prop_assert_eq!(alignment.replay(&a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?, b.clone());
            let summed: u64 = alignment.pairs.iter().map(|p| costs.of(p.op)).sum();
            prop_assert_eq!(summed, matrix.distance().unwrap());
        }
    }

    #[test]
    fn code_points_of_any_unicode(a in any::<String>(), b in any::<String>()) {
        let (x, y) = (align::codepoints(&a), align::codepoints(&b));
        prop_assert_eq!(align::str_distance(&a, &b, Costs::LEVENSHTEIN), matrix_distance(&x, &y, Costs::LEVENSHTEIN));
    }
}
