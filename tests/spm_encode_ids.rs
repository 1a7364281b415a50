//! `SpmModel::encode` (ids only: normalized without alignments, buffers reused per thread)
//! gives the ids of the aligned path every tokenizer view uses (`encode_normalized`), on
//! every SentencePiece model at hand, over the shared corpora and texts made to stress the
//! whitespace rules (leading, trailing and repeated spaces, tabs, full-width spaces that the
//! NFKC map turns into spaces, an empty line).

use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use toklab::engines::subword::spm::SpmModel;

use crate::common::{models_dir, proptest_config, shared_dir, skip_note};

/// The conformance models (always there with the shared folder) and the real-world ones
/// that are fetched (Kyoto unigram with NFKC, Mistral BPE with byte fallback).
/// Loaded once for every test and proptest case.
fn models() -> &'static [(PathBuf, SpmModel)] {
    static MODELS: OnceLock<Vec<(PathBuf, SpmModel)>> = OnceLock::new();
    MODELS.get_or_init(load_models)
}

fn load_models() -> Vec<(PathBuf, SpmModel)> {
    let Some(shared) = shared_dir("spm_encode_ids") else {
        return Vec::new();
    };
    let conformance = shared.join("conformance/bpe/data/sentencepiece");
    let mut paths: Vec<PathBuf> = [
        "botchan_en_unigram_1000",
        "botchan_en_bpe_1000",
        "kjv_bpe_8000",
    ]
    .iter()
    .map(|name| conformance.join(format!("{name}.model")))
    .collect();
    for name in ["kyoto_ja_unigram_8000.model", "mistral-v1.model"] {
        let path = models_dir().join(name);
        if path.exists() {
            paths.push(path);
        } else {
            skip_note(&format!("spm_encode_ids: {} is missing", path.display()));
        }
    }
    paths
        .into_iter()
        .map(|path| {
            let model = SpmModel::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, model)
        })
        .collect()
}

fn aligned_ids(model: &SpmModel, text: &str) -> Vec<u32> {
    model
        .encode_normalized(text)
        .1
        .iter()
        .map(|t| t.id)
        .collect()
}

const TRICKY: &[&str] = &[
    "",
    " ",
    "   ",
    "  two  spaces  ",
    "\ttab\tand\u{3000}ideographic\u{3000}space\u{3000}",
    "ｆｕｌｌ　ｗｉｄｔｈ　１２３",
    "日本語の 文。 ",
    "▁already▁escaped ▁",
    "a\u{0301} e\u{0301}",
];

#[test]
fn ids_alone_equal_the_aligned_ids_on_the_corpora() {
    let models = models();
    let Some(shared) = shared_dir("spm_encode_ids") else {
        return;
    };
    let corpora = shared.join("corpora");
    let mut lines: Vec<String> = TRICKY.iter().map(|s| s.to_string()).collect();
    for name in [
        "udhr-ja.txt",
        "udhr-zh.txt",
        "udhr-de.txt",
        "emoji-test.txt",
    ] {
        let text = std::fs::read_to_string(corpora.join(name)).expect("a shared corpus");
        lines.extend(text.lines().take(400).map(str::to_string));
    }
    let kjv = std::fs::read_to_string(corpora.join("kjv-en.txt")).expect("the KJV");
    lines.extend(kjv.lines().take(400).map(str::to_string));
    for (path, model) in models {
        for line in &lines {
            assert_eq!(
                model.encode(line),
                aligned_ids(model, line),
                "{}: {line:?}",
                path.display()
            );
        }
    }
}

proptest! {
    #![proptest_config(proptest_config(64))]

    #[test]
    fn ids_alone_equal_the_aligned_ids_on_any_text(text in "[ a\t\u{3000}▁語ｆé\u{0301}.]{0,24}") {
        for (path, model) in models() {
            prop_assert_eq!(model.encode(&text), aligned_ids(model, &text), "{}", path.display());
        }
    }
}
