//! BPE pre-tokenizers: the regex splits that subword models apply before merging, exposed as
//! the `pretok:NAME` kind so their pieces can be seen on their own.

mod class;
mod gpt2;

pub use class::CharClass;
pub use gpt2::{GPT2_PATTERN, Gpt2Matcher};

use crate::engine::Tokenizer;
use crate::error::Result;
use crate::simple::MatchTokenizer;
use crate::spec::Spec;

/// The pre-tokenizers by name, for `pretok:NAME` and its error message.
pub const NAMES: &[&str] = &["gpt2"];

/// Loads `pretok:NAME`.
pub fn load(spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    match spec.arg.as_str() {
        "gpt2" => Ok(Box::new(MatchTokenizer::new("pretok:gpt2", Gpt2Matcher))),
        other => Err(spec.bad(format!(
            "unknown pre-tokenizer `{other}` (known: {})",
            NAMES.join(", ")
        ))),
    }
}
