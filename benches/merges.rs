//! Benchmarks of the formal BPE machinery, each against a reference measured in the same run:
//!
//! - incremental re-tokenization (Algorithm 1 + Remark 3) after a one-character edit in a long
//!   line without pre-tokenization splits, against encoding the whole line again (GPT-2's
//!   merges as a formal dictionary, KJV text joined into one line of 100 KB and 1 MB);
//! - `Tokenizer::retokenize` of the real models (what the workbench calls on every keystroke)
//!   against `tokenize` of the new line, for a letter changed in the middle and a word typed at
//!   the end: GPT-2 with its pre-tokenizer (the pieces around the edit are cut and merged
//!   again), GPT-2 with `pattern=none` and SentencePiece (one long piece: Algorithm 1);
//! - training 8k merges on 10 MB (KJV × 2.5, GPT-2 pre-tokenization), against the one-minute
//!   budget and against the time spent counting words alone.
//!
//! Times are medians of this thread's CPU time (Linux; the wall clock elsewhere).
//!
//! `cargo bench --bench merges` (needs ../shared or TOKLAB_SHARED).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use toklab::Tokenizer;
use toklab::engines::subword::bpe::gpt2;
use toklab::engines::subword::formal::{
    Dictionary, Semantics, SymbolUnit, encode_ends, retokenize,
};
use toklab::engines::subword::train::{Pretok, Trainer};

#[path = "cpu_clock/mod.rs"]
mod cpu_clock;
use cpu_clock::thread_cpu;

fn shared() -> PathBuf {
    std::env::var_os("TOKLAB_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The median of `runs` timings of `f`, on this thread's CPU time where the system tells it
/// (wall clock elsewhere): on a loaded machine a long call is interrupted more often than a
/// short one, which would inflate the speed-ups measured on the wall clock.
fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let (t, c) = (Instant::now(), thread_cpu());
                std::hint::black_box(f());
                match (c, thread_cpu()) {
                    (Some(c0), Some(c1)) => c1 - c0,
                    _ => t.elapsed(),
                }
            })
            .collect(),
    )
}

fn incremental(dict: &Dictionary, kjv: &str, size: usize) {
    let line = long_line(kjv, size);
    let old = line.as_bytes();
    let mut old_ends = Vec::new();
    encode_ends(dict, old, Semantics::SentencePiece, &mut old_ends);
    // Change one letter in the middle.
    let mut at = old.len() / 2;
    while !old[at].is_ascii_lowercase() {
        at += 1;
    }
    let mut new = old.to_vec();
    new[at] = if old[at] == b'e' { b'a' } else { b'e' };
    let runs = if size > 500_000 { 5 } else { 15 };
    let full = time(runs, || {
        let mut ends = Vec::new();
        encode_ends(dict, &new, Semantics::SentencePiece, &mut ends);
        ends
    });
    let mut work = None;
    let inc = time(runs * 20, || {
        let mut enc =
            |p: &[u8], out: &mut Vec<usize>| encode_ends(dict, p, Semantics::SentencePiece, out);
        let r = retokenize(old, &old_ends, &new, &mut enc);
        work = Some((r.encoded_bytes, r.rounds, r.fell_back));
        r
    });
    let (bytes, rounds, fell_back) = work.expect("ran");
    println!(
        "incremental, {} KB line, one-letter edit: full {:.3} ms, incremental {:.4} ms (median), speed-up ×{:.0}; encoded {bytes} bytes in {rounds} rounds{}",
        size / 1000,
        full.as_secs_f64() * 1e3,
        inc.as_secs_f64() * 1e3,
        full.as_secs_f64() / inc.as_secs_f64(),
        if fell_back { ", fell back" } else { "" }
    );
}

/// KJV text joined into one line of about `size` bytes.
fn long_line(kjv: &str, size: usize) -> String {
    let mut line: String = kjv.replace('\n', " ");
    let mut cut = size.min(line.len());
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    line.truncate(cut);
    line
}

fn retokenizing(tokenizer: &dyn Tokenizer, label: &str, kjv: &str, size: usize) {
    let old = long_line(kjv, size);
    let old_tokens = tokenizer.tokenize(&old);
    let mut at = old.len() / 2;
    while !old.as_bytes()[at].is_ascii_lowercase() {
        at += 1;
    }
    let mut changed = old.clone();
    let letter = if &old[at..at + 1] == "e" { "a" } else { "e" };
    changed.replace_range(at..at + 1, letter);
    let typed = format!("{old} and");
    let runs = if size > 500_000 { 5 } else { 11 };
    for (edit, new) in [
        ("a letter changed", &changed),
        ("a word typed at the end", &typed),
    ] {
        assert_eq!(
            tokenizer.retokenize(&old, &old_tokens, new),
            tokenizer.tokenize(new),
            "{label}: retokenize must equal tokenize"
        );
        let full = time(runs, || tokenizer.tokenize(new));
        let inc = time(runs * 4, || tokenizer.retokenize(&old, &old_tokens, new));
        println!(
            "retokenize, {label}, {} KB line, {edit}: tokenize {:.2} ms, retokenize {:.3} ms (medians), speed-up ×{:.1}",
            size / 1000,
            full.as_secs_f64() * 1e3,
            inc.as_secs_f64() * 1e3,
            full.as_secs_f64() / inc.as_secs_f64()
        );
    }
}

fn training(kjv: &str) {
    let mut corpus = kjv.repeat(2);
    corpus.push_str(&kjv[..kjv.len() / 2]);
    let budget = Duration::from_secs(60);
    let count = time(3, || {
        Trainer::new(&corpus, SymbolUnit::Byte, Pretok::Gpt2)
            .words()
            .len()
    });
    let mut merges = 0;
    let total = time(3, || {
        let mut t = Trainer::new(&corpus, SymbolUnit::Byte, Pretok::Gpt2);
        t.train(8000, &mut |_| {});
        merges = t.merges().len();
    });
    println!(
        "training, {:.1} MB, {merges} merges (bytes, gpt2 pre-tokenization): {:.2} s median, {:.2}× the time of counting words alone ({:.2} s), {:.3}× the one-minute budget",
        corpus.len() as f64 / 1e6,
        total.as_secs_f64(),
        total.as_secs_f64() / count.as_secs_f64(),
        count.as_secs_f64(),
        total.as_secs_f64() / budget.as_secs_f64()
    );
}

fn main() {
    let shared = shared();
    let kjv = match std::fs::read_to_string(shared.join("corpora/kjv-en.txt")) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("merges bench: skipped: {e} (set TOKLAB_SHARED)");
            return;
        }
    };
    let data = shared.join("conformance/bpe/data");
    let gpt2 = gpt2::load(&data.join("gpt2")).expect("GPT-2 model").model;
    for size in [100_000, 1_000_000] {
        incremental(gpt2.dictionary(), &kjv, size);
    }
    let spm = data.join("sentencepiece/kjv_bpe_8000.model");
    for (label, spec) in [
        ("GPT-2", format!("bpe:{}", data.join("gpt2").display())),
        (
            "GPT-2 pattern=none",
            format!("bpe:{}?pattern=none", data.join("gpt2").display()),
        ),
        (
            "SentencePiece kjv_bpe_8000",
            format!("spm:{}", spm.display()),
        ),
    ] {
        let tokenizer = toklab::load(&spec).expect("model");
        for size in [100_000, 1_000_000] {
            retokenizing(tokenizer.as_ref(), label, &kjv, size);
        }
    }
    training(&kjv);
}
