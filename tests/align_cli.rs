//! `toklab align` as a user runs it: the textbook's numbers, rows and matrix.

use crate::common::{run, stdout_of};

#[test]
fn intention_execution_gives_5_and_8() {
    let out = stdout_of(&["align", "--distance", "intention", "execution"], "");
    assert_eq!(out, "5\n");
    let out = stdout_of(
        &[
            "align",
            "--distance",
            "--sub-cost",
            "2",
            "intention",
            "execution",
        ],
        "",
    );
    assert_eq!(out, "8\n");
}

#[test]
fn three_rows_as_figure_2_17() {
    let out = stdout_of(&["align", "--sub-cost", "2", "intention", "execution"], "");
    assert_eq!(
        out,
        "i n t e * n t i o n\n* e x e c u t i o n\nd s s   i s\ndistance 8 (ins 1, del 1, sub 2; code points)\n"
    );
}

#[test]
fn matrix_as_figure_2_22() {
    let out = stdout_of(
        &[
            "align",
            "--matrix",
            "--sub-cost",
            "2",
            "intention",
            "execution",
        ],
        "",
    );
    let lines: Vec<&str> = out.lines().collect();
    // Header, then the rows of Fig. 2.21's values with arrows; the backtrace in brackets.
    assert!(
        lines[0].trim_start().starts_with("#        e        x"),
        "{out}"
    );
    assert_eq!(
        lines[1],
        "#     [ 0]  ←    1   ←    2   ←    3   ←    4   ←    5   ←    6   ←    7   ←    8   ←    9"
    );
    assert_eq!(
        lines[10],
        "n   ↑   9    ↑   8  ↖←↑   9  ↖←↑  10  ↖←↑  11  ↖←↑  12    ↑  11    ↑  10    ↑   9  ↖   [ 8]"
    );
    let marked = out.matches('[').count();
    assert_eq!(
        marked, 11,
        "the path has one cell per column of the alignment plus (0,0)"
    );
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    assert!(out.ends_with("distance 8 (ins 1, del 1, sub 2; code points)\n"));
}

#[test]
fn all_alignments_are_counted() {
    let out = stdout_of(&["align", "--all", "--sub-cost", "2", "leda", "deal"], "");
    assert!(
        out.contains("4 of 4 minimum-cost alignments shown"),
        "{out}"
    );
    let out = stdout_of(
        &[
            "align",
            "--all",
            "--limit",
            "1",
            "--sub-cost",
            "2",
            "leda",
            "deal",
        ],
        "",
    );
    assert!(
        out.contains("1 of 4 minimum-cost alignments shown (--limit 1)"),
        "{out}"
    );
}

#[test]
fn units_tokens_and_costs() {
    let out = stdout_of(
        &[
            "align",
            "--unit",
            "grapheme",
            "--distance",
            "e\u{301}t",
            "et",
        ],
        "",
    );
    assert_eq!(out, "1\n");
    let out = stdout_of(&["align", "--distance", "e\u{301}t", "et"], "");
    assert_eq!(out, "1\n");
    let out = stdout_of(&["align", "--unit", "byte", "--distance", "é", "e"], "");
    assert_eq!(out, "2\n");
    let out = stdout_of(
        &["align", "--unit", "token", "the cat sat", "the cat has sat"],
        "",
    );
    assert_eq!(
        out,
        "the cat *   sat\nthe cat has sat\n        i\ndistance 1 (ins 1, del 1, sub 1; tokens)\n"
    );
    let out = stdout_of(
        &["align", "--with", "words", "--distance", "dogs!", "dogs"],
        "",
    );
    assert_eq!(out, "1\n");
    let out = stdout_of(&["align", "--ins-cost", "5", "--distance", "b", "ab"], "");
    assert_eq!(out, "5\n");
}

#[test]
fn bad_combinations_are_errors() {
    let output = run(&["align", "--with", "ws", "--unit", "byte", "a", "b"], b"");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("needs --unit token, not --unit byte"), "{err}");
    let output = run(&["align", "--with", "bogus:x", "a", "b"], b"");
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown tokenizer kind"));
    let long = "a".repeat(5000);
    let output = run(&["align", "--matrix", &long, &long], b"");
    assert!(String::from_utf8_lossy(&output.stderr).contains("linear memory"));
    // Without --matrix the same inputs align in linear memory.
    let out = stdout_of(&["align", "--distance", &long, &"b".repeat(4000)], "");
    assert_eq!(out, "5000\n");
}
