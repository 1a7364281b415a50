//! Decoding is lossless for the byte-level models: ids → bytes gives back any Unicode text;
//! token spans obey the span invariants and the exact piece bytes concatenate to the text.
//! Also: long pieces without pre-tokenizer splits encode in O(n log n), not quadratically.

use crate::common;

use std::sync::{Arc, LazyLock};

use proptest::prelude::*;
use toklab::engines::subword::bpe::{BpeModel, BpeTokenizer, PreTokenizer};
use toklab::engines::subword::bpe::{gpt2, hf, tiktoken};

/// The byte-level models: the shipped samples always, the real ones when ../shared is there.
static MODELS: LazyLock<Vec<(String, Arc<BpeModel>)>> = LazyLock::new(|| {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe");
    let mut models = vec![
        (
            "sample gpt2 folder".to_string(),
            gpt2::load(&samples.join("gpt2")).unwrap().model,
        ),
        (
            "sample split tokenizer.json".to_string(),
            hf::load(&samples.join("split-tokenizer.json"))
                .unwrap()
                .model,
        ),
        (
            "sample tiktoken".to_string(),
            tiktoken::load(&samples.join("sample.tiktoken"), "o200k", false).unwrap(),
        ),
    ];
    if let Some(shared) = common::shared_dir("bpe_roundtrip") {
        let data = shared.join("conformance/bpe/data");
        models.push(("gpt2".into(), gpt2::load(&data.join("gpt2")).unwrap().model));
        for name in ["cl100k", "o200k"] {
            let file = data.join(format!("tiktoken/{name}_base.tiktoken"));
            models.push((name.into(), tiktoken::load(&file, name, true).unwrap()));
        }
    }
    // The same sample without a pre-tokenizer: every text is one piece.
    let mut whole = gpt2::load(&samples.join("gpt2")).unwrap().model;
    whole.pretok = PreTokenizer::none();
    models.push(("sample gpt2 folder, no pre-tokenizer".into(), whole));
    models.into_iter().map(|(n, m)| (n, Arc::new(m))).collect()
});

fn round_trip(text: &str) -> Result<(), TestCaseError> {
    for (name, model) in MODELS.iter() {
        let ids = model.encode(text);
        let decoded = model.decode(&ids);
        prop_assert_eq!(decoded.as_deref(), Ok(text.as_bytes()), "{}", name);
        let tokenizer = BpeTokenizer::new(name.clone(), Arc::clone(model), vec![], vec![]);
        let tokens = toklab::Tokenizer::tokenize(&tokenizer, text);
        tokens
            .check(text)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let token_ids: Vec<u32> = tokens.tokens.iter().map(|t| t.id.unwrap()).collect();
        prop_assert_eq!(token_ids, ids, "{}", name);
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn decode_inverts_encode_on_any_unicode(text in any::<String>()) {
        round_trip(&text)?;
    }

    #[test]
    fn decode_inverts_encode_on_texty_input(text in "[a-zA-Z0-9 .,;:!?'\"()\\-\t\n\r\u{a0}\u{3000}éßſ語😀👍🏽\u{301}\u{200d}]{0,80}") {
        round_trip(&text)?;
    }
}

/// Pieces that no pre-tokenizer split breaks up: a megabyte of letters, long digit runs, a
/// minified line of code, and the same without any pre-tokenizer. Each must encode, decode
/// back, and (so the test cannot pass by accident) produce far fewer tokens than bytes.
#[test]
fn long_pieces_encode_without_quadratic_blow_up() {
    let megabyte = 1 << 20;
    let texts = [
        ("one word", "tokenizer".repeat(megabyte / 9)),
        ("digits", "2026".repeat(megabyte / 4)),
        (
            "minified code",
            "fn main(){println!(\"hello, world\");let x=a.map(|v|v*2);}".repeat(megabyte / 56),
        ),
    ];
    let start = std::time::Instant::now();
    for (name, model) in MODELS.iter() {
        for (what, text) in &texts {
            let ids = model.encode(text);
            assert_eq!(
                model.decode(&ids).unwrap(),
                text.as_bytes(),
                "{name}: {what}"
            );
            assert!(
                ids.len() < text.len(),
                "{name}: {what}: {} tokens",
                ids.len()
            );
        }
    }
    // A quadratic merge loop needs hours on a megabyte-long piece; this finishes in seconds.
    let elapsed = start.elapsed();
    println!(
        "long pieces: {} models × 3 texts of 1 MB in {elapsed:?}",
        MODELS.len()
    );
    assert!(elapsed.as_secs() < 120, "long pieces took {elapsed:?}");
}
