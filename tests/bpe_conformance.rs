//! Identical ids: every model and line file in ../shared/conformance/bpe/ against the ids of
//! the reference libraries (tiktoken, HuggingFace tokenizers, SentencePiece). Each test prints
//! its agreement and requires today's count exactly: every line, chunk and case agrees, and a
//! shorter data file or a line left out fails as a disagreement does.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Lines in lines.txt, each compared with every model's reference ids.
const LINES: usize = 451;
/// Multi-line texts in chunks.jsonl.
const CHUNKS: usize = 54;
/// gpt-tokenizer's cases in TestPlans.txt.
const TEST_PLANS: usize = 313;
/// Improper dictionaries in formal/cases.json.
const FORMAL_CASES: usize = 2;

fn bpe_dir(test: &str) -> Option<PathBuf> {
    common::shared_dir(test).map(|d| d.join("conformance/bpe"))
}

fn lines(dir: &Path) -> Vec<String> {
    let raw = std::fs::read_to_string(dir.join("lines.txt")).unwrap();
    let body = raw
        .strip_suffix('\n')
        .expect("lines.txt ends with a newline");
    body.split('\n').map(str::to_string).collect()
}

fn ids(spec: &str, text: &str, tokenizer: &dyn toklab::Tokenizer) -> Vec<u32> {
    let tokens = tokenizer.tokenize(text);
    tokens.check(text).unwrap_or_else(|e| panic!("{spec}: {e}"));
    tokens
        .tokens
        .iter()
        .map(|t| {
            t.id.unwrap_or_else(|| panic!("{spec}: token without id in {text:?}"))
        })
        .collect()
}

fn expected_lines(path: &Path) -> Vec<Vec<u32>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Compares a model's ids on every line with an expected file; prints and asserts agreement.
fn check_lines(dir: &Path, spec: &str, expected: &str) {
    check_lines_against(dir, spec, &dir.join(expected));
}

/// As [`check_lines`], with the expected file given by path.
fn check_lines_against(dir: &Path, spec: &str, expected: &Path) {
    let tokenizer = toklab::load(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let texts = lines(dir);
    let expected = expected_lines(expected);
    assert_eq!(texts.len(), expected.len());
    let mut agree = 0;
    let mut first_failure = None;
    for (n, (text, want)) in texts.iter().zip(&expected).enumerate() {
        let got = ids(spec, text, tokenizer.as_ref());
        if &got == want {
            agree += 1;
        } else if first_failure.is_none() {
            first_failure = Some(format!(
                "line {}: {text:?}\n  got  {got:?}\n  want {want:?}",
                n + 1
            ));
        }
    }
    println!(
        "{spec}: lines.txt agreement {agree}/{} ({:.1}%)",
        texts.len(),
        100.0 * agree as f64 / texts.len() as f64
    );
    assert_eq!(
        (agree, texts.len()),
        (LINES, LINES),
        "{spec}: agreeing and total lines; {}",
        first_failure.unwrap_or_default()
    );
}

fn data(dir: &Path, rel: &str) -> String {
    dir.join("data").join(rel).display().to_string()
}

#[test]
fn gpt2_folder_lines() {
    let Some(dir) = bpe_dir("gpt2_folder_lines") else {
        return;
    };
    check_lines(
        &dir,
        &format!("bpe:{}", data(&dir, "gpt2")),
        "expected-gpt2.jsonl",
    );
}

#[test]
fn r50k_rank_file_lines() {
    let Some(dir) = bpe_dir("r50k_rank_file_lines") else {
        return;
    };
    let spec = format!("tiktoken:{}", data(&dir, "tiktoken/r50k_base.tiktoken"));
    check_lines(&dir, &spec, "expected-gpt2.jsonl");
}

#[test]
fn cl100k_lines() {
    let Some(dir) = bpe_dir("cl100k_lines") else {
        return;
    };
    let spec = format!("tiktoken:{}", data(&dir, "tiktoken/cl100k_base.tiktoken"));
    check_lines(&dir, &spec, "expected-cl100k.jsonl");
}

#[test]
fn o200k_lines() {
    let Some(dir) = bpe_dir("o200k_lines") else {
        return;
    };
    let spec = format!("tiktoken:{}", data(&dir, "tiktoken/o200k_base.tiktoken"));
    check_lines(&dir, &spec, "expected-o200k.jsonl");
}

#[test]
fn sentencepiece_botchan_lines() {
    let Some(dir) = bpe_dir("sentencepiece_botchan_lines") else {
        return;
    };
    let spec = format!(
        "spm:{}",
        data(&dir, "sentencepiece/botchan_en_bpe_1000.model")
    );
    check_lines(&dir, &spec, "expected-spm-botchan-bpe1000.jsonl");
}

#[test]
fn sentencepiece_kjv_lines() {
    let Some(dir) = bpe_dir("sentencepiece_kjv_lines") else {
        return;
    };
    let spec = format!("spm:{}", data(&dir, "sentencepiece/kjv_bpe_8000.model"));
    check_lines(&dir, &spec, "expected-spm-kjv-bpe8000.jsonl");
}

/// The models with reference ids in the shared folder: the name their expected files and
/// chunk entries go by (`expected-NAME.jsonl`), and their spec.
fn reference_models(dir: &Path) -> [(&'static str, String); 5] {
    [
        ("gpt2", format!("bpe:{}", data(dir, "gpt2"))),
        (
            "cl100k",
            format!("tiktoken:{}", data(dir, "tiktoken/cl100k_base.tiktoken")),
        ),
        (
            "o200k",
            format!("tiktoken:{}", data(dir, "tiktoken/o200k_base.tiktoken")),
        ),
        (
            "spm-botchan-bpe1000",
            format!(
                "spm:{}",
                data(dir, "sentencepiece/botchan_en_bpe_1000.model")
            ),
        ),
        (
            "spm-kjv-bpe8000",
            format!("spm:{}", data(dir, "sentencepiece/kjv_bpe_8000.model")),
        ),
    ]
}

/// The multi-line chunks (with `\n`, `\r\n` and blank lines) for every model at once.
#[test]
fn chunks_all_models() {
    let Some(dir) = bpe_dir("chunks_all_models") else {
        return;
    };
    let models = reference_models(&dir);
    let chunks: Vec<String> = std::fs::read_to_string(dir.join("chunks.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["text"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let expected: Vec<Value> = std::fs::read_to_string(dir.join("expected-chunks.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(chunks.len(), CHUNKS, "chunks.jsonl");
    assert_eq!(expected.len(), CHUNKS, "expected-chunks.jsonl");
    let mut failures = Vec::new();
    for (key, spec) in &models {
        let tokenizer = toklab::load(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut agree = 0;
        for (n, (text, want)) in chunks.iter().zip(&expected).enumerate() {
            let want: Vec<u32> = serde_json::from_value(want[key].clone()).unwrap();
            if ids(spec, text, tokenizer.as_ref()) == want {
                agree += 1;
            } else {
                failures.push(format!("{key}: chunk {}", n + 1));
            }
        }
        println!("{key}: chunks agreement {agree}/{}", chunks.len());
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// gpt-tokenizer's 313 test cases (encoding name, sample, ids), encoded with special tokens
/// allowed, as tiktoken's `encode(allowed_special="all")`.
#[test]
fn tiktoken_test_plans() {
    let Some(dir) = bpe_dir("tiktoken_test_plans") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("data/tiktoken/TestPlans.txt")).unwrap();
    let mut cases = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("EncodingName: ") {
        rest = &rest[start + "EncodingName: ".len()..];
        let (name, after) = rest.split_once('\n').unwrap();
        let after = after.strip_prefix("Sample: ").unwrap();
        let end = after.find("\nEncoded: ").unwrap();
        let sample = &after[..end];
        let after = &after[end + "\nEncoded: ".len()..];
        let (encoded, after) = after.split_once('\n').unwrap_or((after, ""));
        let want: Vec<u32> = serde_json::from_str(encoded).unwrap();
        cases.push((name.to_string(), sample.to_string(), want));
        rest = after;
    }
    assert_eq!(cases.len(), TEST_PLANS, "TestPlans.txt cases");
    let mut tokenizers = std::collections::HashMap::new();
    let mut agree = 0;
    let mut failures = Vec::new();
    for (name, sample, want) in &cases {
        let (file, pattern) = match name.as_str() {
            "p50k_edit" => ("p50k_base", "p50k_edit"),
            other => (other, other.trim_end_matches("_base")),
        };
        let spec = format!(
            "tiktoken:{}?pattern={pattern}",
            data(&dir, &format!("tiktoken/{file}.tiktoken"))
        );
        let tokenizer = tokenizers
            .entry(spec.clone())
            .or_insert_with(|| toklab::load(&spec).unwrap());
        if &ids(&spec, sample, tokenizer.as_ref()) == want {
            agree += 1;
        } else {
            failures.push(format!("{name}: {sample:?}"));
        }
    }
    println!("TestPlans.txt agreement {agree}/{}", cases.len());
    assert!(failures.is_empty(), "{failures:?}");
}

/// `semantics=sp` (the default, asked for explicitly) keeps 100%; `semantics=hf` too, since the
/// real dictionaries are proper (`toklab bpe check`) and by Lemma 1 Definition 4 then gives the
/// same tokens — computed another way, by the formal dictionary instead of the fast loop.
#[test]
fn both_semantics_on_the_conformance_lines() {
    let Some(dir) = bpe_dir("both_semantics_on_the_conformance_lines") else {
        return;
    };
    for (name, spec) in reference_models(&dir) {
        for semantics in ["sp", "hf"] {
            let spec = format!("{spec}?semantics={semantics}");
            check_lines(&dir, &spec, &format!("expected-{name}.jsonl"));
        }
    }
}

/// The paper's improper dictionaries: the libraries give SentencePiece semantics (Definition
/// 3), and so does toklab's encoder.
#[test]
fn formal_cases() {
    let Some(dir) = bpe_dir("formal_cases") else {
        return;
    };
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("data/formal/cases.json")).unwrap())
            .unwrap();
    assert_eq!(cases.len(), FORMAL_CASES, "formal/cases.json");
    let mut agree = 0;
    for (n, case) in cases.iter().enumerate() {
        let spec = format!(
            "bpe:{}?pattern=none",
            data(&dir, &format!("formal/case{}", n + 1))
        );
        let tokenizer = toklab::load(&spec).unwrap();
        let word = case["word"].as_str().unwrap();
        let tokens = tokenizer.tokenize(word);
        let forms: Vec<String> = tokens
            .tokens
            .iter()
            .map(|t| t.form(word).to_string())
            .collect();
        let observed = &case["observed"];
        let tiktoken: Vec<String> =
            serde_json::from_value(observed["tiktoken 0.14.0"].clone()).unwrap();
        let hf: Vec<String> =
            serde_json::from_value(observed["tokenizers 0.23.3 (py) / 0.22.2 (rs)"].clone())
                .unwrap();
        let sp: Vec<String> = serde_json::from_value(case["sp_semantics"].clone()).unwrap();
        assert_eq!(forms, tiktoken, "case {}", n + 1);
        assert_eq!(forms, hf, "case {}", n + 1);
        assert_eq!(forms, sp, "case {}", n + 1);
        agree += 1;
    }
    println!("formal/cases.json agreement {agree}/{}", cases.len());
}

/// The command line prints the same ids, one line per input line.
#[test]
fn cli_prints_ids_per_line() {
    let Some(dir) = bpe_dir("cli_prints_ids_per_line") else {
        return;
    };
    let spec = format!("tiktoken:{}", data(&dir, "tiktoken/cl100k_base.tiktoken"));
    let input = std::fs::read_to_string(dir.join("lines.txt")).unwrap();
    let out = common::stdout_of(&["tokenize", "--with", &spec, "--format", "ids"], &input);
    let expected = expected_lines(&dir.join("expected-cl100k.jsonl"));
    let got: Vec<Vec<u32>> = out
        .lines()
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(
        (got.len(), expected.len()),
        (LINES, LINES),
        "output and expected lines"
    );
    let agree = got.iter().zip(&expected).filter(|(g, w)| g == w).count();
    println!(
        "cli --format ids cl100k agreement {agree}/{}",
        expected.len()
    );
    assert_eq!(agree, LINES);
}

/// The unigram model: SentencePiece's Viterbi segmentation, ids from sentencepiece 0.2.3
/// (tests/bpe_data/gen_expected.py).
#[test]
fn sentencepiece_unigram_lines() {
    let Some(dir) = bpe_dir("sentencepiece_unigram_lines") else {
        return;
    };
    let spec = format!(
        "spm:{}",
        data(&dir, "sentencepiece/botchan_en_unigram_1000.model")
    );
    let expected = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bpe_data/expected-spm-botchan-unigram1000.jsonl");
    check_lines_against(&dir, &spec, &expected);
}

fn local(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// BERT WordPiece (bert-base-uncased) against HuggingFace tokenizers'
/// `BertWordPieceTokenizer(lowercase=True)`.
#[test]
fn bert_uncased_lines() {
    let Some(dir) = bpe_dir("bert_uncased_lines") else {
        return;
    };
    let spec = format!("wordpiece:{}", data(&dir, "bert/vocab.txt"));
    check_lines_against(
        &dir,
        &spec,
        &local("tests/bpe_data/expected-bert-uncased.jsonl"),
    );
}

/// The shipped sample models (trained on the project's own text by
/// tests/bpe_data/make_samples.py) against their reference libraries.
#[test]
fn shipped_samples_lines() {
    let Some(dir) = bpe_dir("shipped_samples_lines") else {
        return;
    };
    let samples = local("samples/bpe");
    let s = |f: &str| samples.join(f).display().to_string();
    for (spec, expected) in [
        (format!("bpe:{}", s("gpt2")), "expected-sample-gpt2.jsonl"),
        (
            format!("bpe:{}", s("tokenizer.json")),
            "expected-sample-gpt2.jsonl",
        ),
        (
            format!("bpe:{}", s("split-tokenizer.json")),
            "expected-sample-split.jsonl",
        ),
        (
            format!("tiktoken:{}?pattern=r50k", s("sample.tiktoken")),
            "expected-sample-tiktoken.jsonl",
        ),
        (
            format!("spm:{}", s("sample-spm.model")),
            "expected-sample-spm.jsonl",
        ),
        (
            format!("wordpiece:{}", s("sample-wordpiece.txt")),
            "expected-sample-wordpiece.jsonl",
        ),
    ] {
        check_lines_against(&dir, &spec, &local(&format!("tests/bpe_data/{expected}")));
    }
}
