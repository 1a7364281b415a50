//! Timing helpers shared by `benches/bpe.rs` and the comparison crate in `benches/compare/`:
//! the corpus texts and medians of repeated runs. The machine is shared and noisy, so every
//! figure is a median and every claim a ratio to a reference measured in the same run.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The shared folder: `$TOKLAB_SHARED`, else `shared` beside the checkout, found from the
/// package that includes this file (the benches' package, or the comparison crate below it).
pub fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TOKLAB_SHARED") {
        return PathBuf::from(dir);
    }
    let package = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = ["../../shared", "../../../shared"].map(|up| package.join(up));
    beside
        .iter()
        .find(|dir| dir.is_dir())
        .unwrap_or(&beside[0])
        .clone()
}

/// The model files of the conformance data.
pub fn model_dir() -> PathBuf {
    shared_dir().join("conformance/bpe/data")
}

/// The benchmark texts: about 1 MB of each corpus (English prose, Rust code) and the small
/// multilingual ones whole, cut at a line end.
pub fn corpora() -> Vec<(&'static str, String)> {
    let dir = shared_dir().join("corpora");
    let read = |name: &str, limit: usize| {
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("{}: {e} (set TOKLAB_SHARED)", dir.join(name).display()));
        if text.len() <= limit {
            return text;
        }
        let cut = text.as_bytes()[..limit]
            .iter()
            .rposition(|&b| b == b'\n')
            .unwrap_or(0);
        text[..cut].to_string()
    };
    let mut multilingual = String::new();
    for name in ["udhr-de.txt", "udhr-ja.txt", "udhr-zh.txt"] {
        multilingual.push_str(&read(name, usize::MAX));
    }
    multilingual.push_str(&read("emoji-test.txt", 200_000));
    vec![
        ("kjv-en 1MB", read("kjv-en.txt", 1 << 20)),
        ("code-rust 1MB", read("code-rust.txt", 1 << 20)),
        ("udhr de/ja/zh + emoji", multilingual),
    ]
}

/// The median of `runs` timings of `f`.
pub fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Megabytes per second for `bytes` in `time`.
pub fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64()
}
