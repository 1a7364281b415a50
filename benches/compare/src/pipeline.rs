//! The whole `tokenizer.json` pipeline (`hf:FILE`) next to HuggingFace tokenizers itself, on
//! the real models `../shared/realworld/fetch.sh` restores ($TOKLAB_MODELS or
//! ~/.cache/toklab/realworld): load time (median of 5) and per-line throughput on the corpora,
//! ids checked against the library before timing.

use std::hint::black_box;
use std::path::PathBuf;

use crate::timing::median;
use crate::{Encode, compare};

/// The pipeline models timed: different models, normalizers and pre-tokenizers.
const MODELS: &[&str] = &[
    "llama3.tokenizer.json",
    "gemma.tokenizer.json",
    "qwen3.tokenizer.json",
    "minilm-l6.tokenizer.json",
    "nepali-unigram.tokenizer.json",
];

fn models_dir() -> PathBuf {
    std::env::var_os("TOKLAB_MODELS").map_or_else(
        || PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/toklab/realworld"),
        PathBuf::from,
    )
}

/// Prints load times and per-line throughput of every model found; says which are missing.
pub fn pipelines(texts: &[(&'static str, String)], runs: usize, filter: &str) {
    let dir = models_dir();
    println!(
        "\n== tokenizer.json pipelines: toklab hf: against HuggingFace tokenizers (load: median of 5; throughput: each line on its own, MB/s, median of {runs}; ×N = library time ÷ toklab time) =="
    );
    for name in MODELS {
        let path = dir.join(name);
        if !path.is_file() {
            println!("{name}: missing ({}; run ../shared/realworld/fetch.sh)", path.display());
            continue;
        }
        if !name.contains(filter) && !filter.is_empty() {
            continue;
        }
        let spec = format!("hf:{}", path.display());
        let ours = median(5, || {
            black_box(toklab::load(&spec).unwrap());
        });
        let theirs = median(5, || {
            black_box(tokenizers::Tokenizer::from_file(&path).unwrap());
        });
        println!(
            "{name:32} load: toklab {:.1} ms | HF tokenizers {:.1} ms ×{:.2}",
            ours.as_secs_f64() * 1e3,
            theirs.as_secs_f64() * 1e3,
            theirs.as_secs_f64() / ours.as_secs_f64()
        );
        let toklab: &'static dyn toklab::Tokenizer = Box::leak(toklab::load(&spec).unwrap());
        let hf: &'static tokenizers::Tokenizer =
            Box::leak(Box::new(tokenizers::Tokenizer::from_file(&path).unwrap()));
        let ours: Encode<'static> = Box::new(move |t| {
            toklab
                .tokenize(t)
                .tokens
                .iter()
                .map(|token| token.id.unwrap_or(u32::MAX))
                .collect()
        });
        let theirs: Encode<'static> =
            Box::new(move |t| hf.encode_fast(t, false).unwrap().get_ids().to_vec());
        let engines = [("toklab hf:", ours), ("HF tokenizers", theirs)];
        let chosen: Vec<_> = engines.iter().collect();
        let short = name.trim_end_matches(".tokenizer.json");
        for (label, text) in texts {
            println!("{}", compare(short, label, text, &chosen, runs, true));
        }
    }
}
