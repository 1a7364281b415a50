//! Mistral's tekken tokenizer files (`tekken.json`, `tekken:FILE`): a tiktoken vocabulary in
//! JSON with its own pattern, read as mistral-common's `Tekkenizer` reads it. Only the first
//! `default_vocab_size − default_num_special_tokens` entries are used, and a token's id is its
//! rank plus the number of special tokens (the first ids are special tokens, which `encode`
//! never matches in text: they come only from the caller's flags). The pattern is the file's
//! own (`config.pattern`), applied as tiktoken does.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::core::error::{Error, Result};
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::Tokenization;
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::Trace;
use crate::engines::subword::bpe::BpeTokenizer;
use crate::engines::subword::bpe::load::tiktoken::{self, base64_decode};
use crate::engines::subword::bpe::load::{json_error, text_of, vocab_conflict};
use crate::engines::subword::bpe::vocab::Vocab;

/// `tekken:FILE`: a Mistral tekken JSON file.
pub const KIND: Kind = Kind::new(
    "tekken",
    "tekken:FILE.json",
    "Mistral tekken JSON (tiktoken ranks + pattern; ids = rank + special-token count)",
    load,
);

/// Loads `tekken:FILE`.
pub fn load(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    Ok(Box::new(Tekken::load(spec.text.trim(), &spec.path())?))
}

#[derive(Deserialize)]
struct File {
    config: Config,
    vocab: Vec<Entry>,
    #[serde(default)]
    special_tokens: Option<Vec<serde_json::Value>>,
}

#[derive(Deserialize)]
struct Config {
    pattern: String,
    default_vocab_size: usize,
    default_num_special_tokens: usize,
}

#[derive(Deserialize)]
struct Entry {
    rank: usize,
    token_bytes: String,
}

/// A tekken model: the tiktoken-style BPE and how many ids the special tokens take.
pub struct Tekken {
    inner: BpeTokenizer,
    num_special: u32,
}

impl Tekken {
    /// Reads the JSON file, or its ranks from the model cache (a second load reads arrays
    /// instead of 15 MB of JSON).
    pub fn load(name: &str, path: &Path) -> Result<Tekken> {
        let parsed = crate::core::model_cache::load(
            path,
            "tekken",
            |data| parse(path, data),
            Parsed::write_flat,
            Parsed::read_flat,
        )?;
        let bad = |message: String| Error::format(path, None, message);
        let pretok = tiktoken::pretokenizer(&parsed.pattern).map_err(|e| bad(e.to_string()))?;
        let model = tiktoken::model_of(parsed.vocab, pretok, &[]);
        Ok(Tekken {
            inner: BpeTokenizer::new(name, model, Vec::new(), vec![path.to_path_buf()]),
            num_special: parsed.num_special,
        })
    }
}

/// What a tekken file holds that the tokenizer is made of: the ranks as ids, how many ids the
/// special tokens take, the pattern.
struct Parsed {
    vocab: Vocab,
    num_special: u32,
    pattern: String,
}

impl Parsed {
    fn write_flat(&self, w: &mut FlatWriter) {
        self.vocab.write_flat(w);
        w.u32(self.num_special);
        w.str(&self.pattern);
    }

    fn read_flat(r: &mut FlatReader) -> Option<Parsed> {
        Some(Parsed {
            vocab: Vocab::read_flat(r)?,
            num_special: r.u32()?,
            pattern: r.str()?.to_string(),
        })
    }
}

/// Reads the JSON file's bytes.
fn parse(path: &Path, data: &[u8]) -> Result<Parsed> {
    let text = text_of(path, data.to_vec())?;
    let file: File = serde_json::from_str(&text).map_err(|e| json_error(path, e))?;
    let bad = |message: String| Error::format(path, None, message);
    let num_special = match &file.special_tokens {
        Some(list) => list.len().max(file.config.default_num_special_tokens),
        None => file.config.default_num_special_tokens,
    };
    let used = file
        .config
        .default_vocab_size
        .checked_sub(num_special)
        .ok_or_else(|| {
            bad(format!(
                "default_vocab_size {} is smaller than the {num_special} special tokens",
                file.config.default_vocab_size
            ))
        })?;
    if file.vocab.len() < used {
        return Err(bad(format!(
            "the vocabulary has {} entries, fewer than the {used} the config asks for",
            file.vocab.len()
        )));
    }
    let mut vocab = Vocab::with_capacity(used, used * 8);
    let mut bytes = Vec::with_capacity(64);
    for (index, entry) in file.vocab.iter().take(used).enumerate() {
        if entry.rank != index {
            return Err(bad(format!(
                "vocabulary entry {index} has rank {}: ranks must be the list order",
                entry.rank
            )));
        }
        bytes.clear();
        base64_decode(entry.token_bytes.as_bytes(), &mut bytes).map_err(|at| {
            bad(format!(
                "vocabulary entry {index}: invalid base64 at column {}",
                at + 1
            ))
        })?;
        let id = (index + num_special) as u64;
        vocab.insert(id as u32, &bytes).map_err(|conflict| {
            vocab_conflict(path, None, &String::from_utf8_lossy(&bytes), id, conflict)
        })?;
    }
    Ok(Parsed {
        vocab,
        num_special: num_special as u32,
        pattern: file.config.pattern,
    })
}

impl Tokenizer for Tekken {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        self.inner.tokenize(text)
    }

    /// The BPE's cut points: its ids are the BPE's shifted, which a cut does not change.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        self.inner.cut_point(text, from)
    }

    fn explain(&self, text: &str) -> Trace {
        self.inner.explain(text)
    }

    fn warnings(&self) -> Vec<String> {
        self.inner.warnings()
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.inner.sources()
    }

    fn retokenize(&self, old: &str, old_tokens: &Tokenization, new: &str) -> Tokenization {
        self.inner.retokenize(old, old_tokens, new)
    }

    /// Special-token ids decode to nothing, as mistral-common's default policy skips them.
    fn decode(&self, ids: &[u32]) -> Result<String> {
        let text: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|&id| id >= self.num_special)
            .collect();
        self.inner.decode(&text)
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.inner.piece(id)
    }

    /// Token strings in GPT-2's byte-level alphabet, as the inner tiktoken BPE reads them,
    /// decoded by this file's `decode`.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| self.inner.piece_id(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_is_cut_and_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tekken.json");
        // Bytes a, b, then `ab` at rank 2, `ba` at rank 3 (cut off: 4 - 1 special = 3 used).
        let json = r#"{"config": {"pattern": "\\p{L}+|\\s+", "default_vocab_size": 4,
            "default_num_special_tokens": 1, "num_vocab_tokens": 4, "version": "v3"},
            "vocab": [{"rank": 0, "token_bytes": "YQ=="}, {"rank": 1, "token_bytes": "Yg=="},
                      {"rank": 2, "token_bytes": "YWI="}, {"rank": 3, "token_bytes": "YmE="}]}"#;
        std::fs::write(&path, json).unwrap();
        let tekken = Tekken::load("t", &path).unwrap();
        let ids: Vec<u32> = tekken
            .tokenize("abba")
            .tokens
            .iter()
            .map(|t| t.id.unwrap())
            .collect();
        assert_eq!(ids, [3, 2, 1]);
        assert_eq!(tekken.decode(&[0, 3, 2, 1]).unwrap(), "abba");
        std::fs::write(&path, json.replace("\"rank\": 1", "\"rank\": 7")).unwrap();
        let e = Tekken::load("t", &path).err().unwrap().to_string();
        assert!(
            e.contains("tekken.json") && e.contains("entry 1 has rank 7"),
            "{e}"
        );
    }
}
