//! Exact byte ranges (`Token::bytes`) across every subword kind that can cut a character:
//! SentencePiece byte fallback, byte-level BPE (GPT-2 folder, tokenizer.json with `ByteLevel`,
//! tiktoken, tekken, GGUF), tokenizer.json byte fallback behind a normalizer, claude.json behind
//! NFKC, and RWKV. On texts of emoji ZWJ sequences, combining marks, CJK and random characters:
//! the pieces' bytes tile the text (nothing here removes text), each piece's span is its bytes
//! snapped to characters, and the ids of each run of pieces that ends on a character boundary
//! decode to exactly the bytes those pieces claim.

use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;
use toklab::{Span, Tokenizer};

use crate::common;

/// A tokenizer under test and how its decoder differs from the bytes: SentencePiece-style
/// decoders drop the space of a leading `▁`; decoders after a normalization give the
/// normalized text, so only tiling is checked there.
struct Kind {
    tokenizer: Box<dyn Tokenizer>,
    drops_leading_space: bool,
    decodes_input: bool,
}

/// A Llama-2-style tokenizer.json: `▁` for spaces and in front, BPE with byte fallback.
fn byte_fallback_json() -> String {
    let mut vocab: Vec<String> = (0..=255u32)
        .map(|b| format!("\"<0x{b:02X}>\": {b}"))
        .collect();
    for (i, piece) in ["▁", "a", "b", "ab", "▁a", "é", "中"].iter().enumerate() {
        vocab.push(format!("\"{piece}\": {}", 256 + i));
    }
    format!(
        r#"{{"version":"1.0","added_tokens":[],
        "normalizer":{{"type":"Sequence","normalizers":[
            {{"type":"Prepend","prepend":"▁"}},
            {{"type":"Replace","pattern":{{"String":" "}},"content":"▁"}}]}},
        "pre_tokenizer":null,"post_processor":null,
        "decoder":{{"type":"Sequence","decoders":[
            {{"type":"Replace","pattern":{{"String":"▁"}},"content":" "}},
            {{"type":"ByteFallback"}},{{"type":"Fuse"}},
            {{"type":"Strip","content":" ","start":1,"stop":0}}]}},
        "model":{{"type":"BPE","byte_fallback":true,"fuse_unk":true,"unk_token":null,
            "vocab":{{{}}},"merges":["a b","▁ a"]}}}}"#,
        vocab.join(",")
    )
}

static KINDS: LazyLock<(tempfile::TempDir, Vec<Kind>)> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = root.join("samples/bpe");
    let dir = tempfile::tempdir().unwrap();
    let fallback = dir.path().join("fallback.json");
    std::fs::write(&fallback, byte_fallback_json()).unwrap();
    let at = |p: &Path| p.display().to_string();
    let specs = [
        (format!("bpe:{}", at(&samples.join("gpt2"))), false, true),
        (
            format!(
                "tiktoken:{}?pattern=o200k&special=none",
                at(&samples.join("sample.tiktoken"))
            ),
            false,
            true,
        ),
        (
            format!("hf:{}", at(&samples.join("tokenizer.json"))),
            false,
            true,
        ),
        (
            format!("tekken:{}", at(&samples.join("sample-tekken.json"))),
            false,
            true,
        ),
        (
            format!("gguf:{}", at(&samples.join("sample.gguf"))),
            false,
            true,
        ),
        (
            format!("rwkv:{}", at(&samples.join("sample-rwkv.txt"))),
            false,
            true,
        ),
        (
            format!(
                "spm:{}",
                at(&root.join("tests/bpe_data/unigram-regressions.model"))
            ),
            true,
            true,
        ),
        (format!("hf:{}", at(&fallback)), true, true),
        (
            format!("claude:{}", at(&samples.join("sample-claude.json"))),
            false,
            false,
        ),
    ];
    let kinds = specs
        .into_iter()
        .map(|(spec, drops_leading_space, decodes_input)| Kind {
            tokenizer: toklab::load(&spec).unwrap_or_else(|e| panic!("{spec}: {e}")),
            drops_leading_space,
            decodes_input,
        })
        .collect();
    (dir, kinds)
});

/// The largest character boundary of `text` at or before `at`.
fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn check(kind: &Kind, text: &str) -> Result<(), TestCaseError> {
    let name = kind.tokenizer.name();
    let tokens = kind.tokenizer.tokenize(text);
    tokens
        .check(text)
        .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    let mut next = 0;
    for (i, token) in tokens.iter().enumerate() {
        let bytes = token.bytes();
        prop_assert_eq!(
            bytes.start,
            next,
            "{}: token {} leaves a gap or overlaps",
            name,
            i
        );
        prop_assert!(bytes.end <= text.len());
        let snapped = Span::new(floor(text, bytes.start), floor(text, bytes.end));
        if !text.is_char_boundary(bytes.start) || !text.is_char_boundary(bytes.end) {
            prop_assert_eq!(token.span, snapped, "{}: token {} span", name, i);
        }
        next = bytes.end;
    }
    prop_assert_eq!(next, text.len(), "{}: the pieces stop short", name);
    if !kind.decodes_input {
        return Ok(());
    }
    // Runs of pieces that end on a character boundary decode to the bytes they claim.
    let mut run: Vec<u32> = Vec::new();
    let mut run_start = 0;
    for token in &tokens {
        run.push(token.id.expect("a subword piece has an id"));
        let end = token.bytes().end;
        if !text.is_char_boundary(end) {
            continue;
        }
        let decoded = kind.tokenizer.decode(&run).unwrap();
        let claimed = &text[run_start..end];
        let stripped = claimed
            .strip_prefix(' ')
            .filter(|_| kind.drops_leading_space);
        prop_assert!(
            decoded == claimed || stripped == Some(decoded.as_str()),
            "{}: ids {:?} decode to {:?}, their bytes {}..{} are {:?}",
            name,
            run,
            decoded,
            run_start,
            end,
            claimed
        );
        run.clear();
        run_start = end;
    }
    Ok(())
}

fn texts() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        "[a-z]{1,6}",
        Just(" ".to_string()),
        Just("👨\u{200d}👩\u{200d}👧".to_string()),
        Just("❤\u{fe0f}".to_string()),
        "[\u{4e00}-\u{4e40}]{1,3}",
        "[aeo][\u{300}-\u{36f}]{1,2}",
        "[^\u{2581}<]{1,3}",
    ];
    prop::collection::vec(part, 0..8).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(common::proptest_config(150))]

    #[test]
    fn piece_bytes_tile_the_text_and_decode_to_themselves(text in texts()) {
        for kind in &KINDS.1 {
            check(kind, &text)?;
        }
    }
}

#[test]
fn llama_style_byte_pieces_report_the_bytes_they_hold() {
    // The issue's example: pieces inside `👨` and `👩` are neither empty nor snapped.
    let text = "I ❤\u{fe0f} 👨\u{200d}👩";
    for kind in &KINDS.1 {
        check(kind, text).unwrap();
    }
    let fallback = &KINDS.1[7].tokenizer;
    let tokens = fallback.tokenize(text);
    let pieces: Vec<(String, Span, Span)> = tokens
        .iter()
        .map(|t| (t.form(text).to_string(), t.span, t.bytes()))
        .collect();
    let woman = text.find('👩').unwrap();
    let first = pieces
        .iter()
        .find(|(_, _, bytes)| bytes.start == woman)
        .expect("a piece starts at 👩");
    assert_eq!(first.0, "<0xF0>");
    assert_eq!(
        first.1,
        Span::new(woman, woman),
        "span snapped to the start"
    );
    assert_eq!(first.2, Span::new(woman, woman + 1), "bytes exact");
    assert_eq!(
        toklab::core::offsets::describe_bytes(text, first.2),
        format!("bytes {woman}..{} (F0) — part of 👩", woman + 1)
    );
}

#[test]
fn json_output_and_explain_give_the_bytes_of_a_cut_character() {
    let spec = format!(
        "hf:{}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/bpe/tokenizer.json")
            .display()
    );
    let json = common::stdout_of(&["tokenize", "--format", "json", "--with", &spec], "a 👨\n");
    let line: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let ranges: Vec<(u64, u64, u64, u64)> = line["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let n = |k: &str| t[k].as_u64().unwrap();
            (n("byte_start"), n("byte_end"), n("start"), n("end"))
        })
        .collect();
    // ` <0xF0><0x9F><0x91>` holds the space and three bytes of 👨; `<0xA8>` its last byte,
    // which gives it the character (code point 2..3).
    assert_eq!(ranges, [(0, 1, 0, 1), (1, 5, 1, 2), (5, 6, 2, 3)]);
    let explained = common::stdout_of(&["explain", "--with", &spec], "a 👨\n");
    assert!(
        explained.contains("pieces that cut a character\n")
            && explained.contains("«<0xA8>» bytes 5..6 (A8) — part of 👨"),
        "{explained}"
    );
}
