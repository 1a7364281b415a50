//! `toklab tokenize` and `toklab explain` as a user runs them.

use crate::common::{run, stdout_of};

#[test]
fn gpt2_pretokenizer_on_the_textbook_sentence() {
    let out = stdout_of(
        &["tokenize", "--with", "pretok:gpt2"],
        "We're 350 dogs! Um, lunch?\n",
    );
    assert_eq!(out, "We 're  350  dogs !  Um ,  lunch ?\n");
}

#[test]
fn one_output_line_per_input_line_including_empty_ones() {
    let out = stdout_of(&["tokenize", "--with", "ws"], "a b\n\n  c  \r\nlast");
    assert_eq!(out, "a b\n\nc\nlast\n");
}

#[test]
fn json_format() {
    let out = stdout_of(
        &["tokenize", "--with", "words", "--format", "json"],
        "Zoë ran.\n",
    );
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["text"], "Zoë ran.");
    assert_eq!(v["tokens"][1]["form"], "ran");
    assert_eq!(
        (
            v["tokens"][1]["start"].as_u64(),
            v["tokens"][1]["byte_start"].as_u64()
        ),
        (Some(4), Some(5))
    );
    assert_eq!(v["sentences"], serde_json::json!([[0, 8]]));
}

#[test]
fn datok_and_offsets_formats() {
    let out = stdout_of(
        &["tokenize", "--with", "ws", "--format", "datok"],
        "a bc\n\nd\n",
    );
    assert_eq!(out, "a\nbc\n\n\n\n\nd\n\n\n");
    let out = stdout_of(
        &["tokenize", "--with", "ws", "--format", "offsets"],
        "é bc\n",
    );
    assert_eq!(out, "0 1 2 4\n0 4\n");
}

#[test]
fn regex_kind_as_nltk() {
    let out = stdout_of(
        &["tokenize", "--with", r"regex:\w+|\$[\d.]+|\S+"],
        "Good muffins cost $3.88\n",
    );
    assert_eq!(out, "Good muffins cost $3.88\n");
}

#[test]
fn reads_a_file_argument_and_dash() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("input.txt");
    std::fs::write(&path, "one two\n").unwrap();
    assert_eq!(
        stdout_of(&["tokenize", "--with", "ws", path.to_str().unwrap()], ""),
        "one two\n"
    );
    assert_eq!(
        stdout_of(&["tokenize", "--with", "ws", "-"], "x y\n"),
        "x y\n"
    );
}

#[test]
fn invalid_utf8_names_the_line_or_is_replaced_with_lossy() {
    let out = run(&["tokenize", "--with", "ws"], b"fine\nbad \xff here\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:2: invalid UTF-8"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "fine\n",
        "lines before the error are written"
    );

    let out = run(&["tokenize", "--with", "ws", "--lossy"], b"bad \xff here\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "bad \u{fffd} here\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("replaced with U+FFFD in 1 line"));
}

#[test]
fn an_unknown_kind_lists_the_kinds_and_a_bad_argument_shows_its_kinds_usage() {
    let out = run(&["tokenize", "--with", "nope:x"], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("valid kinds: ws, words"), "{err}");
    for (spec, usage) in [
        ("regex:(", "(usage: regex:PATTERN)"),
        ("pretok:gpt9", "(usage: pretok:gpt2|cl100k|o200k|qwen2)"),
    ] {
        let out = run(&["tokenize", "--with", spec], b"");
        assert!(!out.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.trim_end().ends_with(usage), "{spec}: {err}");
        assert!(!err.contains("valid kinds"), "{spec}: {err}");
    }
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let out = run(&["tokenize", "--with", "ws", "/nonexistent/x.txt"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.txt"));
}

#[test]
fn explain_prints_matches_and_gaps() {
    let out = stdout_of(&["explain", "--with", "ws", "--text", "a  b"], "");
    assert_eq!(
        out,
        "match      0..1 «a»  non-space run\ngap        1..3 «  »  dropped\nmatch      3..4 «b»  non-space run\n"
    );
    let out = stdout_of(&["explain", "--with", "ws"], "x\ny\n");
    assert!(out.starts_with("# «x»\nmatch"), "{out}");
}

#[test]
fn large_input_streams() {
    // 200,000 lines through a pipe: output arrives in full and in order.
    let input: String = (0..200_000).map(|i| format!("w{i} x\n")).collect();
    let out = stdout_of(&["tokenize", "--with", "ws"], &input);
    assert_eq!(out.lines().count(), 200_000);
    assert_eq!(out.lines().last(), Some("w199999 x"));
}

#[test]
fn a_missing_file_is_named_with_its_reason_once() {
    for spec in ["fst:no-such.fst", "bpe:no-such-dir", "spm:no-such.model"] {
        let out = run(&["tokenize", "--with", spec], b"x\n");
        assert!(!out.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no-such"), "{spec}: {err}");
        assert_eq!(
            err.matches("os error").count(),
            1,
            "{spec}: the reason is said once: {err}"
        );
    }
}

#[test]
fn options_on_a_kind_without_argument_are_options_not_a_kind() {
    let out = run(&["tokenize", "--with", "ws?x=1"], b"a b\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kind `ws` takes no options, got `x`"),
        "not an unknown kind: {err}"
    );
}
