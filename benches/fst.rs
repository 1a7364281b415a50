//! Finite-state tokenizer speed, load time and memory, on ../shared/corpora/kjv-en.txt with the
//! largest conformance grammar (web-en.fst), for both representations.
//!
//! Datok's matrix does about 4,500 tokens/ms on this kind of text; the target is twice that.
//! Datok cannot run here, so the `ws` tokenizer runs on the same text in the same process as
//! a reference for the machine's state: the summary prints each figure and its ratio to `ws`.
//! A pathological network (a long near-miss for every token) shows the O(n·m) bound: reads
//! stay within n·m and time follows the reads.
//!
//!   cargo bench --bench fst            # criterion runs, then the summary
//!   cargo bench --bench fst -- --quick # fewer samples

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use toklab::Tokenizer;
use toklab::core::trace::Observer;
use toklab::engines::fst::FstStep;
use toklab::engines::fst::{DoubleArray, FstTokenizer, Matrix, Model, Repr};

#[path = "cpu_clock/mod.rs"]
mod cpu_clock;
use cpu_clock::thread_cpu;

fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("TOKLAB_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.join("corpora/kjv-en.txt").is_file().then_some(dir)
}

/// The median of `runs` timings of `f`: wall clock, and CPU time where the system tells it.
fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Option<Duration>) {
    let mut walls = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    for _ in 0..runs {
        let cpu = thread_cpu();
        let started = Instant::now();
        black_box(f());
        walls.push(started.elapsed());
        if let (Some(before), Some(after)) = (cpu, thread_cpu()) {
            cpus.push(after.saturating_sub(before));
        }
    }
    walls.sort();
    cpus.sort();
    (
        walls[runs / 2],
        (cpus.len() == runs).then(|| cpus[runs / 2]),
    )
}

/// The median wall-clock time of `runs` calls of `f`.
fn median<T>(runs: usize, f: impl FnMut() -> T) -> Duration {
    timed(runs, f).0
}

/// Counts the characters the runner reads (re-reads after a backtrack included).
#[derive(Default)]
struct Reads(usize);
impl Observer<FstStep> for Reads {
    fn observe(&mut self, step: FstStep) {
        if matches!(step, FstStep::Read { .. } | FstStep::NoEdge { .. }) {
            self.0 += 1;
        }
    }
}

/// A network with tokens `a` and `a^k b`: on a text of a's, every token reads k characters
/// ahead, fails, and goes back — the paper's O(n·m) worst case with m = k + 1.
fn near_miss(k: usize) -> Model {
    let mut att = String::new();
    att.push_str("0\t1\ta\ta\n1\t0\t@0@\t@_TOKEN_BOUND_@\n");
    for s in 1..k {
        att.push_str(&format!("{s}\t{}\ta\ta\n", s + 1));
    }
    att.push_str(&format!(
        "{k}\t{}\tb\tb\n{}\t0\t@0@\t@_TOKEN_BOUND_@\n",
        k + 1,
        k + 1
    ));
    att.push_str("0\t0\t@_SPACE_@\t@0@\n");
    Model::from_bytes(Path::new("near-miss.att"), att.as_bytes()).expect("near-miss network")
}

fn main() {
    let Some(shared) = shared() else {
        eprintln!("fst bench: skipped: ../shared/corpora/kjv-en.txt not found (set TOKLAB_SHARED)");
        return;
    };
    let corpus = std::fs::read_to_string(shared.join("corpora/kjv-en.txt")).unwrap();
    let grammar = shared.join("conformance/fst/web-en.fst");
    let matok = shared.join("conformance/fst/web-en.matok");
    let matrix = FstTokenizer::open(&grammar, Repr::Matrix).unwrap();
    let array = FstTokenizer::open(&grammar, Repr::DoubleArray).unwrap();
    let ws = toklab::load("ws").unwrap();
    let tokens = matrix.tokenize(&corpus).len();
    assert_eq!(array.tokenize(&corpus), matrix.tokenize(&corpus));
    let ws_tokens = ws.tokenize(&corpus).len();
    // Removed when the bench ends, however it ends.
    let temp = tempfile::tempdir().unwrap();
    let saved = temp.path().join("web-en.tlfst");
    {
        let model = Model::open(&grammar).unwrap();
        let da = DoubleArray::build(&model.network);
        std::fs::write(
            &saved,
            toklab::engines::fst::write_compact(&model.network, &da),
        )
        .unwrap();
    }

    // FST_BENCH_SUMMARY=1 skips criterion's runs and prints only the summary.
    let summary_only = std::env::var_os("FST_BENCH_SUMMARY").is_some();
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    if !summary_only {
        criterion_runs(
            &mut c,
            &corpus,
            tokens,
            ws_tokens,
            [&matrix, &array],
            &*ws,
            [&grammar, &matok, &saved],
        );
    }
    summary(
        &corpus,
        tokens,
        ws_tokens,
        [&matrix, &array],
        &*ws,
        [&grammar, &matok, &saved],
    );
}

#[allow(clippy::too_many_arguments)]
fn criterion_runs(
    c: &mut Criterion,
    corpus: &str,
    tokens: usize,
    ws_tokens: usize,
    [matrix, array]: [&FstTokenizer; 2],
    ws: &dyn Tokenizer,
    [grammar, matok, saved]: [&PathBuf; 3],
) {
    {
        let mut group = c.benchmark_group("tokenize kjv-en");
        group.throughput(Throughput::Elements(tokens as u64));
        group.bench_function("web-en matrix", |b| {
            b.iter(|| matrix.tokenize(black_box(corpus)))
        });
        group.bench_function("web-en double array", |b| {
            b.iter(|| array.tokenize(black_box(corpus)))
        });
        group.throughput(Throughput::Elements(ws_tokens as u64));
        group.bench_function("ws (reference)", |b| {
            b.iter(|| ws.tokenize(black_box(corpus)))
        });
        group.finish();
    }
    {
        let mut group = c.benchmark_group("load web-en");
        group.bench_function(".fst to matrix", |b| {
            b.iter(|| FstTokenizer::open(grammar, Repr::Matrix).unwrap())
        });
        group.bench_function(".fst to double array", |b| {
            b.iter(|| FstTokenizer::open(grammar, Repr::DoubleArray).unwrap())
        });
        group.bench_function(".matok to matrix", |b| {
            b.iter(|| FstTokenizer::open(matok, Repr::Matrix).unwrap())
        });
        group.bench_function("saved form to double array", |b| {
            b.iter(|| FstTokenizer::open(saved, Repr::DoubleArray).unwrap())
        });
        group.bench_function("saved form to matrix", |b| {
            b.iter(|| FstTokenizer::open(saved, Repr::Matrix).unwrap())
        });
        group.finish();
    }
    let text: String = "a".repeat(100_000);
    {
        let mut group = c.benchmark_group("near-miss tokens (100,000 a's)");
        group.throughput(Throughput::Elements(text.len() as u64));
        for k in [4usize, 16, 64] {
            let model = near_miss(k);
            let m = Matrix::build(&model.network).unwrap();
            group.bench_with_input(BenchmarkId::new("m", k + 1), &k, |b, _| {
                b.iter(|| {
                    toklab::engines::fst::run(
                        &m,
                        &model.network.alphabet,
                        black_box(&text),
                        &mut toklab::core::trace::Quiet,
                    )
                })
            });
        }
        group.finish();
    }
    c.final_summary();
}

/// Prints tokens/ms (wall and CPU) of `ws` and both representations, with their ratios.
fn rates(
    title: &str,
    runs: usize,
    ws: &dyn Tokenizer,
    ws_tokens: usize,
    [matrix, array]: [&FstTokenizer; 2],
    tokens: usize,
    run: impl Fn(&dyn Tokenizer) -> usize,
) {
    let per_ms = |n: usize, d: Duration| n as f64 / (d.as_secs_f64() * 1e3);
    let cpu_rate = |d: Option<Duration>, n: usize| d.map_or(f64::NAN, |d| per_ms(n, d));
    println!("\n{title}:");
    let (wall, cpu) = timed(runs, || run(ws));
    let (ws_wall, ws_cpu) = (per_ms(ws_tokens, wall), cpu_rate(cpu, ws_tokens));
    println!(
        "  ws reference   wall {ws_wall:>7.0} tokens/ms   cpu {ws_cpu:>7.0} tokens/ms   ({ws_tokens} tokens)"
    );
    for (name, t) in [("web-en matrix", matrix), ("web-en da", array)] {
        let (wall, cpu) = timed(runs, || run(t));
        let (w, c) = (per_ms(tokens, wall), cpu_rate(cpu, tokens));
        println!(
            "  {name:<14} wall {w:>7.0} tokens/ms   cpu {c:>7.0} tokens/ms   wall {:.2}× ws, cpu {:.2}× ws; \
             cpu {:.2}× Datok's ~4,500, {:.2}× the 9,000 target",
            w / ws_wall,
            c / ws_cpu,
            c / 4500.0,
            c / 9000.0
        );
    }
}

fn summary(
    corpus: &str,
    tokens: usize,
    ws_tokens: usize,
    [matrix, array]: [&FstTokenizer; 2],
    ws: &dyn Tokenizer,
    [grammar, matok, saved]: [&PathBuf; 3],
) {
    let runs = 11;
    println!(
        "\n== fst summary (medians of {runs} runs; kjv-en.txt, {} bytes, {tokens} web-en tokens) ==",
        corpus.len()
    );
    println!(
        "wall: tokens per wall-clock ms; cpu: per ms this thread ran (other processes had the rest)"
    );
    let whole = |t: &dyn Tokenizer| t.tokenize(corpus).len();
    rates(
        "whole text in one call",
        runs,
        ws,
        ws_tokens,
        [matrix, array],
        tokens,
        whole,
    );
    // Line by line, as `toklab tokenize` runs: each line's tokens fit in cache.
    let lines: Vec<&str> = corpus.lines().collect();
    let per_line = |t: &dyn Tokenizer| lines.iter().map(|l| t.tokenize(l).len()).sum::<usize>();
    let line_tokens = per_line(matrix);
    let ws_line_tokens = per_line(ws);
    let title = format!("line by line ({} lines)", lines.len());
    rates(
        &title,
        runs,
        ws,
        ws_line_tokens,
        [matrix, array],
        line_tokens,
        per_line,
    );

    println!("\nload (median of {runs}):");
    for (name, path, repr) in [
        ("web-en.fst → matrix", grammar, Repr::Matrix),
        ("web-en.fst → double array", grammar, Repr::DoubleArray),
        ("web-en.matok → matrix", matok, Repr::Matrix),
        ("saved form → double array", saved, Repr::DoubleArray),
        ("saved form → matrix", saved, Repr::Matrix),
    ] {
        let t = median(runs, || FstTokenizer::open(path, repr).unwrap());
        println!("  {name:<28} {:>7.2} ms", t.as_secs_f64() * 1e3);
    }
    let model = Model::open(grammar).unwrap();
    let m = Matrix::build(&model.network).unwrap();
    let d = DoubleArray::build(&model.network);
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    println!("memory:");
    println!("  matrix        {:>9} bytes", m.memory());
    println!(
        "  double array  {:>9} bytes (load factor {:.1} %)",
        d.memory(),
        d.load_factor() * 100.0
    );
    println!(
        "  files         .fst {} bytes (gzip), .matok {} bytes (gzip), saved form {} bytes",
        size(grammar),
        size(matok),
        size(saved)
    );
    std::fs::remove_file(saved).ok();

    let text = "a".repeat(100_000);
    println!(
        "\nnear-miss worst case: n = {} characters, tokens a and a^k b, reads ≤ n·m with m = k + 1:",
        text.len()
    );
    for k in [4usize, 16, 64, 256] {
        let model = near_miss(k);
        let m = Matrix::build(&model.network).unwrap();
        let mut reads = Reads::default();
        toklab::engines::fst::run(&m, &model.network.alphabet, &text, &mut reads);
        let t = median(5, || {
            toklab::engines::fst::run(
                &m,
                &model.network.alphabet,
                &text,
                &mut toklab::core::trace::Quiet,
            )
        });
        let bound = text.len() * (k + 1);
        println!(
            "  m = {:>3}: {:>9} reads = {:.2}·n ≤ n·m = {bound:>9} ({:.0} %), {:>8.2} ms, {:.2} ns per read",
            k + 1,
            reads.0,
            reads.0 as f64 / text.len() as f64,
            100.0 * reads.0 as f64 / bound as f64,
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e9 / reads.0 as f64
        );
    }
    let mut reads = Reads::default();
    toklab::engines::fst::run(&m, &model.network.alphabet, corpus, &mut reads);
    println!(
        "  web-en on kjv-en: {:.2} reads per character ({} reads)",
        reads.0 as f64 / corpus.chars().count() as f64,
        reads.0
    );
}
