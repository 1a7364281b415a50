//! What becomes of the special tokens of a `tokenizer.json` (and of every subword kind that
//! knows special tokens): the `special` option, read in this one place.

use crate::core::error::Result;
use crate::core::spec::Spec;

/// What becomes of special tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specials {
    /// Special tokens in the text are matched (the default).
    Match,
    /// Special tokens in the text are ordinary text (the reference's `encode_special_tokens`).
    Ignore,
    /// Matched, and the post-processor adds its tokens (`add_special_tokens=True`).
    Add,
}

impl Specials {
    /// Takes the `special` option every subword kind that knows special tokens reads
    /// (`hf:`, `bpe:`, `tiktoken:`, `spm:`, `wordpiece:`), parsed in this one place so the kinds
    /// accept the same values: `all` (the default), `none`, `add`.
    pub fn take(spec: &mut Spec) -> Result<Specials> {
        match spec.take_option("special").as_deref() {
            None | Some("all") => Ok(Specials::Match),
            Some("none") => Ok(Specials::Ignore),
            Some("add") => Ok(Specials::Add),
            Some(other) => Err(spec.bad(format!(
                "option `special` wants all, none or add, not `{other}`"
            ))),
        }
    }

    /// The `special` option of a kind without a post-processor: whether special tokens are
    /// matched in the text. `add` is an error that says where it works.
    pub fn take_matching(spec: &mut Spec) -> Result<bool> {
        match Specials::take(spec)? {
            Specials::Match => Ok(true),
            Specials::Ignore => Ok(false),
            Specials::Add => Err(spec.bad(
                "option `special=add` needs the post-processor of a tokenizer.json: use `hf:` (or `bpe:` on a tokenizer.json without `pattern` or `semantics`)",
            )),
        }
    }
}
