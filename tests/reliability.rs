//! Issue 16's failures, one regression test each: nothing dropped in silence, broken or
//! truncated model files refused, no file overwritten without `--force`, clean exits.

use std::path::{Path, PathBuf};

use crate::common::run;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("toklab-reliability-")
        .tempdir()
        .unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A regex past fancy-regex's backtrack limit: the line is reported and the exit is non-zero,
/// and the text it gave up on is still in the output as one unknown token.
#[test]
fn regex_backtrack_limit_is_an_error_naming_the_line() {
    let input = format!("fine words\n{}! hello world\n", "a".repeat(30));
    let out = run(
        &["tokenize", "--with", r"regex:(a|aa)+(?=b)|\w+"],
        input.as_bytes(),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("<stdin>:2:"), "{err}");
    assert!(err.contains("backtrack limit"), "{err}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        format!("fine words\n{}! hello world\n", "a".repeat(30))
    );
}

/// The same in a tokenizer.json `Split` pre-tokenizer: the rest of the line is still encoded,
/// its tokens say the pre-tokenizer gave up.
#[test]
fn split_pattern_backtrack_limit_is_reported() {
    let scratch = scratch();
    let original = std::fs::read_to_string(samples().join("bpe/split-tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
    json["pre_tokenizer"]["pretokenizers"][0]["pattern"] =
        serde_json::json!({"Regex": r"(a|aa)+(?=b)|\w+"});
    let path = scratch.path().join("tokenizer.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let tokenizer = toklab::load(&format!("bpe:{}", path.display())).unwrap();
    let text = format!("{}! hello world", "a".repeat(30));
    let tokens = tokenizer.tokenize(&text);
    tokens.check(&text).unwrap();
    let (span, _) = tokens.gave_up().expect("the Split pattern gave up");
    assert_eq!(span.start, 0);
    assert!(tokenizer.tokenize("hello world").gave_up().is_none());
    let spec = format!("bpe:{}", path.display());
    let out = run(&["tokenize", "--with", &spec], text.as_bytes());
    assert!(!out.status.success());
    assert!(stderr(&out).contains("<stdin>:1:"), "{}", stderr(&out));
}
