//! `semantics=sp|hf` on whole texts through `toklab tokenize`: the paper's examples and the
//! improper dictionaries of conformance/bpe/data/formal, where the two semantics differ; and
//! the formal dictionary of every model (the adapter behind `semantics=hf`, traces and `bpe
//! check`) merging exactly as the fast encoder does.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use toklab::core::spec::Spec;
use toklab::engines::subword::bpe::{BpeModel, Subword, load_subword};
use toklab::engines::subword::formal::Semantics;

/// Writes a GPT-2 model folder (`vocab.json` + `merges.txt`) for a dictionary in the paper's
/// notation over ASCII letters, which GPT-2's byte alphabet writes as themselves.
/// The folder is removed when the returned handle is dropped.
fn paper_model(name: &str, rules: &str) -> tempfile::TempDir {
    let temp = tempfile::Builder::new()
        .prefix(&format!("toklab-paper-{name}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path();
    let mut vocab: Vec<String> = Vec::new();
    let add = |t: String, vocab: &mut Vec<String>| {
        if !vocab.contains(&t) {
            vocab.push(t);
        }
    };
    let rules: Vec<(String, String)> = rules
        .split(',')
        .map(|r| {
            let (u, v) = r.trim().split_once(' ').unwrap();
            (u.to_string(), v.to_string())
        })
        .collect();
    for (u, v) in &rules {
        for c in u.chars().chain(v.chars()) {
            add(c.to_string(), &mut vocab);
        }
    }
    for (u, v) in &rules {
        add(format!("{u}{v}"), &mut vocab);
    }
    let ids: serde_json::Map<String, Value> = vocab
        .iter()
        .enumerate()
        .map(|(id, t)| (t.clone(), Value::from(id)))
        .collect();
    std::fs::write(dir.join("vocab.json"), Value::Object(ids).to_string()).unwrap();
    let merges: String = rules.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
    std::fs::write(dir.join("merges.txt"), format!("#version: 0.2\n{merges}")).unwrap();
    temp
}

/// `toklab tokenize --with SPEC` on `text`: token forms joined by spaces, a line per line.
fn tokenize(spec: &str, text: &str) -> String {
    common::stdout_of(&["tokenize", "--with", spec], text)
}

#[test]
fn paper_examples_through_tokenize() {
    // (example, rules, text, its tokens under Definition 3, under Definition 4)
    let examples = [
        // D = [ab a, a b] is improper; the two semantics differ on abababab.
        (
            "ex3",
            "ab a, a b",
            "abababab\nababab\n",
            "aba b aba b\naba b ab\n",
            "ab ab ab ab\nab ab ab\n",
        ),
        // SentencePiece semantics goes back to the left for «c ab» after «ab c» (abc abc …);
        // HuggingFace applies «c ab» everywhere first.
        (
            "ex2",
            "c ab, ab c, a b",
            "abcabcabcabc\nbcabcabcabc\n",
            "abc abc abc abc\nb cab cab cab c\n",
            "ab cab cab cab c\nb cab cab cab c\n",
        ),
        // Improper too, but both semantics agree here.
        (
            "ex1",
            "a b, a bc, b c, ab c",
            "abcbcab\n",
            "abc bc ab\n",
            "abc bc ab\n",
        ),
    ];
    for (name, rules, text, sp, hf) in examples {
        let model = paper_model(name, rules);
        let dir = model.path();
        for (option, want) in [("", sp), ("&semantics=sp", sp), ("&semantics=hf", hf)] {
            let spec = format!("bpe:{}?pattern=none{option}", dir.display());
            assert_eq!(tokenize(&spec, text), want, "{name} {option}");
        }
        if name == "ex3" {
            // A whole text with the GPT-2 pre-tokenizer: words are encoded one by one; the
            // spaces are not in this vocabulary, so they stay single unknown tokens.
            let spec = format!("bpe:{}?semantics=hf", dir.display());
            assert_eq!(tokenize(&spec, "abababab abab\n"), "ab ab ab ab   ab ab\n");
        }
    }
}

#[test]
fn explain_shows_both_semantics_and_where_they_part() {
    let ex3 = paper_model("explain", "ab a, a b");
    let spec = format!("bpe:{}?semantics=hf", ex3.path().display());
    let out = common::stdout_of(&["explain", "--with", &spec, "--text", "abababab"], "");
    assert!(
        out.starts_with(
            "piece      0..8 «abababab»  letters · 8 symbols, 4 steps (hf); sp parts at step 2\n"
        ),
        "{out}"
    );
    assert!(out.contains("  result «ab» «ab» «ab» «ab»\n"), "{out}");
    assert!(out.contains("  sp     «aba» «b» «aba» «b»\n"), "{out}");
    assert!(
        out.ends_with("  tokens «ab»:3 «ab»:3 «ab»:3 «ab»:3\n"),
        "{out}"
    );
}

/// The improper dictionaries of the conformance data with what real libraries output
/// (cases.json): the default and `sp` give what tiktoken, HuggingFace tokenizers and
/// SentencePiece give, `hf` what OpenAI's original `encoder.py` gives, on a whole text of
/// several words and lines, as ids.
#[test]
fn formal_cases_on_whole_texts() {
    let Some(shared) = common::shared_dir("formal_cases_on_whole_texts") else {
        return;
    };
    let formal = shared.join("conformance/bpe/data/formal");
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(formal.join("cases.json")).unwrap()).unwrap();
    let mut agree = 0;
    let mut total = 0;
    for (n, case) in cases.iter().enumerate() {
        let dir = formal.join(format!("case{}", n + 1));
        let vocab: HashMap<String, u32> =
            serde_json::from_str(&std::fs::read_to_string(dir.join("vocab.json")).unwrap())
                .unwrap();
        let word = case["word"].as_str().unwrap();
        // Three words on the first line, one on the second: spaces are unknown tokens (`-`).
        let text = format!("{word} {word} {word}\n{word}\n");
        let ids_of = |key: &str| -> String {
            let forms: Vec<String> = serde_json::from_value(case[key].clone()).unwrap();
            let one: Vec<String> = forms.iter().map(|f| vocab[f].to_string()).collect();
            let one = one.join(" ");
            format!("{one} - {one} - {one}\n{one}\n")
        };
        let observed = &case["observed"];
        let library =
            |name: &str| -> Vec<String> { serde_json::from_value(observed[name].clone()).unwrap() };
        assert_eq!(
            library("tiktoken 0.14.0"),
            serde_json::from_value::<Vec<String>>(case["sp_semantics"].clone()).unwrap()
        );
        assert_eq!(
            library("gpt-3-encoder 1.1.4 bpe() (port of OpenAI GPT-2 encoder.py)"),
            serde_json::from_value::<Vec<String>>(case["hf_semantics"].clone()).unwrap()
        );
        for (option, expected) in [
            ("", "sp_semantics"),
            ("?semantics=sp", "sp_semantics"),
            ("?semantics=hf", "hf_semantics"),
        ] {
            let spec = format!("bpe:{}{option}", dir.display());
            let got = common::stdout_of(&["tokenize", "--with", &spec, "--format", "ids"], &text);
            total += 1;
            if got == ids_of(expected) {
                agree += 1;
            } else {
                eprintln!(
                    "case {}: {spec}\n  got  {got:?}\n  want {:?}",
                    n + 1,
                    ids_of(expected)
                );
            }
        }
        let sp: Vec<String> = serde_json::from_value(case["sp_semantics"].clone()).unwrap();
        let hf: Vec<String> = serde_json::from_value(case["hf_semantics"].clone()).unwrap();
        println!(
            "case {}: {word}: sp {} / hf {}{}",
            n + 1,
            sp.join(" "),
            hf.join(" "),
            if sp == hf {
                " (the same)"
            } else {
                " (they differ)"
            }
        );
    }
    println!("formal cases on whole texts: {agree}/{total} agree");
    assert_eq!(agree, total);
}

fn load(spec: &str) -> Subword {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    load_subword(Spec::parse_in(spec, root).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Merges every piece of `texts` with the fast loop and with the model's formal dictionary
/// under Definition 3: the same tokens and the same steps. Returns the number of pieces.
fn formal_agrees_with_fast(model: &BpeModel, pieces: &[Vec<u8>]) -> usize {
    let formal = model.formal();
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    for piece in pieces {
        let (mut fast_steps, mut slow_steps) = (Vec::new(), Vec::new());
        fast.clear();
        model.initial_symbols(piece, &mut fast);
        model.merge_fast(piece, &mut fast, &mut |s| fast_steps.push(s));
        formal.merge(
            &model.vocab,
            piece,
            Semantics::SentencePiece,
            &mut slow,
            &mut |s| slow_steps.push(s),
        );
        assert_eq!(fast, slow, "{:?}", String::from_utf8_lossy(piece));
        assert_eq!(
            fast_steps,
            slow_steps,
            "{:?}",
            String::from_utf8_lossy(piece)
        );
    }
    pieces.len()
}

/// The pieces a model merges for `texts` (SentencePiece: the normalized text).
fn pieces_of(subword: &Subword, texts: &[String]) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    for text in texts {
        match subword.spm_model() {
            Some(spm) => pieces.push(
                spm.normalizer
                    .normalize(text)
                    .normalized()
                    .as_bytes()
                    .to_vec(),
            ),
            None => subword
                .bpe_model()
                .pretokenize(text, 0..text.len(), &mut |pre| {
                    if pre.special.is_none() {
                        pieces.push(pre.bytes.to_vec());
                    }
                }),
        }
    }
    pieces
}

#[test]
fn the_formal_dictionary_merges_as_the_encoder_on_the_samples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("samples/sample.txt")).unwrap();
    let texts: Vec<String> = text.lines().map(str::to_string).collect();
    for spec in [
        "bpe:samples/bpe/gpt2",
        "bpe:samples/bpe/split-tokenizer.json",
        "tiktoken:samples/bpe/sample.tiktoken?pattern=r50k",
        "spm:samples/bpe/sample-spm.model",
    ] {
        let subword = load(spec);
        let n = formal_agrees_with_fast(subword.bpe_model(), &pieces_of(&subword, &texts));
        println!("{spec}: {n} pieces merge the same");
    }
}

#[test]
fn the_formal_dictionary_merges_as_the_encoder_on_the_real_models() {
    let Some(shared) = common::shared_dir("the_formal_dictionary_merges_as_the_encoder") else {
        return;
    };
    let dir = shared.join("conformance/bpe");
    let raw = std::fs::read_to_string(dir.join("lines.txt")).unwrap();
    let texts: Vec<String> = raw.lines().map(str::to_string).collect();
    let data = |rel: &str| dir.join("data").join(rel).display().to_string();
    for spec in [
        format!("bpe:{}", data("gpt2")),
        format!("tiktoken:{}", data("tiktoken/cl100k_base.tiktoken")),
        format!("tiktoken:{}", data("tiktoken/o200k_base.tiktoken")),
        format!("spm:{}", data("sentencepiece/botchan_en_bpe_1000.model")),
        format!("spm:{}", data("sentencepiece/kjv_bpe_8000.model")),
    ] {
        let subword = load(&spec);
        let n = formal_agrees_with_fast(subword.bpe_model(), &pieces_of(&subword, &texts));
        let formal = subword.bpe_model().formal();
        println!(
            "{spec}: {} rules, {} unreachable; {n} pieces of lines.txt merge the same",
            formal.dict.len(),
            formal.unreachable.len()
        );
    }
}
