//! `Tokenizer::detokenize` for subword kinds: token strings (the vocabulary's own spelling,
//! `Tokenizer::piece`) go back to text through their ids and the model's decoder. Checked on
//! every shipped sample model (detokenizing the strings of some ids equals decoding the ids,
//! and gives the text back where the model is lossless) and against the reference libraries
//! on the shared conformance lines, whose ids tiktoken, HuggingFace tokenizers and
//! sentencepiece all decode back to the line.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use proptest::prelude::*;

use crate::common;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe")
}

/// Each shipped sample model, and whether it gives every text back (no normalization, no
/// unknown pieces for the generated texts).
static SAMPLES: LazyLock<Vec<(Box<dyn toklab::Tokenizer>, bool)>> = LazyLock::new(|| {
    let s = samples();
    [
        (format!("bpe:{}", s.join("gpt2").display()), true),
        (
            format!(
                "tiktoken:{}?pattern=o200k&special=none",
                s.join("sample.tiktoken").display()
            ),
            true,
        ),
        (format!("hf:{}", s.join("tokenizer.json").display()), true),
        (
            format!("spm:{}", s.join("sample-spm.model").display()),
            false,
        ),
        (
            format!("wordpiece:{}", s.join("sample-wordpiece.txt").display()),
            false,
        ),
        (format!("gguf:{}", s.join("sample.gguf").display()), true),
    ]
    .into_iter()
    .map(|(spec, lossless)| (toklab::load(&spec).unwrap(), lossless))
    .collect()
});

/// The token strings and ids of `text` under `tokenizer`.
fn strings_and_ids(tokenizer: &dyn toklab::Tokenizer, text: &str) -> (Vec<String>, Vec<u32>) {
    let ids: Vec<u32> = tokenizer
        .tokenize(text)
        .tokens
        .iter()
        .map(|t| t.id.expect("a subword token has an id"))
        .collect();
    let strings = ids
        .iter()
        .map(|&id| {
            tokenizer
                .piece(id)
                .unwrap_or_else(|| panic!("{}: id {id} has no string", tokenizer.name()))
        })
        .collect();
    (strings, ids)
}

fn detokenize(tokenizer: &dyn toklab::Tokenizer, strings: &[String]) -> String {
    let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
    tokenizer.detokenize(&refs).unwrap()
}

fn agrees_with_decode(text: &str) -> Result<(), TestCaseError> {
    for (tokenizer, lossless) in SAMPLES.iter() {
        let (strings, ids) = strings_and_ids(tokenizer.as_ref(), text);
        let back = detokenize(tokenizer.as_ref(), &strings);
        prop_assert_eq!(
            &back,
            &tokenizer.decode(&ids).unwrap(),
            "{}",
            tokenizer.name()
        );
        if *lossless {
            prop_assert_eq!(&back, text, "{}", tokenizer.name());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(150))]

    #[test]
    fn detokenize_of_the_strings_is_decode_of_the_ids(text in "[^\u{2581}]{0,40}") {
        agrees_with_decode(&text)?;
    }
}

#[test]
fn each_sample_detokenizes_written_text() {
    agrees_with_decode("Tokenizers don't agree; café, naïve — 2026!\n\tDone.").unwrap();
}

#[test]
fn the_spellings_are_the_vocabularies_own() {
    let gpt2 = &SAMPLES[0].0;
    let (strings, _) = strings_and_ids(gpt2.as_ref(), "Hello world\n");
    assert!(
        strings.iter().any(|s| s.starts_with('\u{120}')),
        "{strings:?}"
    );
    assert!(strings.iter().any(|s| s.contains('\u{10A}')), "{strings:?}");
    assert_eq!(detokenize(gpt2.as_ref(), &strings), "Hello world\n");
    let spm = &SAMPLES[3].0;
    let (strings, _) = strings_and_ids(spm.as_ref(), "the lazy dog");
    assert!(strings[0].starts_with('\u{2581}'), "{strings:?}");
    let wordpiece = &SAMPLES[4].0;
    let (strings, _) = strings_and_ids(wordpiece.as_ref(), "tokenization");
    assert!(
        strings.iter().skip(1).all(|s| s.starts_with("##")),
        "{strings:?}"
    );
    assert_eq!(detokenize(wordpiece.as_ref(), &strings), "tokenization");
}

#[test]
fn an_unknown_token_string_is_an_error_naming_it() {
    for (tokenizer, _) in SAMPLES.iter() {
        let (known, _) = strings_and_ids(tokenizer.as_ref(), "a");
        let e = tokenizer
            .detokenize(&[known[0].as_str(), "\u{2603}no-such-token\u{2603}"])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no-such-token") && e.contains("number 2"),
            "{}: {e}",
            tokenizer.name()
        );
    }
}

#[test]
fn the_cli_reads_token_strings() {
    let spec = format!("bpe:{}", samples().join("gpt2").display());
    let text = ["Hello world!", "é t"];
    let input: String = text
        .iter()
        .map(|line| strings_and_ids(SAMPLES[0].0.as_ref(), line).0.join(" ") + "\n")
        .collect();
    let out = common::stdout_of(&["detokenize", "--with", &spec], &input);
    assert_eq!(out, "Hello world!\né t\n");
}

/// GPT-2's byte-to-character table, written here from its definition rather than taken from
/// the library under test: printable Latin-1 bytes stand for themselves, the others take
/// U+0100 on in byte order.
fn byte_level(bytes: &[u8]) -> String {
    let printable = |b: u32| (0x21..=0x7E).contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    let mut table = Vec::with_capacity(256);
    let mut next = 0x100;
    for b in 0..=255u32 {
        table.push(match printable(b) {
            true => char::from_u32(b).unwrap(),
            false => {
                next += 1;
                char::from_u32(next - 1).unwrap()
            }
        });
    }
    bytes.iter().map(|&b| table[b as usize]).collect()
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    } as u32;
    let digits: Vec<u32> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n = chunk.iter().fold(0u32, |n, d| n << 6 | d) << (6 * (4 - chunk.len()));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Token strings by id, read from the model files by this test.
fn reference_strings(dir: &Path, model: &str) -> Vec<String> {
    let data = dir.join("conformance/bpe/data");
    match model {
        "gpt2" => {
            let text = std::fs::read_to_string(data.join("gpt2/encoder.json")).unwrap();
            let map: std::collections::HashMap<String, usize> =
                serde_json::from_str(&text).unwrap();
            let mut strings = vec![String::new(); map.len()];
            for (s, id) in map {
                strings[id] = s;
            }
            strings
        }
        _ => std::fs::read_to_string(data.join("tiktoken/cl100k_base.tiktoken"))
            .unwrap()
            .lines()
            .map(|line| byte_level(&base64_decode(line.split(' ').next().unwrap())))
            .collect(),
    }
}

/// The reference ids of each conformance line, turned into the reference token strings
/// (GPT-2's `encoder.json` keys, cl100k's bytes in the byte-level alphabet) or, for
/// SentencePiece, the pieces the model lists, detokenize to the line itself (SentencePiece:
/// to the decoded ids, its normalized line), as the libraries' own decoders give it.
#[test]
fn reference_ids_as_strings_detokenize_to_the_line() {
    let Some(dir) = common::shared_dir("detokenize_subword reference") else {
        return;
    };
    let bpe = dir.join("conformance/bpe");
    let lines = std::fs::read_to_string(bpe.join("lines.txt")).unwrap();
    let lines: Vec<&str> = lines.split('\n').collect();
    let data = bpe.join("data");
    let models = [
        ("gpt2", format!("bpe:{}", data.join("gpt2").display())),
        (
            "cl100k",
            format!(
                "tiktoken:{}",
                data.join("tiktoken/cl100k_base.tiktoken").display()
            ),
        ),
        (
            "spm-kjv-bpe8000",
            format!(
                "spm:{}",
                data.join("sentencepiece/kjv_bpe_8000.model").display()
            ),
        ),
    ];
    for (model, spec) in models {
        let tokenizer = toklab::load(&spec).unwrap();
        let strings = match model.starts_with("spm") {
            true => None,
            false => Some(reference_strings(&dir, model)),
        };
        let expected =
            std::fs::read_to_string(bpe.join(format!("expected-{model}.jsonl"))).unwrap();
        let mut checked = 0;
        for (number, ids) in expected.lines().enumerate() {
            let ids: Vec<u32> = serde_json::from_str(ids).unwrap();
            let tokens: Vec<String> = ids
                .iter()
                .map(|&id| match &strings {
                    Some(strings) => strings[id as usize].clone(),
                    None => tokenizer.piece(id).unwrap(),
                })
                .collect();
            let back = detokenize(tokenizer.as_ref(), &tokens);
            // SentencePiece's decoder gives the normalized line (no leading or repeated
            // spaces), as the library's own `decode` does; the byte-level models the line.
            let expected = match &strings {
                Some(_) => lines[number].to_string(),
                None => tokenizer.decode(&ids).unwrap(),
            };
            assert_eq!(back, expected, "{model}, line {}", number + 1);
            checked += 1;
        }
        assert_eq!(checked, 451, "{model}");
    }
}
