//! The pipeline on small `tokenizer.json` files written here: each stage together, spans
//! through the normalizers, and a component toklab does not build planted in each part of the
//! pipeline, refused with an error naming it.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{HfTokenizer, Specials};
use crate::core::tokenizer::Tokenizer;

/// A Llama-2-like file: Prepend + Replace normalizer, no pre-tokenizer, BPE with byte
/// fallback, `<s>` added by the post-processor, and its decoder.
fn sentencepiece_like() -> Value {
    let mut vocab = serde_json::Map::new();
    for (i, t) in ["<unk>", "<s>", "</s>"].iter().enumerate() {
        vocab.insert(t.to_string(), json!(i));
    }
    for b in 0..=255u32 {
        vocab.insert(format!("<0x{b:02X}>"), json!(3 + b));
    }
    for (i, t) in ["▁", "a", "b", "c", "▁a", "ab", "▁ab", "bc"]
        .iter()
        .enumerate()
    {
        vocab.insert(t.to_string(), json!(259 + i));
    }
    json!({
        "version": "1.0",
        "added_tokens": [
            {"id": 0, "content": "<unk>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
            {"id": 1, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
            {"id": 2, "content": "</s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}
        ],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}
        ]},
        "pre_tokenizer": null,
        "post_processor": {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}
        ]},
        "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>", "continuing_subword_prefix": null,
            "end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": true,
            "vocab": vocab, "merges": ["▁ a", "a b", "▁a b", "b c"]}
    })
}

/// Writes `json` to a temporary file and loads it.
fn load(json: &Value, specials: Specials) -> crate::Result<HfTokenizer> {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("tokenizer.json");
    std::fs::write(&path, serde_json::to_string_pretty(json).unwrap()).unwrap();
    HfTokenizer::load("hf:test", &path, specials)
}

fn ids(t: &HfTokenizer, text: &str) -> Vec<u32> {
    t.tokenize(text)
        .tokens
        .iter()
        .map(|t| t.id.unwrap())
        .collect()
}

#[test]
fn sentencepiece_like_pipeline_merges_falls_back_and_decodes() {
    let t = load(&sentencepiece_like(), Specials::Match).unwrap();
    // "ab abc" → "▁ab▁abc": ▁ab, ▁ab, c
    assert_eq!(ids(&t, "ab abc"), [265, 265, 262]);
    // é is not in the vocabulary: its two UTF-8 bytes.
    assert_eq!(ids(&t, "é"), [259, 3 + 0xC3, 3 + 0xA9]);
    // <s> in the text is the added token; the text after it gets its own ▁.
    assert_eq!(ids(&t, "a<s>a"), [263, 1, 263]);
    let text = "ab abc é";
    let tokens = t.tokenize(text);
    tokens.check(text).unwrap();
    let spans: Vec<&str> = tokens.tokens.iter().map(|t| t.span.slice(text)).collect();
    assert_eq!(spans, ["ab", " ab", "c", " ", "", "é"]);
    assert_eq!(t.decode(&ids(&t, text)).unwrap(), text);
    let with_bos = load(&sentencepiece_like(), Specials::Add).unwrap();
    assert_eq!(ids(&with_bos, "ab"), [1, 265]);
}

#[test]
fn explain_shows_each_stage() {
    let t = load(&sentencepiece_like(), Specials::Match).unwrap();
    let shown = t.explain("ab c").to_text();
    for expected in [
        "normalized",
        "«▁ab▁c»",
        "pre-token",
        "merge «▁a»:263 + «b»:261 → «▁ab»:265",
        "tokens",
    ] {
        assert!(shown.contains(expected), "{expected} missing in:\n{shown}");
    }
}

#[test]
fn an_unbuilt_component_in_each_part_is_named() {
    let cases = [
        (
            "normalizer",
            json!({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Zalgo"}]}),
            "normalizer Zalgo is not supported",
        ),
        (
            "pre_tokenizer",
            json!({"type": "Sequence", "pretokenizers": [{"type": "UnicodeScripts"}, {"type": "Syllables"}]}),
            "pre_tokenizer Syllables is not supported",
        ),
        (
            "post_processor",
            json!({"type": "Mirror"}),
            "post_processor Mirror is not supported",
        ),
        (
            "decoder",
            json!({"type": "Reverse"}),
            "decoder Reverse is not supported",
        ),
    ];
    for (section, component, message) in cases {
        let mut file = sentencepiece_like();
        file[section] = component;
        let error = load(&file, Specials::Match)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("tokenizer.json:") && error.ends_with(message),
            "{section}: {error}"
        );
    }
    let mut file = sentencepiece_like();
    file["model"]["type"] = json!("Morfessor");
    let error = load(&file, Specials::Match)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("tokenizer.json:") && error.ends_with("model Morfessor is not supported"),
        "{error}"
    );
}

#[test]
fn explain_shows_the_unigram_lattice_and_wordpiece_attempts() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hf_data");
    let unigram =
        HfTokenizer::load("u", &data.join("unigram_metaspace.json"), Specials::Match).unwrap();
    let shown = unigram.explain("ab").to_text();
    assert!(
        shown.contains("node") && shown.contains("viterbi best path"),
        "{shown}"
    );
    let wordpiece =
        HfTokenizer::load("w", &data.join("bert_wordpiece.json"), Specials::Add).unwrap();
    let shown = wordpiece.explain("Hi there").to_text();
    assert!(shown.contains("try «the» is token"), "{shown}");
    assert!(shown.contains("post-processor adds"), "{shown}");
}

/// A Unigram model of `a`, `b` and their pairs under `normalizer` and `pre_tokenizer`, with an
/// added token `added`.
fn unigram_with(normalizer: Value, pre_tokenizer: Value, added: Value) -> Value {
    let pieces = [
        ("<unk>", 0.0),
        ("a", -1.0),
        ("b", -1.5),
        ("ab", -2.0),
        ("ba", -2.2),
    ];
    json!({
        "version": "1.0",
        "added_tokens": [added],
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": null,
        "decoder": null,
        "model": {"type": "Unigram", "unk_id": 0,
            "vocab": pieces.iter().map(|(p, s)| json!([p, s])).collect::<Vec<_>>()}
    })
}

#[test]
fn a_unigram_pipeline_cuts_inside_a_word_only_where_each_stage_allows() {
    let meta =
        json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true});
    let plain = json!({"id": 0, "content": "<unk>", "single_word": false, "lstrip": false,
        "rstrip": false, "normalized": false, "special": true});
    let single = json!({"id": 0, "content": "<unk>", "single_word": true, "lstrip": false,
        "rstrip": false, "normalized": false, "special": true});
    let lower = json!({"type": "Lowercase"});
    let text = "abba".repeat(200);
    let pieces = |t: &HfTokenizer| crate::core::pieces::Pieces::new(t, &text, 64).count();
    let cutting = load(
        &unigram_with(lower.clone(), meta.clone(), plain.clone()),
        Specials::Match,
    )
    .unwrap();
    assert!(cutting.pipeline().meets(Specials::Match));
    assert!(pieces(&cutting) > 5, "{}", pieces(&cutting));
    assert!(!cutting.pipeline().meets(Specials::Add));
    for (normalizer, pre, added) in [
        (json!({"type": "NFC"}), meta.clone(), plain.clone()),
        (
            json!({"type": "Replace", "pattern": {"String": "ab"}, "content": "c"}),
            meta.clone(),
            plain.clone(),
        ),
        (
            lower.clone(),
            json!({"type": "ByteLevel", "add_prefix_space": false, "use_regex": true}),
            plain.clone(),
        ),
        (lower, meta, single),
    ] {
        let t = load(&unigram_with(normalizer, pre, added), Specials::Match).unwrap();
        assert!(!t.pipeline().meets(Specials::Match));
        assert_eq!(pieces(&t), 1);
    }
}
