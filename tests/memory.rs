//! `toklab tokenize` on one huge line stays within [`BAR`] bytes of memory per input byte,
//! beyond what loading the model costs: the child's peak resident size (its `ru_maxrss`, read
//! with `wait4`) on a generated one-line file, minus its peak on a one-line input of a few
//! words. Kinds that do not meet the bar yet are listed in [`KNOWN`] with the most they may
//! use, so the list can only shrink: a listed kind that grew fails, and so does one that now
//! meets the bar (take it off the list). Nothing here depends on time.

use std::fs::File;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common;

/// The most bytes of memory per input byte a kind may use on one huge line.
const BAR: f64 = 16.0;

/// The length of the generated line, in bytes.
const LINE_BYTES: usize = 20 << 20;

/// Kinds over the bar today and the most they may use per input byte (the measured figure and
/// a little room): Treebank and the rule engine see the whole line (the final period, entries
/// of several words), so no cut keeps their tokens; SentencePiece's dummy prefix and its
/// merging of the whole normalized text leave no cut point either.
const KNOWN: &[(&str, f64)] = &[("ptb", 80.0), ("rules", 80.0), ("spm", 80.0)];

/// The kinds measured: a label, the spec (`{models}` is the real models' folder, `{root}`
/// the checkout) and whether it needs the real models.
const KINDS: &[(&str, &str, bool)] = &[
    ("ws", "ws", false),
    ("pretok", "pretok:cl100k", false),
    ("fst", "fst:{root}/samples/fst/english.fst", false),
    ("ptb", "ptb", false),
    ("rules", "rules:{root}/rules?lang=eng", false),
    ("tiktoken", "tiktoken:{models}/qwen.tiktoken", true),
    ("hf", "hf:{models}/minilm-l6.tokenizer.json", true),
    ("spm", "spm:{models}/mistral-v1.model", true),
];

/// Words, numbers, punctuation, quotes, emoji and CJK, so every engine meets its hard cases.
const WORDS: &[&str] = &[
    "the",
    "Harbour",
    "reopened",
    "on",
    "Monday,",
    "after",
    "3.5",
    "years",
    "(mostly",
    "delays).",
    "She",
    "didn't",
    "say",
    "\"why\"",
    "--",
    "e.g.",
    "U.S.",
    "ships",
    "café",
    "naïve",
    "Zoë",
    "😀",
    "🇫🇷",
    "東京",
    "研究生命",
    "x-ray",
    "$12.40",
    "https://example.org/a?b=1",
    "#tag",
    "it's",
    "Mr.",
    "Smith",
    "end.",
    "…",
    "'quoted'",
    "A.B.C",
    "42%",
    "well,",
    "ok!",
];

/// A line of `len` bytes or a little more, of [`WORDS`] picked by a fixed generator, with
/// single and double spaces between them.
fn generated_line(len: usize) -> String {
    let mut line = String::with_capacity(len + 64);
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    while line.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        line.push_str(WORDS[(state % WORDS.len() as u64) as usize]);
        line.push_str(if state >> 32 & 15 == 0 { "  " } else { " " });
    }
    line.push('\n');
    line
}

/// The peak resident size in bytes of `toklab tokenize --with SPEC --threads 1 -f FORMAT`
/// reading `input`, measured by the kernel for the child alone.
fn peak_bytes(spec: &str, format: &str, input: &Path) -> u64 {
    let errors = tempfile::NamedTempFile::new().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_toklab"))
        .args(["tokenize", "--with", spec, "--threads", "1", "-f", format])
        .stdin(File::open(input).unwrap())
        .stdout(Stdio::null())
        .stderr(errors.reopen().unwrap())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in; the child is ours and not waited
    // for elsewhere.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let status = std::process::ExitStatus::from_raw(status);
    assert!(
        status.success(),
        "toklab tokenize --with {spec} -f {format}: {status}: {}",
        std::fs::read_to_string(errors.path()).unwrap_or_default()
    );
    // Linux gives the peak in kilobytes.
    usage.ru_maxrss as u64 * 1024
}

/// What a kind uses per input byte of one huge line: its peak on the long line minus its peak
/// on a short one (the program and the model).
fn per_input_byte(spec: &str, format: &str, long: &Path, short: &Path) -> f64 {
    let grown = peak_bytes(spec, format, long).saturating_sub(peak_bytes(spec, format, short));
    grown as f64 / LINE_BYTES as f64
}

#[test]
fn one_huge_line_costs_at_most_the_bar_per_input_byte() {
    let root = env!("CARGO_MANIFEST_DIR");
    let models = common::models_dir();
    let dir = tempfile::tempdir().unwrap();
    let (long, short) = (dir.path().join("long.txt"), dir.path().join("short.txt"));
    std::fs::write(&long, generated_line(LINE_BYTES)).unwrap();
    std::fs::write(&short, generated_line(64)).unwrap();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for &(label, spec, needs_models) in KINDS {
        let spec = spec
            .replace("{root}", root)
            .replace("{models}", &models.display().to_string());
        if needs_models && !models.is_dir() {
            common::skip_note(&format!(
                "memory: skipped {label}: no real models (run ../shared/realworld/fetch.sh)"
            ));
            continue;
        }
        let known = KNOWN
            .iter()
            .find(|(k, _)| *k == label)
            .map(|&(_, most)| most);
        let used = ["text", "ids"].map(|format| {
            let used = per_input_byte(&spec, format, &long, &short);
            table.push(format!("{label} -f {format}: {used:.1} B per input byte"));
            (format, used)
        });
        for (format, used) in used {
            let most = known.unwrap_or(BAR);
            if used > most {
                failures.push(format!(
                    "{label} -f {format}: {used:.1} bytes per input byte, more than the {most} \
                     allowed (the bar is {BAR}; KNOWN lists kinds over it)"
                ));
            }
        }
        if known.is_some() && used.iter().all(|&(_, used)| used <= BAR) {
            failures.push(format!(
                "{label} now meets the bar of {BAR} in both formats: take it off KNOWN"
            ));
        }
    }
    common::skip_note(&format!("memory per input byte:\n  {}", table.join("\n  ")));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
