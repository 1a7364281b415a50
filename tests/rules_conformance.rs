//! Conformance with utoken 0.1.8: the rule engine on utoken's own English resource files must
//! give utoken's outputs for ../shared/conformance/utoken/sentences.txt — its default output
//! (expected.txt), its `--simple` output (expected-simple.txt) and its chart
//! (expected-chart.jsonl). Prints the agreement per file; the bar is today's count, all 298
//! lines identical in each, so a line lost or a sentence dropped from the data fails.

use toklab_cli::output::{self, Format};

use crate::common;

/// Sentences in sentences.txt, and lines that must be identical in each expected file.
const SENTENCES: usize = 298;

/// Tokenizes every sentence with `spec` and renders it in `format`, one line each.
fn render(spec: &str, format: Format, sentences: &[String]) -> Vec<String> {
    let tokenizer = toklab::load(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    sentences
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let tokens = tokenizer.tokenize(text);
            let mut out = Vec::new();
            output::write_record(&mut out, format, i + 1, text, &tokens).unwrap();
            String::from_utf8(out)
                .unwrap()
                .trim_end_matches('\n')
                .to_string()
        })
        .collect()
}

/// Prints the agreement and the first differences; returns the number of identical lines.
fn agreement(name: &str, got: &[String], expected: &[String], sentences: &[String]) -> usize {
    assert_eq!(got.len(), expected.len(), "{name}: line count");
    let mut same = 0;
    let mut shown = 0;
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        if g == e {
            same += 1;
        } else if shown < 5 {
            shown += 1;
            eprintln!(
                "{name}: line {} differs\n  input    {}\n  toklab   {g}\n  utoken   {e}",
                i + 1,
                sentences[i]
            );
        }
    }
    println!(
        "utoken conformance {name}: {same}/{} lines identical ({:.2}%)",
        expected.len(),
        100.0 * same as f64 / expected.len() as f64
    );
    same
}

#[test]
fn utoken_conformance() {
    let Some(shared) = common::shared_dir("utoken_conformance") else {
        return;
    };
    let dir = shared.join("conformance/utoken");
    let sentences = common::lines(&dir.join("sentences.txt"));
    assert_eq!(sentences.len(), SENTENCES, "sentences.txt");
    let spec = format!("rules:{}?lang=eng", dir.join("data").display());
    let simple = format!("{spec}&simple=true");
    let checks = [
        ("expected.txt", render(&spec, Format::Text, &sentences)),
        (
            "expected-simple.txt",
            render(&simple, Format::Text, &sentences),
        ),
        (
            "expected-chart.jsonl",
            render(&spec, Format::Chart, &sentences),
        ),
    ];
    let mut failed = Vec::new();
    for (file, got) in &checks {
        let expected = common::lines(&dir.join(file));
        let same = agreement(file, got, &expected, &sentences);
        if same != SENTENCES {
            failed.push(format!("{file}: {same}/{SENTENCES}"));
        }
    }
    assert!(
        failed.is_empty(),
        "below the bar of {SENTENCES}/{SENTENCES} identical lines: {failed:?}"
    );
}

#[test]
fn every_token_points_into_the_text_and_names_its_step() {
    let Some(shared) = common::shared_dir("rules_provenance") else {
        return;
    };
    let dir = shared.join("conformance/utoken");
    let sentences = common::lines(&dir.join("sentences.txt"));
    let tokenizer =
        toklab::load(&format!("rules:{}?lang=eng", dir.join("data").display())).unwrap();
    let mut with_entry = 0;
    for text in &sentences {
        let tokens = tokenizer.tokenize(text);
        tokens
            .check(text)
            .unwrap_or_else(|e| panic!("{e} on {text:?}"));
        for token in &tokens.tokens {
            let Some(origin) = token
                .origin
                .detail_as::<toklab::engines::rules::RuleOrigin>()
            else {
                panic!("a rules token without a rule origin: {token:?}");
            };
            if let Some(entry) = &origin.entry {
                with_entry += 1;
                assert!(entry.file.ends_with(".txt") && entry.line > 0, "{entry}");
            }
        }
    }
    assert!(with_entry > 100, "dictionary entries found: {with_entry}");
}

#[test]
fn loads_as_many_entries_as_utoken() {
    // utoken's loader log for these files (NOTES.md §1.5): tok-resource-eng.txt 61 entries,
    // tok-resource-eng-global.txt 1,679, tok-resource.txt 1,889.
    let Some(shared) = common::shared_dir("rules_entry_count") else {
        return;
    };
    let data = shared.join("conformance/utoken/data");
    let options = toklab::engines::rules::LoadOptions {
        lang: Some("eng".into()),
        ..Default::default()
    };
    let rules = toklab::engines::rules::RulesTokenizer::load_dir(&data, &options).unwrap();
    let per_file = |name: &str| {
        rules
            .entries()
            .iter()
            .filter(|e| e.loc.file.ends_with(name))
            .count()
    };
    assert_eq!(per_file("tok-resource-eng.txt"), 61);
    assert_eq!(per_file("tok-resource-eng-global.txt"), 1679);
    assert_eq!(per_file("/tok-resource.txt"), 1889);
    assert_eq!(rules.entries().len(), 61 + 1679 + 1889);
}
