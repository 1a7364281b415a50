//! `decode(encode(x)) == x` through `Tokenizer::decode` (what `toklab decode` runs) for the
//! lossless kinds: byte-level BPE (GPT-2 folder, tiktoken), SentencePiece with byte fallback
//! and no normalization (a `▁` written in the text comes back as a space, so it is left out of
//! the generated texts), and the RWKV greedy byte tokenizer (built here from its line format).

use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;

use crate::common;

static TOKENIZERS: LazyLock<(tempfile::TempDir, Vec<Box<dyn toklab::Tokenizer>>)> =
    LazyLock::new(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let samples = root.join("samples/bpe");
        let dir = tempfile::tempdir().unwrap();
        // An RWKV vocabulary: the 256 bytes plus a few longer tokens.
        let mut lines: Vec<String> = (0..=255u32)
            .map(|b| format!("{} b'\\x{b:02x}' 1", b + 1))
            .collect();
        lines.extend(
            [
                "257 'th' 2",
                "258 'the' 3",
                "259 ' the' 4",
                "260 '\u{e9}' 2",
            ]
            .map(String::from),
        );
        let rwkv = dir.path().join("rwkv.txt");
        std::fs::write(&rwkv, lines.join("\n") + "\n").unwrap();
        let specs = [
            format!("bpe:{}", samples.join("gpt2").display()),
            format!(
                "tiktoken:{}?pattern=o200k&special=none",
                samples.join("sample.tiktoken").display()
            ),
            format!(
                "spm:{}",
                root.join("tests/bpe_data/unigram-regressions.model")
                    .display()
            ),
            format!("rwkv:{}", rwkv.display()),
        ];
        let tokenizers = specs.iter().map(|s| toklab::load(s).unwrap()).collect();
        (dir, tokenizers)
    });

fn round_trip(text: &str) -> Result<(), TestCaseError> {
    for tokenizer in &TOKENIZERS.1 {
        let tokens = tokenizer.tokenize(text);
        let ids: Vec<u32> = tokens.tokens.iter().map(|t| t.id.expect("an id")).collect();
        let decoded = tokenizer.decode(&ids).unwrap();
        prop_assert_eq!(&decoded, text, "{}", tokenizer.name());
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(200))]

    #[test]
    fn decode_of_encode_is_the_text(text in "[^\u{2581}]{0,40}") {
        round_trip(&text)?;
    }
}

#[test]
fn decode_names_an_id_outside_the_vocabulary() {
    let e = TOKENIZERS.1[0]
        .decode(&[0, 99_999_999])
        .unwrap_err()
        .to_string();
    assert!(e.contains("99999999") && e.contains("number 2"), "{e}");
}
