//! The normalizers one by one, on short texts.

use super::*;

fn normalize(json: &str, text: &str) -> String {
    let normalizer = Normalizer::from_json(&serde_json::from_str(json).unwrap()).unwrap();
    let mut normalized = NormalizedString::new(text);
    normalizer.apply(&mut normalized);
    normalized.normalized().to_string()
}

#[test]
fn each_normalizer() {
    assert_eq!(normalize(r#"{"type":"NFKC"}"#, "ﬁ①"), "fi1");
    assert_eq!(normalize(r#"{"type":"NFD"}"#, "é").chars().count(), 2);
    assert_eq!(normalize(r#"{"type":"Lowercase"}"#, "ÀB"), "àb");
    assert_eq!(
        normalize(
            r#"{"type":"Strip","strip_left":false,"strip_right":true}"#,
            " a "
        ),
        " a"
    );
    assert_eq!(
        normalize(
            r#"{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"StripAccents"}]}"#,
            "café"
        ),
        "cafe"
    );
    assert_eq!(
        normalize(r#"{"type":"Sequence","normalizers":[]}"#, "As is"),
        "As is"
    );
    assert_eq!(
        normalize(
            r#"{"type":"Replace","pattern":{"Regex":" {2,}"},"content":" "}"#,
            "a   b  c d"
        ),
        "a b c d"
    );
    assert_eq!(
        normalize(
            r#"{"type":"Replace","pattern":{"String":" "},"content":"▁"}"#,
            "a b"
        ),
        "a▁b"
    );
    assert_eq!(normalize(r#"{"type":"Prepend","prepend":"▁"}"#, "x"), "▁x");
    assert_eq!(normalize(r#"{"type":"Prepend","prepend":"▁"}"#, ""), "");
    assert_eq!(
        normalize(r#"{"type":"Nmt"}"#, "a\u{1}b\u{200B}c\td"),
        "ab c d"
    );
}

#[test]
fn bert_flags_each_on_their_own() {
    let bert = |flags: &str| format!(r#"{{"type":"BertNormalizer",{flags}}}"#);
    let all = bert(
        r#""clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true"#,
    );
    assert_eq!(normalize(&all, "Héllo\u{0}\t日本"), "hello  日  本 ");
    let lower_only = bert(
        r#""clean_text":false,"handle_chinese_chars":false,"strip_accents":false,"lowercase":true"#,
    );
    assert_eq!(normalize(&lower_only, "Héllo 日"), "héllo 日");
    let accents_only = bert(
        r#""clean_text":false,"handle_chinese_chars":false,"strip_accents":true,"lowercase":false"#,
    );
    assert_eq!(normalize(&accents_only, "Héllo"), "Hello");
}

#[test]
fn offsets_follow_a_regex_replace() {
    let normalizer = Normalizer::from_json(
        &serde_json::from_str(r#"{"type":"Replace","pattern":{"Regex":"\\s+"},"content":"_"}"#)
            .unwrap(),
    )
    .unwrap();
    let mut text = NormalizedString::new("ab   cd");
    normalizer.apply(&mut text);
    assert_eq!(text.normalized(), "ab_cd");
    assert_eq!(text.original_span(2..3).slice("ab   cd"), "   ");
    assert_eq!(text.original_span(3..5).slice("ab   cd"), "cd");
}

#[test]
fn chained_replacements_that_grow_without_bound_are_refused() {
    let replace = |content: &str| {
        format!(r#"{{"type":"Replace","pattern":{{"String":"a"}},"content":"{content}"}}"#)
    };
    let chain = |n: usize, content: &str| {
        let all = vec![replace(content); n].join(",");
        Normalizer::from_json(
            &serde_json::from_str(&format!(r#"{{"type":"Sequence","normalizers":[{all}]}}"#))
                .unwrap(),
        )
        .unwrap()
    };
    let e = chain(5, &"a".repeat(100)).check_growth().unwrap_err();
    assert!(matches!(e, ComponentError::Invalid(_)), "{e:?}");
    let e = e.to_string();
    assert!(e.starts_with("normalizer Replace \"a\" → \"aaaa"), "{e}");
    assert!(
        e.contains("10000 times longer") && e.contains("at most 1024"),
        "{e}"
    );
    assert_eq!(chain(1, &"a".repeat(100)).check_growth(), Ok(()));
    assert_eq!(chain(5, "b").check_growth(), Ok(()));
}

#[test]
fn unknown_normalizer_is_named() {
    let e = Normalizer::from_json(
        &serde_json::from_str(r#"{"type":"Sequence","normalizers":[{"type":"Frobnicate"}]}"#)
            .unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        ComponentError::unsupported("normalizer Frobnicate is not supported")
    );
}

#[test]
fn base64_round_trip() {
    assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
    assert_eq!(base64_decode("aGk").unwrap(), b"hi");
    assert!(base64_decode("a*").is_none());
}

#[test]
fn strip_accents_uses_the_reference_tables() {
    // U+1CF2 is a spacing mark in tokenizers' tables (a letter in current Unicode); U+1AC0,
    // a mark added since, is kept by the reference.
    assert!(is_reference_mark('\u{1CF2}') && is_reference_mark('\u{301}'));
    assert!(!is_reference_mark('\u{1AC0}') && !is_reference_mark('a'));
    let strip = Normalizer::StripAccents;
    let mut text = NormalizedString::new("a\u{1CF2}b\u{301}\u{1AC0}");
    strip.apply(&mut text);
    assert_eq!(text.normalized(), "ab\u{1AC0}");
}
