//! A `tokenizer.json` with a BPE model as the merge model of [`crate::engines::subword::bpe`]
//! (`bpe:FILE.json?pattern=…&semantics=…`, `toklab bpe check FILE.json`). The file is read by
//! the one reader of this module ([`Pipeline::load`]); its stages are then handed over to the
//! merge model, which knows the byte-level pre-tokenizer and one splitting pattern. A stage it
//! cannot honour (a normalizer, a Metaspace pre-tokenizer) is an error naming it, never
//! dropped.

use std::path::Path;

use super::json::ComponentError;
use super::models::Model;
use super::pattern::{Behavior, Pattern};
use super::pipeline::{Pipeline, Specials};
use super::pre_tokenizers::PreTokenizer as Stage;
use crate::core::error::{Error, Result};
use crate::engines::simple::Matcher;
use crate::engines::subword::bpe::PreTokenizer;
use crate::engines::subword::bpe::load::gpt2::Loaded;
use crate::engines::subword::bpe::specials::Specials as MergeSpecials;
use crate::engines::subword::pretok::RegexSplit;

/// Loads a `tokenizer.json` as a merge model; its added tokens become the model's special
/// tokens (matched as written).
pub fn load(path: &Path) -> Result<Loaded> {
    let mut warnings = Vec::new();
    let pipeline = Pipeline::load(path, Specials::Match, &mut warnings)?;
    let unsupported = |message: String| Error::format(path, None, message);
    if pipeline.normalizer.is_some() {
        return Err(unsupported(
            "a normalizer is not supported with `pattern` or `semantics` (load the file as hf: to apply it)".into(),
        ));
    }
    let mut model = match pipeline.model {
        Model::Bpe(bpe) => bpe
            .into_merge_model()
            .map_err(|e| unsupported(e.to_string()))?,
        other => {
            return Err(unsupported(format!(
                "model type {} is not BPE (load it as hf:)",
                other.name()
            )));
        }
    };
    if let Some(stage) = pipeline.pre_tokenizer {
        let (pretok, prefix_space) =
            pre_tokenizer(stage).map_err(|e| unsupported(e.to_string()))?;
        model.pretok = pretok;
        model.prefix_space = prefix_space;
    }
    let mut specials = Vec::new();
    for added in &pipeline.added.tokens {
        if added.lstrip || added.rstrip || added.single_word {
            warnings.push(format!(
                "added token {:?}: lstrip, rstrip and single_word are not applied; it is matched as written",
                added.content
            ));
        }
        specials.push((added.content.clone(), added.id as u32));
    }
    model.specials = MergeSpecials::new(specials);
    Ok(Loaded {
        model,
        warnings,
        sources: vec![path.to_path_buf()],
    })
}

/// The merge model's pre-tokenizer and whether it puts a space in front: `ByteLevel`, an
/// `Isolated` `Split`, or a `Sequence` with at most one of them that splits.
fn pre_tokenizer(stage: Stage) -> std::result::Result<(PreTokenizer, bool), ComponentError> {
    let stages = match stage {
        Stage::Sequence(all) => all,
        one => vec![one],
    };
    let mut splitter: Option<PreTokenizer> = None;
    let mut prefix_space = false;
    for stage in stages {
        let found = match stage {
            Stage::ByteLevel {
                add_prefix_space,
                use_regex,
            } => {
                prefix_space = add_prefix_space;
                use_regex.then(|| PreTokenizer::named("gpt2").expect("a known name"))
            }
            Stage::Split {
                pattern,
                behavior: Behavior::Isolated,
                invert: false,
            } => Some(splitting(pattern)?),
            Stage::Split {
                behavior, invert, ..
            } => {
                return Err(ComponentError::unsupported(format!(
                    "Split pre-tokenizer with behavior {behavior:?} (invert {invert}) is not supported with `pattern` or `semantics`; only Isolated"
                )));
            }
            other => {
                return Err(ComponentError::unsupported(format!(
                    "pre-tokenizer {} is not supported with `pattern` or `semantics` (supported: ByteLevel, Split, a Sequence of them)",
                    other.name()
                )));
            }
        };
        if let Some(found) = found {
            if splitter.is_some() {
                return Err(ComponentError::unsupported(
                    "more than one splitting pre-tokenizer is not supported",
                ));
            }
            splitter = Some(found);
        }
    }
    Ok((splitter.unwrap_or_else(PreTokenizer::none), prefix_space))
}

/// The pre-tokenizer of a `Split` pattern: the hand-written matcher of a known pattern, else
/// the file's regex (a literal is escaped into one).
fn splitting(pattern: Pattern) -> std::result::Result<PreTokenizer, ComponentError> {
    let (name, matcher): (String, Box<dyn Matcher>) = match pattern {
        Pattern::Known(name, matcher) => (name.to_string(), matcher),
        Pattern::Regex(regex) => (
            format!("regex {}", regex.as_str()),
            Box::new(RegexSplit::from(regex)),
        ),
        Pattern::Literal(literal) => {
            let source = fancy_regex::escape(&literal).into_owned();
            let split =
                RegexSplit::new(&source).map_err(|e| ComponentError::invalid(e.to_string()))?;
            (format!("regex {source}"), Box::new(split))
        }
        Pattern::Chars(_) => {
            return Err(ComponentError::unsupported(
                "a Split by character class is not supported",
            ));
        }
    };
    Ok(PreTokenizer {
        name,
        matcher: Some(matcher),
    })
}
