//! Writes a trained model in GPT-2's format (`encoder.json` + `vocab.bpe`), the format every
//! BPE library reads, so a model trained here loads back with `bpe:DIR` and elsewhere.
//!
//! The files are byte-level: ids 0–255 are the 256 bytes in GPT-2's order. A model trained on
//! characters (without `--bytes`) first gets the merges that build each multi-byte character of
//! its alphabet from its bytes; they come before the learned merges and only ever join the
//! bytes of one character (a continuation byte never starts a character), so a byte-level
//! encoder gives exactly the character-level model's tokens.

use crate::core::files::{Expect, write_bytes};
use std::fmt::Write as _;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::Trainer;
use crate::core::error::{Error, Result};
use crate::engines::subword::bpe::bytelevel::{byte_to_char, encode as to_byte_level};
use crate::engines::subword::formal::SymbolUnit;

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Entries of `encoder.json`.
    pub tokens: usize,
    /// Lines of `vocab.bpe` (after the version line).
    pub merges: usize,
    /// Of those, the merges that build multi-byte characters.
    pub char_merges: usize,
}

/// The 256 bytes in the order of GPT-2's `encoder.json` (printable ones first).
fn byte_order() -> Vec<u8> {
    let mut order: Vec<u8> = (0..=255u8)
        .filter(|&b| byte_to_char(b) as u32 == u32::from(b))
        .collect();
    order.extend((0..=255u8).filter(|&b| byte_to_char(b) as u32 != u32::from(b)));
    order
}

/// Writes `encoder.json` and `vocab.bpe` for the trainer's merges into `dir` (created if
/// missing); existing files are replaced only when `replace`.
pub fn write_gpt2(trainer: &Trainer, dir: &Path, replace: bool) -> Result<Written> {
    write_gpt2_named(trainer, dir, "encoder.json", "vocab.bpe", replace)
}

/// Writes the same two files under other names: HuggingFace's `vocab.json` + `merges.txt`
/// are what most tools look for first; `bpe:DIR` reads either pair.
pub fn write_gpt2_named(
    trainer: &Trainer,
    dir: &Path,
    vocab_name: &str,
    merges_name: &str,
    replace: bool,
) -> Result<Written> {
    let mut ids: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
    let mut vocab: Vec<Vec<u8>> = Vec::new();
    let mut add = |t: &[u8], ids: &mut FxHashMap<Vec<u8>, usize>| {
        if !ids.contains_key(t) {
            ids.insert(t.to_vec(), vocab.len());
            vocab.push(t.to_vec());
        }
    };
    for b in byte_order() {
        add(&[b], &mut ids);
    }
    let mut merges: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    if trainer.unit() == SymbolUnit::Char {
        for symbol in trainer.alphabet() {
            for cut in 2..=symbol.len() {
                let (left, right) = (&symbol[..cut - 1], &symbol[cut - 1..cut]);
                if !ids.contains_key(&symbol[..cut]) {
                    merges.push((left.to_vec(), right.to_vec()));
                    add(&symbol[..cut], &mut ids);
                }
            }
        }
    }
    let char_merges = merges.len();
    for m in trainer.merges() {
        let (left, right) = (trainer.token(m.left), trainer.token(m.right));
        merges.push((left.to_vec(), right.to_vec()));
        add(trainer.token(m.new), &mut ids);
    }
    let mut encoder = serde_json::Map::new();
    for (id, token) in vocab.iter().enumerate() {
        encoder.insert(to_byte_level(token), serde_json::Value::from(id));
    }
    let mut bpe = String::from("#version: 0.2\n");
    for (left, right) in &merges {
        let _ = writeln!(bpe, "{} {}", to_byte_level(left), to_byte_level(right));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let encoder_path = dir.join(vocab_name);
    let json = serde_json::to_string(&serde_json::Value::Object(encoder))
        .expect("a map of strings to numbers serializes");
    let expect = if replace {
        Expect::Replace
    } else {
        Expect::Absent
    };
    write_bytes(&encoder_path, &expect, json.as_bytes())?;
    let bpe_path = dir.join(merges_name);
    write_bytes(&bpe_path, &expect, bpe.as_bytes())?;
    Ok(Written {
        tokens: vocab.len(),
        merges: merges.len(),
        char_merges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::formal::{Semantics, encode_strings};
    use crate::engines::subword::train::Pretok;

    #[test]
    fn gpt2_byte_order_starts_with_bang() {
        let order = byte_order();
        assert_eq!(order.len(), 256);
        assert_eq!((order[0], order[93], order[188]), (b'!', b'~', 0));
    }

    #[test]
    fn char_model_round_trips_through_bytes() {
        let corpus = "über über übel";
        let mut t = Trainer::new(corpus, SymbolUnit::Char, Pretok::Gpt2);
        t.train(5, &mut |_| {});
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("model");
        let written = write_gpt2(&t, &dir, false).unwrap();
        assert_eq!(written.char_merges, 1);
        let loaded = crate::engines::subword::bpe::load::gpt2::load(&dir).unwrap();
        let chars = t.dictionary();
        for word in ["über", " übel", "üb", "xü"] {
            assert_eq!(
                encode_strings(loaded.model.dictionary(), word, Semantics::SentencePiece),
                encode_strings(&chars, word, Semantics::SentencePiece),
                "{word}"
            );
        }
        let json = std::fs::read_to_string(dir.join("encoder.json")).unwrap();
        assert!(json.contains("\"!\":0"), "{json}");
    }
}
