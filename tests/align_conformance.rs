//! Every pair in ../shared/conformance/align/pairs.jsonl: the distance under each of the three
//! reference cost schemes, computed by the fast dispatcher (bit-parallel where it applies), by
//! the plain two-row DP, and as the cost of the alignment `align` returns (Hirschberg for the
//! long pairs). Today's count is the bar: all 260 pairs × 3 schemes = 780 distances agree, and
//! a pair left out fails as a disagreement does; the figure is printed.

use crate::common;

use toklab::analysis::align::{self, Costs};

/// Pairs in pairs.jsonl.
const PAIRS: usize = 260;
/// Distances checked: every pair under each of the three cost schemes.
const DISTANCES: usize = 3 * PAIRS;

struct Pair {
    line: usize,
    a: Vec<u32>,
    b: Vec<u32>,
    expected: [(&'static str, Costs, u64); 3],
}

fn pairs() -> Option<Vec<Pair>> {
    let dir = common::shared_dir("align_conformance")?;
    let path = dir.join("conformance/align/pairs.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = text
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), index + 1));
            let number = |key: &str| {
                v[key]
                    .as_u64()
                    .unwrap_or_else(|| panic!("line {}: no {key}", index + 1))
            };
            Pair {
                line: index + 1,
                a: align::codepoints(v["a"].as_str().expect("a")),
                b: align::codepoints(v["b"].as_str().expect("b")),
                expected: [
                    ("lev", Costs::LEVENSHTEIN, number("lev")),
                    ("lev_sub2", Costs::INDEL, number("lev_sub2")),
                    // Insertions and deletions only: a substitution dearer than both.
                    ("indel", Costs::new(1, 1, 3), number("indel")),
                ],
            }
        })
        .collect();
    Some(parsed)
}

#[test]
fn every_reference_pair_matches() {
    let Some(pairs) = pairs() else { return };
    assert_eq!(pairs.len(), PAIRS, "pairs in the reference file");
    let mut checks = 0;
    let mut failures = Vec::new();
    for pair in &pairs {
        for (name, costs, expected) in pair.expected {
            let fast = align::distance(&pair.a, &pair.b, costs);
            let plain = align::general_distance(&pair.a, &pair.b, costs);
            let alignment = align::align(&pair.a, &pair.b, costs);
            let replayed = alignment.replay(&pair.a, &pair.b);
            checks += 1;
            if fast != expected
                || plain != expected
                || alignment.cost != expected
                || replayed.is_err()
            {
                failures.push(format!(
                    "line {} {name}: expected {expected}, dispatcher {fast}, two-row {plain}, alignment {} ({:?})",
                    pair.line,
                    alignment.cost,
                    replayed.err()
                ));
            }
        }
    }
    let agreed = checks - failures.len();
    println!(
        "align conformance: {agreed}/{checks} distances agree ({:.2}%) over {} pairs × lev, lev_sub2, indel",
        100.0 * agreed as f64 / checks as f64,
        pairs.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(agreed, DISTANCES, "distances that agree");
}

#[test]
fn the_long_pairs_are_there_and_bit_parallel() {
    let Some(pairs) = pairs() else { return };
    let long: Vec<usize> = pairs
        .iter()
        .map(|p| p.a.len().max(p.b.len()))
        .filter(|&n| n >= 1000)
        .collect();
    assert!(
        long.len() >= 3 && long.iter().any(|&n| n >= 10_000),
        "{long:?}"
    );
    for pair in pairs.iter().filter(|p| p.a.len() >= 1000) {
        assert_eq!(
            align::levenshtein(&pair.a, &pair.b) as u64,
            pair.expected[0].2,
            "line {}",
            pair.line
        );
        let lcs = align::lcs_len(&pair.a, &pair.b) as u64;
        assert_eq!(
            pair.a.len() as u64 + pair.b.len() as u64 - 2 * lcs,
            pair.expected[2].2,
            "line {}",
            pair.line
        );
    }
}
