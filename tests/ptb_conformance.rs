//! Conformance with NLTK's Treebank tokenizer and detokenizer (nltk 3.10.4): `ptb` and
//! `ptb?parens=1` must give NLTK's tokens, and their `detokenize` NLTK's text, on the lines of
//! tests/ptb_data/lines.txt (written for toklab) and on lines of the shared corpora.
//! tests/ptb_data/gen_expected.py regenerates the expected files. The bars are exact: every
//! line agrees today, so one line that changes fails.

use serde_json::Value;

use crate::common;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ptb_data");

/// Lines in lines.txt and chosen lines of the shared corpora (298 utoken sentences, every
/// 100th King James verse, the German UDHR).
const OWN_LINES: usize = 218;
const SHARED_LINES: usize = 702;

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array of strings")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

/// Counts the lines whose tokens (with and without converted brackets) and detokenized texts
/// all equal NLTK's, printing the first differences.
fn agreeing(name: &str, cases: &[(String, Value)]) -> usize {
    let plain = toklab::load("ptb").unwrap();
    let parens = toklab::load("ptb?parens=1").unwrap();
    let mut same = 0;
    let mut shown = 0;
    for (text, expected) in cases {
        let mut differences = Vec::new();
        for (tokenizer, tokens_key, detok_key) in [
            (&plain, "tokens", "detok"),
            (&parens, "parens", "detok_parens"),
        ] {
            let tokenization = tokenizer.tokenize(text);
            tokenization.check(text).unwrap();
            let got: Vec<String> = tokenization
                .tokens
                .iter()
                .map(|t| t.form(text).to_string())
                .collect();
            let want = strings(&expected[tokens_key]);
            if got != want {
                differences.push(format!("{tokens_key}: toklab {got:?}\n    nltk   {want:?}"));
            }
            let forms: Vec<&str> = want.iter().map(String::as_str).collect();
            let back = tokenizer.detokenize(&forms).unwrap();
            let want_back = expected[detok_key].as_str().unwrap();
            if back != want_back {
                differences.push(format!(
                    "{detok_key}: toklab {back:?}\n    nltk   {want_back:?}"
                ));
            }
        }
        if differences.is_empty() {
            same += 1;
        } else if shown < 8 {
            shown += 1;
            eprintln!("{name}: {text:?}\n  {}", differences.join("\n  "));
        }
    }
    println!(
        "ptb conformance {name}: {same}/{} lines agree with NLTK",
        cases.len()
    );
    same
}

fn jsonl(name: &str) -> Vec<Value> {
    let path = format!("{DATA}/{name}");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

#[test]
fn own_lines_agree_with_nltk() {
    let cases: Vec<(String, Value)> = jsonl("expected-own.jsonl")
        .into_iter()
        .map(|v| (v["text"].as_str().unwrap().to_string(), v))
        .collect();
    assert_eq!(cases.len(), OWN_LINES);
    assert_eq!(agreeing("own lines", &cases), OWN_LINES);
}

#[test]
fn shared_corpus_lines_agree_with_nltk() {
    let Some(shared) = common::shared_dir("ptb_conformance") else {
        return;
    };
    let mut files: std::collections::HashMap<String, Vec<String>> = Default::default();
    let cases: Vec<(String, Value)> = jsonl("expected-shared.jsonl")
        .into_iter()
        .map(|v| {
            let file = v["file"].as_str().unwrap().to_string();
            let lines = files.entry(file.clone()).or_insert_with(|| {
                let path = shared.join(&file);
                std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                    .lines()
                    .map(str::to_string)
                    .collect()
            });
            let number = v["line"].as_u64().unwrap() as usize;
            (lines[number - 1].clone(), v)
        })
        .collect();
    assert_eq!(cases.len(), SHARED_LINES);
    assert_eq!(agreeing("shared corpus lines", &cases), SHARED_LINES);
}
