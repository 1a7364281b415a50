//! `toklab explain` on one short sentence, for one tokenizer of each family on the shipped
//! samples, compared whole with the snapshots in tests/snapshots/ (insta). A change in any
//! line of a trace shows as a diff; an intended change is accepted by rerunning with
//! `INSTA_UPDATE=always` (or `cargo insta review`) and committing the new `.snap` file. Under
//! `CI=true` insta writes nothing, so a missing snapshot fails there.

use std::path::Path;
use std::process::Stdio;

use crate::common;

/// Short, with an abbreviation, a contraction, a currency sign and a decimal number: every
/// family has something to say about it.
const SENTENCE: &str = "Dr. Ng can't pay $3.50.";

/// Unsegmented Chinese made of the sample word list's words, where forward matching takes
/// 北京大学 and backward matching takes 大学生.
const CHINESE: &str = "北京大学生喜欢吃苹果";

/// Standard output of `toklab explain --with SPEC --text TEXT`, run from the repository root
/// so that the relative paths in the specs (and in the traces) are the same on every machine.
fn explain(spec: &str, text: &str) -> String {
    let output = common::toklab()
        .args(["explain", "--with", spec, "--text", text])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::null())
        .output()
        .expect("run toklab");
    assert!(
        output.status.success(),
        "toklab explain --with {spec} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

#[test]
fn rules() {
    insta::assert_snapshot!(explain("rules:rules?lang=eng", SENTENCE));
}

#[test]
fn words() {
    insta::assert_snapshot!(explain("words", SENTENCE));
}

#[test]
fn regex() {
    insta::assert_snapshot!(explain(r"regex:\w+(?:['’]\w+)*|[^\w\s]", SENTENCE));
}

#[test]
fn fst() {
    insta::assert_snapshot!(explain("fst:samples/fst/english.fst", SENTENCE));
}

#[test]
fn bpe() {
    insta::assert_snapshot!(explain("bpe:samples/bpe/gpt2", SENTENCE));
}

#[test]
fn wordpiece() {
    insta::assert_snapshot!(explain(
        "wordpiece:samples/bpe/sample-wordpiece.txt",
        SENTENCE
    ));
}

#[test]
fn spm() {
    insta::assert_snapshot!(explain("spm:samples/bpe/sample-spm.model", SENTENCE));
}

#[test]
fn maxmatch() {
    insta::assert_snapshot!(explain(
        "maxmatch:samples/maxmatch/zh-words.txt?dir=fwd",
        CHINESE
    ));
}

#[test]
fn ptb() {
    insta::assert_snapshot!(explain("ptb", SENTENCE));
}

#[test]
fn sent() {
    insta::assert_snapshot!(explain(
        "sent:ptb",
        "Dr. Ng can't pay $3.50. \"No.\" He left."
    ));
}
