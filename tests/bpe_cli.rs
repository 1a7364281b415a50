//! The subword kinds through the command line, on the shipped samples (no shared folder).

use crate::common;

#[test]
fn explain_shows_pieces_merges_and_tokens() {
    let out = common::stdout_of(
        &[
            "explain",
            "--with",
            "bpe:samples/bpe/gpt2",
            "--text",
            "renew",
        ],
        "",
    );
    assert_eq!(
        out,
        "piece      0..5 «renew»  letters · 5 symbols, 3 steps (sp); both semantics take the same steps\n\
         \x20 step   1 «e» ⟩ «n» → «en»  rule #6 rank 5 at token 1\n\
         \x20 step   2 «e» ⟩ «w» → «ew»  rule #64 rank 63 at token 2\n\
         \x20 step   3 «en» ⟩ «ew» → «enew»  rule #323 rank 322 at token 1\n\
         \x20 result «r» «enew»\n\
         \x20 tokens «r»:82 «enew»:579\n"
    );
}

#[test]
fn ids_format_prints_one_line_per_input_line() {
    let out = common::stdout_of(
        &[
            "tokenize",
            "--with",
            "spm:samples/bpe/sample-spm.model",
            "--format",
            "ids",
        ],
        "renew the token\n\nset new\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[1], "");
    assert!(
        lines[0].split(' ').all(|id| id.parse::<u32>().is_ok()),
        "{out}"
    );
}

#[test]
fn bad_spec_options_are_errors() {
    let out = common::run(
        &["tokenize", "--with", "tiktoken:samples/bpe/sample.tiktoken"],
        b"x\n",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot tell the encoding from the file name"),
        "{err}"
    );
    let out = common::run(
        &["tokenize", "--with", "bpe:samples/bpe/gpt2?pattern=nope"],
        b"x\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown pattern `nope`"), "{err}");
}
