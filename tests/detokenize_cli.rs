//! `toklab detokenize` and the Heaps' law table of `toklab compare`.

use crate::common;

#[test]
fn ptb_detokenizes_each_line() {
    let out = common::stdout_of(
        &["detokenize", "--with", "ptb"],
        "`` Do n't , '' she said ( twice ) .\nI ca n't .\n",
    );
    assert_eq!(out, "\"Don't,\" she said (twice).\nI can't.\n");
}

#[test]
fn word_kinds_detokenize_each_line() {
    let input = "She said , \" do n't \" ( twice ) .\na  b\n";
    let out = common::stdout_of(
        &["detokenize", "--with", "fst:samples/fst/english.fst"],
        input,
    );
    assert_eq!(out, "She said, \"don't\" (twice).\na b\n");
    let out = common::stdout_of(&["detokenize", "--with", "ws"], input);
    assert_eq!(out, "She said , \" do n't \" ( twice ) .\na b\n");
    // The text format loses the pieces' own spaces: they come back as words.
    let text = "Hello world, it's me.\n";
    let tokens = common::stdout_of(&["tokenize", "--with", "pretok:gpt2"], text);
    let back = common::stdout_of(&["detokenize", "--with", "pretok:gpt2"], &tokens);
    assert_eq!(back, text);
}

#[test]
fn tokenize_then_detokenize_gives_the_text_back() {
    let text = "\"Hello,\" he said. It's (almost) 5 o'clock--isn't it?\n";
    let tokens = common::stdout_of(&["tokenize", "--with", "ptb"], text);
    let back = common::stdout_of(&["detokenize", "--with", "ptb"], &tokens);
    assert_eq!(back, text);
}

#[test]
fn compare_prints_a_heaps_table() {
    let input: String = (0..50)
        .map(|i| format!("w{} the cat sat.\n", i % 20))
        .collect();
    let out = common::stdout_of(&["compare", "--with", "ws", "--with", "ptb"], &input);
    assert!(out.contains("Heaps' law |V| = k·N^β"), "{out}");
    let ws = out
        .lines()
        .skip_while(|l| !l.starts_with("Heaps' law"))
        .find(|l| l.trim_start().starts_with("ws "))
        .unwrap_or_else(|| panic!("{out}"));
    let fields: Vec<&str> = ws.split_whitespace().collect();
    // ws: 4 tokens a line; types w0..w19, the, cat, sat.
    assert_eq!(&fields[1..3], ["200", "23"], "{ws}");
    let beta: f64 = fields[4].parse().unwrap();
    assert!(beta > 0.0 && beta < 1.0, "{ws}");
}
