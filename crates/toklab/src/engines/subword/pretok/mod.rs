//! BPE pre-tokenizers: the regex splits that subword models apply before merging, exposed as
//! the `pretok:NAME` kind so their pieces can be seen on their own.

/// The property tests every hand-written matcher has: its pieces equal fancy-regex's matches of
/// the pattern itself, on a character mix that exercises the pattern and on any Unicode. Also
/// defines `pieces(text)` for the module's example tests.
#[cfg(test)]
macro_rules! agrees_with_fancy_regex {
    ($matcher:expr, $pattern:expr, $chars:literal) => {
        fn pieces(text: &str) -> Vec<&str> {
            let mut out = Vec::new();
            $crate::engines::simple::Matcher::find(&$matcher, text, &mut |span, _| {
                out.push(span.slice(text))
            });
            out
        }

        fn reference(text: &str) -> Vec<&str> {
            static RE: std::sync::LazyLock<fancy_regex::Regex> =
                std::sync::LazyLock::new(|| fancy_regex::Regex::new($pattern).unwrap());
            RE.find_iter(text).map(|m| m.unwrap().as_str()).collect()
        }

        proptest::proptest! {
            #[test]
            fn agrees_with_fancy_regex(text in $chars) {
                proptest::prop_assert_eq!(pieces(&text), reference(&text));
            }

            #[test]
            fn agrees_with_fancy_regex_on_any_unicode(text in proptest::prelude::any::<String>()) {
                proptest::prop_assert_eq!(pieces(&text), reference(&text));
            }
        }
    };
}
#[cfg(test)]
pub(crate) use agrees_with_fancy_regex;

mod cl100k;
mod class;
mod findall;
mod gpt2;
mod o200k;
mod scan;
mod split;

pub use cl100k::{CL100K_PATTERN, Cl100kMatcher, QWEN2_PATTERN, Qwen2Matcher};
pub use class::CharClass;
pub use findall::RegexFindAll;
pub use gpt2::{GPT2_PATTERN, Gpt2Matcher};
pub use o200k::{O200K_PATTERN, O200kMatcher, TEKKEN_PATTERN, TekkenMatcher};
pub use split::RegexSplit;

use crate::core::error::Result;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::tokenizer::Tokenizer;
use crate::engines::simple::{MatchTokenizer, Matcher};

/// The pre-tokenizers by name, for `pretok:NAME` and its error message.
pub const NAMES: &[&str] = &["gpt2", "cl100k", "o200k", "qwen2"];

/// The hand-written matcher for a named pattern (`gpt2`, also called r50k and p50k; `cl100k`;
/// `o200k`), for the `pretok:` kind and the BPE models that use these patterns.
pub fn matcher(name: &str) -> Option<Box<dyn Matcher>> {
    match name {
        "gpt2" | "r50k" | "p50k" => Some(Box::new(Gpt2Matcher)),
        "cl100k" => Some(Box::new(Cl100kMatcher)),
        "o200k" => Some(Box::new(O200kMatcher)),
        "qwen2" => Some(Box::new(Qwen2Matcher)),
        _ => None,
    }
}

/// The hand-written matcher of a pattern written out in a file that is, character for
/// character, one of the patterns matched by hand (Anthropic's `claude.json` writes GPT-2's,
/// Mistral's tekken files their own): the same pieces as the regex, faster, and with cut
/// points.
pub fn matcher_of_pattern(pattern: &str) -> Option<Box<dyn Matcher>> {
    match pattern {
        GPT2_PATTERN => Some(Box::new(Gpt2Matcher)),
        CL100K_PATTERN => Some(Box::new(Cl100kMatcher)),
        O200K_PATTERN => Some(Box::new(O200kMatcher)),
        TEKKEN_PATTERN => Some(Box::new(TekkenMatcher)),
        QWEN2_PATTERN => Some(Box::new(Qwen2Matcher)),
        _ => None,
    }
}

/// The regex source of a named pattern, for the fancy-regex fallback and for display.
pub fn pattern(name: &str) -> Option<&'static str> {
    match name {
        "gpt2" | "r50k" | "p50k" => Some(GPT2_PATTERN),
        "cl100k" => Some(CL100K_PATTERN),
        "o200k" => Some(O200K_PATTERN),
        "qwen2" => Some(QWEN2_PATTERN),
        _ => None,
    }
}

/// `pretok:NAME`: a BPE pre-tokenizer's pieces, without a model.
pub const KIND: Kind = Kind::new(
    "pretok",
    "pretok:gpt2|cl100k|o200k|qwen2",
    "a BPE pre-tokenizer's pieces",
    load,
)
.with_text_arg();

/// Loads `pretok:NAME`.
pub fn load(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    let name = format!("pretok:{}", spec.arg);
    match spec.arg.as_str() {
        "gpt2" => Ok(Box::new(MatchTokenizer::new(name, Gpt2Matcher))),
        "cl100k" => Ok(Box::new(MatchTokenizer::new(name, Cl100kMatcher))),
        "o200k" => Ok(Box::new(MatchTokenizer::new(name, O200kMatcher))),
        "qwen2" => Ok(Box::new(MatchTokenizer::new(name, Qwen2Matcher))),
        _ => Err(spec.bad(format!(
            "unknown pre-tokenizer `{}` (known: {})",
            spec.arg,
            NAMES.join(", ")
        ))),
    }
}
