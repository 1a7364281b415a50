//! SentencePiece unigram against sentencepiece 0.2.3 on a small model made for it
//! (tests/bpe_data/make_unigram_regressions.py): byte fallback spells a character the
//! vocabulary lacks in byte pieces (`倚` is three, not `<unk>`), and runs whose segmentations
//! tie (500 × `a` with `a`, `aa`, `aaaa` scored 1, 2 and 4 times one score) come out as
//! SentencePiece's float32 path totals decide, also where runs hold user-defined pieces (`,`,
//! scored `0.1 × (bytes − 1)`).

use std::path::Path;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bpe_data")
        .join(name)
        .display()
        .to_string()
}

fn ids(tokenizer: &dyn toklab::Tokenizer, text: &str) -> Vec<u32> {
    let tokens = tokenizer.tokenize(text).tokens;
    tokens
        .iter()
        .map(|t| t.id.expect("every token has an id"))
        .collect()
}

#[test]
fn byte_fallback_and_float32_ties_agree_with_sentencepiece() {
    let model = toklab::load(&format!("spm:{}", data("unigram-regressions.model"))).unwrap();
    let expected = std::fs::read_to_string(data("expected-unigram-regressions.jsonl")).unwrap();
    let mut cases = 0;
    for line in expected.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = case["text"].as_str().unwrap();
        let want: Vec<u32> = serde_json::from_value(case["ids"].clone()).unwrap();
        assert_eq!(ids(&*model, text), want, "{text:?}");
        cases += 1;
    }
    assert_eq!(cases, 10);
}

#[test]
fn a_character_outside_the_vocabulary_is_three_byte_pieces() {
    let model = toklab::load(&format!("spm:{}", data("unigram-regressions.model"))).unwrap();
    // <0xE5> <0x80> <0x9A>: byte b is id 3 + b in this model.
    assert_eq!(ids(&*model, "倚"), [3 + 0xE5, 3 + 0x80, 3 + 0x9A]);
    let tokens = model.tokenize("a倚").tokens;
    assert!(tokens.iter().all(|t| t.kind != toklab::TokenKind::Unknown));
}

#[test]
fn a_loaded_tokenizer_hands_out_its_model() {
    use toklab::engines::subword::spm::{ModelType, SpmTokenizer};
    let loaded = toklab::load(&format!("spm:{}", data("unigram-regressions.model"))).unwrap();
    let spm = loaded
        .downcast_ref::<SpmTokenizer>()
        .expect("an spm tokenizer");
    assert_eq!(spm.model().model_type, ModelType::Unigram);
    // The model handed out is the one the tokenizer encodes with.
    for id in ids(&*loaded, "a,aa b") {
        assert_eq!(
            Some(spm.model().pieces.text(id as usize).to_string()),
            loaded.piece(id)
        );
    }
    let ws = toklab::load("ws").unwrap();
    assert!(ws.downcast_ref::<SpmTokenizer>().is_none());
    assert!(
        loaded
            .downcast_ref::<toklab::engines::subword::bpe::BpeTokenizer>()
            .is_none()
    );
}
