//! Subword models by byte-pair encoding: loaders for the real formats (GPT-2 release files,
//! HuggingFace `tokenizer.json`, tiktoken rank files, SentencePiece models), one model type,
//! a fast encoder with exact pre-tokenizers, a lossless decoder, every model as a formal byte
//! pair dictionary ([`FormalDictionary`], for [`crate::engines::subword::formal`]: both semantics, traces with
//! the steps of both, analysis) and incremental re-tokenization after an edit (`incremental.rs`).
//!
//! Specs:
//! - `bpe:DIR` — `encoder.json`/`vocab.json` + `vocab.bpe`/`merges.txt`;
//! - `bpe:FILE.json` — a HuggingFace `tokenizer.json` with a BPE model;
//! - `tiktoken:FILE?pattern=r50k|p50k|p50k_edit|cl100k|o200k|REGEX` (default from the file
//!   name; a regex must be the last option and runs to the end of the spec) and
//!   `specials=FILE` (`TOKEN ID` lines, replacing the named encoding's special tokens);
//! - `spm:FILE.model` — a SentencePiece model.
//!
//! Options: `pattern=gpt2|cl100k|o200k|none` replaces the pre-tokenizer of `bpe:`;
//! `special=none` treats special-token text as ordinary text; `semantics=sp|hf` makes the merge
//! loop follow Definition 3 (the default: what tiktoken, HuggingFace tokenizers and
//! SentencePiece do) or Definition 4 of Berglund & van der Merwe (OpenAI's original
//! `encoder.py`), see [`crate::engines::subword::formal`].
//!
//! ```
//! let bpe = toklab::load("bpe:../../samples/bpe/gpt2").unwrap();
//! let text = "lower newer";
//! let tokens = bpe.tokenize(text);
//! assert_eq!(tokens.forms(text), ["l", "ow", "er", " new", "er"]);
//! let ids: Vec<u32> = tokens.iter().filter_map(|t| t.id).collect();
//! assert_eq!(ids, [76, 419, 264, 397, 264]);
//! assert_eq!(bpe.decode(&ids).unwrap(), text);
//! ```

pub(crate) mod bytelevel;
mod dictionary;
pub(crate) mod incremental;
pub(crate) mod load;
pub(crate) mod merge_loop;
pub(crate) mod merge_table;
pub(crate) mod model;
mod pieces;
mod probe;
pub(crate) mod specials;

pub(crate) mod tokenizer;
pub(crate) mod trace;
pub(crate) mod vocab;

pub use crate::core::trace::render_bytes;
/// The loaders of each file format, for programs that want a model rather than a tokenizer
/// (`hf` is the one `tokenizer.json` reader's way to this module's model).
pub use crate::engines::subword::hf::merge_model as hf;
/// GPT-2's byte-to-character alphabet, both ways: for tools that read or write byte-level
/// vocabularies.
pub use bytelevel::{byte_to_char, decode as bytes_of_byte_level, encode as byte_level_of_bytes};
pub use dictionary::{FormalDictionary, RuleSource};
pub use load::{gpt2, tiktoken};
pub use model::{Alphabet, BpeModel, Piece, PreToken, PreTokenizer, Rules};
pub use tokenizer::BpeTokenizer;
pub use trace::{BpeTrace, MAX_STEPS_PIECE_BYTES, PieceTrace};

use super::spm::{self, SpmModel, SpmTokenizer};
use crate::core::error::Result;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::tokenizer::Tokenizer;
use crate::engines::subword::formal::Semantics;
use crate::engines::subword::hf::Specials;
use crate::engines::subword::hub;

/// A model loaded from a `bpe:`, `tiktoken:` or `spm:` spec, before it becomes a boxed
/// tokenizer: tools that need the model itself (`toklab bpe check`, `steps`) load it exactly as
/// `tokenize` does.
#[non_exhaustive]
pub enum Subword {
    /// GPT-2 folders, `tokenizer.json`, tiktoken rank files.
    Bpe(BpeTokenizer),
    /// SentencePiece models.
    Spm(SpmTokenizer),
}

impl Subword {
    /// The merge model (for SentencePiece, the one inside its normalizer and pieces).
    pub fn bpe_model(&self) -> &BpeModel {
        match self {
            Subword::Bpe(t) => t.model(),
            Subword::Spm(t) => &t.model().bpe,
        }
    }

    /// The SentencePiece model, when it is one.
    pub fn spm_model(&self) -> Option<&SpmModel> {
        match self {
            Subword::Bpe(_) => None,
            Subword::Spm(t) => Some(t.model()),
        }
    }

    /// The tokenizer itself.
    pub fn tokenizer(&self) -> &dyn Tokenizer {
        match self {
            Subword::Bpe(t) => t,
            Subword::Spm(t) => t,
        }
    }

    /// The tokenizer, boxed as the spec loader returns it.
    pub fn into_tokenizer(self) -> Box<dyn Tokenizer> {
        match self {
            Subword::Bpe(t) => Box::new(t),
            Subword::Spm(t) => Box::new(t),
        }
    }
}

/// `bpe:DIR|FILE.json`: a GPT-2 folder or a HuggingFace `tokenizer.json`.
pub const BPE: Kind = Kind::new(
    "bpe",
    "bpe:DIR|FILE.json",
    "BPE model: GPT-2 folder (encoder.json + vocab.bpe) or HuggingFace tokenizer.json; ?pattern=gpt2|cl100k|o200k|none&special=all|none&semantics=sp|hf",
    load,
)
.with_options();

/// `tiktoken:FILE`: a tiktoken rank file.
pub const TIKTOKEN: Kind = Kind::new(
    "tiktoken",
    "tiktoken:FILE|NAME",
    "tiktoken rank file, or a published encoding by name (r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony: tiktoken's cache, else downloaded); ?specials=FILE (TOKEN ID lines)&special=all|none&semantics=sp|hf&pattern=r50k|p50k|p50k_edit|cl100k|o200k|o200k_harmony|REGEX (default from the name; last, runs to the end)",
    load,
)
.with_options();

/// `spm:FILE.model`: a SentencePiece model.
pub const SPM: Kind = Kind::new(
    "spm",
    "spm:FILE.model",
    "SentencePiece model, BPE or unigram (its normalizer, ▁ for spaces, byte fallback); ?semantics=sp|hf for BPE; unigram: ?nbest=N (explain lists the N best), ?alpha=A&nbest=L&seed=S (sampling), ?lattice=true",
    load,
)
.with_options();

/// Loads `bpe:`, `tiktoken:` and `spm:` specs. A `bpe:` spec naming a `tokenizer.json` goes
/// to the whole HuggingFace pipeline ([`crate::engines::subword::hf`]) unless it asks for a
/// `pattern` or `semantics`, which only the merge model of this module has.
pub fn load(registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let merge_options = spec.has_option("pattern") || spec.has_option("semantics");
    if spec.kind == "bpe" && !merge_options && !spec.path().is_dir() {
        return crate::engines::subword::hf::load(registry, spec);
    }
    Ok(load_subword(spec)?.into_tokenizer())
}

/// Loads `bpe:`, `tiktoken:` and `spm:` specs, keeping the model's type.
pub fn load_subword(mut spec: Spec) -> Result<Subword> {
    let special = Specials::take_matching(&mut spec)?;
    let semantics = match spec.take_option("semantics") {
        None => None,
        Some(name) => Some(Semantics::parse(&name).ok_or_else(|| {
            spec.bad(format!(
                "option `semantics` wants sp (Definition 3, what the libraries do) or hf (Definition 4), not `{name}`"
            ))
        })?),
    };
    let options = Options {
        special,
        semantics,
        pattern: spec.take_option("pattern"),
        path: spec.path(),
        name: spec.text.trim().to_string(),
    };
    match spec.kind.as_str() {
        "bpe" => load_bpe(&spec, options),
        "tiktoken" => load_tiktoken(&mut spec, options),
        "spm" => load_spm(&mut spec, options),
        other => Err(spec.bad(format!("`{other}` is not a BPE kind"))),
    }
}

/// What every subword spec may say, taken off the spec before its kind's own options.
struct Options {
    /// Whether special tokens are matched in text (the `special` option).
    special: bool,
    /// `?semantics=`, to override the model's own.
    semantics: Option<Semantics>,
    /// `?pattern=`, the pre-tokenizer.
    pattern: Option<String>,
    /// The model's file or folder.
    path: std::path::PathBuf,
    /// The spec as written, the tokenizer's name.
    name: String,
}

/// `bpe:` a tokenizer.json or a GPT-2 folder (`vocab.json` + `merges.txt`).
fn load_bpe(spec: &Spec, options: Options) -> Result<Subword> {
    spec.finish(&["pattern", "special", "semantics"])?;
    let path = &options.path;
    let mut loaded = if path.is_dir() {
        load::gpt2::load(path)?
    } else {
        hf::load(path)?
    };
    if let Some(pattern) = &options.pattern {
        loaded.model.pretok = PreTokenizer::named(pattern).ok_or_else(|| {
            spec.bad(format!(
                "unknown pattern `{pattern}` (known: gpt2, cl100k, o200k, none)"
            ))
        })?;
    }
    if !options.special {
        loaded.model.specials = specials::Specials::default();
    }
    if let Some(semantics) = options.semantics {
        loaded.model.semantics = semantics;
    }
    Ok(Subword::Bpe(BpeTokenizer::new(
        options.name,
        loaded.model,
        loaded.warnings,
        loaded.sources,
    )))
}

/// `tiktoken:` a `.tiktoken` file or a published encoding's name, its pattern from the name,
/// its special tokens from `?specials=FILE` or the encoding's.
fn load_tiktoken(spec: &mut Spec, options: Options) -> Result<Subword> {
    let specials_file = spec.take_option("specials");
    spec.finish(&["pattern", "special", "semantics", "specials"])?;
    let known = || {
        tiktoken::ENCODINGS
            .iter()
            .map(|e| e.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A published encoding's name (`cl100k_base`) when no such file exists.
    let (path, by_name) = match hub::tiktoken::published(&spec.arg) {
        Some(published) if !options.path.exists() => {
            (hub::tiktoken::resolve(published)?, Some(published.encoding))
        }
        _ => (options.path, None),
    };
    let pattern = match options.pattern {
        Some(p) => p,
        None => by_name
            .or_else(|| tiktoken::encoding_from_file_name(&path))
            .ok_or_else(|| {
                spec.bad(format!(
                    "cannot tell the encoding from the file name; add ?pattern= one of {} or a regex",
                    known()
                ))
            })?
            .to_string(),
    };
    let pretok = tiktoken::pretokenizer(&pattern).map_err(|e| spec.bad(e.to_string()))?;
    let mut sources = vec![path.clone()];
    let specials = match (options.special, specials_file) {
        (false, _) => Vec::new(),
        (true, Some(file)) => {
            let file = spec.base.join(file);
            let declared = tiktoken::read_specials(&file)?;
            sources.push(file);
            declared
        }
        (true, None) => tiktoken::encoding(&pattern)
            .map(|e| e.special_tokens())
            .unwrap_or_default(),
    };
    let mut model = tiktoken::load_with(&path, pretok, &specials)?;
    if let Some(semantics) = options.semantics {
        model.semantics = semantics;
    }
    Ok(Subword::Bpe(BpeTokenizer::new(
        options.name,
        model,
        Vec::new(),
        sources,
    )))
}

/// `spm:` a SentencePiece `.model`, BPE or unigram, with the unigram's sampling options.
fn load_spm(spec: &mut Spec, options: Options) -> Result<Subword> {
    if !options.special {
        return Err(spec.bad(
            "SentencePiece matches no special tokens in text, so `special` has nothing to switch off",
        ));
    }
    let unigram = spm::regularize::UnigramOptions::take(spec)?;
    spec.finish(&["semantics", "nbest", "alpha", "seed", "lattice"])?;
    Ok(Subword::Spm(
        SpmTokenizer::load(options.name, &options.path, options.semantics)?
            .with_unigram_options(unigram)?,
    ))
}
