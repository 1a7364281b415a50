//! HuggingFace `tokenizer.json` with a BPE model: the vocabulary and merges, added tokens, and
//! the byte-level pre-tokenizer with or without a `Split` regex in front of it. Components
//! this engine does not implement (normalizers, other pre-tokenizers, subword prefixes) are an
//! error naming them, never silently ignored.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::gpt2::{Loaded, parse_merges};
use super::{JsonVocab, line_of_key, read_text, tokenizer_json_error, vocab_from_json};
use crate::core::error::{Error, Result};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::model::{Alphabet, BpeModel, PreTokenizer, Rules};
use crate::engines::subword::bpe::specials::Specials;
use crate::engines::subword::pretok::{self, RegexSplit};

#[derive(Deserialize)]
struct TokenizerJson {
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
    #[serde(default)]
    normalizer: Option<Value>,
    #[serde(default)]
    pre_tokenizer: Option<Value>,
    #[serde(default)]
    decoder: Option<Value>,
    model: ModelJson,
}

#[derive(Deserialize)]
struct AddedToken {
    id: u64,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
}

#[derive(Deserialize)]
struct ModelJson {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    vocab: JsonVocab,
    #[serde(default)]
    merges: Vec<MergeJson>,
    #[serde(default)]
    unk_token: Option<String>,
    #[serde(default)]
    byte_fallback: bool,
    #[serde(default)]
    ignore_merges: bool,
    #[serde(default)]
    continuing_subword_prefix: Option<String>,
    #[serde(default)]
    end_of_word_suffix: Option<String>,
    #[serde(default)]
    dropout: Option<f64>,
}

/// A merge is `"left right"` in older files and `["left", "right"]` in newer ones.
#[derive(Deserialize)]
#[serde(untagged)]
enum MergeJson {
    Joined(String),
    Pair(String, String),
}

/// What the pre-tokenizer section asks for.
struct PreTokenizing {
    pretok: PreTokenizer,
    byte_level: bool,
    prefix_space: bool,
}

/// Loads a `tokenizer.json`.
pub fn load(path: &Path) -> Result<Loaded> {
    let text = read_text(path)?;
    let json: TokenizerJson =
        serde_json::from_str(&text).map_err(|e| tokenizer_json_error(path, &text, e))?;
    let unsupported = |what: String| Error::format(path, None, what);
    let model_json = &json.model;
    if let Some(kind) = model_json.kind.as_deref().filter(|k| *k != "BPE") {
        return Err(unsupported(format!(
            "model type {kind} is not BPE (for WordPiece use wordpiece:vocab.txt)"
        )));
    }
    if let Some(normalizer) = json.normalizer.as_ref().filter(|v| !v.is_null()) {
        return Err(unsupported(format!(
            "normalizer {} is not supported",
            type_name(normalizer)
        )));
    }
    for (name, value) in [
        (
            "continuing_subword_prefix",
            &model_json.continuing_subword_prefix,
        ),
        ("end_of_word_suffix", &model_json.end_of_word_suffix),
    ] {
        if value.as_deref().is_some_and(|v| !v.is_empty()) {
            return Err(unsupported(format!("model option {name} is not supported")));
        }
    }
    let mut pre = pre_tokenizing(json.pre_tokenizer.as_ref()).map_err(unsupported)?;
    if json
        .decoder
        .as_ref()
        .is_some_and(|d| type_name(d) == "ByteLevel")
    {
        pre.byte_level = true;
    }
    let mut warnings = Vec::new();
    let (vocab, byte_level) = vocab_from_json(path, &text, &model_json.vocab, pre.byte_level)?;
    if pre.byte_level && !byte_level {
        warnings.push(format!(
            "{}: the pre-tokenizer is byte-level but not every vocabulary entry is in the byte alphabet; entries are read as plain text",
            path.display()
        ));
    }
    let merge_lines: Vec<String> = model_json
        .merges
        .iter()
        .map(|m| match m {
            MergeJson::Joined(s) => s.clone(),
            MergeJson::Pair(l, r) => format!("{l} {r}"),
        })
        .collect();
    let merges_line = line_of_key(&text, "merges");
    let decode = |s: &str| match byte_level {
        true => bytelevel::decode(s),
        false => Some(s.as_bytes().to_vec()),
    };
    // Errors in merges are reported by the merge's index; the line is the `merges` key's.
    let merges = parse_merges(
        path,
        merge_lines.iter().map(String::as_str),
        &vocab,
        decode,
        &mut warnings,
    )
    .map_err(|e| match e {
        Error::Format {
            path,
            line,
            message,
            ..
        } => Error::Format {
            path,
            line: merges_line,
            column: None,
            message: format!(
                "merge {}: {message}",
                line.map_or(String::new(), |l| l.to_string())
            ),
        },
        other => other,
    })?;
    if model_json.dropout.is_some_and(|d| d > 0.0) {
        warnings.push("BPE dropout is ignored: toklab encodes deterministically".into());
    }
    let mut model = BpeModel::new(vocab, Rules::Table(merges));
    model.alphabet = match byte_level {
        true => Alphabet::bytes_of(&model.vocab),
        false => Alphabet::Chars,
    };
    model.pretok = pre.pretok;
    model.prefix_space = pre.prefix_space;
    model.whole_piece_first = model_json.ignore_merges;
    if let Some(unk) = &model_json.unk_token {
        model.unk = Some(model.vocab.id(unk.as_bytes()).ok_or_else(|| {
            Error::format(
                path,
                line_of_key(&text, unk),
                format!("unk_token {unk:?} is not in the vocabulary"),
            )
        })?);
    }
    if model_json.byte_fallback {
        let mut ids = Box::new([0u32; 256]);
        for (byte, id) in ids.iter_mut().enumerate() {
            let piece = format!("<0x{byte:02X}>");
            *id = model.vocab.id(piece.as_bytes()).ok_or_else(|| {
                unsupported(format!(
                    "byte_fallback is set but {piece} is not in the vocabulary"
                ))
            })?;
        }
        model.byte_fallback = Some(ids);
    }
    let mut specials = Vec::new();
    for added in &json.added_tokens {
        if added.id >= super::MAX_ID {
            return Err(Error::format(
                path,
                line_of_key(&text, &added.content),
                format!(
                    "added token {:?} has id {} (too large)",
                    added.content, added.id
                ),
            ));
        }
        if added.content.is_empty() {
            warnings.push(format!(
                "added token {} is empty and never matches",
                added.id
            ));
        }
        if added.lstrip || added.rstrip || added.single_word {
            warnings.push(format!(
                "added token {:?}: lstrip, rstrip and single_word are not applied; it is matched as written",
                added.content
            ));
        }
        specials.push((added.content.clone(), added.id as u32));
    }
    model.specials = Specials::new(specials);
    Ok(Loaded {
        model,
        warnings,
        sources: vec![path.to_path_buf()],
    })
}

fn type_name(value: &Value) -> &str {
    value.get("type").and_then(Value::as_str).unwrap_or("?")
}

/// Reads the `pre_tokenizer` section: `ByteLevel`, `Split`, or a `Sequence` of a `Split` and a
/// `ByteLevel` without its own regex.
fn pre_tokenizing(value: Option<&Value>) -> std::result::Result<PreTokenizing, String> {
    let mut pre = PreTokenizing {
        pretok: PreTokenizer::none(),
        byte_level: false,
        prefix_space: false,
    };
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(pre);
    };
    let parts: Vec<&Value> = match type_name(value) {
        "Sequence" => value
            .get("pretokenizers")
            .and_then(Value::as_array)
            .ok_or("Sequence pre-tokenizer without a pretokenizers list")?
            .iter()
            .collect(),
        _ => vec![value],
    };
    let mut splitter: Option<PreTokenizer> = None;
    for part in parts {
        let flag =
            |key: &str, default: bool| part.get(key).and_then(Value::as_bool).unwrap_or(default);
        let found = match type_name(part) {
            "ByteLevel" => {
                pre.byte_level = true;
                pre.prefix_space = flag("add_prefix_space", true);
                flag("use_regex", true).then(|| PreTokenizer::named("gpt2").expect("known"))
            }
            "Split" => {
                let behavior = part.get("behavior").and_then(Value::as_str).unwrap_or("?");
                if behavior != "Isolated" || flag("invert", false) {
                    return Err(format!(
                        "Split pre-tokenizer with behavior {behavior} (invert {}) is not supported; only Isolated",
                        flag("invert", false)
                    ));
                }
                let pattern = part.get("pattern");
                let source = match (
                    pattern.and_then(|p| p.get("Regex")).and_then(Value::as_str),
                    pattern
                        .and_then(|p| p.get("String"))
                        .and_then(Value::as_str),
                ) {
                    (Some(regex), _) => regex.to_string(),
                    (None, Some(literal)) => fancy_regex::escape(literal).into_owned(),
                    _ => return Err("Split pre-tokenizer without a pattern".into()),
                };
                Some(split_for(&source)?)
            }
            other => {
                return Err(format!(
                    "pre-tokenizer {other} is not supported (supported: ByteLevel, Split, a Sequence of them)"
                ));
            }
        };
        if let Some(found) = found {
            if splitter.is_some() {
                return Err("more than one splitting pre-tokenizer is not supported".into());
            }
            splitter = Some(found);
        }
    }
    if let Some(splitter) = splitter {
        pre.pretok = splitter;
    }
    Ok(pre)
}

/// The hand-written matcher when the pattern is one of the known ones, else fancy-regex.
fn split_for(source: &str) -> std::result::Result<PreTokenizer, String> {
    for name in ["gpt2", "cl100k", "o200k"] {
        if pretok::pattern(name) == Some(source) {
            return Ok(PreTokenizer::named(name).expect("known"));
        }
    }
    let split = RegexSplit::new(source).map_err(|e| e.to_string())?;
    Ok(PreTokenizer {
        name: format!("regex {source}"),
        matcher: Some(Box::new(split)),
    })
}
