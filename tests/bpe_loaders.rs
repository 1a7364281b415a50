//! Every subword loader on broken input: truncated real files and random bytes give an error
//! naming the file, never a panic (GPT-2 folders, tiktoken, tokenizer.json through `bpe:` and
//! `hf:`, SentencePiece, WordPiece, tekken, RWKV, CLIP, claude.json).

use std::path::{Path, PathBuf};

use proptest::prelude::*;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe")
}

/// A fresh temporary folder, removed when dropped (even when the test fails).
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("toklab-bpe-loaders-")
        .tempdir()
        .unwrap()
}

/// Loads `spec`; an error must name the file it is about.
fn load_never_panics(spec: &str, file: &Path) {
    if let Err(e) = toklab::load(spec) {
        let message = e.to_string();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            message.contains(&name) || message.contains(&file.display().to_string()),
            "{spec}: error does not name {name}: {message}"
        );
    }
}

/// The single-file formats: (spec kind and options, file name, sample file).
const SINGLE_FILES: &[(&str, &str, &str, &str)] = &[
    ("tiktoken", "?pattern=r50k", "x.tiktoken", "sample.tiktoken"),
    ("bpe", "", "tokenizer.json", "tokenizer.json"),
    ("bpe", "", "tokenizer.json", "split-tokenizer.json"),
    ("hf", "", "tokenizer.json", "tokenizer.json"),
    ("hf", "", "tokenizer.json", "split-tokenizer.json"),
    ("spm", "", "x.model", "sample-spm.model"),
    ("wordpiece", "", "vocab.txt", "sample-wordpiece.txt"),
];

/// Small valid files of the formats no sample ships (their real models are fetched, and
/// large): (spec kind, file name, contents).
fn written_files() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let tekken = r#"{"config": {"pattern": "\\p{L}+|\\s+", "default_vocab_size": 4,
        "default_num_special_tokens": 1, "num_vocab_tokens": 4, "version": "v3"},
        "vocab": [{"rank": 0, "token_bytes": "YQ=="}, {"rank": 1, "token_bytes": "Yg=="},
                  {"rank": 2, "token_bytes": "YWI="}, {"rank": 3, "token_bytes": "YmE="}]}"#;
    let mut rwkv: String = (0..=255u8)
        .map(|b| format!("{} b'\\x{b:02x}' 1\n", u32::from(b) + 1))
        .collect();
    rwkv.push_str("257 'ab' 2\n258 \"it's\" 4\n");
    // CLIP's loader wants all the 48,894 merges it uses: pairs of byte-alphabet symbols.
    let alphabet: Vec<char> = (0..=255u8)
        .map(toklab::engines::subword::bpe::byte_to_char)
        .collect();
    let mut clip = String::from("#version: 0.2\n");
    for (left, right) in alphabet
        .iter()
        .flat_map(|l| alphabet.iter().map(move |r| (l, r)))
        .take(48_894)
    {
        clip.push_str(&format!("{left} {right}\n"));
    }
    let claude = r#"{"explicit_n_vocab": 6, "pat_str": " ?\\p{L}+|\\s+",
        "special_tokens": {"<EOT>": 0}, "bpe_ranks": "! 1 YQ== Yg== YWI= IA== IGE="}"#;
    vec![
        ("tekken", "tekken.json", tekken.as_bytes().to_vec()),
        ("rwkv", "rwkv_vocab.txt", rwkv.into_bytes()),
        ("clip", "merges.txt", clip.as_bytes().to_vec()),
        ("claude", "claude.json", claude.as_bytes().to_vec()),
    ]
}

fn check_single_files(data_of: impl Fn(&[u8]) -> Vec<u8>) {
    let scratch = scratch();
    let dir = scratch.path();
    for (kind, options, name, sample) in SINGLE_FILES {
        let original = std::fs::read(samples().join(sample)).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, data_of(&original)).unwrap();
        load_never_panics(&format!("{kind}:{}{options}", path.display()), &path);
    }
    for (kind, name, original) in written_files() {
        let path = dir.join(name);
        std::fs::write(&path, data_of(&original)).unwrap();
        load_never_panics(&format!("{kind}:{}", path.display()), &path);
    }
    // The GPT-2 folder: each of its two files broken in turn.
    for broken in ["vocab.json", "merges.txt"] {
        let folder = dir.join(format!("gpt2-{broken}"));
        std::fs::create_dir_all(&folder).unwrap();
        for file in ["vocab.json", "merges.txt"] {
            let original = std::fs::read(samples().join("gpt2").join(file)).unwrap();
            let data = if file == broken {
                data_of(&original)
            } else {
                original
            };
            std::fs::write(folder.join(file), data).unwrap();
        }
        load_never_panics(&format!("bpe:{}", folder.display()), &folder.join(broken));
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(48))]

    #[test]
    fn truncated_files_are_errors_not_panics(cut in 0.0f64..1.0) {
        check_single_files(|data| data[..(data.len() as f64 * cut) as usize].to_vec());
    }

    #[test]
    fn random_bytes_are_errors_not_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_single_files(|_| bytes.clone());
    }

    #[test]
    fn flipped_bytes_are_errors_not_panics(at in 0.0f64..1.0, value in any::<u8>()) {
        check_single_files(|data| {
            let mut data = data.to_vec();
            if !data.is_empty() {
                let i = ((data.len() - 1) as f64 * at) as usize;
                data[i] = value;
            }
            data
        });
    }
}

#[test]
fn malformed_lines_are_named() {
    let scratch = scratch();
    let dir = scratch.path();
    let path = dir.join("bad.tiktoken");
    std::fs::write(&path, "YQ== 0\nYg== 1\nnot base64! 2\n").unwrap();
    let e = toklab::load(&format!("tiktoken:{}?pattern=r50k", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("bad.tiktoken:3:"), "{e}");

    let folder = dir.join("gpt2");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("vocab.json"),
        "{\"a\": 0, \"b\": 1,\n \"ab\": 2}",
    )
    .unwrap();
    std::fs::write(folder.join("merges.txt"), "#version: 0.2\na b\nb a\n").unwrap();
    let e = toklab::load(&format!("bpe:{}", folder.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("merges.txt:3:") && e.contains("not in the vocabulary"),
        "{e}"
    );

    std::fs::write(folder.join("vocab.json"), "{\"a\": 0,\n \"b\": }").unwrap();
    let e = toklab::load(&format!("bpe:{}", folder.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("vocab.json:2:"), "{e}");

    let vocab = dir.join("vocab.txt");
    std::fs::write(&vocab, "[UNK]\nhello\n##lo\nhello\n").unwrap();
    let e = toklab::load(&format!("wordpiece:{}", vocab.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("vocab.txt:4:") && e.contains("twice"), "{e}");

    let model = dir.join("x.model");
    std::fs::write(&model, [0x0a, 0x05, 0x0a]).unwrap();
    let e = toklab::load(&format!("spm:{}", model.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("x.model") && e.contains("byte offset"), "{e}");
}

/// Normalizers and pre-tokenizers that are built load (their ids are checked against the
/// reference in `hf_pipeline.rs`); a component that is not built is an error naming it and the
/// line of its section.
#[test]
fn unsupported_tokenizer_json_components_are_named() {
    let scratch = scratch();
    let dir = scratch.path();
    let original = std::fs::read_to_string(samples().join("tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
    json["normalizer"] = serde_json::json!({"type": "NFKC"});
    let path = dir.join("tokenizer.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    toklab::load(&format!("bpe:{}", path.display())).unwrap();
    json["normalizer"] = serde_json::json!({"type": "Transliterate"});
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let e = toklab::load(&format!("bpe:{}", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("tokenizer.json:") && e.contains("normalizer Transliterate is not supported"),
        "{e}"
    );
    json["normalizer"] = serde_json::Value::Null;
    json["pre_tokenizer"] = serde_json::json!({"type": "Syllables"});
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let e = toklab::load(&format!("bpe:{}", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("pre_tokenizer Syllables is not supported"),
        "{e}"
    );
}

/// `add_prefix_space` in a `tokenizer.json`: ids from HuggingFace tokenizers 0.23.3 on the
/// shipped sample with the flag set; the inserted space covers no text.
#[test]
fn tokenizer_json_prefix_space_matches_huggingface() {
    let scratch = scratch();
    let dir = scratch.path();
    let original = std::fs::read_to_string(samples().join("tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
    json["pre_tokenizer"]["add_prefix_space"] = serde_json::Value::Bool(true);
    let path = dir.join("tokenizer.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let tokenizer = toklab::load(&format!("bpe:{}", path.display())).unwrap();
    for (text, want) in [
        ("Hello world", vec![221, 496, 599, 642]),
        (" the merge", vec![263, 468]),
        ("renew<|endoftext|>renew", vec![597, 0, 597]),
        ("", vec![]),
    ] {
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let ids: Vec<u32> = tokens.tokens.iter().map(|t| t.id.unwrap()).collect();
        assert_eq!(ids, want, "{text:?}");
        if let Some(first) = tokens.tokens.first() {
            assert_eq!(first.span.start, 0, "{text:?}");
        }
    }
}

/// A `Split` pattern that is none of the known ones runs on fancy-regex, with the text between
/// matches kept as pieces: ids from HuggingFace tokenizers 0.23.3 on the shipped sample with
/// its pattern replaced.
#[test]
fn tokenizer_json_other_split_pattern_matches_huggingface() {
    let scratch = scratch();
    let dir = scratch.path();
    let original = std::fs::read_to_string(samples().join("split-tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
    json["pre_tokenizer"]["pretokenizers"][0]["pattern"] =
        serde_json::json!({"Regex": r"\p{L}+|\p{N}|[^\s\p{L}\p{N}]+"});
    let path = dir.join("tokenizer.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let tokenizer = toklab::load(&format!("bpe:{}", path.display())).unwrap();
    for (text, want) in [
        (
            "Tokenizers merge 2026 pairs!!",
            vec![
                52, 79, 467, 392, 221, 77, 325, 69, 221, 18, 16, 18, 22, 221, 80, 399, 83, 485,
            ],
        ),
        ("  a  b ", vec![221, 221, 65, 221, 221, 66, 221]),
        ("naïve café", vec![78, 377, 543, 221, 67, 376, 428]),
    ] {
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let ids: Vec<u32> = tokens.tokens.iter().map(|t| t.id.unwrap()).collect();
        assert_eq!(ids, want, "{text:?}");
    }
}

/// The written samples of the formats without a shipped sample are valid: the broken-input
/// tests above start from files that load.
#[test]
fn the_written_samples_load() {
    let scratch = scratch();
    for (kind, name, contents) in written_files() {
        let path = scratch.path().join(name);
        std::fs::write(&path, contents).unwrap();
        let spec = format!("{kind}:{}", path.display());
        let tokenizer = toklab::load(&spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let tokens = tokenizer.tokenize("ab ba");
        tokens.check("ab ba").unwrap();
    }
}

/// The shipped samples of tekken, claude.json and RWKV (written by
/// `tools/make_format_samples.py` from `sample.tiktoken`) hold one vocabulary in rank order:
/// tekken's ids are claude.json's plus its three special tokens, and RWKV's greedy longest
/// match spells every line back from ids in 1..=665.
#[test]
fn the_format_samples_hold_one_vocabulary() {
    let spec = |kind: &str, file: &str| format!("{kind}:{}", samples().join(file).display());
    let tekken = toklab::load(&spec("tekken", "sample-tekken.json")).unwrap();
    let claude = toklab::load(&(spec("claude", "sample-claude.json") + "?nfkc=false")).unwrap();
    let rwkv = toklab::load(&spec("rwkv", "sample-rwkv.txt")).unwrap();
    let ids = |tokens: toklab::core::token::Tokenization| -> Vec<u32> {
        tokens.tokens.iter().map(|t| t.id.expect("an id")).collect()
    };
    let text = std::fs::read_to_string(samples().join("../sample.txt")).unwrap();
    for line in text.lines() {
        let from_claude: Vec<u32> = ids(claude.tokenize(line)).iter().map(|id| id + 3).collect();
        assert_eq!(ids(tekken.tokenize(line)), from_claude, "{line}");
        let rwkv_ids = ids(rwkv.tokenize(line));
        assert!(rwkv_ids.iter().all(|id| (1..=665).contains(id)), "{line}");
        assert_eq!(rwkv.decode(&rwkv_ids).unwrap(), line);
    }
}

#[test]
fn a_wordpiece_line_of_only_a_line_separator_keeps_its_id() {
    // Chinese BERT vocabularies have a line that is only U+2028 (and one `##` + U+2028):
    // tokenizers trims it to the empty piece and counts it, so the ids after it stay in step.
    // Ids below are what tokenizers 0.22's WordPiece gives on this vocabulary.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vocab.txt");
    std::fs::write(&path, "[UNK]\n[CLS]\nab\n\u{2028}\n##\u{2028}\n##c\nx\n").unwrap();
    let spec = format!("wordpiece:{}?lowercase=false", path.display());
    let tokenizer = toklab::load(&spec).unwrap();
    let ids = |text: &str| -> Vec<u32> {
        let tokens = tokenizer.tokenize(text);
        tokens.tokens.iter().map(|t| t.id.unwrap()).collect()
    };
    assert_eq!(ids("ab abc x"), [2, 2, 5, 6]);
    assert_eq!(ids("ab\u{2028}c"), [2, 0]);
}
