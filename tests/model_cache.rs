//! The cache of parsed models (`crates/toklab/src/core/model_cache/`): a cached load gives the
//! ids a parse gives, on the real models and the samples; an edited source, or an entry that is
//! cut short, damaged or another file's, is never used and is written again; `TOKLAB_NO_CACHE=1`
//! writes nothing; a cache folder that cannot be made changes nothing. Every test runs the
//! program with a cache folder of its own (never the user's), and none depends on timing: a
//! load counts as cached when it left the entry untouched.

use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::common;

/// Text in several scripts, with digits, punctuation, long words and spaces in runs.
const TEXT: &str = "The cache keeps models parsed: 12,345 tokens\tper second!\n\
    Ça marche très bien — naïve façade, Straße, ελληνικά, русский текст.\n\
    日本語の文章と中文句子，还有한국어 문장。 😀 emoji   and   spaces\n\
    supercalifragilisticexpialidocious <|endoftext|> don't won't y'all";

/// `toklab tokenize --with SPEC --format ids` on `text` with the cache in `dir` (`None`: off).
fn ids(spec: &str, dir: Option<&Path>, text: &str) -> String {
    let mut command = common::toklab();
    command.args(["tokenize", "--with", spec, "--format", "ids"]);
    command.env_remove("TOKLAB_NO_CACHE");
    match dir {
        Some(dir) => command.env("TOKLAB_CACHE_DIR", dir),
        None => command.env("TOKLAB_NO_CACHE", "1"),
    };
    let output = common::run_command(command, text.as_bytes());
    assert!(
        output.status.success(),
        "{spec}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("ids are UTF-8")
}

/// The entries in a cache folder.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    found.retain(|p| p.extension().is_some_and(|e| e == "entry"));
    found.sort();
    found
}

/// Which file an entry is and when it was last written: unchanged means it was only read.
fn identity(path: &Path) -> (u64, i64, i64) {
    let meta = std::fs::metadata(path).expect("entry");
    (meta.ino(), meta.mtime(), meta.mtime_nsec())
}

/// Parsed, first cached load (which writes the entry) and second (which only reads it) give
/// the same ids; returns the entry.
fn check_cached_equals_parsed(spec: &str, dir: &Path, text: &str) -> PathBuf {
    let parsed = ids(spec, None, text);
    assert!(!parsed.trim().is_empty(), "{spec}: no ids");
    let before = entries(dir);
    assert_eq!(ids(spec, Some(dir), text), parsed, "{spec}: first load");
    let after = entries(dir);
    let entry = after
        .iter()
        .find(|e| !before.contains(e))
        .unwrap_or_else(|| panic!("{spec}: no entry written"))
        .clone();
    let written = identity(&entry);
    assert_eq!(ids(spec, Some(dir), text), parsed, "{spec}: cached load");
    assert_eq!(identity(&entry), written, "{spec}: the entry was not used");
    entry
}

#[test]
fn cached_loads_give_the_ids_of_parsed_ones_on_real_models() {
    let models = common::models_dir();
    let specs = [
        ("gemma.tokenizer.json", "hf:{}"),
        ("llama3.tokenizer.json", "hf:{}"),
        ("qwen3.tokenizer.json", "hf:{}"),
        ("nepali-unigram.tokenizer.json", "hf:{}"),
        ("minilm-l6.tokenizer.json", "hf:{}"),
        ("llama2.tokenizer.json", "hf:{}?special=add"),
        ("qwen.tiktoken", "tiktoken:{}?pattern=cl100k"),
        ("whisper-multilingual.tiktoken", "tiktoken:{}?pattern=r50k"),
        ("ai21-j2.model", "spm:{}"),
        ("mistral-v1.model", "spm:{}"),
        ("mistral-v7.model", "spm:{}"),
        ("kyoto_ja_unigram_8000.model", "spm:{}"),
        ("llama-vocabs/ggml-vocab-gemma-4.gguf", "gguf:{}"),
        ("llama-vocabs/ggml-vocab-llama-bpe.gguf", "gguf:{}"),
        ("llama-vocabs/ggml-vocab-qwen2.gguf", "gguf:{}?special=none"),
        ("llama-vocabs/ggml-vocab-llama-spm.gguf", "gguf:{}"),
        ("llama-vocabs/ggml-vocab-phi-3.gguf", "gguf:{}"),
        ("llama-vocabs/ggml-vocab-bert-bge.gguf", "gguf:{}"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut missing = Vec::new();
    for (file, spec) in specs {
        let path = models.join(file);
        if !path.is_file() {
            missing.push(file);
            continue;
        }
        let spec = spec.replace("{}", &path.display().to_string());
        check_cached_equals_parsed(&spec, dir.path(), TEXT);
    }
    if !missing.is_empty() {
        let note = format!(
            "model_cache: real models missing from {} (run ../shared/realworld/fetch.sh): {}",
            models.display(),
            missing.join(", ")
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{note}; CI requires them");
        }
        common::skip_note(&format!("{note}: those were skipped"));
    }
}

#[test]
fn cached_loads_give_the_ids_of_parsed_ones_on_the_samples() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let dir = tempfile::tempdir().unwrap();
    for spec in [
        "hf:{}/tokenizer.json",
        "tiktoken:{}/sample.tiktoken?pattern=r50k",
        "spm:{}/sample-spm.model",
    ] {
        let spec = spec.replace("{}", &samples.display().to_string());
        check_cached_equals_parsed(&spec, dir.path(), TEXT);
    }
}

/// A copy of the sample tokenizer.json in `dir`, and its spec.
fn sample_copy(dir: &Path) -> (PathBuf, String) {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let path = dir.join("tokenizer.json");
    std::fs::copy(samples.join("tokenizer.json"), &path).unwrap();
    let spec = format!("hf:{}", path.display());
    (path, spec)
}

#[test]
fn an_edit_of_the_same_size_with_the_old_time_is_seen() {
    let models = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (path, spec) = sample_copy(models.path());
    assert_eq!(ids(&spec, Some(cache.path()), "!#").trim(), "1 3");
    assert_eq!(ids(&spec, Some(cache.path()), "!#").trim(), "1 3");
    // Swap the ids of `!` and `#`: same size, and the modification time put back.
    let before = std::fs::metadata(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text
        .replacen("\"!\": 1,", "\"!\": 3,", 1)
        .replacen("\"#\": 3,", "\"#\": 1,", 1);
    assert_ne!(edited, text);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&path, edited).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(before.modified().unwrap()).unwrap();
    drop(file);
    let after = std::fs::metadata(&path).unwrap();
    assert_eq!(
        (after.len(), after.modified().unwrap(), after.ino()),
        (before.len(), before.modified().unwrap(), before.ino())
    );
    assert_eq!(ids(&spec, None, "!#").trim(), "3 1");
    assert_eq!(ids(&spec, Some(cache.path()), "!#").trim(), "3 1");
    assert_eq!(ids(&spec, Some(cache.path()), "!#").trim(), "3 1");
}

#[test]
fn a_damaged_short_or_foreign_entry_is_ignored_and_written_again() {
    let models = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (_, spec) = sample_copy(models.path());
    let entry = check_cached_equals_parsed(&spec, cache.path(), TEXT);
    let good = std::fs::read(&entry).unwrap();
    let expected = ids(&spec, None, TEXT);
    // The entry of the same content at another path, and one of another format.
    let elsewhere = tempfile::tempdir().unwrap();
    let (_, copy) = sample_copy(elsewhere.path());
    let other_cache = tempfile::tempdir().unwrap();
    let same_content = std::fs::read(check_cached_equals_parsed(&copy, other_cache.path(), TEXT));
    let tiktoken = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe/sample.tiktoken");
    let other_format = check_cached_equals_parsed(
        &format!("tiktoken:{}?pattern=r50k", tiktoken.display()),
        other_cache.path(),
        TEXT,
    );
    let other_format = std::fs::read(other_format).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    let mut header_flipped = good.clone();
    header_flipped[20] ^= 1;
    // Bytes inside the payload's tables (the vocabulary's slots, the merge table's), which a
    // cached load uses where they lie: each caught by the payload's hash.
    let inside = (1..8).map(|k| {
        let mut changed = good.clone();
        let at = good.len() * k / 8;
        changed[at] ^= 0x10;
        ("a byte inside the tables changed", changed)
    });
    let damaged: [(&str, Vec<u8>); 7] = [
        ("cut short", good[..good.len() / 2].to_vec()),
        ("cut to nothing", Vec::new()),
        ("a payload byte changed", flipped),
        ("a header byte changed", header_flipped),
        ("not an entry", b"toklabMC but nothing else of one".to_vec()),
        ("the entry of a copy at another path", same_content.unwrap()),
        ("another format's entry", other_format),
    ];
    for (what, bytes) in damaged.into_iter().chain(inside) {
        std::fs::write(&entry, &bytes).unwrap();
        assert_eq!(ids(&spec, Some(cache.path()), TEXT), expected, "{what}");
        assert_eq!(
            std::fs::read(&entry).unwrap(),
            good,
            "{what}: not rewritten"
        );
    }
}

#[test]
fn no_cache_writes_nothing() {
    let cache = tempfile::tempdir().unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let mut command = common::toklab();
    let spec = format!("hf:{}/tokenizer.json", samples.display());
    command.args(["tokenize", "--with", &spec, "--format", "ids"]);
    command.env("TOKLAB_CACHE_DIR", cache.path().join("models"));
    command.env("TOKLAB_NO_CACHE", "1");
    let output = common::run_command(command, TEXT.as_bytes());
    assert!(output.status.success());
    assert!(!cache.path().join("models").exists());
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 0);
}

#[test]
fn a_cache_folder_that_cannot_be_made_changes_nothing() {
    let place = tempfile::tempdir().unwrap();
    // A folder inside a plain file cannot be made, even by root.
    let blocker = place.path().join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let spec = format!("hf:{}/tokenizer.json", samples.display());
    let mut command = common::toklab();
    command.args(["tokenize", "--with", &spec, "--format", "ids"]);
    command.env_remove("TOKLAB_NO_CACHE");
    command.env("TOKLAB_CACHE_DIR", blocker.join("models"));
    let output = common::run_command(command, TEXT.as_bytes());
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        ids(&spec, None, TEXT)
    );
}

/// A GGUF file of `size` bytes (sparse: the tensor data a hole) whose byte-level BPE
/// vocabulary has `ab` and `ba`, each made by a merge; returns its spec.
fn gguf_model(path: &Path, size: u64) -> String {
    use toklab::engines::subword::gguf::write::{Builder, Val};
    let mut b = Builder::new(3);
    b.put("general.architecture", Val::Str("gpt2"))
        .put("tokenizer.ggml.model", Val::Str("gpt2"))
        .put("tokenizer.ggml.pre", Val::Str("gpt-2"))
        .put(
            "tokenizer.ggml.tokens",
            Val::Strs(&["a", "b", "Ġ", "ab", "ba"]),
        )
        .put("tokenizer.ggml.merges", Val::Strs(&["a b", "b a"]));
    b.write(path, size).unwrap();
    format!("gguf:{}", path.display())
}

#[test]
fn a_gguf_entry_covers_the_metadata_and_sees_an_edit_in_it() {
    let models = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = models.path().join("big.gguf");
    // Four gigabytes, nearly all hole: a load that hashed the whole file would read them.
    let spec = gguf_model(&path, 4 << 30);
    let entry = check_cached_equals_parsed(&spec, cache.path(), "abba");
    assert_eq!(ids(&spec, Some(cache.path()), "abba").trim(), "3 4");
    let written = identity(&entry);
    // `ab` becomes `ac` in the vocabulary: same size, the modification time put back.
    let before = std::fs::metadata(&path).unwrap();
    let mut head = vec![0u8; 4096];
    let file = std::fs::File::options()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let read = file.read_at(&mut head, 0).unwrap();
    let token = head[..read]
        .windows(10)
        .position(|w| w == b"\x02\0\0\0\0\0\0\0ab")
        .unwrap();
    file.write_at(b"c", (token + 9) as u64).unwrap();
    drop(file);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(before.modified().unwrap()).unwrap();
    drop(file);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), before.len());
    let edited = ids(&spec, None, "abba");
    assert_ne!(edited.trim(), "3 4");
    assert_eq!(ids(&spec, Some(cache.path()), "abba"), edited);
    assert_ne!(identity(&entry), written, "the old entry was used");
    let rewritten = identity(&entry);
    assert_eq!(ids(&spec, Some(cache.path()), "abba"), edited);
    assert_eq!(identity(&entry), rewritten, "the new entry was not used");
}

#[test]
fn a_damaged_gguf_entry_is_ignored_and_written_again() {
    let models = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let spec = gguf_model(&models.path().join("small.gguf"), 0);
    // A byte in each part of the payload: the vocabulary, the BPE tables, the warnings.
    each_flip_is_ignored_and_rewritten(&spec, cache.path(), 0x04, |len| {
        vec![len / 2, len * 3 / 4, len - 9]
    });
}

/// Flips `mask` in each byte of the cache entry of `spec` that `positions` picks (given the
/// entry's length), one at a time: each time the ids are the parsed model's and the entry is
/// written again whole.
fn each_flip_is_ignored_and_rewritten(
    spec: &str,
    cache: &Path,
    mask: u8,
    positions: impl Fn(usize) -> Vec<usize>,
) {
    let entry = check_cached_equals_parsed(spec, cache, TEXT);
    let good = std::fs::read(&entry).unwrap();
    let expected = ids(spec, None, TEXT);
    for at in positions(good.len()) {
        let mut flipped = good.clone();
        flipped[at] ^= mask;
        std::fs::write(&entry, &flipped).unwrap();
        assert_eq!(ids(spec, Some(cache), TEXT), expected, "byte {at}");
        assert_eq!(
            std::fs::read(&entry).unwrap(),
            good,
            "byte {at}: not rewritten"
        );
    }
}

#[test]
fn a_damaged_unigram_trie_in_an_spm_entry_is_ignored_and_written_again() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let spec = format!("spm:{}/sample-spm.model", samples.display());
    let cache = tempfile::tempdir().unwrap();
    // The trie is the payload's last part (its nodes, edges and byte-range tables, read where
    // they lie): a byte changed in each eighth of the entry's second half.
    each_flip_is_ignored_and_rewritten(&spec, cache.path(), 0x20, |len| {
        (8..16).map(|k| len * k / 16).collect()
    });
}
