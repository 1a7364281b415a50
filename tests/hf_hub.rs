//! `hf:ORG/NAME`: a model in the local HuggingFace cache, found without any network, and
//! `toklab models` listing what the cache holds.

use crate::common::{run_command, toklab};

/// A cache folder laid out as huggingface_hub writes it, with two models: one with a
/// tokenizer.json, one with only a WordPiece vocab.txt.
fn cache() -> tempfile::TempDir {
    let cache = tempfile::tempdir().unwrap();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let json = cache
        .path()
        .join("models--acme--tiny-bpe/snapshots/0123abcd");
    std::fs::create_dir_all(&json).unwrap();
    std::fs::copy(samples.join("tokenizer.json"), json.join("tokenizer.json")).unwrap();
    let vocab = cache
        .path()
        .join("models--acme--tiny-bert/snapshots/4567ef01");
    std::fs::create_dir_all(&vocab).unwrap();
    std::fs::copy(
        samples.join("sample-wordpiece.txt"),
        vocab.join("vocab.txt"),
    )
    .unwrap();
    cache
}

fn run_in(cache: &std::path::Path, args: &[&str], stdin: &str) -> std::process::Output {
    let mut command = toklab();
    // Offline: these tests are about the cache alone (tests/hub_download.rs downloads).
    command
        .args(args)
        .env("HF_HUB_CACHE", cache)
        .env("HF_HUB_OFFLINE", "1");
    run_command(command, stdin.as_bytes())
}

#[test]
fn a_cached_model_loads_by_its_name_like_its_file() {
    let cache = cache();
    let text = "Hello tokenizer world\n";
    let by_name = run_in(
        cache.path(),
        &["tokenize", "-f", "ids", "--with", "hf:acme/tiny-bpe"],
        text,
    );
    assert!(by_name.status.success(), "{by_name:?}");
    let file = cache
        .path()
        .join("models--acme--tiny-bpe/snapshots/0123abcd/tokenizer.json");
    let spec = format!("hf:{}", file.display());
    let by_file = run_in(
        cache.path(),
        &["tokenize", "-f", "ids", "--with", &spec],
        text,
    );
    assert_eq!(by_name.stdout, by_file.stdout);
    assert!(!by_name.stdout.is_empty());
    // Only a vocab.txt: the WordPiece kind.
    let bert = run_in(
        cache.path(),
        &["tokenize", "--with", "hf:acme/tiny-bert"],
        text,
    );
    assert!(bert.status.success(), "{bert:?}");
    let vocab = cache
        .path()
        .join("models--acme--tiny-bert/snapshots/4567ef01/vocab.txt");
    let direct = run_in(
        cache.path(),
        &[
            "tokenize",
            "--with",
            &format!("wordpiece:{}", vocab.display()),
        ],
        text,
    );
    assert_eq!(bert.stdout, direct.stdout);
}

#[test]
fn a_model_missing_from_the_cache_says_where_it_looked() {
    let cache = cache();
    let out = run_in(
        cache.path(),
        &["tokenize", "--with", "hf:acme/absent"],
        "x\n",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("models--acme--absent") && err.contains("HF_HUB_OFFLINE"),
        "{err}"
    );
    let listed = run_in(cache.path(), &["models"], "");
    assert!(listed.status.success(), "{listed:?}");
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("acme/tiny-bpe") && listed.contains("acme/tiny-bert"),
        "{listed}"
    );
}
