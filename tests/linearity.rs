//! Time linear in the input, for every kind the registry lists: adversarial texts — long runs
//! of one punctuation character (`.` `'` `-` `"` `—`, where a rule engine that rescans what it
//! split off turns quadratic), of one letter, of spaces, CJK, combining marks, emoji ZWJ sequences, digits,
//! URLs — go through a shipped model of each kind at two sizes ten times apart, and the CPU
//! time may grow by at most [`MAX_RATIO`] (linear is ~10, quadratic ~100).
//!
//! By default the sizes are 2e3 and 2e4 characters so `cargo test` stays quick (a quadratic
//! engine shows at that size already); `TOKLAB_LINEARITY=full` (set by .ci/run) uses 1e5
//! and 1e6 (explain: 1e4 and 1e5); `--nocapture` prints the table of ratios. Times
//! are the thread's own CPU time (`CLOCK_THREAD_CPUTIME_ID`), the best of five batches of at
//! least 5 ms, the two sizes in alternating batches, and a ratio over the bound is measured
//! again (see [`growth`]), so other tests running beside it do not decide the outcome.
//! `detokenize` is checked for every kind that has one, and loading a tokenizer.json with a
//! long added token.

use crate::common;
use std::path::Path;
use std::time::Instant;

use toklab::Registry;
use toklab::Tokenizer;

/// The bound on time(10 n) / time(n). Linear is 10 and quadratic 100. Engines that make one
/// token per character (the FST on runs of `'`, `"` or `:`) write 72 MB of tokens at 1e6
/// characters, which no cache holds, and measured 27–38 in one CI run and under 25 in the
/// next: 40 leaves room for that and still fails anything quadratic.
pub const MAX_RATIO: f64 = 40.0;

/// The bound for `explain`, whose traces are ten to a hundred times the text: at 1e5
/// characters they leave every cache, and Treebank's measured 29–32 alone and over 40 once in a
/// CI run with other tests beside it. 60 still fails anything quadratic (~100).
const EXPLAIN_MAX_RATIO: f64 = 60.0;

/// One shipped model per kind (a kind may have more than one entry). Every kind the
/// registry lists must be here: [`every_kind_has_a_model`].
const MODELS: &[&str] = &[
    "ws",
    "words",
    r"regex:\w+(?:['’]\w+)*|[^\w\s]",
    "pretok:gpt2",
    "pretok:cl100k",
    "pretok:o200k",
    "maxmatch:samples/maxmatch/zh-words.txt",
    "maxmatch:samples/maxmatch/zh-words.txt?dir=bwd",
    "lex:samples/lex/de-verbs.vocab",
    "fst:samples/fst/english.fst",
    "fst:samples/fst/english.fst?repr=da",
    "bpe:samples/bpe/gpt2",
    "gguf:samples/bpe/sample.gguf",
    "bpe:samples/bpe/split-tokenizer.json",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=cl100k",
    "spm:samples/bpe/sample-spm.model",
    "wordpiece:samples/bpe/sample-wordpiece.txt",
    "rules:rules?lang=eng",
    "hf:samples/bpe/tokenizer.json",
    "hf:tests/hf_data/unigram_metaspace.json",
    "hf:tests/hf_data/bert_wordpiece.json",
    "ptb",
    "sent",
    "sent:ptb",
];

/// Kinds whose only models are the real files people download (`../shared/realworld`, restored
/// into the models folder by its `fetch.sh`; claude.json by `.ci/run`): checked when present, a
/// visible skip otherwise, a failure with `CI=true`.
const FETCHED_MODELS: &[&str] = &[
    "tekken:{models}/mistral-tekken_240718.json",
    "rwkv:{models}/rwkv_vocab_v20230424.txt",
    "clip:{models}/clip-bpe_simple_vocab_16e6.txt.gz",
    "claude:{models}/claude.json",
    "gguf:{models}/llama-vocabs/ggml-vocab-llama-spm.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-bert-bge.gguf",
];

/// Kinds whose engine is another kind's, checked through that kind's models: `ollama:` loads a
/// GGUF file of Ollama's store with the `gguf:` engine.
const SAME_ENGINE: &[(&str, &str)] = &[("ollama", "gguf")];

/// Every model to check: the shipped ones and the fetched ones that are there.
fn models() -> Vec<String> {
    let dir = common::models_dir();
    let mut all: Vec<String> = MODELS.iter().map(|s| s.to_string()).collect();
    for spec in FETCHED_MODELS {
        let spec = spec.replace("{models}", &dir.display().to_string());
        let file = Path::new(spec.split_once(':').map_or("", |(_, f)| f));
        if file.exists() {
            all.push(spec);
        } else if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("linearity: {} is missing; CI requires it", file.display());
        } else {
            common::skip_note(&format!(
                "linearity: skipped {spec}: no such file (run ../shared/realworld/fetch.sh)"
            ));
        }
    }
    all
}

/// The adversarial texts: a name and a unit repeated to the wanted length (in characters).
const TEXTS: &[(&str, &str)] = &[
    ("dots", "."),
    ("apostrophes", "'"),
    ("hyphens", "-"),
    ("quotes", "\""),
    ("em dashes", "—"),
    ("colons", ":"),
    ("one letter", "a"),
    ("short words", "ab "),
    ("spaces", " "),
    ("CJK", "研究生命起源中文分词"),
    (
        "combining marks",
        "e\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}",
    ),
    ("emoji ZWJ", "👩\u{200d}👩\u{200d}👧\u{200d}👦"),
    ("digits", "7"),
    ("URLs", "https://example.com/a.b/c?d=e&f=g "),
    ("one long URL", "http://example.com/ab/c/"),
];

/// `unit` repeated to `chars` characters.
pub fn repeated(unit: &str, chars: usize) -> String {
    unit.chars().cycle().take(chars).collect()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn full() -> bool {
    std::env::var("TOKLAB_LINEARITY").is_ok_and(|v| v == "full")
}

/// Nanoseconds of CPU time this thread has used (wall time where the clock is missing).
pub fn thread_time_ns() -> u128 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
        return now.tv_sec as u128 * 1_000_000_000 + now.tv_nsec as u128;
    }
    START.get_or_init(Instant::now).elapsed().as_nanos()
}

/// Puts both sizes in the same allocation regime: every block over 64 KB is a fresh mapping,
/// whose pages are faulted in (and zeroed) on every call, in proportion to its size. Left to
/// itself glibc serves a 7 MB block from the thread's arena, reusing mapped pages, but must map
/// a 72 MB one anew each time (a test thread's arena cannot hold more than 64 MB): an FST run
/// over 1e6 apostrophes, one 72-byte token a character, then measured 14 ns a character at
/// 1e5 and 54 at 1e6, ratio 39, from page faults alone. With the threshold fixed at 64 KB it
/// measures 53–58 ns a character at 1e5, 3e5, 1e6 and 3e6 alike.
fn same_allocation_regime() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: mallopt only changes glibc's allocation thresholds.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 10);
            }
        });
    }
}

/// The number of calls of `f` that takes at least 5 ms of CPU time (so a batch is long
/// enough to measure), and the time of one call in that first long-enough batch.
fn calibrate(f: &mut impl FnMut()) -> (u32, f64) {
    let mut count = 1u32;
    loop {
        let spent = batch(f, count);
        if spent >= 5e6 || count >= 1 << 16 {
            return (count, spent / count as f64);
        }
        count *= 2;
    }
}

/// The CPU time of `count` calls of `f`.
fn batch(f: &mut impl FnMut(), count: u32) -> f64 {
    let start = thread_time_ns();
    for _ in 0..count {
        f();
    }
    (thread_time_ns() - start) as f64
}

/// Rounds of measurement [`growth`] takes before it calls a ratio over the bound real.
const ROUNDS: usize = 3;

/// time(f(large)) / time(f(small)) as the code's own cost, not the machine's load: the two
/// sizes are measured in alternating batches (a busy moment slows both alike), each the best
/// of five; a ratio over [`MAX_RATIO`] is measured again, up to [`ROUNDS`] rounds, and the
/// lowest ratio counts. Load can only add time, so the best of several rounds is the closest
/// to the code's cost, while a quadratic engine is over the bound in every round.
pub fn growth(small: usize, large: usize, mut f: impl FnMut(usize)) -> (f64, f64, f64) {
    same_allocation_regime();
    let mut best = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..ROUNDS {
        let mut at_small = || f(small);
        let (small_count, mut t_small) = calibrate(&mut at_small);
        let mut at_large = || f(large);
        let (large_count, mut t_large) = calibrate(&mut at_large);
        for _ in 0..4 {
            t_small = t_small.min(batch(&mut || f(small), small_count) / small_count as f64);
            t_large = t_large.min(batch(&mut || f(large), large_count) / large_count as f64);
        }
        let round = (t_small, t_large, t_large / t_small);
        if round.2 < best.2 {
            best = round;
        }
        if best.2 < MAX_RATIO {
            break;
        }
    }
    best
}

/// Sizes for `tokenize`.
fn sizes() -> (usize, usize) {
    if full() {
        (100_000, 1_000_000)
    } else {
        (2_000, 20_000)
    }
}

/// Sizes for `explain`, whose traces are ten to a hundred times the text: 1e6 characters
/// would take gigabytes before the trace is capped, so a tenth of `tokenize`'s.
fn explain_sizes() -> (usize, usize) {
    if full() {
        (10_000, 100_000)
    } else {
        (1_000, 10_000)
    }
}

fn load(spec: &str) -> Box<dyn Tokenizer> {
    toklab::load_in(spec, root()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Runs `what` (tokenize or explain) over every model and text; returns the failures and
/// prints the ratio table.
fn check_all(
    what: &str,
    bound: f64,
    (small, large): (usize, usize),
    run: fn(&dyn Tokenizer, &str),
    texts: &[(&str, &str)],
) {
    let mut failures = Vec::new();
    println!("{what}: time({large}) / time({small}) per model and text");
    for spec in &models() {
        let tokenizer = load(spec);
        for (name, unit) in texts {
            let inputs = [repeated(unit, small), repeated(unit, large)];
            let (t_small, t_large, ratio) = growth(small, large, |n| {
                run(tokenizer.as_ref(), &inputs[usize::from(n == large)]);
            });
            println!(
                "  {spec:<52} {name:<16} {:>9.3} ms {:>9.3} ms  ratio {ratio:5.1}",
                t_small / 1e6,
                t_large / 1e6
            );
            if ratio >= bound {
                failures.push(format!("{spec} on {name}: ratio {ratio:.1}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{what} is super-linear (ratio ≥ {bound} for 10× the input):\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_kind_has_a_model() {
    for kind in Registry::builtin().kinds() {
        let name = SAME_ENGINE
            .iter()
            .find(|(k, _)| *k == kind.name)
            .map_or(kind.name, |(_, engine)| engine);
        assert!(
            MODELS
                .iter()
                .chain(FETCHED_MODELS)
                .any(|spec| toklab::Spec::kind_name(spec) == name),
            "kind {} has no model in tests/linearity.rs: add a shipped sample",
            kind.name
        );
    }
    for spec in &models() {
        load(spec);
    }
}

#[test]
fn tokenize_is_linear_in_the_text() {
    check_all(
        "tokenize",
        MAX_RATIO,
        sizes(),
        |t, text| {
            std::hint::black_box(t.tokenize(text));
        },
        TEXTS,
    );
}

/// `explain` too: the full set under `TOKLAB_LINEARITY=full`, three texts by default.
#[test]
fn explain_is_linear_in_the_text() {
    let texts: Vec<(&str, &str)> = if full() {
        TEXTS.to_vec()
    } else {
        TEXTS
            .iter()
            .copied()
            .filter(|(name, _)| ["dots", "CJK", "URLs"].contains(name))
            .collect()
    };
    check_all(
        "explain",
        EXPLAIN_MAX_RATIO,
        explain_sizes(),
        |t, text| {
            std::hint::black_box(t.explain(text));
        },
        &texts,
    );
}

/// `detokenize` on the tokens of each text (a rules detokenizer once took 40 s on one line of
/// 20,000 tokens), each token as the kind's detokenizer reads it: the vocabulary's own string
/// for a token with an id (`Ġa`, `▁a`, `##a`), its form in the text otherwise. Every kind has a
/// detokenizer, so every model must be checked on every text: a refusal is a failure.
#[test]
fn detokenize_is_linear_in_the_tokens() {
    let texts: Vec<(&str, &str)> = if full() {
        TEXTS.to_vec()
    } else {
        TEXTS
            .iter()
            .copied()
            .filter(|(name, _)| ["dots", "apostrophes", "short words", "URLs"].contains(name))
            .collect()
    };
    let (small, large) = sizes();
    let (mut failures, mut checked) = (Vec::new(), Vec::new());
    println!("detokenize: time({large}) / time({small}) per model and text");
    for spec in &models() {
        let tokenizer = load(spec);
        for (name, unit) in &texts {
            let inputs = [repeated(unit, small), repeated(unit, large)];
            let owned: Vec<Vec<String>> = inputs
                .iter()
                .map(|text| {
                    let tokens = tokenizer.tokenize(text);
                    tokens
                        .tokens
                        .iter()
                        .map(|t| {
                            t.id.and_then(|id| tokenizer.piece(id))
                                .unwrap_or_else(|| t.form(text).to_string())
                        })
                        .collect()
                })
                .collect();
            let forms: Vec<Vec<&str>> = owned
                .iter()
                .map(|f| f.iter().map(String::as_str).collect())
                .collect();
            if let Err(e) = tokenizer.detokenize(&forms[0]) {
                failures.push(format!("{spec} on {name}: its own tokens refused: {e}"));
                continue;
            }
            let (t_small, t_large, ratio) = growth(small, large, |n| {
                let _ = std::hint::black_box(tokenizer.detokenize(&forms[usize::from(n == large)]));
            });
            println!(
                "  {spec:<52} {name:<16} {:>9.3} ms {:>9.3} ms  ratio {ratio:5.1}",
                t_small / 1e6,
                t_large / 1e6
            );
            checked.push(spec.clone());
            if ratio >= MAX_RATIO {
                failures.push(format!("{spec} on {name}: ratio {ratio:.1}"));
            }
        }
    }
    for spec in &models() {
        assert!(checked.contains(spec), "{spec} was not checked");
    }
    assert!(
        failures.is_empty(),
        "detokenize refuses its own tokens or is super-linear (ratio ≥ {MAX_RATIO} for 10× the tokens):\n{}",
        failures.join("\n")
    );
}

/// A `tokenizer.json` with one very long added token loads in time linear in it, as `bpe:` and
/// as `hf:` (a 100,000-character one took 24–32 s: the matcher's automaton).
#[test]
fn a_long_added_token_loads_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let sample: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("samples/bpe/tokenizer.json")).unwrap())
            .unwrap();
    let (small, large): (usize, usize) = (10_000, 100_000);
    for n in [small, large] {
        let mut json = sample.clone();
        let content: String = (0..n as u32)
            .map(|i| char::from_u32(0x4e00 + (i * 7919) % 20_000).unwrap())
            .collect();
        json["added_tokens"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({
                "id": 90_000, "content": content, "single_word": false, "lstrip": false,
                "rstrip": false, "normalized": false, "special": true
            }));
        std::fs::write(
            dir.path().join(format!("{n}.json")),
            serde_json::to_vec(&json).unwrap(),
        )
        .unwrap();
    }
    // `bpe:` matches added tokens as specials, `hf:` through the pipeline's added vocabulary.
    for kind in ["bpe", "hf"] {
        let (_, t_large, ratio) = growth(small, large, |n| {
            toklab::load_in(&format!("{kind}:{n}.json"), dir.path()).unwrap();
        });
        assert!(
            ratio < MAX_RATIO,
            "{kind}: ratio {ratio:.1} ({:.0} ms for the long token)",
            t_large / 1e6
        );
    }
}

/// Labelling the rows of a workspace whose specs are all alike (each row gets `ws#N`) takes
/// time linear in the rows (4,000 such rows kept the workbench from its first screen for 25 s).
#[test]
fn labelling_alike_rows_is_linear() {
    let (small, large) = (400, 4_000);
    let specs = vec!["ws"; large];
    let labels = toklab::core::label::labels(&specs);
    assert_eq!(labels[0], "ws");
    assert_eq!(labels[large - 1], format!("ws#{large}"));
    let (_, _, ratio) = growth(small, large, |n| {
        std::hint::black_box(toklab::core::label::labels(&specs[..n]));
    });
    assert!(ratio < MAX_RATIO, "ratio {ratio:.1}");
}

/// Maximum matching does not grow with the longest dictionary word. A text of n `a`s against
/// a dictionary of `aa` and a word of L `a`s, L ten times longer in the second dictionary:
/// trying every candidate length at every point would cost n·L hash lookups of strings up to
/// L long (33 s for n = 10,000, L = 20,000); the cost must be the text's, whatever L.
#[test]
fn maxmatch_does_not_grow_with_the_longest_word() {
    let dir = tempfile::tempdir().unwrap();
    let (short, long) = (2_000, 20_000);
    let text = "a".repeat(20_000);
    for length in [short, long] {
        let words = format!("aa\n{}\n", "a".repeat(length));
        std::fs::write(dir.path().join(format!("{length}.txt")), words).unwrap();
    }
    for dir_option in ["fwd", "bwd"] {
        let tokenizers = [short, long].map(|length| {
            let spec = format!("maxmatch:{length}.txt?dir={dir_option}");
            toklab::load_in(&spec, dir.path()).unwrap()
        });
        assert_eq!(tokenizers[0].tokenize(&text).len(), 10, "{dir_option}");
        assert_eq!(tokenizers[1].tokenize(&text).len(), 1, "{dir_option}");
        let (_, _, ratio) = growth(short, long, |length| {
            let i = usize::from(length == long);
            std::hint::black_box(tokenizers[i].tokenize(&text));
        });
        assert!(ratio < MAX_RATIO, "maxmatch {dir_option}: ratio {ratio:.1}");
    }
}
