//! `compare`'s inline diff for byte-level models on CJK text: pieces of a character's bytes
//! read as the character they complete, once per run, never as `<0xE6><0x88>` escapes of a
//! character that was completed.

use crate::common;

/// Every `⟨…⟩` and `⟦…⟧` mark of a report.
fn marks(report: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [('⟨', '⟩'), ('⟦', '⟧')] {
        for piece in report.split(open).skip(1) {
            out.push(piece.split(close).next().unwrap_or("").to_string());
        }
    }
    out
}

fn compare(spec: &str, text: &str) -> String {
    common::stdout_of(
        &[
            "compare", "--with", "words", "--with", spec, "--show", "all",
        ],
        text,
    )
}

#[test]
fn gpt2_byte_pieces_on_the_shipped_chinese_sample() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/maxmatch/zh-sample.txt"
    );
    let text = std::fs::read_to_string(sample).unwrap();
    let spec = concat!("bpe:", env!("CARGO_MANIFEST_DIR"), "/samples/bpe/gpt2");
    let report = compare(spec, &text);
    let marks = marks(&report);
    assert!(
        !marks.is_empty(),
        "the sample's pieces are rewritten:\n{report}"
    );
    for mark in &marks {
        // A mark may keep escapes only for bytes that complete no character.
        assert!(
            !mark.contains("<0x") || std::str::from_utf8(&escaped_bytes(mark)).is_err(),
            "{mark:?} completes a character but shows its bytes:\n{report}"
        );
    }
    // The sample's characters come back as characters.
    assert!(
        marks
            .iter()
            .any(|m| m.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
        "{report}"
    );
}

#[test]
fn byte_fallback_pieces_of_a_rare_character_with_llama2() {
    let model = common::models_dir().join("llama2.tokenizer.json");
    if !model.exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "compare_bytes: {} is missing; CI requires it",
                model.display()
            );
        }
        common::skip_note(&format!(
            "compare_bytes: skipped: {} not found (../shared/realworld/fetch.sh)",
            model.display()
        ));
        return;
    }
    // 龘 is not in Llama 2's vocabulary: three byte-fallback pieces.
    let report = compare(&format!("hf:{}", model.display()), "我们看龘字\n");
    assert!(report.contains("⟨龘⟩"), "{report}");
    assert!(!report.contains("<0x"), "{report}");
}

/// The bytes a mark stands for, escapes decoded.
fn escaped_bytes(mark: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = mark;
    while let Some(c) = rest.chars().next() {
        if let Some(hex) = rest.strip_prefix("<0x").and_then(|r| r.get(..2))
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            rest = &rest[6..];
        } else {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}
