//! `toklab unigram train`: the log (a line per EM iteration and pruning step), the written
//! `.model` loading as `spm:` and segmenting the corpus's words, and clear errors.

use crate::common;

/// A corpus written for this test: a few words in many inflections.
fn corpus() -> String {
    let stems = [
        "walk", "talk", "play", "jump", "read", "mark", "train", "count",
    ];
    let endings = ["", "s", "ed", "ing", "er", "ers"];
    let mut text = String::new();
    for round in 0..12 {
        for (i, stem) in stems.iter().enumerate() {
            for (j, ending) in endings.iter().enumerate() {
                if (i + j + round) % 3 != 0 {
                    text.push_str(&format!("{stem}{ending} "));
                }
            }
            text.push_str("the a to. ");
        }
        text.push('\n');
    }
    text
}

#[test]
fn trains_logs_and_writes_a_model_spm_loads() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.txt");
    std::fs::write(&input, corpus()).unwrap();
    let model = dir.path().join("u.model");
    let output = common::run(
        &[
            "unigram",
            "train",
            "--vocab-size",
            "60",
            input.to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
        ],
        b"",
    );
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert!(log.contains("seed: "), "{log}");
    assert!(log.contains("round 1 EM 1: "), "{log}");
    assert!(log.contains("round 1 EM 2: "), "{log}");
    assert!(log.contains(" prune: "), "{log}");
    assert!(log.contains("final: 57 pieces"), "{log}");
    let tokenizer = toklab::load(&format!("spm:{}", model.display())).unwrap();
    let text = "walking talkers";
    let tokens = tokenizer.tokenize(text).tokens;
    assert!(tokens.len() >= 2 && tokens.len() <= 6, "{tokens:?}");
    assert!(
        tokens.iter().all(|t| t.kind != toklab::TokenKind::Unknown),
        "every character is in the vocabulary: {tokens:?}"
    );
    // Writing over the model needs --force.
    let again = common::run(
        &[
            "unigram",
            "train",
            "--vocab-size",
            "60",
            input.to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!again.status.success());
}

/// `unigram train` on the test corpus with `--vocab-size SIZE`: its output, and whether the
/// model was written.
fn train_with_size(size: &str) -> (std::process::Output, bool) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.txt");
    std::fs::write(&input, corpus()).unwrap();
    let model = dir.path().join("u.model");
    let output = common::run(
        &[
            "unigram",
            "train",
            "--vocab-size",
            size,
            input.to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
        ],
        b"",
    );
    (output, model.exists())
}

#[test]
fn a_vocabulary_larger_than_the_corpus_allows_is_refused() {
    let (output, written) = train_with_size("4294967295");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("too large for this corpus: its seed vocabulary"),
        "{err}"
    );
    assert!(!written);
}

#[test]
fn a_vocabulary_smaller_than_the_alphabet_is_refused() {
    let (output, written) = train_with_size("5");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        err.contains("corpus.txt") && err.contains("too small"),
        "{err}"
    );
    assert!(!written);
}
