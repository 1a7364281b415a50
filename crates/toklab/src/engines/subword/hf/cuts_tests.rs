//! The cuts of BERT-like pipelines built here: a text tokenized in pieces cut at every point
//! the pipeline names gives the whole text's tokens and ids, on text without spaces that mixes
//! kana, kanji, punctuation, accents, combining marks, joiners, prepended marks, Hangul jamo,
//! Latin and added tokens.

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::super::{HfTokenizer, Specials};
use crate::core::pieces::{Pieces, ids_in_pieces, tokenize_in_pieces};
use crate::core::tokenizer::Tokenizer;

/// Pieces of the WordPiece vocabulary: each may also follow as `##piece`.
const PIECES: &[&str] = &[
    "あ",
    "い",
    "う",
    "の",
    "は",
    "り",
    "が",
    "と",
    "ありがとう",
    "カ",
    "タ",
    "カタカナ",
    "ー",
    "東",
    "京",
    "語",
    "研",
    "究",
    "々",
    "、",
    "。",
    "「",
    "」",
    "!",
    "?",
    ",",
    ".",
    "(",
    ")",
    "〜",
    "_",
    ";",
    "a",
    "b",
    "c",
    "e",
    "o",
    "r",
    "w",
    "d",
    "word",
    "wor",
    "cafe",
    "z",
    "x",
    "y",
    "1",
    "4",
    "2",
    "42",
    "아",
    "\u{301}",
    "é",
];

/// Parts of the generated texts.
const PARTS: &[&str] = &[
    "の",
    "は",
    "ありがとう",
    "カタカナ",
    "ー",
    "東京",
    "語",
    "研究",
    "々",
    "\u{F900}",
    "、",
    "。",
    "「",
    "」",
    "!",
    "?",
    ",",
    ".",
    "(",
    ")",
    "〜",
    "_",
    "‼",
    "\u{37E}",
    "\u{2329}",
    "é",
    "e\u{301}",
    "\u{301}",
    "\u{308}",
    "\u{20DD}",
    "ñ",
    "İ",
    "a",
    "word",
    "Zoë",
    "ǅ",
    "1",
    "42",
    "[CLS]",
    "[MASK]",
    "a.b",
    "Xy",
    "東語",
    "\u{0}",
    "\u{1}",
    "\u{AD}",
    "\u{200D}",
    "\u{600}",
    "\u{D4E}",
    "😀",
    "👨\u{200D}👩",
    "🇫🇷",
    "\u{1F1E6}",
    "아",
    "\u{1100}",
    "\u{1161}",
    "\u{11A8}",
    "क्",
    "क",
    "ａ",
    "\r",
    "\n",
    "\u{3000}",
    "\u{FFFD}",
];

/// A `tokenizer.json` with a WordPiece model of [`PIECES`], BERT's special tokens, `added`
/// tokens, and the normalizer and pre-tokenizer given.
fn bert_like(normalizer: Value, pre_tokenizer: Value, added: &[(&str, bool)]) -> Value {
    let mut vocab = serde_json::Map::new();
    let specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
    let mut added_tokens = Vec::new();
    for (i, t) in specials.iter().enumerate() {
        vocab.insert(t.to_string(), json!(i));
        added_tokens.push(
            json!({"id": i, "content": t, "single_word": false, "lstrip": false,
            "rstrip": false, "normalized": false, "special": true}),
        );
    }
    for piece in PIECES {
        for form in [piece.to_string(), format!("##{piece}")] {
            let id = vocab.len();
            vocab.entry(form).or_insert(json!(id));
        }
    }
    for (content, normalized) in added {
        let id = vocab.len();
        vocab.insert(content.to_string(), json!(id));
        added_tokens.push(json!({"id": id, "content": content, "single_word": false,
            "lstrip": false, "rstrip": false, "normalized": normalized, "special": false}));
    }
    json!({
        "version": "1.0",
        "added_tokens": added_tokens,
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": null,
        "decoder": null,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100, "vocab": vocab}
    })
}

fn load(json: &Value) -> HfTokenizer {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokenizer.json");
    std::fs::write(&path, json.to_string()).unwrap();
    HfTokenizer::load("hf:test", &path, Specials::Match).unwrap()
}

/// MiniLM's pipeline: `BertNormalizer` with every step, `BertPreTokenizer`.
fn minilm() -> Value {
    bert_like(
        json!({"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
            "strip_accents": null, "lowercase": true}),
        json!({"type": "BertPreTokenizer"}),
        &[],
    )
}

/// Pipelines that cut before punctuation (and CJK ideographs, where the normalizer pads
/// them), each with other stages and added tokens.
static PIPELINES: LazyLock<Vec<(&str, HfTokenizer)>> = LazyLock::new(|| {
    let seq = |stages: Value| json!({"type": "Sequence", "normalizers": stages});
    let pre_seq = |stages: Value| json!({"type": "Sequence", "pretokenizers": stages});
    vec![
        ("minilm", load(&minilm())),
        (
            "bert-cased-no-chinese",
            load(&bert_like(
                json!({"type": "BertNormalizer", "clean_text": true,
                    "handle_chinese_chars": false, "strip_accents": false, "lowercase": false}),
                pre_seq(json!([{"type": "WhitespaceSplit"},
                    {"type": "Punctuation", "behavior": "Isolated"}])),
                &[("東語", false)],
            )),
        ),
        (
            "nfd-lower-strip",
            load(&bert_like(
                seq(json!([{"type": "NFD"}, {"type": "Lowercase"}, {"type": "StripAccents"}])),
                pre_seq(json!([{"type": "Whitespace"},
                    {"type": "Punctuation", "behavior": "MergedWithNext"},
                    {"type": "Digits", "individual_digits": true}])),
                &[("a.b", true), ("Xy", true)],
            )),
        ),
        (
            "nfkd-nmt-bert",
            load(&bert_like(
                seq(json!([{"type": "Nmt"}, {"type": "NFKD"},
                    {"type": "BertNormalizer", "clean_text": false,
                        "handle_chinese_chars": true, "strip_accents": true,
                        "lowercase": false}])),
                json!({"type": "BertPreTokenizer"}),
                &[],
            )),
        ),
        (
            "nfc-bert",
            load(&bert_like(
                json!({"type": "NFC"}),
                json!({"type": "BertPreTokenizer"}),
                &[],
            )),
        ),
    ]
});

/// Where `tokenizer` cuts `text` into pieces of one byte or more.
fn cuts(tokenizer: &dyn Tokenizer, text: &str) -> Vec<usize> {
    Pieces::new(tokenizer, text, 1).map(|(at, _)| at).collect()
}

#[test]
fn minilm_cuts_text_without_spaces_before_ideographs_and_punctuation() {
    let minilm = load(&minilm());
    // あ 東 い 、 う 「 え 」: before the ideograph and each punctuation mark.
    assert_eq!(cuts(&minilm, "あ東い、う「え」"), [0, 3, 9, 15, 21]);
    // Before every ideograph and punctuation mark but the first character, after a kana
    // with a voicing mark too (which NFD takes apart and accent stripping removes).
    let text = "港は月曜日に再開した。三年半の遅れのあとで、彼女は理由を言わなかった。";
    assert_eq!(
        cuts(&minilm, text),
        [
            0, 6, 9, 12, 18, 21, 30, 33, 36, 39, 45, 63, 66, 69, 75, 78, 84, 102
        ]
    );
    // Not before a character an added token holds (`[CLS]`'s brackets), nor where the
    // normalizer could join the two sides: after a prepended mark (a grapheme across the cut)
    // or a joiner before a pictograph; after a combining mark, a grapheme ends.
    assert_eq!(cuts(&minilm, "あ[い]、"), [0, 8]);
    assert_eq!(cuts(&minilm, "あ\u{D4E}、あ\u{200D}‼"), [0]);
    assert_eq!(cuts(&minilm, "e\u{301}、"), [0, 3]);
    // A composing form may join a character to the one before: no cut there.
    let nfc = &PIPELINES
        .iter()
        .find(|(name, _)| *name == "nfc-bert")
        .unwrap()
        .1;
    assert_eq!(cuts(nfc, "あ、い"), [0]);
}

fn texts() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PARTS), 0..40).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn pieces_cut_where_the_pipeline_says_tokenize_as_the_whole(text in texts()) {
        for (name, tokenizer) in PIPELINES.iter() {
            let whole = tokenizer.tokenize(&text);
            prop_assert_eq!(
                tokenize_in_pieces(tokenizer, &text, 1),
                whole,
                "{} on {:?}, cut at {:?}",
                name,
                &text,
                cuts(tokenizer, &text)
            );
            let (mut ids, mut in_pieces) = (Vec::new(), Vec::new());
            let gave_up = tokenizer.ids_into(&text, &mut ids);
            prop_assert_eq!(ids_in_pieces(tokenizer, &text, 1, &mut in_pieces), gave_up);
            prop_assert_eq!(in_pieces, ids, "{} ids on {:?}", name, &text);
        }
    }
}

/// A pipeline of DeepSeek V3's pre-tokenizer (its three `Split`s, as llama.cpp lists them
/// too, then `ByteLevel` without its regex) cuts at a space between ASCII letters; with a
/// pattern whose behaviour at spaces is not known in front or in its place, it never cuts.
#[test]
fn a_sequence_of_known_splits_cuts_at_spaces_and_an_unknown_one_does_not() {
    let (patterns, _) = crate::engines::subword::gguf::split::patterns("deepseek-v3").unwrap();
    let split = |pattern: &str| {
        json!({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
            "invert": false})
    };
    let byte_level = json!({"type": "ByteLevel", "add_prefix_space": false,
        "trim_offsets": true, "use_regex": false});
    let pipeline = |stages: Vec<Value>| {
        let pre = json!({"type": "Sequence", "pretokenizers": stages});
        load(&bert_like(json!(null), pre, &[]))
    };
    let mut stages: Vec<Value> = patterns.iter().map(|p| split(p)).collect();
    stages.push(byte_level.clone());
    // Between ASCII letters only: not beside the digits nor after the ideographs.
    let text = "ab cd 123 東京 x ef";
    assert_eq!(cuts(&pipeline(stages.clone()), text), [0, 2, 18]);
    let mut unknown_first = vec![split(r"\S+")];
    unknown_first.extend(stages.iter().cloned());
    assert_eq!(cuts(&pipeline(unknown_first), text), [0]);
    stages[2] = split(r"\s+|\S+");
    assert_eq!(cuts(&pipeline(stages), text), [0]);
}
