//! The fast paths of alignment give exactly what the teaching path gives: `Matrix::new` (one
//! pass) fills every cell with the value and arrows `FillSteps` gives step by step, and
//! `align::backtrace` (Myers' bit-vectors under unit costs) returns the alignment the
//! step-by-step matrix's backtrace returns, tie for tie.

use proptest::prelude::*;
use toklab::analysis::align::{self, Costs, FillSteps, Matrix};

/// Small alphabets (ties abound), lengths across several 64-bit words, symbols above 255.
fn sequence(max: usize) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(prop_oneof![0u32..4, Just(300u32), Just(0x8a9e)], 0..max)
}

fn costs() -> impl Strategy<Value = Costs> {
    prop_oneof![
        Just(Costs::LEVENSHTEIN),
        Just(Costs::INDEL),
        (0u32..5).prop_map(|c| Costs::new(c, c, c)),
        (0u32..5, 0u32..5, 0u32..9).prop_map(|(ins, del, sub)| Costs::new(ins, del, sub)),
    ]
}

/// The matrix as the teaching view fills it: one `FillSteps::next` per cell.
fn stepped(a: &[u32], b: &[u32], costs: Costs) -> Matrix {
    let mut steps = FillSteps::new(a, b, costs);
    for _ in steps.by_ref() {}
    steps.into_matrix()
}

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    #[test]
    fn one_pass_fill_is_the_stepped_fill(a in sequence(40), b in sequence(40), costs in costs()) {
        let (fast, slow) = (Matrix::new(&a, &b, costs), stepped(&a, &b, costs));
        prop_assert!(fast.is_complete());
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                prop_assert_eq!(fast.value(i, j), slow.value(i, j), "value ({}, {})", i, j);
                prop_assert_eq!(fast.pointers(i, j), slow.pointers(i, j), "arrows ({}, {})", i, j);
            }
        }
    }

    #[test]
    fn fast_backtrace_is_the_stepped_backtrace(a in sequence(200), b in sequence(200), costs in costs()) {
        let slow = stepped(&a, &b, costs).backtrace().unwrap();
        prop_assert_eq!(align::backtrace(&a, &b, costs), slow.clone());
        prop_assert_eq!(align::align(&a, &b, costs), slow);
    }
}
