//! On arbitrary Unicode, every tokenizer's spans are ordered, non-overlapping, inside the text
//! and on char boundaries; sentence ends are valid. Each engine adds its specs to `SPECS`.

use proptest::prelude::*;
use std::sync::LazyLock;

/// Specs loadable without the shared folder (shipped samples or built-in).
const SPECS: &[&str] = &[
    "ws",
    "words",
    r"regex:\w+|[^\w\s]+",
    r"regex:\b\w+(?=\s)",
    "pretok:gpt2",
    "maxmatch:samples/maxmatch/zh-words.txt",
    "maxmatch:samples/maxmatch/zh-words.txt?dir=bwd",
    "fst:samples/fst/english.fst",
    "fst:samples/fst/english.fst?repr=da",
    "fst:samples/fst/simple.fst",
    "fst:samples/fst/toy.fst?repr=da",
    "pretok:cl100k",
    "pretok:o200k",
    "bpe:samples/bpe/gpt2",
    "bpe:samples/bpe/split-tokenizer.json",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=o200k",
    "spm:samples/bpe/sample-spm.model",
    "wordpiece:samples/bpe/sample-wordpiece.txt",
    "rules:rules?lang=eng",
    "rules:rules?lang=eng&simple=true",
    "bpe:samples/bpe/gpt2?semantics=hf",
    "bpe:samples/bpe/tokenizer.json",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=r50k&semantics=hf",
    "spm:samples/bpe/sample-spm.model?semantics=hf",
    "ptb",
    "ptb?parens=1",
    "sent",
    "sent:ptb",
    "sent:ws",
];

static TOKENIZERS: LazyLock<Vec<Box<dyn toklab::Tokenizer>>> = LazyLock::new(|| {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    SPECS
        .iter()
        .map(|spec| toklab::load_in(spec, base).unwrap_or_else(|e| panic!("{spec}: {e}")))
        .collect()
});

fn check_all(text: &str) -> Result<(), TestCaseError> {
    for tokenizer in TOKENIZERS.iter() {
        let tokens = tokenizer.tokenize(text);
        if let Err(problem) = tokens.check(text) {
            return Err(TestCaseError::fail(format!(
                "{}: {problem} on {text:?}",
                tokenizer.name()
            )));
        }
        // explain never panics and its lines point inside the text.
        for line in tokenizer.explain(text).lines() {
            if let Some(span) = line.span {
                prop_assert!(
                    span.end <= text.len()
                        && text.is_char_boundary(span.start)
                        && text.is_char_boundary(span.end)
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(512))]

    #[test]
    fn spans_valid_on_any_unicode(text in any::<String>()) {
        check_all(&text)?;
    }

    #[test]
    fn spans_valid_on_texty_input(text in "[a-zA-Z0-9 .,;:!?'\"()\\-\t\u{a0}\u{3000}éß語😀👍🏽\u{301}\u{200d}]{0,80}") {
        check_all(&text)?;
    }
}

#[test]
fn whitespace_tokenizers_lose_nothing_but_whitespace() {
    // ws and words drop exactly the whitespace: the non-space characters of the text are the
    // non-space characters of the tokens.
    let text = "  We're 350\tdogs!\u{3000}Um,  lunch? ";
    for tokenizer in &TOKENIZERS[..2] {
        let tokens = tokenizer.tokenize(text);
        let kept: String = tokens
            .tokens
            .iter()
            .map(|t| t.form(text))
            .collect::<String>()
            .split_whitespace()
            .collect();
        let all: String = text.split_whitespace().collect();
        assert_eq!(kept, all, "{}", tokenizer.name());
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    /// `sent` drops only whitespace: its sentences hold every other character, in order; and
    /// `sent:ws` ends sentences exactly where `sent` does.
    #[test]
    fn sentences_lose_nothing_but_whitespace(
        text in "[a-zA-Z0-9 .,;:!?'\"()\\-…•\n\u{a0}éß]{0,80}"
    ) {
        let alone = &TOKENIZERS[SPECS.iter().position(|s| *s == "sent").unwrap()];
        let tokens = alone.tokenize(&text);
        let kept: String = tokens.tokens.iter().map(|t| t.form(&text)).collect::<String>()
            .split_whitespace().collect();
        let all: String = text.split_whitespace().collect();
        prop_assert_eq!(kept, all);
        let over_ws = &TOKENIZERS[SPECS.iter().position(|s| *s == "sent:ws").unwrap()];
        let spans: Vec<_> = tokens.tokens.iter().map(|t| t.span).collect();
        prop_assert_eq!(over_ws.tokenize(&text).sentences(), spans);
    }
}
