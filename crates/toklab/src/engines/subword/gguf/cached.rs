//! A GGUF file's vocabulary in the model cache ([`crate::core::model_cache`]): the vocabulary
//! after llama.cpp's load-time changes, the BPE tables made of its merges and the load's
//! warnings, so a second load reads arrays instead of the metadata's quarter of a million
//! strings and merges. The entry is checked against a hash of the file's metadata section
//! only (its length recorded in the entry), never the tensors after it: a model of many
//! gigabytes is not read whole to find that its vocabulary is the one cached.

use std::path::Path;

use super::engines::BpeTables;
use super::vocab::{Family, Vocab};
use super::{Engine, reader, split, ugm};
use crate::core::error::{Error, Result};
use crate::core::model_cache::{FlatReader, FlatWriter, Lookup, read_warnings, write_warnings};

/// The loader's name in the cache.
const KIND: &str = "gguf";

/// The parts of a GGUF tokenizer that do not depend on the spec's options.
pub(super) struct Parsed {
    pub vocab: Vocab,
    pub engine: Engine,
    pub warnings: Vec<String>,
}

/// Reads the vocabulary of the GGUF file at `path`, from its cache entry when that is valid,
/// else from the file (and then writes the entry).
pub(super) fn load(path: &Path) -> Result<Parsed> {
    let lookup = Lookup::open_prefix(path, KIND)?;
    if let Some(mut r) = lookup.payload()
        && let Some(parsed) = read(&mut r, path).filter(|_| r.finished())
    {
        return Ok(parsed);
    }
    let meta = reader::read(path)?;
    let mut warnings = Vec::new();
    let mut vocab = Vocab::from_metadata(path, &meta, &mut warnings)?;
    let engine = engine(path, &vocab, Tables::Made)?;
    vocab.merges = Vec::new();
    let parsed = Parsed {
        vocab,
        engine,
        warnings,
    };
    let mut w = FlatWriter::new();
    write(&parsed, &mut w, path);
    lookup.store_prefix(&w.into_bytes(), meta.end);
    Ok(parsed)
}

fn write(parsed: &Parsed, w: &mut FlatWriter, path: &Path) {
    parsed.vocab.write_flat(w);
    match &parsed.engine {
        Engine::Bpe(tables) => tables.write_flat(w),
        Engine::Ugm(ugm) => ugm.write_tries(w),
        _ => {}
    }
    write_warnings(w, path, &parsed.warnings);
}

fn read(r: &mut FlatReader, path: &Path) -> Option<Parsed> {
    let vocab = Vocab::read_flat(r)?;
    let engine = engine(path, &vocab, Tables::Read(r)).ok()?;
    let warnings = read_warnings(r, path)?;
    Some(Parsed {
        vocab,
        engine,
        warnings,
    })
}

/// Where the tables an engine searches with come from: made from the vocabulary (a first load)
/// or read from the cache entry.
enum Tables<'r, 'a> {
    Made,
    Read(&'r mut FlatReader<'a>),
}

/// What tokenizes `vocab` between special tokens, its BPE tables or unigram tries from
/// `tables`.
fn engine(path: &Path, vocab: &Vocab, tables: Tables) -> Result<Engine> {
    let bad = |message: String| Error::format(path, None, message);
    Ok(match vocab.family {
        Family::Spm => Engine::Spm,
        Family::Wpm => Engine::Wpm,
        Family::Bpe => {
            let (patterns, ignore_merges) = split::patterns(&vocab.pre).ok_or_else(|| {
                bad(format!(
                    "unknown pre-tokenizer `{}` (tokenizer.ggml.pre)",
                    vocab.pre
                ))
            })?;
            let splitter = split::Splitter::new(&patterns).map_err(|e| bad(e.to_string()))?;
            let raw = split::raw(&vocab.pre);
            let tables = match tables {
                Tables::Made => Some(BpeTables::new(vocab, splitter, ignore_merges, raw)),
                Tables::Read(r) => BpeTables::read_flat(r, vocab, splitter, ignore_merges, raw),
            }
            .ok_or_else(|| bad("the BPE tables in the model cache do not hold".into()))?;
            Engine::Bpe(Box::new(tables))
        }
        Family::Ugm => {
            let tries = match tables {
                Tables::Made => Some(ugm::Tries::new(vocab)),
                Tables::Read(r) => ugm::Tries::read_flat(r, vocab.tokens.len()),
            }
            .ok_or_else(|| bad("the unigram tries in the model cache do not hold".into()))?;
            Engine::Ugm(Box::new(ugm::Ugm::with_tries(vocab, tries).map_err(
                |e| bad(format!("tokenizer.ggml.precompiled_charsmap: {e}")),
            )?))
        }
        Family::Rwkv => {
            return Err(bad(
                "tokenizer.ggml.model `rwkv` is not supported yet (llama, gpt2, bert and t5 are)"
                    .into(),
            ));
        }
    })
}
