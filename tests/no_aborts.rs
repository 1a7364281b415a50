//! Inputs that once made toklab abort (an allocation the system refused, a thread it would not
//! start) are errors that say why: an endless line, a tokenizer.json whose normalizers grow a
//! text without bound.

use std::path::Path;

use crate::common::toklab;

/// `toklab ARGS` reading `/dev/zero` (an endless line of NUL bytes) under a 1 MB input limit.
fn on_dev_zero(args: &[&str]) -> (Option<i32>, String) {
    let output = toklab()
        .args(args)
        .env("TOKLAB_INPUT_LIMIT", "1000000")
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn an_endless_line_is_an_error_naming_the_input_and_line() {
    for args in [
        &["tokenize", "--with", "ws"][..],
        &["explain", "--with", "words"],
        &["compare", "--with", "ws", "--with", "words"],
        &["detokenize", "--with", "ptb"],
        &["tokenize", "--with", "ws", "/dev/zero"],
    ] {
        let (code, err) = on_dev_zero(args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        let input = if args.last() == Some(&"/dev/zero") {
            "/dev/zero:1:"
        } else {
            "<stdin>:1:"
        };
        assert!(
            err.contains(input) && err.contains("longer than 1000000 bytes, the input limit"),
            "{args:?}: {err}"
        );
    }
    let (code, err) = on_dev_zero(&["unigram", "train", "--vocab-size", "10", "-", "-o", "x"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("<stdin>: more than 1000000 bytes"), "{err}");
}

#[test]
fn a_line_at_the_limit_is_read_whole() {
    let line = "ab ".repeat(1000);
    let output = crate::common::run_command(
        {
            let mut command = toklab();
            command
                .args(["tokenize", "--with", "ws"])
                .env("TOKLAB_INPUT_LIMIT", line.len().to_string());
            command
        },
        format!("{line}\n{line}").as_bytes(),
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 2);
}

#[test]
fn normalizers_that_grow_a_text_without_bound_are_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("samples/bpe/tokenizer.json")).unwrap())
            .unwrap();
    let replace = serde_json::json!({
        "type": "Replace", "pattern": {"String": "a"}, "content": "a".repeat(100)
    });
    json["normalizer"] = serde_json::json!({
        "type": "Sequence", "normalizers": vec![replace; 5]
    });
    std::fs::write(dir.path().join("grow.json"), json.to_string()).unwrap();
    let error = toklab::load_in("hf:grow.json", dir.path())
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("grow.json") && error.contains("normalizer Replace \"a\""),
        "{error}"
    );
    assert!(error.contains("at most 1024 times"), "{error}");
}
