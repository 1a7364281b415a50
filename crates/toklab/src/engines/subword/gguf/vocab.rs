//! The vocabulary of a GGUF file as llama.cpp loads it (`llama_vocab::impl::load`): tokens,
//! scores and types from `tokenizer.ggml.*`, the model family and its defaults, the special
//! token ids, and the types llama.cpp overrides at load — tokens it recognises by their text as
//! end-of-turn, end-of-generation or fill-in-the-middle markers become control tokens, gpt-oss's
//! channel markers become user-defined, `<mask>` of the jina v2 and nomic-bert-moe models strips
//! white space to its left, and in Phi-3 models special tokens strip white space to their
//! right. The special tokens (control, user-defined, unknown) are matched in text longest first.

use std::path::Path;

use std::borrow::Cow;

use super::reader::{Metadata, Value};
use super::tokens::Tokens;
use crate::core::error::{Error, Result};
use crate::core::model_cache::{FlatReader, FlatWriter};

/// The tokenizer families of llama.cpp (`tokenizer.ggml.model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `llama`: SentencePiece BPE over scores, with byte fallback.
    Spm,
    /// `gpt2`: byte-level BPE over merges, after a pre-tokenizer.
    Bpe,
    /// `bert`: WordPiece with word starts marked by `▁`.
    Wpm,
    /// `t5`: unigram over scores, with a precompiled normalizer.
    Ugm,
    /// `rwkv`: greedy longest match over byte strings.
    Rwkv,
}

/// Token attributes (llama.cpp's `llama_token_attr`).
pub mod attr {
    /// The unknown token.
    pub const UNKNOWN: u16 = 1 << 0;
    /// A token that is never produced.
    pub const UNUSED: u16 = 1 << 1;
    /// An ordinary token.
    pub const NORMAL: u16 = 1 << 2;
    /// A control token (`<s>`, `<|eot_id|>`).
    pub const CONTROL: u16 = 1 << 3;
    /// A token the model's author added, matched in text before anything else.
    pub const USER_DEFINED: u16 = 1 << 4;
    /// A byte token (`<0x0A>`).
    pub const BYTE: u16 = 1 << 5;
    /// White space to the token's left is taken with it.
    pub const LSTRIP: u16 = 1 << 7;
    /// White space to the token's right is taken with it.
    pub const RSTRIP: u16 = 1 << 8;
}

/// The vocabulary and the settings the tokenizers read.
#[derive(Debug)]
pub struct Vocab {
    /// The family.
    pub family: Family,
    /// `tokenizer.ggml.pre` (`default` when missing).
    pub pre: String,
    /// The token strings, by id, and the ids by string (a string listed twice is its last id,
    /// as in llama.cpp).
    pub tokens: Tokens,
    /// The scores, by id (0 without `tokenizer.ggml.scores`).
    pub scores: Vec<f32>,
    /// The attributes, by id.
    pub attrs: Vec<u16>,
    /// The merges of a BPE vocabulary, in rank order, as pairs of strings: what the file says,
    /// emptied once the BPE tables are made of them (and empty in a vocabulary read from the
    /// model cache, which holds those tables instead).
    pub merges: Vec<(String, String)>,
    /// The special tokens matched in text, longest first.
    pub specials: Vec<u32>,
    /// The unknown token.
    pub unk: Option<u32>,
    /// Whether SentencePiece text gets a leading space.
    pub add_space_prefix: bool,
    /// Whether unigram text has runs of spaces collapsed.
    pub remove_extra_whitespaces: bool,
    /// The precompiled normalizer of a unigram vocabulary.
    pub charsmap: Vec<u8>,
    /// The longest token, in bytes.
    pub max_token_len: usize,
}

/// The token texts llama.cpp makes control tokens when the file does not say so.
const CONTROL_TEXTS: &[&str] = &[
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "<EOT>",
    "_<EOT>",
    "<｜end▁of▁sentence｜>",
    "<end_of_utterance>",
    "<|eom_id|>",
    "<|fim_prefix|>",
    "<fim-prefix>",
    "<fim_prefix>",
    "<｜fim▁begin｜>",
    "<PRE>",
    "▁<PRE>",
    "<|code_prefix|>",
    "<|fim_suffix|>",
    "<fim-suffix>",
    "<fim_suffix>",
    "<｜fim▁hole｜>",
    "<SUF>",
    "▁<SUF>",
    "<|code_suffix|>",
    "<|fim_middle|>",
    "<fim-middle>",
    "<fim_middle>",
    "<｜fim▁end｜>",
    "<MID>",
    "▁<MID>",
    "<|code_middle|>",
    "<|fim_pad|>",
    "<fim-pad>",
    "<fim_pad>",
    "<PAD>",
    "<|fim_repo|>",
    "<|repo_name|>",
    "<fim-repo>",
    "<REPO>",
    "<reponame>",
    "<|file_sep|>",
    "<|return|>",
    "<|call|>",
    "<|end_of_text|>",
];

impl Vocab {
    /// Builds the vocabulary from a file's metadata; `path` is for messages.
    pub fn from_metadata(
        path: &Path,
        meta: &Metadata,
        warnings: &mut Vec<String>,
    ) -> Result<Vocab> {
        let bad = |message: String| Error::format(path, None, message);
        let (model, family) = family_of(path, meta)?;
        let Some(Value::Strings(tokens)) = meta.values.get("tokenizer.ggml.tokens") else {
            return Err(bad(
                "tokenizer.ggml.tokens is missing or not an array of strings".into(),
            ));
        };
        let n = tokens.len();
        let scores = match meta.values.get("tokenizer.ggml.scores") {
            None => vec![0.0; n],
            Some(Value::Floats(s)) if s.len() == n => s.clone(),
            Some(_) => {
                return Err(bad(format!(
                    "tokenizer.ggml.scores is not {n} floats, one per token"
                )));
            }
        };
        let attrs = match meta.values.get("tokenizer.ggml.token_type") {
            None => vec![attr::NORMAL; n],
            Some(Value::Ints(t)) if t.len() == n => t.iter().map(|&t| type_attr(t)).collect(),
            Some(_) => {
                return Err(bad(format!(
                    "tokenizer.ggml.token_type is not {n} integers, one per token"
                )));
            }
        };
        if meta.lossy > 0 {
            warnings.push(format!(
                "{}: {} strings were not UTF-8; their invalid bytes read as U+FFFD",
                path.display(),
                meta.lossy
            ));
        }
        let mut vocab = Vocab {
            family,
            // llama.cpp names Gemma 4's pre-tokenizer after its model type.
            pre: match model {
                "gemma4" => "gemma4",
                _ => string(meta, "tokenizer.ggml.pre").unwrap_or("default"),
            }
            .to_string(),
            tokens: Tokens::new(tokens.iter().enumerate().map(
                |(i, token)| match token.is_empty() {
                    true => Cow::Owned(format!("[EMPTY_{i}]")),
                    false => Cow::Borrowed(token.as_str()),
                },
            )),
            scores,
            attrs,
            merges: Vec::new(),
            specials: Vec::new(),
            unk: None,
            add_space_prefix: family == Family::Spm,
            remove_extra_whitespaces: false,
            charsmap: Vec::new(),
            max_token_len: 0,
        };
        vocab.max_token_len = vocab.tokens.max_len();
        if family == Family::Bpe {
            let Some(Value::Strings(merges)) = meta.values.get("tokenizer.ggml.merges") else {
                return Err(bad("a gpt2 tokenizer without tokenizer.ggml.merges".into()));
            };
            vocab.merges = merges.iter().map(|m| split_merge(m)).collect();
        }
        if let Some(Value::Bool(b)) = meta.values.get("tokenizer.ggml.add_space_prefix") {
            vocab.add_space_prefix = *b;
        }
        if let Some(Value::Bool(b)) = meta.values.get("tokenizer.ggml.remove_extra_whitespaces") {
            vocab.remove_extra_whitespaces = *b;
        }
        if let Some(Value::Bytes(b)) = meta.values.get("tokenizer.ggml.precompiled_charsmap") {
            vocab.charsmap = b.clone();
        }
        let default_unk = match family {
            Family::Spm => Some(0),
            Family::Wpm => Some(100),
            Family::Ugm => Some(2),
            Family::Bpe | Family::Rwkv => None,
        };
        vocab.unk = match meta.values.get("tokenizer.ggml.unknown_token_id") {
            Some(Value::Uint(id)) if (*id as usize) < n => Some(*id as u32),
            _ => default_unk.filter(|&id| (id as usize) < n),
        };
        vocab.override_types(meta);
        Ok(vocab)
    }

    /// llama.cpp's load-time type changes and the list of special tokens (see the module doc).
    fn override_types(&mut self, meta: &Metadata) {
        for text in CONTROL_TEXTS {
            if let Some(id) = self.id(text)
                && !self.has(id, attr::CONTROL)
            {
                self.attrs[id as usize] = attr::CONTROL;
            }
        }
        for text in ["<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"] {
            if let Some(id) = self.id(text) {
                self.attrs[id as usize] = attr::USER_DEFINED;
            }
        }
        // gpt-oss (o200k_harmony): with `<|return|>` and `<|call|>`, `<|end|>` is not an end.
        if self.id("<|return|>").is_some()
            && self.id("<|call|>").is_some()
            && let Some(end) = self.id("<|end|>")
        {
            self.attrs[end as usize] = attr::USER_DEFINED;
        }
        let special = attr::CONTROL | attr::USER_DEFINED | attr::UNKNOWN;
        self.specials = (0..self.tokens.len() as u32)
            .filter(|&id| self.attrs[id as usize] & special != 0)
            .collect();
        self.specials
            .sort_by_key(|&id| std::cmp::Reverse(self.tokens.bytes(id).len()));
        let pre = string(meta, "tokenizer.ggml.pre").unwrap_or("");
        let arch = string(meta, "general.architecture").unwrap_or("");
        let name = string(meta, "general.name")
            .unwrap_or("")
            .to_ascii_lowercase();
        if ["jina-v2-de", "jina-v2-es", "jina-v2-code"]
            .iter()
            .any(|p| pre.contains(p))
            || arch.contains("nomic-bert-moe")
        {
            if let Some(id) = self.id("<mask>") {
                self.attrs[id as usize] |= attr::LSTRIP;
            }
        } else if name.contains("phi-3") || name.contains("phi3") {
            for &id in &self.specials {
                self.attrs[id as usize] |= attr::RSTRIP;
            }
            if let Some(id) = self.id("</s>") {
                self.attrs[id as usize] |= attr::RSTRIP;
            }
            for text in ["<unk>", "<s>", "<|endoftext|>"] {
                if let Some(id) = self.id(text) {
                    self.attrs[id as usize] &= !attr::RSTRIP;
                }
            }
        }
    }

    /// The id of a token string.
    #[inline]
    pub fn id(&self, text: &(impl AsRef<[u8]> + ?Sized)) -> Option<u32> {
        self.tokens.id(text.as_ref())
    }

    /// Whether `id` has any of the attribute bits in `mask`.
    pub fn has(&self, id: u32, mask: u16) -> bool {
        self.attrs.get(id as usize).is_some_and(|a| a & mask != 0)
    }
}

/// The flat form of a vocabulary in a cache entry (its merges excepted: the BPE tables made
/// from them are stored instead).
impl Vocab {
    /// Writes the vocabulary for [`Vocab::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.u8(self.family as u8);
        w.str(&self.pre);
        self.tokens.write_flat(w);
        w.f32s(self.scores.iter().copied());
        let attrs: Vec<u8> = self.attrs.iter().flat_map(|a| a.to_le_bytes()).collect();
        w.bytes(&attrs);
        w.u32s(self.specials.iter().copied());
        w.opt_u32(self.unk);
        w.bool(self.add_space_prefix);
        w.bool(self.remove_extra_whitespaces);
        w.bytes(&self.charsmap);
    }

    /// Reads what [`Vocab::write_flat`] wrote; `None` when it does not hold together (an id
    /// out of range, a token cut inside a character, arrays of different lengths).
    pub fn read_flat(r: &mut FlatReader) -> Option<Vocab> {
        let code = r.u8()?;
        let family = [
            Family::Spm,
            Family::Bpe,
            Family::Wpm,
            Family::Ugm,
            Family::Rwkv,
        ]
        .into_iter()
        .find(|&f| f as u8 == code)?;
        let pre = r.str()?.to_string();
        let tokens = Tokens::read_flat(r)?;
        let n = tokens.len();
        let scores = r.f32s()?;
        let attrs = r.bytes()?;
        if attrs.len() != n * 2 {
            return None;
        }
        let attrs: Vec<u16> = attrs
            .chunks_exact(2)
            .map(|a| u16::from_le_bytes([a[0], a[1]]))
            .collect();
        let specials = r.u32s()?;
        let unk = r.opt_u32()?;
        let in_range = |id: u32| (id as usize) < n;
        if scores.len() != n
            || attrs.len() != n
            || !specials.iter().all(|&id| in_range(id))
            || unk.is_some_and(|id| !in_range(id))
        {
            return None;
        }
        Some(Vocab {
            family,
            pre,
            max_token_len: tokens.max_len(),
            tokens,
            scores,
            attrs,
            merges: Vec::new(),
            specials,
            unk,
            add_space_prefix: r.bool()?,
            remove_extra_whitespaces: r.bool()?,
            charsmap: r.bytes()?.to_vec(),
        })
    }
}

/// The model type `tokenizer.ggml.model` names, and the family that tokenizes it; an error
/// naming `path` for a file without one or with one toklab does not tokenize.
fn family_of<'m>(path: &Path, meta: &'m Metadata) -> Result<(&'m str, Family)> {
    let bad = |message: String| Error::format(path, None, message);
    let model = match meta.values.get("tokenizer.ggml.model") {
        Some(Value::Str(s)) => s.as_str(),
        Some(_) => return Err(bad("tokenizer.ggml.model is not a string".into())),
        None => {
            return Err(bad(
                "no tokenizer in the file (tokenizer.ggml.model is missing)".into(),
            ));
        }
    };
    let family = match model {
        "llama" => Family::Spm,
        "gpt2" => Family::Bpe,
        "bert" => Family::Wpm,
        "t5" => Family::Ugm,
        "rwkv" => Family::Rwkv,
        "no_vocab" | "none" => {
            return Err(bad(
                "the model has no vocabulary (tokenizer.ggml.model is `none`)".into(),
            ));
        }
        "gemma4" => Family::Bpe,
        "plamo2" => {
            return Err(bad(format!(
                "tokenizer.ggml.model `{model}` is not supported yet (llama, gpt2, bert and t5 are)"
            )));
        }
        other => {
            return Err(bad(format!(
                "tokenizer.ggml.model `{other}` is not one llama.cpp knows"
            )));
        }
    };
    Ok((model, family))
}

/// A merge `"a b"` as its two sides, split at the first space after the first byte as
/// llama.cpp does (so a merge whose left side is a space still splits right); a merge without
/// such a space is two empty sides, which never match.
fn split_merge(m: &str) -> (String, String) {
    match m.as_bytes().iter().skip(1).position(|&b| b == b' ') {
        Some(at) => (m[..at + 1].to_string(), m[at + 2..].to_string()),
        None => (String::new(), String::new()),
    }
}

/// The attribute of a token type (`tokenizer.ggml.token_type`).
fn type_attr(t: i64) -> u16 {
    match t {
        1 => attr::NORMAL,
        2 => attr::UNKNOWN,
        3 => attr::CONTROL,
        4 => attr::USER_DEFINED,
        5 => attr::UNUSED,
        6 => attr::BYTE,
        _ => 0,
    }
}

fn string<'m>(meta: &'m Metadata, key: &str) -> Option<&'m str> {
    match meta.values.get(key) {
        Some(Value::Str(s)) => Some(s),
        _ => None,
    }
}
