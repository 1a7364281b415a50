//! toklab's BPE encoder next to tiktoken-rs, HuggingFace tokenizers and GitHub's bpe-openai,
//! and its `tokenizer.json` pipeline next to HuggingFace tokenizers (`pipeline.rs`), measured
//! in the same run on the shared corpora. Prints MB/s (medians) and the ratio of
//! toklab's throughput to each library's; checks that the ids agree before timing.
//!
//!   cargo run --release --manifest-path benches/compare/Cargo.toml [RUNS [FILTER]]
//!
//! FILTER keeps only the lines whose "model corpus engine" contains it (for profiling).

#[path = "../../bpe_timing/mod.rs"]
mod timing;

mod pipeline;

use std::hint::black_box;
use std::time::Instant;

use timing::{corpora, mb_per_s, median, model_dir};

// `median` times the load; encoders are timed round-robin below.
use toklab::engines::subword::bpe::BpeModel;
use toklab::engines::subword::bpe::{gpt2, tiktoken};

/// An encoding function under test.
type Encode<'a> = Box<dyn Fn(&str) -> Vec<u32> + 'a>;
/// An engine's name and its encoding function.
type Encoder<'a> = (&'static str, Encode<'a>);

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7);
    let filter = std::env::args().nth(2).unwrap_or_default();
    let data = model_dir();
    let texts = corpora();

    let o200k_path = data.join("tiktoken/o200k_base.tiktoken");
    if filter.is_empty() {
        load_times(&o200k_path);
    }

    let gpt2_folder = gpt2::load(&data.join("gpt2")).unwrap().model;
    let r50k = tiktoken::load(&data.join("tiktoken/r50k_base.tiktoken"), "r50k", true).unwrap();
    let cl100k =
        tiktoken::load(&data.join("tiktoken/cl100k_base.tiktoken"), "cl100k", true).unwrap();
    let o200k = tiktoken::load(&o200k_path, "o200k", true).unwrap();
    let tk_r50k = tiktoken_rs::r50k_base().unwrap();
    let tk_cl100k = tiktoken_rs::cl100k_base().unwrap();
    let tk_o200k = tiktoken_rs::o200k_base().unwrap();
    let hf_gpt2 = hf_gpt2(&data);

    let ours = |m: &'static BpeModel| -> Encode<'static> { Box::new(move |t| m.encode(t)) };
    let leak = |m: BpeModel| -> &'static BpeModel { Box::leak(Box::new(m)) };
    let (gpt2_folder, r50k, cl100k, o200k) =
        (leak(gpt2_folder), leak(r50k), leak(cl100k), leak(o200k));

    let groups: Vec<(&str, Vec<Encoder>)> = vec![
        (
            "GPT-2",
            vec![
                ("toklab tiktoken:r50k", ours(r50k)),
                ("toklab bpe:gpt2 folder", ours(gpt2_folder)),
                ("tiktoken-rs", Box::new(|t| tk_r50k.encode_ordinary(t))),
                (
                    "HF tokenizers",
                    Box::new(|t| hf_gpt2.encode(t, false).unwrap().get_ids().to_vec()),
                ),
            ],
        ),
        (
            "cl100k",
            vec![
                ("toklab", ours(cl100k)),
                ("tiktoken-rs", Box::new(|t| tk_cl100k.encode_ordinary(t))),
                (
                    "bpe-openai",
                    Box::new(|t| bpe_openai::cl100k_base().encode(t)),
                ),
            ],
        ),
        (
            "o200k",
            vec![
                ("toklab", ours(o200k)),
                ("tiktoken-rs", Box::new(|t| tk_o200k.encode_ordinary(t))),
                (
                    "bpe-openai",
                    Box::new(|t| bpe_openai::o200k_base().encode(t)),
                ),
            ],
        ),
    ];

    pipeline::pipelines(&texts, runs, &filter);

    for per_line in [false, true] {
        println!(
            "\n== encoding throughput{}, MB/s (median of {runs}, engines interleaved); ratio = toklab ÷ library ==",
            if per_line {
                ", each line on its own (as `toklab tokenize`)"
            } else {
                ", each corpus as one text"
            }
        );
        for (model, encoders) in &groups {
            for (label, text) in &texts {
                let chosen: Vec<&Encoder> = encoders
                    .iter()
                    .filter(|(name, _)| format!("{model} {label} {name}").contains(&filter))
                    .collect();
                if !chosen.is_empty() {
                    println!("{}", compare(model, label, text, &chosen, runs, per_line));
                }
            }
        }
    }
}

/// Times `engines` on `text` (whole, or line by line) and formats one result line; the first
/// engine is toklab's and the reference for the ids and the ratios.
fn compare(
    model: &str,
    label: &str,
    text: &str,
    engines: &[&Encoder],
    runs: usize,
    per_line: bool,
) -> String {
    let run = |encode: &dyn Fn(&str) -> Vec<u32>| -> Vec<u32> {
        if per_line {
            text.lines().flat_map(encode).collect()
        } else {
            encode(text)
        }
    };
    let reference = run(&*engines[0].1);
    // Round-robin: each run times every engine once, so the machine's load (shared, noisy)
    // falls on all of them alike; medians per engine.
    let mut times = vec![Vec::new(); engines.len()];
    for _ in 0..runs {
        for (k, (_, encode)) in engines.iter().enumerate() {
            let start = Instant::now();
            black_box(run(&**encode));
            times[k].push(start.elapsed());
        }
    }
    let mut line = format!("{model:7} {label:24}");
    let mut ours_time = None;
    for ((name, encode), mut samples) in engines.iter().zip(times) {
        samples.sort();
        let time = samples[samples.len() / 2];
        let agree = run(&**encode) == reference;
        let ours = *ours_time.get_or_insert(time);
        line.push_str(&format!(
            " | {name} {:6.1}{}",
            mb_per_s(text.len(), time),
            if agree { "" } else { " (ids differ!)" }
        ));
        if !name.starts_with("toklab") {
            line.push_str(&format!(" ×{:.2}", time.as_secs_f64() / ours.as_secs_f64()));
        }
    }
    line
}

/// Load times of o200k: toklab from the rank file, tiktoken-rs from its embedded copy,
/// bpe-openai from the table its build script prepared.
fn load_times(o200k_path: &std::path::Path) {
    println!("== load time, o200k (median of 5) ==");
    let ours = median(5, || {
        black_box(tiktoken::load(o200k_path, "o200k", true).unwrap());
    });
    let theirs = median(5, || {
        black_box(tiktoken_rs::o200k_base().unwrap());
    });
    let start = Instant::now();
    black_box(bpe_openai::o200k_base());
    let bpe_first = start.elapsed();
    println!(
        "toklab {:.1} ms (target < 150 ms) | tiktoken-rs {:.1} ms | bpe-openai first use {:.1} ms (deserializes a table prepared at build time)",
        ours.as_secs_f64() * 1e3,
        theirs.as_secs_f64() * 1e3,
        bpe_first.as_secs_f64() * 1e3
    );
}

/// HuggingFace tokenizers on GPT-2's release files, byte-level, no prefix space.
fn hf_gpt2(data: &std::path::Path) -> tokenizers::Tokenizer {
    use tokenizers::models::bpe::BPE;
    use tokenizers::pre_tokenizers::byte_level::ByteLevel;
    let bpe = BPE::from_file(
        data.join("gpt2/encoder.json").to_str().unwrap(),
        data.join("gpt2/vocab.bpe").to_str().unwrap(),
    )
    .build()
    .unwrap();
    let mut tokenizer = tokenizers::Tokenizer::new(bpe);
    tokenizer.with_pre_tokenizer(Some(ByteLevel::default().add_prefix_space(false)));
    tokenizer
}
