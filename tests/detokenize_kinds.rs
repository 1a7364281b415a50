//! `detokenize(tokenize(text))` for the kinds whose tokens carry no joining marks: exact where
//! the tokens keep the text (`pretok:` and a `regex:` that keeps the spaces, on text with a
//! space; `maxmatch:` on unsegmented text), the documented normal form where they drop it (`ws`: one space between
//! tokens; `words`, `fst:`: English spacing; `lex:`: a word's morphemes apart).

use proptest::prelude::*;

fn round_trip(spec: &str, text: &str) -> String {
    let tokenizer = toklab::load(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let tokens = tokenizer.tokenize(text);
    let forms = tokens.forms(text);
    tokenizer
        .detokenize(&forms)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn sample_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn pretokenizers_and_a_space_keeping_regex_give_the_sample_back_exactly() {
    for spec in [
        "pretok:gpt2",
        "pretok:cl100k",
        "pretok:o200k",
        r"regex:\s+|\w+|[^\w\s]",
    ] {
        // A line without whitespace gives pieces that do not show they keep the spaces:
        // those are joined as words (the Japanese line gets spaces around its digits).
        for line in sample_lines("samples/sample.txt")
            .into_iter()
            .filter(|l| l.contains(char::is_whitespace))
        {
            assert_eq!(round_trip(spec, &line), line, "{spec}");
        }
    }
}

#[test]
fn maxmatch_gives_unsegmented_text_back_exactly() {
    for spec in [
        "maxmatch:samples/maxmatch/zh-words.txt",
        "maxmatch:samples/maxmatch/zh-words.txt?dir=bwd",
    ] {
        for line in sample_lines("samples/maxmatch/zh-sample.txt") {
            assert_eq!(round_trip(spec, &line), line, "{spec}");
        }
        // Whitespace between runs is dropped by the tokenizer and does not come back.
        assert_eq!(round_trip(spec, "今天天气 很不错"), "今天天气很不错");
    }
}

#[test]
fn ws_gives_the_text_with_single_spaces_back() {
    for line in sample_lines("samples/sample.txt") {
        let normal = line.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(round_trip("ws", &line), normal);
    }
    assert_eq!(round_trip("ws", "  a (  b\tc.  "), "a ( b c.");
}

/// Sentences in ordinary English spacing, written for this test.
const SPACED_PROSE: &[&str] = &[
    "The kettle's whistle woke everyone, even the dog.",
    "She asked: \"Isn't it late?\" and nobody answered.",
    "Three of them (the twins and Ravi) stayed behind; the rest left!",
    "We don't know why it's broken, do you?",
    "It cost $12 at the market, about 30% more than last week.",
];

#[test]
fn word_tokenizers_give_ordinarily_spaced_prose_back() {
    for spec in [
        "words",
        "fst:samples/fst/english.fst",
        r"regex:\w+(?:'\w+)*|[^\w\s]",
    ] {
        for line in SPACED_PROSE {
            assert_eq!(&round_trip(spec, line), line, "{spec}");
        }
    }
}

#[test]
fn lex_gives_a_words_morphemes_back_apart() {
    assert_eq!(
        round_trip("lex:samples/lex/de-verbs.vocab", "Sie verkauften das Haus."),
        "Sie ver kauf te n das Haus."
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any text with a space in it, control characters and odd spacing included, comes back
    /// from a BPE pre-tokenizer's pieces byte for byte (without one, the pieces do not say
    /// they kept the spaces, and are joined as words).
    #[test]
    fn pretok_round_trips_any_text_with_a_space(
        text in "\\PC{0,20} \\PC{0,20}|[ \\t\\na-z.'\"]{0,20} [ \\t\\na-z.'\"]{0,20}"
    ) {
        for spec in ["pretok:gpt2", "pretok:o200k"] {
            prop_assert_eq!(round_trip(spec, &text), text.clone());
        }
    }

    /// ws gives back the text's words with single spaces, whatever the whitespace was.
    #[test]
    fn ws_gives_single_spaces_for_any_text(text in "[ \\t\\u{a0}\\u{3000}a-z.,()]{0,40}") {
        let normal = text.split_whitespace().collect::<Vec<_>>().join(" ");
        prop_assert_eq!(round_trip("ws", &text), normal);
    }
}
