//! `lex:`, Jung's lexicalized segmenter: `toklab lex vocab` on the sample verbs, then
//! segmentation and its explanation.

use crate::common;

#[test]
fn vocab_then_segment_the_sample_verbs() {
    let dir = tempfile::tempdir().unwrap();
    let vocab = dir.path().join("verbs.vocab");
    let out = common::run(
        &[
            "lex",
            "vocab",
            "--words",
            "samples/lex/de-verbs.txt",
            "-o",
            vocab.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&vocab).unwrap();
    let shipped = std::fs::read_to_string("samples/lex/de-verbs.vocab").unwrap();
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        body(&written),
        body(&shipped),
        "samples/lex/de-verbs.vocab is stale"
    );
    let spec = format!("lex:{}", vocab.display());
    let tokens = common::stdout_of(&["tokenize", "--with", &spec], "verstehen, beschrieben\n");
    assert_eq!(tokens, "ver steh en , be schrieb en\n");
    let explained = common::stdout_of(&["explain", "--with", &spec, "--text", "verstehen"], "");
    assert!(explained.contains("← chosen"), "{explained}");
    assert!(explained.contains("score"), "{explained}");
}

#[test]
fn a_second_run_refuses_to_overwrite_and_bad_vocabularies_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.vocab");
    std::fs::write(&bad, "ver\t2\nsteh\tmany\n").unwrap();
    let out = common::run(
        &["tokenize", "--with", &format!("lex:{}", bad.display())],
        b"x\n",
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.vocab") && stderr.contains('2'),
        "{stderr}"
    );
    let out = common::run(
        &[
            "lex",
            "vocab",
            "--words",
            "samples/lex/de-verbs.txt",
            "-o",
            bad.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!out.status.success(), "overwrote without --force");
}
