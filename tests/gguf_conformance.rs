//! llama.cpp's own test vocabularies (`models/ggml-vocab-*.gguf` with `.inp` texts and `.out`
//! expected ids, which llama.cpp's `test-tokenizer-0` checks), loaded with `gguf:FILE`: every
//! text must give llama.cpp's ids. The files are not ours to commit: `tools/fetch_llama_vocabs.sh`
//! puts them in `$TOKLAB_MODELS/llama-vocabs` (`.ci/run` runs it). A missing folder is a visible
//! skip, and a failure with `CI=true`. Prints the agreement per vocabulary.
//!
//! For a vocabulary llama.cpp ships without texts (`aquila`, `baichuan`, `gpt-neox`, and
//! `nomic-bert-moe`, its one `t5` vocabulary), the texts are ours, in `tests/gguf_data/NAME.gguf.inp`, with the ids llama.cpp built from the
//! same source gives them in the `.out` beside it (`tools/gen_gguf_expected.py`).

use std::path::{Path, PathBuf};

use toklab::Tokenizer;
use toklab::engines::subword::gguf::Gguf;

use crate::common;

const SEP: &str = "\n__ggml_vocab_test__\n";

/// How many of our texts `tests/gguf_data` has for a vocabulary, so a text that goes missing
/// fails too.
const OUR_TEXTS: &[(&str, usize)] = &[
    ("ggml-vocab-aquila", 64),
    ("ggml-vocab-baichuan", 64),
    ("ggml-vocab-gpt-neox", 64),
    ("ggml-vocab-nomic-bert-moe", 64),
];

/// The texts for vocabulary `file`: llama.cpp's beside it, else ours.
fn texts_for(file: &Path) -> Option<PathBuf> {
    let theirs = file.with_extension("gguf.inp");
    let name = file.file_name()?.to_string_lossy().to_string();
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/gguf_data/{name}.inp"));
    [theirs, ours].into_iter().find(|p| p.exists())
}

/// The texts of an `.inp` file and the ids of its `.out` file, split as test-tokenizer-0 does.
fn cases(inp: &Path) -> Vec<(String, Vec<u32>)> {
    let raw = std::fs::read_to_string(inp).unwrap();
    let out = std::fs::read_to_string(inp.with_extension("out")).unwrap();
    let mut texts = Vec::new();
    let mut pos = 0;
    while pos < raw.len() {
        match raw[pos..].find(SEP) {
            Some(next) => {
                texts.push(raw[pos..pos + next].to_string());
                pos += next + SEP.len();
            }
            None => {
                texts.push(raw[pos..].to_string());
                break;
            }
        }
    }
    let ids: Vec<Vec<u32>> = out
        .lines()
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    assert_eq!(texts.len(), ids.len(), "{}", inp.display());
    texts.into_iter().zip(ids).collect()
}

#[test]
fn llama_cpp_test_vocabularies_give_llama_cpps_ids() {
    let dir = common::models_dir().join("llama-vocabs");
    if !dir.is_dir() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is missing; CI requires it (tools/fetch_llama_vocabs.sh)",
                dir.display()
            );
        }
        common::skip_note(&format!(
            "gguf conformance: skipped: {} not found (run tools/fetch_llama_vocabs.sh)",
            dir.display()
        ));
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gguf"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 19,
        "expected llama.cpp's 19 test vocabularies in {}",
        dir.display()
    );
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let (mut with_texts, mut all_agree, mut loaded) = (0, 0, 0);
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let inp = texts_for(file);
        if inp.is_some() {
            with_texts += 1;
        }
        let tokenizer = match Gguf::load(&name, file, true) {
            Ok(t) => t,
            Err(e) => {
                report.push(format!("{name:32} does not load: {e}"));
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        loaded += 1;
        let Some(inp) = inp else {
            // No expected ids: the vocabulary must load and tokenize with valid spans.
            let text = "Hello world! 123 ½ 🦙 \n\t héllo";
            tokenizer.tokenize(text).check(text).unwrap();
            report.push(format!("{name:32} loads (no texts for it)"));
            continue;
        };
        let cases = cases(&inp);
        if let Some(&(_, count)) = OUR_TEXTS.iter().find(|(n, _)| *n == name) {
            assert_eq!(cases.len(), count, "{}", inp.display());
        }
        let mut agree = 0;
        for (text, expected) in &cases {
            let tokens = tokenizer.tokenize(text);
            tokens
                .check(text)
                .unwrap_or_else(|e| panic!("{name} {text:?}: {e}"));
            let ids: Vec<u32> = tokens.tokens.iter().filter_map(|t| t.id).collect();
            assert_eq!(ids, tokenizer.ids(text), "{name} {text:?}");
            if &ids == expected {
                agree += 1;
            } else if failures.len() < 20 {
                failures.push(format!(
                    "{name} {text:?}\n  toklab    {ids:?}\n  llama.cpp {expected:?}"
                ));
            }
        }
        if agree == cases.len() {
            all_agree += 1;
        }
        let ids: usize = cases.iter().map(|(_, ids)| ids.len()).sum();
        report.push(format!(
            "{name:32} {agree}/{} texts ({ids} ids)",
            cases.len()
        ));
    }
    common::skip_note(&format!(
        "gguf conformance: {loaded}/{} vocabularies load; {all_agree}/{with_texts} with texts give llama.cpp's ids on every text\n{}",
        files.len(),
        report.join("\n")
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // llama.cpp's 15 vocabularies with texts and ours: none may lose its texts unnoticed.
    assert!(
        with_texts >= 15 + OUR_TEXTS.len(),
        "only {with_texts} vocabularies have texts"
    );
}
