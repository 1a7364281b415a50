//! Conformance with Datok on ../shared/conformance/fst: every grammar (as foma's `.fst` and as
//! Datok's `.matok`), both representations, every input line; tokens, sentence ends and offsets
//! must be exactly Datok's. Prints the agreement; the bar is today's count (every text agrees,
//! with today's number of texts, tokens and sentences), so a text lost from the data fails.

use crate::common;

use std::path::Path;

use toklab::engines::fst::{FstTokenizer, Repr};
use toklab::{Tokenization, Tokenizer};
use toklab_cli::output::{self, Format};

struct Case {
    grammar: &'static str,
    inputs: &'static str,
    /// Texts in the input file, all of which must agree.
    texts: usize,
    /// Tokens and sentences over all the texts, as Datok gives them.
    tokens: usize,
    sentences: usize,
}

const CASES: &[Case] = &[
    Case {
        grammar: "web-en",
        inputs: "sentences.txt",
        texts: 300,
        tokens: 6212,
        sentences: 523,
    },
    Case {
        grammar: "tiny",
        inputs: "tiny-inputs.txt",
        texts: 100,
        tokens: 1203,
        sentences: 100,
    },
];

fn render(format: Format, text: &str, tokens: &Tokenization) -> String {
    let mut out = Vec::new();
    output::write(&mut out, format, text, tokens).unwrap();
    String::from_utf8(out).unwrap()
}

/// Splits Datok's token output into one block per text (each ends with its `\n\n\n`).
fn blocks(expected: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = expected;
    while let Some(end) = rest.find("\n\n\n") {
        blocks.push(&rest[..end + 3]);
        rest = &rest[end + 3..];
    }
    assert!(rest.is_empty(), "trailing output after the last text");
    blocks
}

/// Code point offsets of the tokens, as the jsonl gives them.
fn codepoint_spans(text: &str, tokens: &Tokenization) -> Vec<[usize; 2]> {
    let cp = |b: usize| text[..b].chars().count();
    tokens
        .tokens
        .iter()
        .map(|t| [cp(t.span.start), cp(t.span.end)])
        .collect()
}

#[test]
fn agreement_with_datok_is_complete() {
    let Some(shared) = common::shared_dir("fst_conformance") else {
        return;
    };
    let dir = shared.join("conformance/fst");
    let mut failures = Vec::new();
    for case in CASES {
        let read = |name: String| std::fs::read_to_string(dir.join(&name)).unwrap();
        let inputs = read(case.inputs.to_string());
        let texts: Vec<&str> = inputs.lines().collect();
        assert_eq!(texts.len(), case.texts, "{}: {}", case.grammar, case.inputs);
        let expected_tokens = read(format!("expected-{}.txt", case.grammar));
        let expected_tokens = blocks(&expected_tokens);
        let expected_offsets = read(format!("expected-{}-offsets.txt", case.grammar));
        let expected_offsets: Vec<&str> = expected_offsets.lines().collect();
        let jsonl = read(format!("expected-{}.jsonl", case.grammar));
        let json: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(expected_tokens.len(), texts.len(), "{}", case.grammar);
        assert_eq!(json.len(), texts.len(), "{}", case.grammar);
        // Datok's models as shipped, and the double array and saved form toklab writes.
        let temp = tempfile::tempdir().unwrap();
        let written = temp.path();
        let source =
            toklab::engines::fst::Model::open(&dir.join(format!("{}.fst", case.grammar))).unwrap();
        let array = toklab::engines::fst::DoubleArray::build(&source.network);
        let datok = written.join(format!("{}.datok", case.grammar));
        std::fs::write(
            &datok,
            toklab::engines::fst::write_datok(&source.network, &array),
        )
        .unwrap();
        let saved = written.join(format!("{}.tlfst", case.grammar));
        std::fs::write(
            &saved,
            toklab::engines::fst::write_compact(&source.network, &array),
        )
        .unwrap();
        for (model, path) in [
            ("fst", dir.join(format!("{}.fst", case.grammar))),
            ("matok", dir.join(format!("{}.matok", case.grammar))),
            ("datok (written by toklab)", datok),
            ("toklab saved form", saved),
        ] {
            for repr in [Repr::Matrix, Repr::DoubleArray] {
                let tokenizer = FstTokenizer::open(&path, repr).unwrap();
                let (mut agree, mut tokens, mut sentences) = (0, 0, 0);
                for (i, text) in texts.iter().enumerate() {
                    let result = tokenizer.tokenize(text);
                    result.check(text).unwrap();
                    let datok = render(Format::Datok, text, &result);
                    let offsets = render(Format::Offsets, text, &result);
                    let want_offsets = format!(
                        "{}\n{}\n",
                        expected_offsets[2 * i],
                        expected_offsets[2 * i + 1]
                    );
                    let forms: Vec<&str> = result.tokens.iter().map(|t| t.form(text)).collect();
                    let spans = codepoint_spans(text, &result);
                    let sentence_spans: Vec<[usize; 2]> = {
                        let cp = |b: usize| text[..b].chars().count();
                        result
                            .sentences()
                            .iter()
                            .map(|s| [cp(s.start), cp(s.end)])
                            .collect()
                    };
                    let j = &json[i];
                    let same = datok == expected_tokens[i]
                        && offsets == want_offsets
                        && j["text"] == *text
                        && serde_json::json!(forms) == j["tokens"]
                        && serde_json::json!(spans) == j["token_offsets"]
                        && serde_json::json!(sentence_spans) == j["sentence_offsets"];
                    if same {
                        agree += 1;
                    } else if failures.len() < 5 {
                        failures.push(format!(
                            "{} {} line {}: {text:?}\n got {datok:?} {offsets:?}\nwant {:?} {want_offsets:?}",
                            path.display(),
                            repr.name(),
                            i + 1,
                            expected_tokens[i]
                        ));
                    }
                    tokens += result.len();
                    sentences += result.sentences().len();
                }
                assert_eq!(
                    (agree, tokens, sentences),
                    (case.texts, case.tokens, case.sentences),
                    "{} {model} {}: texts agreeing, tokens, sentences",
                    case.grammar,
                    repr.name()
                );
                println!(
                    "fst conformance {} {model} repr={}: {agree}/{} texts agree with Datok ({:.2}%), \
                     {tokens} tokens, {sentences} sentences",
                    case.grammar,
                    repr.name(),
                    texts.len(),
                    100.0 * agree as f64 / texts.len() as f64
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cli_output_is_byte_identical_to_datok() {
    let Some(shared) = common::shared_dir("fst_conformance") else {
        return;
    };
    let dir = shared.join("conformance/fst");
    for (grammar, inputs) in [("web-en", "sentences.txt"), ("tiny", "tiny-inputs.txt")] {
        for repr in ["matrix", "da"] {
            let spec = format!(
                "fst:{}?repr={repr}",
                dir.join(format!("{grammar}.fst")).display()
            );
            let input = dir.join(inputs);
            let input = input.to_str().unwrap();
            for (format, expected) in [
                ("datok", format!("expected-{grammar}.txt")),
                ("offsets", format!("expected-{grammar}-offsets.txt")),
            ] {
                let out = common::run(
                    &["tokenize", "--with", &spec, "--format", format, input],
                    b"",
                );
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let want = std::fs::read(dir.join(&expected)).unwrap();
                assert!(
                    out.stdout == want,
                    "{spec} --format {format} differs from {expected}"
                );
            }
        }
    }
}

#[test]
fn datok_examples_from_the_readme() {
    let Some(shared) = common::shared_dir("fst_conformance") else {
        return;
    };
    let dir = shared.join("conformance/fst");
    let forms = |model: &Path, text: &str| -> String {
        let t = FstTokenizer::open(model, Repr::Matrix).unwrap();
        let result = t.tokenize(text);
        let mut out = Vec::new();
        for (i, token) in result.tokens.iter().enumerate() {
            out.push(token.form(text).to_string());
            if result.ends_sentence(i) {
                out.push("|".into());
            }
        }
        out.join(" ")
    };
    let tiny = dir.join("tiny.fst");
    assert_eq!(forms(&tiny, "abbbd"), "a b b b d |");
    assert_eq!(forms(&tiny, "abc ab c"), "abc a b c |");
    assert_eq!(forms(&tiny, "dab"), "d a b |");
    let web = dir.join("web-en.fst");
    assert_eq!(
        forms(&web, "We met in the U.S.A last year, etc. Then we left."),
        "We met in the U.S. A last year , etc. | Then we left . |"
    );
    assert_eq!(forms(&web, "http:"), "http : |");
    assert_eq!(forms(&web, "john@example"), "john @example |");
    assert_eq!(forms(&web, "didn't"), "did n't |");
    assert_eq!(forms(&web, "etc. and"), "etc. and |");
}

#[test]
fn texts_joined_by_end_of_text_tokenize_as_separate_texts() {
    // Datok on all lines joined by U+0004 gives the concatenated per-line outputs; so do we
    // (tokens and sentence ends; our offsets stay those of the whole input).
    let Some(shared) = common::shared_dir("fst_conformance") else {
        return;
    };
    let dir = shared.join("conformance/fst");
    let inputs = std::fs::read_to_string(dir.join("sentences.txt")).unwrap();
    let texts: Vec<&str> = inputs.lines().collect();
    let joined = texts.join("\u{4}");
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let tokenizer = FstTokenizer::open(&dir.join("web-en.fst"), repr).unwrap();
        let whole = tokenizer.tokenize(&joined);
        let mut forms = Vec::new();
        let mut ends = Vec::new();
        for text in &texts {
            let part = tokenizer.tokenize(text);
            let before = forms.len();
            forms.extend(part.tokens.iter().map(|t| t.form(text).to_string()));
            ends.extend(part.sentence_ends.iter().map(|e| e + before));
        }
        let whole_forms: Vec<String> = whole
            .tokens
            .iter()
            .map(|t| t.form(&joined).to_string())
            .collect();
        assert_eq!(whole_forms, forms);
        assert_eq!(whole.sentence_ends, ends);
    }
}
