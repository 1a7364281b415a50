//! Reading `tokenizer.json`: the top-level sections, and the small helpers every stage's
//! parser uses on its part of the file. Each stage is read from a [`serde_json::Value`] (they
//! are small); the model's vocabulary and merges, which are large, are kept as raw JSON and
//! parsed straight into their own types.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// What is wrong with one component of a `tokenizer.json` (a normalizer, a decoder, a model
/// option), naming the component; the loader puts the file and line in front of it
/// ([`crate::Error::Format`]). Unsupported parts are told from broken ones, so a caller can
/// say "not yet" rather than "bad file".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComponentError {
    /// A component type or setting this reader does not implement.
    #[error("{0}")]
    Unsupported(String),
    /// A value that is missing, of the wrong type, or out of range.
    #[error("{0}")]
    Invalid(String),
}

impl ComponentError {
    /// A component or setting that is valid in the format but not implemented here.
    pub fn unsupported(message: impl Into<String>) -> Self {
        ComponentError::Unsupported(message.into())
    }

    /// A component or setting that is wrong in the file.
    pub fn invalid(message: impl Into<String>) -> Self {
        ComponentError::Invalid(message.into())
    }
}

/// The sections of a `tokenizer.json`.
#[derive(Deserialize)]
pub struct TokenizerJson<'a> {
    /// The added tokens, in file order.
    #[serde(default)]
    pub added_tokens: Vec<AddedTokenJson>,
    /// The normalizer, if any.
    #[serde(default)]
    pub normalizer: Option<Value>,
    /// The pre-tokenizer, if any.
    #[serde(default)]
    pub pre_tokenizer: Option<Value>,
    /// The post-processor, if any.
    #[serde(default)]
    pub post_processor: Option<Value>,
    /// The decoder, if any.
    #[serde(default)]
    pub decoder: Option<Value>,
    /// The model, read by [`crate::engines::subword::hf::models`].
    #[serde(borrow)]
    pub model: ModelJson<'a>,
}

/// One entry of `added_tokens`.
#[derive(Clone, Debug, Deserialize)]
pub struct AddedTokenJson {
    /// Its id.
    pub id: u64,
    /// The text it matches.
    pub content: String,
    /// Matched only as a whole word.
    #[serde(default)]
    pub single_word: bool,
    /// Takes the whitespace before it.
    #[serde(default)]
    pub lstrip: bool,
    /// Takes the whitespace after it.
    #[serde(default)]
    pub rstrip: bool,
    /// Matched in the normalized text (else in the raw text).
    #[serde(default = "yes")]
    pub normalized: bool,
    /// A special token (skipped by `special=none` and by decoding without specials).
    #[serde(default)]
    pub special: bool,
}

fn yes() -> bool {
    true
}

/// The model section: its type and options, with the vocabulary and merges left raw.
#[derive(Deserialize)]
pub struct ModelJson<'a> {
    /// `BPE`, `WordPiece`, `Unigram`, `WordLevel` (older files leave it out: BPE).
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The vocabulary: an object `{token: id}`, or for Unigram a list `[[token, score], …]`.
    #[serde(borrow)]
    pub vocab: &'a RawValue,
    /// BPE merges: `"a b"` strings or `["a", "b"]` pairs.
    #[serde(default, borrow)]
    pub merges: Option<&'a RawValue>,
    /// BPE, WordPiece, WordLevel: the unknown token.
    #[serde(default)]
    pub unk_token: Option<String>,
    /// Unigram: the unknown token's id.
    #[serde(default)]
    pub unk_id: Option<u64>,
    /// BPE, Unigram: spell unknown characters in `<0xNN>` tokens.
    #[serde(default)]
    pub byte_fallback: bool,
    /// BPE: one unknown token per run of unknown characters.
    #[serde(default)]
    pub fuse_unk: bool,
    /// BPE: take a piece that is a token whole, without merging.
    #[serde(default)]
    pub ignore_merges: bool,
    /// BPE, WordPiece: what marks a subword that continues a word.
    #[serde(default)]
    pub continuing_subword_prefix: Option<String>,
    /// BPE: what marks a subword that ends a word.
    #[serde(default)]
    pub end_of_word_suffix: Option<String>,
    /// BPE: merge dropout (training only; toklab ignores it with a warning).
    #[serde(default)]
    pub dropout: Option<f64>,
    /// WordPiece: longer words are the unknown token.
    #[serde(default)]
    pub max_input_chars_per_word: Option<usize>,
}

/// The `type` of a component.
pub fn kind(value: &Value) -> &str {
    value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("(no type)")
}

/// A boolean option, `default` when absent or null.
pub fn flag(value: &Value, key: &str, default: bool) -> Result<bool, ComponentError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(ComponentError::invalid(format!(
            "{} option {key} is not a boolean: {other}",
            kind(value)
        ))),
    }
}

/// A string option, `None` when absent or null.
pub fn string<'v>(value: &'v Value, key: &str) -> Result<Option<&'v str>, ComponentError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(ComponentError::invalid(format!(
            "{} option {key} is not a string: {other}",
            kind(value)
        ))),
    }
}

/// A string option that must be there.
pub fn required<'v>(value: &'v Value, key: &str) -> Result<&'v str, ComponentError> {
    string(value, key)?
        .ok_or_else(|| ComponentError::invalid(format!("{} has no {key}", kind(value))))
}

/// A list option that must be there.
pub fn list<'v>(value: &'v Value, key: &str) -> Result<&'v [Value], ComponentError> {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| ComponentError::invalid(format!("{} has no list {key}", kind(value))))
}

/// A non-negative integer option, `default` when absent.
pub fn number(value: &Value, key: &str, default: usize) -> Result<usize, ComponentError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v.as_u64().map(|n| n as usize).ok_or_else(|| {
            ComponentError::invalid(format!("{} option {key} is not a count: {v}", kind(value)))
        }),
    }
}

/// A single character option (`replacement`, `delimiter`, `content` of `Strip`).
pub fn single_char(value: &Value, key: &str) -> Result<char, ComponentError> {
    let text = required(value, key)?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(ComponentError::invalid(format!(
            "{} option {key} must be one character, not {text:?}",
            kind(value)
        ))),
    }
}
