//! The English "golden rules" of the Pragmatic Segmenter (Kevin S. Dias, MIT licence), as
//! pySBD's tests state them (github.com/nipunsadvilkar/pySBD, MIT licence), in
//! tests/sent_data/golden-en.jsonl, written by tests/sent_data/golden_rules.py with the pass
//! counts of pySBD and NLTK's Punkt on the same cases (references.json). The bar is exact:
//! `sent` passes all 48 cases (pySBD passes 47).

use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sent_data");
const CASES: usize = 48;
const PASSING: usize = 48;

#[test]
fn golden_rules_pass_rate() {
    let path = format!("{DATA}/golden-en.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cases.len(), CASES);
    let tokenizer = toklab::load("sent").unwrap();
    let mut passed = 0;
    for case in &cases {
        let text = case["text"].as_str().unwrap();
        let want: Vec<&str> = case["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let got = tokens.forms(text);
        if got == want {
            passed += 1;
        } else {
            eprintln!("golden rule failed: {text:?}\n  sent   {got:?}\n  wanted {want:?}");
        }
    }
    let references: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/references.json")).unwrap())
            .unwrap();
    println!(
        "golden rules (English, {CASES} cases): sent {passed}, pySBD {}, NLTK Punkt trained on the KJV {}",
        references["pysbd"]["pass"], references["nltk_punkt_trained_on_kjv"]["pass"]
    );
    assert_eq!(passed, PASSING);
}

#[test]
fn sentence_ends_over_a_word_tokenizer_match_the_sentences() {
    // `sent:ws` must cut exactly where `sent` does, on every golden case.
    let alone = toklab::load("sent").unwrap();
    let marked = toklab::load("sent:ws").unwrap();
    let path = format!("{DATA}/golden-en.jsonl");
    for line in std::fs::read_to_string(&path).unwrap().lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let text = case["text"].as_str().unwrap();
        let sentences: Vec<_> = alone.tokenize(text).tokens.iter().map(|t| t.span).collect();
        assert_eq!(marked.tokenize(text).sentences(), sentences, "{text}");
    }
}
