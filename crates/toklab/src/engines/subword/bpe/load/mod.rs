//! Loaders for the BPE file formats: GPT-2's release files and tiktoken rank files (a
//! HuggingFace `tokenizer.json` is read by [`crate::engines::subword::hf`], whose
//! `merge_model` hands it to this module's model), and the helpers those readers share. Each turns a file into a [`BpeModel`](super::BpeModel) or an error
//! naming the file and the line (or byte offset) of the first problem.

pub mod gpt2;
pub mod tiktoken;

use std::fmt;
use std::path::Path;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

use super::bytelevel;
use super::vocab::{Vocab, VocabConflict};
use crate::core::error::{Error, Result};

/// Reads a whole file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Reads a whole file as UTF-8; invalid UTF-8 is an error naming its line and byte offset.
pub fn read_text(path: &Path) -> Result<String> {
    text_of(path, read_bytes(path)?)
}

/// The bytes read from `path` as UTF-8, as [`read_text`] checks them.
pub fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = line_of(e.as_bytes(), at);
        Error::format(
            path,
            Some(line),
            format!("invalid UTF-8 at byte offset {at}"),
        )
    })
}

/// The 1-based line of byte offset `at`.
pub fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &bytes[..at.min(bytes.len())]).count()
}

/// A `tokenizer.json` that does not parse: a bare vocabulary (GPT-2's encoder.json given as
/// the file) says so and what to give instead; anything else is the JSON error at its place.
pub fn tokenizer_json_error(path: &Path, text: &str, error: serde_json::Error) -> Error {
    if serde_json::from_str::<JsonVocab>(text).is_ok() {
        Error::format(
            path,
            None,
            "a vocabulary (token → id) only, not a tokenizer.json: for GPT-2's encoder.json or vocab.json give the folder that holds it and its merges (bpe:DIR)",
        )
    } else {
        json_error(path, error)
    }
}

/// A JSON parse error as a format error with its line and column.
pub fn json_error(path: &Path, error: serde_json::Error) -> Error {
    // serde's message ends in "at line L column C"; the position goes into the error's own
    // fields (shown as path:L:C) rather than twice.
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    Error::Format {
        path: path.to_path_buf(),
        line: Some(error.line()),
        column: Some(error.column()),
        message: format!("invalid JSON: {message}"),
    }
}

/// The line where a JSON string first appears in `text`, for errors about an entry that
/// parsed but does not make sense (a duplicate id, a piece twice).
pub fn line_of_key(text: &str, key: &str) -> Option<usize> {
    let quoted = serde_json::to_string(key).ok()?;
    text.find(&quoted).map(|at| line_of(text.as_bytes(), at))
}

/// The entries of a JSON object `{"piece": id, …}` in file order, duplicates kept, so a
/// repeated key is reported rather than silently overwritten.
#[derive(Debug, Default)]
pub struct JsonVocab(pub Vec<(String, u64)>);

impl<'de> Deserialize<'de> for JsonVocab {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = JsonVocab;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object from token strings to ids")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonVocab, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, u64>()? {
                    entries.push(entry);
                }
                Ok(JsonVocab(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// The largest id accepted: ids index a table, so a stray huge id must not allocate gigabytes.
pub const MAX_ID: u64 = 1 << 22;

/// A vocabulary from JSON entries. Byte-level when every entry decodes in GPT-2's byte
/// alphabet (`byte_level` asks for that); otherwise entries are their UTF-8 text. Returns the
/// vocabulary and whether it is byte-level.
pub fn vocab_from_json(
    path: &Path,
    text: &str,
    entries: &JsonVocab,
    byte_level: bool,
) -> Result<(Vocab, bool)> {
    let byte_level = byte_level
        && entries
            .0
            .iter()
            .all(|(piece, _)| bytelevel::decode(piece).is_some());
    let mut vocab = Vocab::with_capacity(entries.0.len(), entries.0.len() * 8);
    for (piece, id) in &entries.0 {
        let line = || line_of_key(text, piece);
        if *id >= MAX_ID {
            return Err(Error::format(
                path,
                line(),
                format!("id {id} of {piece:?} is too large (at most {MAX_ID})"),
            ));
        }
        let bytes = match byte_level {
            true => bytelevel::decode(piece).expect("checked above"),
            false => piece.as_bytes().to_vec(),
        };
        if bytes.is_empty() {
            return Err(Error::format(path, line(), "empty token in the vocabulary"));
        }
        vocab
            .insert(*id as u32, &bytes)
            .map_err(|conflict| vocab_conflict(path, line(), piece, *id, conflict))?;
    }
    Ok((vocab, byte_level))
}

/// The error for an entry that clashes with an earlier one.
pub fn vocab_conflict(
    path: &Path,
    line: Option<usize>,
    piece: &str,
    id: u64,
    conflict: VocabConflict,
) -> Error {
    let message = match conflict {
        VocabConflict::IdTaken => format!("id {id} of {piece:?} is already used by another token"),
        VocabConflict::BytesTaken(other) => {
            format!("token {piece:?} appears twice (ids {other} and {id})")
        }
    };
    Error::format(path, line, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_vocab_keeps_duplicates_and_reports_them() {
        let text = "{\"a\": 0,\n \"b\": 1,\n \"a\": 2}";
        let entries: JsonVocab = serde_json::from_str(text).unwrap();
        assert_eq!(entries.0.len(), 3);
        let e = vocab_from_json(Path::new("v.json"), text, &entries, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("v.json:1:") && e.contains("appears twice"),
            "{e}"
        );
    }

    #[test]
    fn byte_level_only_when_every_entry_decodes() {
        let text = r#"{"Ġa": 0, "▁b": 1}"#;
        let entries: JsonVocab = serde_json::from_str(text).unwrap();
        let (vocab, byte_level) = vocab_from_json(Path::new("v"), text, &entries, true).unwrap();
        assert!(!byte_level);
        assert_eq!(vocab.id("Ġa".as_bytes()), Some(0));
    }
}
