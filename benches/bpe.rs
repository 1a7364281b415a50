//! BPE benchmarks inside the crate (no third-party tokenizers; those are in
//! `benches/compare/`). Prints medians and ratios measured in the same run:
//!
//! - the hand-written pre-tokenizers against fancy-regex running the same patterns;
//! - encoding throughput of each model on the corpora;
//! - the load time of o200k (target: under 150 ms);
//! - a megabyte-long piece (no pre-tokenizer split).
//!
//! `cargo bench --bench bpe` (reads ../shared or $TOKLAB_SHARED).

#[path = "bpe_timing/mod.rs"]
mod timing;

use std::hint::black_box;

use timing::{corpora, mb_per_s, median, model_dir};
use toklab::engines::subword::bpe::{gpt2, tiktoken};
use toklab::engines::subword::pretok;

const RUNS: usize = 7;

fn main() {
    let texts = corpora();
    println!("== pre-tokenizers: hand-written vs fancy-regex (median of {RUNS}) ==");
    for name in ["gpt2", "cl100k", "o200k"] {
        let hand = pretok::matcher(name).unwrap();
        let regex = fancy_regex::Regex::new(pretok::pattern(name).unwrap()).unwrap();
        for (label, text) in &texts {
            let hand_time = median(RUNS, || {
                let mut n = 0usize;
                hand.find(text, &mut |span, _| n += span.len());
                black_box(n);
            });
            let regex_time = median(RUNS, || {
                black_box(regex.find_iter(text).count());
            });
            println!(
                "{name:7} {label:24} hand {:7.1} MB/s  fancy-regex {:7.1} MB/s  speed-up {:.2}x",
                mb_per_s(text.len(), hand_time),
                mb_per_s(text.len(), regex_time),
                regex_time.as_secs_f64() / hand_time.as_secs_f64()
            );
        }
    }

    let data = model_dir();
    println!("\n== o200k load time (median of 5; target < 150 ms) ==");
    let o200k_path = data.join("tiktoken/o200k_base.tiktoken");
    let load = median(5, || {
        black_box(tiktoken::load(&o200k_path, "o200k", true).unwrap());
    });
    println!("o200k_base.tiktoken: {:.1} ms", load.as_secs_f64() * 1e3);

    println!("\n== encoding throughput (median of {RUNS}) ==");
    let models = [
        (
            "gpt2 (folder, merge list)",
            gpt2::load(&data.join("gpt2")).unwrap().model,
        ),
        (
            "r50k (rank file)",
            tiktoken::load(&data.join("tiktoken/r50k_base.tiktoken"), "r50k", true).unwrap(),
        ),
        (
            "cl100k",
            tiktoken::load(&data.join("tiktoken/cl100k_base.tiktoken"), "cl100k", true).unwrap(),
        ),
        ("o200k", tiktoken::load(&o200k_path, "o200k", true).unwrap()),
    ];
    for (name, model) in &models {
        for (label, text) in &texts {
            let time = median(RUNS, || {
                black_box(model.encode(text));
            });
            println!(
                "{name:26} {label:24} {:7.1} MB/s",
                mb_per_s(text.len(), time)
            );
        }
    }

    println!("\n== one piece of 1 MB (no pre-tokenizer split), median of 3 ==");
    let cl100k = &models[2].1;
    for (label, text) in [
        ("1 MB of 'a'", "a".repeat(1 << 20)),
        ("1 MB of digits, gpt2", "1234567890".repeat(1 << 17)),
    ] {
        let model = if label.ends_with("gpt2") {
            &models[0].1
        } else {
            cl100k
        };
        let time = median(3, || {
            black_box(model.encode(&text));
        });
        println!("{label:24} {:7.1} ms", time.as_secs_f64() * 1e3);
    }
}
