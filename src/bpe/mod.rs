//! Subword models by byte-pair encoding: loaders for the real formats (GPT-2 release files,
//! HuggingFace `tokenizer.json`, tiktoken rank files, SentencePiece models), one model type,
//! a fast encoder with exact pre-tokenizers, a lossless decoder, and traces of the merges.
//!
//! Specs:
//! - `bpe:DIR` — `encoder.json`/`vocab.json` + `vocab.bpe`/`merges.txt`;
//! - `bpe:FILE.json` — a HuggingFace `tokenizer.json` with a BPE model;
//! - `tiktoken:FILE?pattern=r50k|p50k|p50k_edit|cl100k|o200k` (default from the file name);
//! - `spm:FILE.model` — a SentencePiece model.
//!
//! Options: `pattern=gpt2|cl100k|o200k|none` replaces the pre-tokenizer of `bpe:`;
//! `special=none` treats special-token text as ordinary text.

pub mod bytelevel;
pub mod engine;
pub mod load;
pub mod merge;
pub mod merges;
pub mod model;
pub mod specials;
pub mod spm;
pub mod trace;
pub mod vocab;

pub use engine::BpeTokenizer;
pub use model::{Alphabet, BpeModel, Piece, PreTokenizer, Rules};
pub use trace::{BpeTrace, PieceTrace, StepTrace};

use crate::engine::Tokenizer;
use crate::error::Result;
use crate::spec::Spec;
use load::tiktoken;

/// Loads `bpe:`, `tiktoken:` and `spm:` specs.
pub fn load(mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let special = match spec.take_option("special").as_deref() {
        None | Some("all") => true,
        Some("none") => false,
        Some(other) => {
            return Err(spec.bad(format!("option `special` wants all or none, not `{other}`")));
        }
    };
    let pattern = spec.take_option("pattern");
    let path = spec.path();
    let name = spec.text.trim().to_string();
    match spec.kind.as_str() {
        "bpe" => {
            spec.finish(&["pattern", "special"])?;
            let mut loaded = if path.is_dir() {
                load::gpt2::load(&path)?
            } else {
                load::hf::load(&path)?
            };
            if let Some(pattern) = pattern {
                loaded.model.pretok = PreTokenizer::named(&pattern).ok_or_else(|| {
                    spec.bad(format!(
                        "unknown pattern `{pattern}` (known: gpt2, cl100k, o200k, none)"
                    ))
                })?;
            }
            if !special {
                loaded.model.specials = specials::Specials::default();
            }
            Ok(Box::new(BpeTokenizer::new(
                name,
                loaded.model,
                loaded.warnings,
                loaded.sources,
            )))
        }
        "tiktoken" => {
            spec.finish(&["pattern", "special"])?;
            let known = || {
                tiktoken::ENCODINGS
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let encoding = match pattern {
                Some(p) => tiktoken::ENCODINGS
                    .iter()
                    .map(|e| e.name)
                    .find(|e| *e == p)
                    .ok_or_else(|| {
                        spec.bad(format!("unknown pattern `{p}` (known: {})", known()))
                    })?,
                None => tiktoken::encoding_from_file_name(&path).ok_or_else(|| {
                    spec.bad(format!(
                        "cannot tell the encoding from the file name; add ?pattern= one of {}",
                        known()
                    ))
                })?,
            };
            let model = tiktoken::load(&path, encoding, special)?;
            Ok(Box::new(BpeTokenizer::new(
                name,
                model,
                Vec::new(),
                vec![path],
            )))
        }
        "spm" => {
            if !special {
                return Err(spec.bad(
                    "SentencePiece matches no special tokens in text, so `special` has nothing to switch off",
                ));
            }
            spec.finish(&[])?;
            spm::load(name, &path)
        }
        other => Err(spec.bad(format!("`{other}` is not a BPE kind"))),
    }
}
