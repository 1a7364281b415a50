//! `toklab tokenize` on one huge line stays within [`BAR`] bytes of memory per input byte,
//! beyond what loading the model costs: the child's peak resident size (as GNU time reads it
//! from the kernel) on a generated one-line file, minus its peak on a one-line input of a few
//! words. Plain prose (one-byte characters, a token every few bytes) is the costliest text
//! for the kinds that keep per-character state, so those kinds ([`PROSE_KINDS`]) are measured
//! on a generated line of prose too. Kinds that do not meet the bar yet are listed in [`KNOWN`] with the most they may
//! use, so the list can only shrink: a listed kind that grew fails, and so does one that now
//! meets the bar (take it off the list). Nothing here depends on time.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common;

/// The most bytes of memory per input byte a kind may use on one huge line.
const BAR: f64 = 16.0;

/// The length of the generated line, in bytes.
const LINE_BYTES: usize = 20 << 20;

/// Kinds over the bar today and the most they may use per input byte (the measured figure and
/// a little room).
/// Every kind meets the bar today: SentencePiece's unigram models cut before a space no piece
/// spans, each piece's search going on from the path total the one before ended with; BERT's
/// kinds (`hf:`, `wordpiece:`, GGUF `bert`) cut text without spaces before CJK ideographs and
/// punctuation; the
/// GGUF (byte-level, SentencePiece and WordPiece vocabularies), tekken, Claude, CLIP and RWKV kinds
/// name cut points of their own, and so do `tokenizer.json` pipelines that split by a pattern
/// matched by hand (Llama 3, Qwen, GPT-4o) or known to split at spaces (DeepSeek V3), `words`, `maxmatch:` and `lex:`. (The rule engine
/// names no
/// cut, since each of its steps searches the whole line, but past utoken's depth limit it
/// splits the rest of the line on whitespace a part at a time, and keeps only the line's
/// characters and a two-byte class-set number for each: it meets the bar, on prose too.)
/// The last kind over it, `tokenize -f text` with a `tokenizer.json` BPE model that merges the
/// whole line (`hf-bpe-whole-line`, llama2: no pre-tokenizer) on the words line, used 24.3 on
/// 2026-11-28 and 15.1 on 2026-11-29 (its ids 14.2): the way back from the normalized text, a
/// map with two runs a word here (each space made `▁`), took about 10 bytes per input byte at
/// 32 bytes a run; runs are now encoded in a byte or a few each.
const KNOWN: &[(&str, f64)] = &[];

/// The kinds measured: a label, the spec (`{models}` is the real models' folder, `{root}`
/// the checkout, `{dir}` the test's folder, where [`superbpe_copy`] is written), whether it needs the real models, and the line it reads. Of the real GGUF
/// files, one per way of cutting (SentencePiece, WordPiece, unigram, each family of byte-level
/// pre-tokenizer lists): files that share a rule cut alike, which `tests/cut_points.rs` checks
/// on each of them.
const KINDS: &[(&str, &str, bool, Line)] = &[
    ("ws", "ws", false, Line::Words),
    ("pretok", "pretok:cl100k", false, Line::Words),
    (
        "fst",
        "fst:{root}/samples/fst/english.fst",
        false,
        Line::Words,
    ),
    ("ptb", "ptb", false, Line::Words),
    ("sent-ptb", "sent:ptb", false, Line::Words),
    ("rules", "rules:{root}/rules?lang=eng", false, Line::Words),
    (
        "rules-prose",
        "rules:{root}/rules?lang=eng",
        false,
        Line::Prose,
    ),
    (
        "tiktoken",
        "tiktoken:{models}/llama3.tiktoken.model?pattern=cl100k",
        true,
        Line::Words,
    ),
    (
        "hf",
        "hf:{models}/minilm-l6.tokenizer.json",
        true,
        Line::Words,
    ),
    (
        "hf-kana",
        "hf:{models}/minilm-l6.tokenizer.json",
        true,
        Line::Kana,
    ),
    ("spm", "spm:{models}/mistral-v1.model", true, Line::Words),
    (
        "spm-unigram",
        "spm:{models}/kyoto_ja_unigram_8000.model",
        true,
        Line::Words,
    ),
    (
        "spm-unigram-kana",
        "spm:{models}/kyoto_ja_unigram_8000.model",
        true,
        Line::Kana,
    ),
    (
        "spm-unigram-spaced-pieces",
        "spm:{models}/ai21-j2.model",
        true,
        Line::Words,
    ),
    (
        "gguf-ugm",
        "gguf:{models}/llama-vocabs/ggml-vocab-nomic-bert-moe.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-ugm-kana",
        "gguf:{models}/llama-vocabs/ggml-vocab-nomic-bert-moe.gguf",
        true,
        Line::Kana,
    ),
    (
        "hf-unigram",
        "hf:{models}/nepali-unigram.tokenizer.json",
        true,
        Line::Words,
    ),
    (
        "hf-unigram-kana",
        "hf:{models}/nepali-unigram.tokenizer.json",
        true,
        Line::Kana,
    ),
    (
        "wordpiece",
        "wordpiece:{models}/minilm-l6.vocab.txt",
        true,
        Line::Words,
    ),
    (
        "wordpiece-kana",
        "wordpiece:{models}/minilm-l6.vocab.txt",
        true,
        Line::Kana,
    ),
    (
        "gguf",
        "gguf:{root}/samples/bpe/sample.gguf",
        false,
        Line::Words,
    ),
    (
        "tekken",
        "tekken:{models}/mistral-tekken_240718.json",
        true,
        Line::Words,
    ),
    ("claude", "claude:{models}/claude.json", true, Line::Words),
    (
        "claude-kana",
        "claude:{models}/claude.json",
        true,
        Line::Kana,
    ),
    (
        "clip",
        "clip:{models}/clip-bpe_simple_vocab_16e6.txt.gz",
        true,
        Line::Words,
    ),
    (
        "clip-kana",
        "clip:{models}/clip-bpe_simple_vocab_16e6.txt.gz",
        true,
        Line::Kana,
    ),
    // `tokenizer.json` files whose pre-tokenizer is a `Split` by a pattern matched by hand.
    (
        "hf-byte-level",
        "hf:{models}/llama3.tokenizer.json",
        true,
        Line::Words,
    ),
    (
        "hf-deepseek-v3",
        "hf:{models}/deepseek_v3.tokenizer.json",
        true,
        Line::Words,
    ),
    (
        "hf-qwen2-pattern",
        "hf:{models}/qwen3.tokenizer.json",
        true,
        Line::Words,
    ),
    ("words", "words", false, Line::Words),
    ("words-kana", "words", false, Line::Kana),
    (
        "maxmatch",
        "maxmatch:{root}/samples/maxmatch/zh-words.txt",
        false,
        Line::Words,
    ),
    (
        "maxmatch-kana",
        "maxmatch:{root}/samples/maxmatch/zh-words.txt",
        false,
        Line::Kana,
    ),
    (
        "lex",
        "lex:{root}/samples/lex/de-verbs.vocab",
        false,
        Line::Words,
    ),
    (
        "lex-kana",
        "lex:{root}/samples/lex/de-verbs.vocab",
        false,
        Line::Kana,
    ),
    (
        "rwkv",
        "rwkv:{models}/rwkv_vocab_v20230424.txt",
        true,
        Line::Words,
    ),
    (
        "gguf-llama-spm",
        "gguf:{models}/llama-vocabs/ggml-vocab-llama-spm.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-bert",
        "gguf:{models}/llama-vocabs/ggml-vocab-bert-bge.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-bert-kana",
        "gguf:{models}/llama-vocabs/ggml-vocab-bert-bge.gguf",
        true,
        Line::Kana,
    ),
    (
        "gguf-gpt-neox",
        "gguf:{models}/llama-vocabs/ggml-vocab-gpt-neox.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-deepseek-llm",
        "gguf:{models}/llama-vocabs/ggml-vocab-deepseek-llm.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-falcon",
        "gguf:{models}/llama-vocabs/ggml-vocab-falcon.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-qwen35",
        "gguf:{models}/llama-vocabs/ggml-vocab-qwen35.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-starcoder",
        "gguf:{models}/llama-vocabs/ggml-vocab-starcoder.gguf",
        true,
        Line::Words,
    ),
    // Models that merge the whole line, no pre-tokenizer cutting it: the merge loop's own
    // state and what is made of its symbols are all there is.
    (
        "hf-bpe-whole-line",
        "hf:{models}/llama2.tokenizer.json",
        true,
        Line::Words,
    ),
    (
        "hf-bpe-whole-line-kana",
        "hf:{models}/llama2.tokenizer.json",
        true,
        Line::Kana,
    ),
    (
        "spm-kana",
        "spm:{models}/mistral-v1.model",
        true,
        Line::Kana,
    ),
    (
        "gguf-llama-spm-kana",
        "gguf:{models}/llama-vocabs/ggml-vocab-llama-spm.gguf",
        true,
        Line::Kana,
    ),
    (
        "gguf-spm-rstrip",
        "gguf:{models}/llama-vocabs/ggml-vocab-phi-3.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-spm-rstrip-kana",
        "gguf:{models}/llama-vocabs/ggml-vocab-phi-3.gguf",
        true,
        Line::Kana,
    ),
    (
        "gguf-gemma4",
        "gguf:{models}/llama-vocabs/ggml-vocab-gemma-4.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-gemma4-kana",
        "gguf:{models}/llama-vocabs/ggml-vocab-gemma-4.gguf",
        true,
        Line::Kana,
    ),
    (
        "gguf-superbpe",
        "gguf:{dir}/superbpe.gguf",
        true,
        Line::Words,
    ),
    (
        "gguf-superbpe-kana",
        "gguf:{dir}/superbpe.gguf",
        true,
        Line::Kana,
    ),
    (
        "tiktoken-kana",
        "tiktoken:{models}/llama3.tiktoken.model?pattern=cl100k",
        true,
        Line::Kana,
    ),
    (
        "tekken-kana",
        "tekken:{models}/mistral-tekken_240718.json",
        true,
        Line::Kana,
    ),
    ("ptb-kana", "ptb", false, Line::Kana),
];

/// A copy of the real GPT-2 vocabulary whose `tokenizer.ggml.pre` says `superbpe` (no real
/// file has it: its pre-tokenizer cuts digit runs only, so words and spaces are one piece),
/// written to `dir`; nothing when the real file is missing.
fn superbpe_copy(models: &Path, dir: &Path) {
    let Ok(bytes) = std::fs::read(models.join("llama-vocabs/ggml-vocab-gpt-2.gguf")) else {
        return;
    };
    // A GGUF string key, the string type (8), then the value as a length and its bytes.
    let pair = |value: &str| {
        let key = "tokenizer.ggml.pre";
        let mut pair = (key.len() as u64).to_le_bytes().to_vec();
        pair.extend(key.as_bytes());
        pair.extend(8u32.to_le_bytes());
        pair.extend((value.len() as u64).to_le_bytes());
        pair.extend(value.as_bytes());
        pair
    };
    let (from, to) = (pair("gpt-2"), pair("superbpe"));
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_slice())
        .expect("ggml-vocab-gpt-2.gguf names its pre-tokenizer gpt-2");
    let mut copy = bytes[..at].to_vec();
    copy.extend(&to);
    copy.extend(&bytes[at + from.len()..]);
    std::fs::write(dir.join("superbpe.gguf"), copy).unwrap();
}

/// The kinds of generated line.
#[derive(Clone, Copy, PartialEq)]
enum Line {
    /// [`WORDS`] with spaces between them.
    Words,
    /// [`KANA`] run together with no space: where a unigram model's meeting paths cut, and
    /// BERT's kinds before CJK ideographs and punctuation.
    Kana,
    /// [`PROSE`] with spaces between them.
    Prose,
}

/// Kinds held to less than [`BAR`] on their line, and the most they may use there. The rule
/// engine keeps each character and its classes for the whole line, which costs most per byte
/// on one-byte characters, and more per byte on a longer line than on this one (the buffers
/// that grow by doubling): 15.1 on the prose line was 16.7 on 50 MB of the KJV joined into one
/// line, so it is held to 12 here to stay under [`BAR`] on such lines.
const TIGHTER: &[(&str, f64)] = &[("rules-prose", 12.0)];

/// Plain English prose: short words, commas, semicolons, colons and full stops, as in a long
/// book joined into one line, with the odd no-break space, ampersand, joiner and variation selector
/// (the rules engine's normalizing path).
#[rustfmt::skip]
const PROSE: &[&str] = &[
    "and", "the", "of", "then", "he", "went", "unto", "a", "city,", "for", "they", "were", "all",
    "there;", "so", "she", "spoke:", "Behold,", "her", "house", "by", "river.", "And", "it",
    "came", "to", "pass", "in", "those", "days", "that", "men", "said,", "Let", "us", "go", "up",
    "into", "hills.", "his", "sons", "brought", "bread", "wine,", "with", "oil", "upon", "stones.",
    "ten\u{a0}miles", "R&D", "\u{1f469}\u{200d}\u{1f52c}", "\u{2600}\u{fe0f}",
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

/// Japanese words and marks, kana, kanji, full-width letters and digits, some Chinese and
/// Korean, written run together.
const KANA: &[&str] = &[
    "港は",
    "月曜日に",
    "再開した",
    "三年半の",
    "遅れの",
    "あとで",
    "彼女は",
    "なぜかを",
    "言わなかった",
    "東京",
    "研究生命",
    "ふね",
    "カタカナ",
    "漢字と",
    "ひらがな",
    "、",
    "。",
    "「見て」",
    "一二三",
    "ーー",
    "ぁぃぅ",
    "々",
    "〜",
    "ａｂｃ",
    "１２３",
    "中文字符",
    "아리랑",
    "ありがとう",
    "ございます",
    "とても",
    "大きな",
    "建物が",
    "並んでいる",
];

/// A line of `len` bytes or a little more, of [`WORDS`] or [`PROSE`] with single and double
/// spaces between them or of [`KANA`] with none, picked by a fixed generator.
fn generated_line(kind: Line, len: usize) -> String {
    let mut line = String::with_capacity(len + 64);
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    while line.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if kind == Line::Kana {
            line.push_str(KANA[(state % KANA.len() as u64) as usize]);
            continue;
        }
        let words = if kind == Line::Prose { PROSE } else { WORDS };
        line.push_str(words[(state % words.len() as u64) as usize]);
        line.push_str(if state >> 32 & 15 == 0 { "  " } else { " " });
    }
    line.push('\n');
    line
}

/// GNU time, which reports its child's peak resident size: a program started by the test
/// process itself would report the test's own peak, which the kernel carries across `exec`.
const TIME: &str = "/usr/bin/time";

/// The peak resident size in bytes of `toklab tokenize --with SPEC --threads 1 -f FORMAT`
/// reading `input`, as the kernel measured it for that process alone.
fn peak_bytes(spec: &str, format: &str, input: &Path) -> u64 {
    let report = tempfile::NamedTempFile::new().unwrap();
    let output = Command::new(TIME)
        .args(["-f", "%M", "-o"])
        .arg(report.path())
        .arg(env!("CARGO_BIN_EXE_toklab"))
        .args(["tokenize", "--with", spec, "--threads", "1", "-f", format])
        .stdin(File::open(input).unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "toklab tokenize --with {spec} -f {format}: {}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let report = std::fs::read_to_string(report.path()).unwrap();
    let kilobytes: u64 = report
        .trim()
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("{TIME} wrote {report:?}, not a number of kilobytes"));
    kilobytes * 1024
}

/// What a kind uses per input byte of one huge line: its peak on the long line minus its peak
/// on a short one (the program and the model). A short run comes first and is not counted: a
/// model's first load parses the file and writes its cache entry (Gemma 4's GGUF: 50 MB more
/// than a cached load), which would otherwise fall on the long line whenever the cache was
/// cold (a fresh machine, a new entry format) and make the figure depend on what ran before.
fn per_input_byte(spec: &str, format: &str, long: &Path, short: &Path) -> f64 {
    peak_bytes(spec, format, short);
    let grown = peak_bytes(spec, format, long).saturating_sub(peak_bytes(spec, format, short));
    grown as f64 / LINE_BYTES as f64
}

#[test]
fn one_huge_line_costs_at_most_the_bar_per_input_byte() {
    if !Path::new(TIME).exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("memory: {TIME} is missing; CI requires it (.ci/run installs it)");
        }
        common::skip_note(&format!(
            "memory: skipped: {TIME} is missing (Debian package time)"
        ));
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let models = common::models_dir();
    let dir = tempfile::tempdir().unwrap();
    let lines = [Line::Words, Line::Kana, Line::Prose].map(|kind| {
        let name = match kind {
            Line::Words => "words",
            Line::Kana => "kana",
            Line::Prose => "prose",
        };
        let (long, short) = (
            dir.path().join(format!("{name}-long.txt")),
            dir.path().join(format!("{name}-short.txt")),
        );
        std::fs::write(&long, generated_line(kind, LINE_BYTES)).unwrap();
        std::fs::write(&short, generated_line(kind, 64)).unwrap();
        (kind, long, short)
    });
    superbpe_copy(&models, dir.path());
    // `TOKLAB_MEMORY_KINDS=label,label` measures those kinds alone (while working on one).
    let only = std::env::var("TOKLAB_MEMORY_KINDS").ok();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for &(label, spec, needs_models, line) in KINDS {
        if only
            .as_ref()
            .is_some_and(|only| !only.split(',').any(|k| k == label))
        {
            continue;
        }
        let (_, long, short) = lines.iter().find(|(kind, _, _)| *kind == line).unwrap();
        let spec = spec
            .replace("{root}", root)
            .replace("{dir}", &dir.path().display().to_string())
            .replace("{models}", &models.display().to_string());
        let file = spec
            .split(':')
            .nth(1)
            .unwrap_or("")
            .split('?')
            .next()
            .unwrap_or("");
        if needs_models && !Path::new(file).exists() {
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
            let used = per_input_byte(&spec, format, long, short);
            table.push(format!("{label} -f {format}: {used:.1} B per input byte"));
            (format, used)
        });
        for (format, used) in used {
            let most = TIGHTER
                .iter()
                .find(|(k, _)| *k == label)
                .map_or(known.unwrap_or(BAR), |&(_, most)| most);
            if used > most {
                failures.push(format!(
                    "{label} -f {format}: {used:.1} bytes per input byte, more than the {most} \
                     allowed (the bar is {BAR}; KNOWN lists kinds over it, TIGHTER kinds held \
                     below it)"
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
