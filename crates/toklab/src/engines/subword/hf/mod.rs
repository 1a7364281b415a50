//! HuggingFace `tokenizer.json`, the whole pipeline, component by component as the
//! `tokenizers` library defines them: added tokens (`added.rs`), normalizers, pre-tokenizers,
//! the four models (`models/`), post-processors and decoders, one file per stage with the
//! stage's enum. Offsets go back to the original text through the normalizers
//! ([`crate::NormalizedString`]); `explain` shows each stage. A component toklab does not build
//! is an error naming it (`tokenizer.json:12: pre_tokenizer Syllables is not supported`),
//! never skipped.
//!
//! Spec: `hf:FILE.json?special=all|none|add` — `all` (default) matches added and special
//! tokens in the text; `none` leaves special tokens as ordinary text; `add` also applies the
//! post-processor, so ids equal the reference's `encode(text, add_special_tokens=True)`.
//! `bpe:FILE.json` loads the same way.
//!
//! ```
//! // The GPT-2 sample as a tokenizer.json: the same ids as its merges and vocabulary.
//! let hf = toklab::load("hf:../../samples/bpe/tokenizer.json").unwrap();
//! let ids: Vec<u32> = hf.tokenize("lower newer").iter().filter_map(|t| t.id).collect();
//! assert_eq!(ids, [76, 419, 264, 397, 264]);
//! ```

mod added;
mod cached;
mod cuts;
mod decoders;
mod json;
mod loaded;
mod marks_table;
mod meeting;
pub mod merge_model;
mod models;
mod normalizers;
mod pattern;
mod pipeline;
mod pre_tokenizers;
mod processors;
mod scripts;
mod specials;
#[cfg(test)]
mod tests;

pub use loaded::HfTokenizer;
pub use pipeline::{Pipeline, Specials, UnknownId};

use crate::core::error::Result;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::tokenizer::Tokenizer;

/// `hf:FILE.json`: a HuggingFace `tokenizer.json`.
pub const KIND: Kind = Kind::new(
    "hf",
    "hf:FILE.json",
    "HuggingFace tokenizer.json, the whole pipeline (normalizers, pre-tokenizers, BPE/WordPiece/Unigram/WordLevel, added tokens, decoders); ?special=all|none|add",
    load,
)
.with_options();

/// Loads an `hf:` spec (and a `bpe:` spec naming a `.json` file). `hf:ORG/NAME`, when no such
/// file exists, is a model in the local HuggingFace cache (no network): its `tokenizer.json`,
/// or else its `tokenizer.model` (SentencePiece) or `vocab.txt` (WordPiece).
pub fn load(registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let specials = Specials::take(&mut spec)?;
    spec.finish(&["special"])?;
    let name = spec.text.trim().to_string();
    let mut path = spec.path();
    if spec.kind == KIND.name
        && !path.exists()
        && crate::engines::subword::hub::looks_like_repo(&spec.arg)
    {
        path = crate::engines::subword::hub::resolve(&spec.arg)?;
        let kind = match path.file_name().and_then(|n| n.to_str()) {
            Some("tokenizer.model") => Some("spm"),
            Some("vocab.txt") => Some("wordpiece"),
            _ => None,
        };
        if let Some(kind) = kind {
            let resolved = format!("{kind}:{}", path.display());
            return registry.load(&resolved, std::path::Path::new(""));
        }
    }
    Ok(Box::new(HfTokenizer::load(name, &path, specials)?))
}
