//! `Tokenizer::retokenize` of the BPE kinds always equals `tokenize(new)`: random texts and
//! chains of random edits (each re-tokenization feeding the next, as the workbench types), on
//! the sample models of every format — with and without a pre-tokenizer, under both semantics —
//! and on the real models of ../shared when present.

use crate::common;

use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;
use toklab::Tokenizer;

/// Specs loadable without the shared folder.
const SAMPLES: &[&str] = &[
    "bpe:samples/bpe/gpt2",
    "bpe:samples/bpe/gpt2?pattern=none",
    "bpe:samples/bpe/gpt2?semantics=hf",
    "bpe:samples/bpe/gpt2?pattern=none&semantics=hf",
    "bpe:samples/bpe/gpt2?pattern=cl100k",
    "bpe:samples/bpe/gpt2?pattern=o200k",
    "bpe:samples/bpe/tokenizer.json",
    "bpe:samples/bpe/split-tokenizer.json",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=r50k",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=o200k&semantics=hf",
    "spm:samples/bpe/sample-spm.model",
    "spm:samples/bpe/sample-spm.model?semantics=hf",
];

static SAMPLE_TOKENIZERS: LazyLock<Vec<Box<dyn Tokenizer>>> = LazyLock::new(|| {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    SAMPLES
        .iter()
        .map(|spec| toklab::load_in(spec, base).unwrap_or_else(|e| panic!("{spec}: {e}")))
        .collect()
});

static REAL_TOKENIZERS: LazyLock<Vec<Box<dyn Tokenizer>>> = LazyLock::new(|| {
    let Some(shared) = common::shared_dir("bpe_incremental real models") else {
        return Vec::new();
    };
    let data = shared.join("conformance/bpe/data");
    let path = |rel: &str| data.join(rel).display().to_string();
    [
        format!("bpe:{}", path("gpt2")),
        format!("bpe:{}?pattern=none", path("gpt2")),
        format!("tiktoken:{}", path("tiktoken/cl100k_base.tiktoken")),
        format!("tiktoken:{}", path("tiktoken/o200k_base.tiktoken")),
        format!("spm:{}", path("sentencepiece/kjv_bpe_8000.model")),
    ]
    .iter()
    .map(|spec| toklab::load(spec).unwrap_or_else(|e| panic!("{spec}: {e}")))
    .collect()
});

static LINES: LazyLock<Vec<String>> = LazyLock::new(|| {
    common::shared_dir("bpe_incremental lines")
        .map(|shared| {
            std::fs::read_to_string(shared.join("conformance/bpe/lines.txt"))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
});

/// Bits of text that exercise the pre-tokenizers, the merges, special tokens, user-defined
/// pieces, unknown characters and the hard breaks (a space between two letters).
fn fragment() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "the",
        "renew",
        "token",
        "set",
        "new",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        "e",
        "a",
        "'s",
        "'LL",
        "123",
        "0123456789",
        "é",
        "😀",
        "日本",
        "::",
        "<br>",
        "<|endoftext|>",
        ",",
        ".",
        "x",
        "HelloWorld",
        "ne",
        "w",
        "İ",
    ])
    .prop_map(str::to_string)
}

fn fragments(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..max).prop_map(|v| v.concat())
}

/// A text, sometimes with a long run that the pre-tokenizers keep in one piece.
fn text() -> impl Strategy<Value = String> {
    let run = prop_oneof![
        Just(String::new()),
        (
            prop::sample::select(vec!["a", "1", "ab", "renew", "é"]),
            100usize..300
        )
            .prop_map(|(s, n)| s.repeat(n)),
    ];
    (fragments(40), run, fragments(40)).prop_map(|(a, run, b)| format!("{a}{run}{b}"))
}

/// An edit: where (a fraction of the characters), how many characters go, what comes in.
fn edit() -> impl Strategy<Value = (f64, usize, String)> {
    (0.0f64..=1.0, 0usize..6, fragments(3))
}

fn apply(text: &str, (at, gone, insert): &(f64, usize, String)) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let start = ((chars.len() as f64) * at) as usize;
    let end = (start + gone).min(chars.len());
    let byte = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    format!("{}{insert}{}", &text[..byte(start)], &text[byte(end)..])
}

/// Edits `text` one edit after the other, re-tokenizing from the previous result each time.
fn check_chain(
    tokenizer: &dyn Tokenizer,
    text: &str,
    edits: &[(f64, usize, String)],
) -> Result<(), TestCaseError> {
    let mut old = text.to_string();
    let mut old_tokens = tokenizer.tokenize(&old);
    for e in edits {
        let new = apply(&old, e);
        let got = tokenizer.retokenize(&old, &old_tokens, &new);
        let want = tokenizer.tokenize(&new);
        prop_assert!(
            got == want,
            "{}: {:?} → {:?}\n  got  {:?}\n  want {:?}",
            tokenizer.name(),
            old,
            new,
            got.tokens
                .iter()
                .map(|t| (t.span, t.id))
                .collect::<Vec<_>>(),
            want.tokens
                .iter()
                .map(|t| (t.span, t.id))
                .collect::<Vec<_>>()
        );
        got.check(&new)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        old = new;
        old_tokens = got;
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(160))]

    #[test]
    fn samples_retokenize_as_they_tokenize(
        text in text(),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        for tokenizer in SAMPLE_TOKENIZERS.iter() {
            check_chain(tokenizer.as_ref(), &text, &edits)?;
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(48))]

    #[test]
    fn real_models_retokenize_as_they_tokenize(
        line in any::<prop::sample::Index>(),
        repeat in 1usize..4,
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        if LINES.is_empty() {
            return Ok(());
        }
        // A line of the conformance data, sometimes repeated into a long line.
        let text = vec![LINES[line.index(LINES.len())].as_str(); repeat].join(" ");
        for tokenizer in REAL_TOKENIZERS.iter() {
            check_chain(tokenizer.as_ref(), &text, &edits)?;
        }
    }
}

/// Typing in a long line re-encodes little: the same answer as tokenizing it whole.
#[test]
fn typing_in_a_long_line() {
    let text = "the renewed token set ".repeat(300);
    for tokenizer in SAMPLE_TOKENIZERS.iter() {
        let mut old = text.clone();
        let mut tokens = tokenizer.tokenize(&old);
        for (i, c) in "a new word".chars().enumerate() {
            let mut new = old.clone();
            new.insert(old.len() / 2 + i, c);
            tokens = tokenizer.retokenize(&old, &tokens, &new);
            assert_eq!(tokens, tokenizer.tokenize(&new), "{}", tokenizer.name());
            old = new;
        }
    }
}
