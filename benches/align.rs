//! Edit-distance benchmarks against rapidfuzz measured in the same run.
//!
//! - distance only (bit-parallel), Levenshtein and the insertion/deletion variant, and one
//!   Levenshtein alignment (what `toklab align` prints; rapidfuzz's `Levenshtein.editops`) of
//!   n = 100, 1,000, 10,000 and 100,000 code points of ../shared/corpora/kjv-en.txt against a
//!   copy with one edit in ten code points (insertions, deletions, substitutions);
//! - alignment of two 10,000-token sequences from the KJV (linear memory): two tokenizations of
//!   the same verses (similar), and two different passages.
//!
//! Criterion measures ours; benches/rapidfuzz_reference.py times rapidfuzz 3.14.6 on the same
//! inputs when a Python with rapidfuzz is found ($TOKLAB_RAPIDFUZZ_PYTHON, else
//! /tmp/toklab-rapidfuzz/bin/python), and a table of medians and ratios is printed at the end.
//! `ALIGN_BENCH_MAX=N` leaves out the sizes above N.
//!
//!     cargo bench --bench align

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::Criterion;
use toklab::analysis::align::{self, Costs, Interner};

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TOKLAB_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.join("conformance").is_dir().then_some(dir)
}

/// A benchmark input: our symbols, and what rapidfuzz gets (a string or a list of tokens).
struct Case {
    name: String,
    a: Vec<u32>,
    b: Vec<u32>,
    reference: serde_json::Value,
}

/// `n` code points of `text` from `skip` on, and a copy with one edit in ten (a substitution,
/// a deletion or an insertion, chosen by a fixed pseudo-random sequence so every run and
/// rapidfuzz see the same pair).
fn edited_pair(text: &str, skip: usize, n: usize) -> (String, String) {
    let a: String = text.chars().skip(skip).take(n).collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut b = String::with_capacity(a.len() + n / 10);
    for c in a.chars() {
        let roll = next();
        let other = char::from(b'a' + (roll >> 40) as u8 % 26);
        match roll % 30 {
            0 => b.push(other),
            1 => {}
            2 => {
                b.push(other);
                b.push(c);
            }
            _ => b.push(c),
        }
    }
    (a, b)
}

/// The forms of the first `count` tokens `spec` makes of the lines of `text` from `skip` on.
fn token_forms(spec: &str, text: &str, skip: usize, count: usize) -> Vec<String> {
    let tokenizer = toklab::load(spec).expect("a shipped spec");
    let mut forms = Vec::with_capacity(count);
    for line in text.lines().skip(skip) {
        let tokens = tokenizer.tokenize(line);
        forms.extend(tokens.tokens.iter().map(|t| t.form(line).to_string()));
        if forms.len() >= count {
            break;
        }
    }
    forms.truncate(count);
    forms
}

fn token_case(name: &str, a: Vec<String>, b: Vec<String>) -> Case {
    let mut interner = Interner::new();
    let x = a.iter().map(|f| interner.intern(f)).collect();
    let y = b.iter().map(|f| interner.intern(f)).collect();
    Case {
        name: name.to_string(),
        a: x,
        b: y,
        reference: serde_json::json!({"name": name, "a": a, "b": b}),
    }
}

fn median_ns(dir: &Path, group: &str, id: &str) -> Option<f64> {
    let path = dir.join(group).join(id).join("new/estimates.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TOKLAB_RAPIDFUZZ_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let default = PathBuf::from("/tmp/toklab-rapidfuzz/bin/python");
    default.exists().then_some(default)
}

fn main() {
    let Some(shared) = shared_dir() else {
        eprintln!("bench align: skipped: the shared folder is missing (set TOKLAB_SHARED)");
        return;
    };
    let max_size: usize = std::env::var("ALIGN_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let kjv = std::fs::read_to_string(shared.join("corpora/kjv-en.txt")).expect("kjv-en.txt");
    let mut distance_cases = Vec::new();
    let mut editops_cases = Vec::new();
    for n in [100, 1_000, 10_000, 100_000]
        .into_iter()
        .filter(|&n| n <= max_size)
    {
        let (a, b) = edited_pair(&kjv, 5_000, n);
        for (variant, costs, weights) in [
            ("lev", Costs::LEVENSHTEIN, [1, 1, 1]),
            ("indel", Costs::INDEL, [1, 1, 2]),
        ] {
            let name = format!("{variant}_{n}");
            distance_cases.push((
                Case {
                    name: name.clone(),
                    a: align::codepoints(&a),
                    b: align::codepoints(&b),
                    reference: serde_json::json!({"name": name, "a": a, "b": b, "weights": weights}),
                },
                costs,
            ));
        }
        let name = format!("align_{n}");
        editops_cases.push(Case {
            name: name.clone(),
            a: align::codepoints(&a),
            b: align::codepoints(&b),
            reference: serde_json::json!({"name": name, "a": a, "b": b}),
        });
    }
    let token_cases = vec![
        token_case(
            "tokens_10k_same_verses_ws_vs_words",
            token_forms("ws", &kjv, 0, 10_000),
            token_forms("words", &kjv, 0, 10_000),
        ),
        token_case(
            "tokens_10k_different_passages",
            token_forms("words", &kjv, 0, 10_000),
            token_forms("words", &kjv, 20_000, 10_000),
        ),
    ];

    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion-align");
    let mut c = Criterion::default()
        .output_directory(&out_dir)
        .sample_size(20)
        .configure_from_args();
    let mut group = c.benchmark_group("distance");
    for (case, costs) in &distance_cases {
        group.bench_function(&case.name, |b| {
            b.iter(|| align::distance(black_box(&case.a), black_box(&case.b), *costs))
        });
    }
    group.finish();
    // `align::align`: what `toklab align` computes (under unit costs the matrix's backtrace
    // read from the stored band while it fits in 24 MB, Hirschberg's split from banded passes
    // above).
    let mut group = c.benchmark_group("alignment");
    group.sample_size(10);
    for case in editops_cases.iter().chain(&token_cases) {
        group.bench_function(&case.name, |b| {
            b.iter(|| align::align(black_box(&case.a), black_box(&case.b), Costs::LEVENSHTEIN))
        });
    }
    group.finish();

    // Our values, for the sanity check against rapidfuzz's.
    let mut ours: BTreeMap<String, (u64, Option<f64>)> = BTreeMap::new();
    for (case, costs) in &distance_cases {
        let value = align::distance(&case.a, &case.b, *costs);
        ours.insert(
            case.name.clone(),
            (value, median_ns(&out_dir, "distance", &case.name)),
        );
    }
    for case in editops_cases.iter().chain(&token_cases) {
        let value = align::align(&case.a, &case.b, Costs::LEVENSHTEIN).cost;
        ours.insert(
            case.name.clone(),
            (value, median_ns(&out_dir, "alignment", &case.name)),
        );
    }

    let mut reference: BTreeMap<String, (u64, f64)> = BTreeMap::new();
    match python() {
        None => eprintln!(
            "bench align: rapidfuzz reference skipped: no Python with rapidfuzz (set TOKLAB_RAPIDFUZZ_PYTHON, or: \
             python3 -m venv /tmp/toklab-rapidfuzz && /tmp/toklab-rapidfuzz/bin/pip install rapidfuzz==3.14.6)"
        ),
        Some(python) => {
            let tasks = serde_json::json!({
                "distance": distance_cases.iter().map(|(c, _)| &c.reference).collect::<Vec<_>>(),
                "editops": editops_cases.iter().chain(&token_cases).map(|c| &c.reference).collect::<Vec<_>>(),
            });
            let tasks_path = out_dir.join("rapidfuzz-tasks.json");
            std::fs::create_dir_all(&out_dir).expect("criterion's folder");
            std::fs::write(&tasks_path, tasks.to_string()).expect("write the tasks");
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("rapidfuzz_reference.py");
            let output = Command::new(&python).arg(&script).arg(&tasks_path).output();
            match output {
                Ok(output) if output.status.success() => {
                    for line in String::from_utf8_lossy(&output.stdout).lines() {
                        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                        reference.insert(
                            v["name"].as_str().unwrap_or("").to_string(),
                            (
                                v["value"].as_u64().unwrap_or(0),
                                v["seconds"].as_f64().unwrap_or(0.0),
                            ),
                        );
                    }
                }
                Ok(output) => eprintln!(
                    "bench align: rapidfuzz reference failed: {}",
                    String::from_utf8_lossy(&output.stderr)
                ),
                Err(e) => eprintln!("bench align: cannot run {}: {e}", python.display()),
            }
        }
    }

    println!();
    println!(
        "{:<38} {:>14} {:>16} {:>8}  values",
        "benchmark (median per call)", "toklab", "rapidfuzz", "ratio"
    );
    for (name, (value, ns)) in &ours {
        let ours_text = ns.map_or("?".to_string(), format_ns);
        let (theirs_text, ratio, check) = match reference.get(name) {
            Some(&(their_value, seconds)) => (
                format_ns(seconds * 1e9),
                ns.map_or("?".to_string(), |ns| format!("{:.2}", ns / (seconds * 1e9))),
                if their_value == *value {
                    format!("{value} = {their_value}")
                } else {
                    format!("{value} ≠ {their_value} MISMATCH")
                },
            ),
            None => ("-".to_string(), "-".to_string(), value.to_string()),
        };
        println!("{name:<38} {ours_text:>14} {theirs_text:>16} {ratio:>8}  {check}");
    }
    println!(
        "(ratio = toklab / rapidfuzz: below 1 is faster; align_N and tokens_* rows: toklab's alignment vs rapidfuzz's Levenshtein.editops)"
    );
}

fn format_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}
