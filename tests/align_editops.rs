//! `toklab align --format ops|json`: the edit operations rapidfuzz's `Levenshtein.editops`
//! lists, choice for choice, against the outputs `tools/gen_editops_expected.py` wrote with
//! rapidfuzz (pairs with many equally cheap alignments, non-ASCII code points, empty sides,
//! and long pairs rapidfuzz splits by Hirschberg's method).

use crate::common::stdout_of;

const PAIRS: &str = "tests/align_data/editops_pairs.tsv";
const EXPECTED: &str = include_str!("align_data/editops_expected.ops");

#[test]
fn every_pair_lists_the_operations_rapidfuzz_lists() {
    let out = stdout_of(&["align", "--format", "ops", "--pairs", PAIRS], "");
    for (number, (ours, theirs)) in out.lines().zip(EXPECTED.lines()).enumerate() {
        assert_eq!(ours, theirs, "pair on line {}", number + 1);
    }
    assert_eq!(out.lines().count(), EXPECTED.lines().count());
}

#[test]
fn json_says_what_ops_says() {
    let out = stdout_of(&["align", "-f", "json", "--pairs", PAIRS], "");
    let pairs = std::fs::read_to_string(PAIRS).unwrap();
    let rows = out.lines().zip(EXPECTED.lines()).zip(pairs.lines());
    for (number, ((json, ops), pair)) in rows.enumerate() {
        let record: serde_json::Value = serde_json::from_str(json).expect("one object a line");
        let mut fields = vec![record["distance"].to_string()];
        for op in record["editops"].as_array().unwrap() {
            let op = op.as_array().unwrap();
            fields.push(format!("{} {} {}", op[0].as_str().unwrap(), op[1], op[2]));
        }
        assert_eq!(fields.join("\t"), ops, "pair on line {}", number + 1);
        let (a, b) = pair.split_once('\t').unwrap();
        assert_eq!(record["src_len"], a.chars().count(), "line {}", number + 1);
        assert_eq!(record["dest_len"], b.chars().count(), "line {}", number + 1);
    }
    assert_eq!(out.lines().count(), EXPECTED.lines().count());
}

#[test]
fn one_pair_on_the_command_line_and_other_units_and_costs() {
    assert_eq!(
        stdout_of(&["align", "-f", "json", "ab", "ba"], ""),
        "{\"distance\":2,\"editops\":[[\"insert\",0,0],[\"delete\",1,2]],\"src_len\":2,\"dest_len\":2}\n"
    );
    // Positions count the unit: the second word is replaced.
    assert_eq!(
        stdout_of(
            &["align", "-f", "ops", "--unit", "token", "a b c", "a x c"],
            ""
        ),
        "1\treplace 1 1\n"
    );
    // Equal costs scale the distance; the operations stay rapidfuzz's.
    assert_eq!(
        stdout_of(
            &[
                "align",
                "-f",
                "ops",
                "--sub-cost",
                "3",
                "--ins-cost",
                "3",
                "--del-cost",
                "3",
                "ab",
                "ba"
            ],
            ""
        ),
        "6\tinsert 0 0\tdelete 1 2\n"
    );
    // Other costs: the alignment the text format draws (a substitution dearer than a
    // deletion and an insertion is never used).
    assert_eq!(
        stdout_of(&["align", "-f", "ops", "--sub-cost", "3", "ab", "ax"], ""),
        "2\tinsert 1 1\tdelete 1 2\n"
    );
}

#[test]
fn ops_and_the_matrix_flags_exclude_each_other() {
    let output = crate::common::run(&["align", "-f", "ops", "--matrix", "a", "b"], b"");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--matrix"));
}
