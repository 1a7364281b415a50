//! SentencePiece against the sentencepiece library (0.2.3), measured in the same run: a
//! unigram model on English (botchan 1000 on 1 MB of the KJV) and on Japanese (the Kyoto
//! unigram 8000 on the Japanese UDHR), and BPE with byte fallback (Mistral v1, Llama's
//! scheme) on the Chinese and Japanese UDHR.
//!
//! Both sides encode the same lines to ids, one thread: toklab with `SpmModel::encode` per
//! line, the library with one `encode(lines, num_threads=1)` call (its loop in C++).
//! benches/spm_reference.py times the library when a Python with it is found
//! ($TOKLAB_SPM_PYTHON, else /tmp/toklab-rapidfuzz/bin/python); the ids are compared by count
//! and checksum. Models: ../shared/conformance/bpe/data/sentencepiece and the realworld cache
//! (~/.cache/toklab/realworld or $TOKLAB_MODELS); a missing one is skipped with a note.
//!
//!     cargo bench --bench spm

#[path = "bpe_timing/mod.rs"]
mod timing;

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

use timing::{median, model_dir, shared_dir};
use toklab::engines::subword::spm::SpmModel;

const RUNS: usize = 9;

fn models_dir() -> PathBuf {
    match std::env::var_os("TOKLAB_MODELS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/toklab/realworld"),
    }
}

fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TOKLAB_SPM_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let default = PathBuf::from("/tmp/toklab-rapidfuzz/bin/python");
    default.exists().then_some(default)
}

/// The ids' count and a position-weighted sum, as benches/spm_reference.py computes it.
fn checksum<'i>(rows: impl IntoIterator<Item = &'i Vec<u32>>) -> (u64, u64) {
    let (mut count, mut total) = (0u64, 0u64);
    for &id in rows.into_iter().flatten() {
        count += 1;
        total = total.wrapping_add(u64::from(id).wrapping_mul(count));
    }
    (count, total)
}

fn main() {
    let corpora = shared_dir().join("corpora");
    let read = |name: &str, limit: usize| -> Vec<String> {
        let text = std::fs::read_to_string(corpora.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e} (set TOKLAB_SHARED)"));
        let mut lines = Vec::new();
        let mut size = 0;
        for line in text.lines() {
            size += line.len() + 1;
            if size > limit {
                break;
            }
            lines.push(line.to_string());
        }
        lines
    };
    let cases = [
        (
            "unigram botchan-1000 kjv-en 1MB",
            model_dir().join("sentencepiece/botchan_en_unigram_1000.model"),
            read("kjv-en.txt", 1 << 20),
        ),
        (
            "unigram kyoto-ja-8000 udhr-ja",
            models_dir().join("kyoto_ja_unigram_8000.model"),
            read("udhr-ja.txt", usize::MAX),
        ),
        (
            "bpe+bytes mistral-v1 udhr-zh",
            models_dir().join("mistral-v1.model"),
            read("udhr-zh.txt", usize::MAX),
        ),
        (
            "bpe+bytes mistral-v1 udhr-ja",
            models_dir().join("mistral-v1.model"),
            read("udhr-ja.txt", usize::MAX),
        ),
    ];
    let mut ours = Vec::new();
    let mut tasks = Vec::new();
    for (name, path, lines) in &cases {
        if !path.exists() {
            eprintln!("bench spm: {name} skipped: {} is missing", path.display());
            continue;
        }
        let model = SpmModel::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let encode = || {
            lines
                .iter()
                .map(|line| model.encode(line))
                .collect::<Vec<_>>()
        };
        let sums = checksum(&encode());
        let time = median(RUNS, || {
            black_box(encode());
        });
        ours.push((name.to_string(), time.as_secs_f64(), sums));
        tasks.push(serde_json::json!({
            "name": name, "model": path, "lines": lines, "runs": RUNS,
        }));
    }

    let mut reference = std::collections::HashMap::new();
    match python() {
        None => eprintln!(
            "bench spm: sentencepiece reference skipped: no Python with it (set TOKLAB_SPM_PYTHON, or: \
             python3 -m venv /tmp/toklab-rapidfuzz && /tmp/toklab-rapidfuzz/bin/pip install sentencepiece==0.2.3)"
        ),
        Some(python) => {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench-spm");
            std::fs::create_dir_all(&dir).expect("the bench's folder");
            let tasks_path = dir.join("sentencepiece-tasks.json");
            std::fs::write(&tasks_path, serde_json::Value::from(tasks).to_string())
                .expect("write the tasks");
            let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spm_reference.py");
            match Command::new(&python).arg(&script).arg(&tasks_path).output() {
                Ok(output) if output.status.success() => {
                    for line in String::from_utf8_lossy(&output.stdout).lines() {
                        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                        reference.insert(
                            v["name"].as_str().unwrap_or("").to_string(),
                            (
                                v["seconds"].as_f64().unwrap_or(0.0),
                                (
                                    v["count"].as_u64().unwrap_or(0),
                                    v["checksum"].as_u64().unwrap_or(0),
                                ),
                            ),
                        );
                    }
                }
                Ok(output) => eprintln!(
                    "bench spm: sentencepiece reference failed: {}",
                    String::from_utf8_lossy(&output.stderr)
                ),
                Err(e) => eprintln!("bench spm: cannot run {}: {e}", python.display()),
            }
        }
    }

    println!();
    println!(
        "{:<34} {:>12} {:>14} {:>7}  ids",
        "encode all lines (median)", "toklab", "sentencepiece", "ratio"
    );
    for (name, seconds, sums) in &ours {
        let (theirs, ratio, check) = match reference.get(name) {
            Some(&(their_seconds, their_sums)) => (
                format!("{:.2} ms", their_seconds * 1e3),
                format!("{:.2}", seconds / their_seconds),
                if their_sums == *sums {
                    format!("{} ids, identical", sums.0)
                } else {
                    format!("{sums:?} ≠ {their_sums:?} MISMATCH")
                },
            ),
            None => ("-".to_string(), "-".to_string(), format!("{} ids", sums.0)),
        };
        println!(
            "{name:<34} {:>9.2} ms {theirs:>14} {ratio:>7}  {check}",
            seconds * 1e3
        );
    }
    println!("(ratio = toklab / sentencepiece: below 1 is faster)");
}
