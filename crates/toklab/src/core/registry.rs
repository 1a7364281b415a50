//! The kinds of tokenizer a spec can name, and the one place that lists the built-in ones:
//! adding an engine means its folder plus one line in the `BUILTIN` list below.

use std::borrow::Cow;
use std::path::Path;

use crate::core::error::{Error, Result};
use crate::core::sniff;
use crate::core::spec::{Kind, Spec};
use crate::core::tokenizer::Tokenizer;

/// Every built-in kind, one line each, in the order the help lists them.
const BUILTIN: &[Kind] = &[
    crate::engines::simple::WS,
    crate::engines::simple::WORDS,
    crate::engines::simple::REGEX,
    crate::engines::simple::ptb::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::pretok::KIND,
    crate::engines::simple::maxmatch::KIND,
    #[cfg(feature = "lex")]
    crate::engines::lex::KIND,
    #[cfg(feature = "fst")]
    crate::engines::fst::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::bpe::BPE,
    #[cfg(feature = "subword")]
    crate::engines::subword::bpe::TIKTOKEN,
    #[cfg(feature = "subword")]
    crate::engines::subword::bpe::SPM,
    #[cfg(feature = "subword")]
    crate::engines::subword::hf::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::gguf::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::gguf::OLLAMA,
    #[cfg(feature = "subword")]
    crate::engines::subword::wordpiece::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::rwkv::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::tekken::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::claude::KIND,
    #[cfg(feature = "subword")]
    crate::engines::subword::clip::KIND,
    #[cfg(feature = "rules")]
    crate::engines::rules::KIND,
    crate::engines::segment::KIND,
];

/// A set of kinds: what turns a spec string into a tokenizer. Start from
/// [`Registry::builtin`] and [`register`](Registry::register) engines of your own:
///
/// ```
/// use toklab::core::tokenizer::{Tokenizer, Trace};
/// use toklab::{Kind, Registry, Spec, Span, Token, TokenKind, Tokenization};
///
/// /// Every character is a token.
/// struct Chars;
///
/// impl Tokenizer for Chars {
///     fn name(&self) -> &str {
///         "chars"
///     }
///     fn tokenize(&self, text: &str) -> Tokenization {
///         let spans = text.char_indices().map(|(i, c)| Span::new(i, i + c.len_utf8()));
///         Tokenization::new(spans.map(|s| Token::new(s, TokenKind::Other)).collect())
///     }
///     fn explain(&self, _text: &str) -> Trace {
///         Trace::default()
///     }
/// }
///
/// fn load_chars(_registry: &Registry, spec: Spec) -> toklab::Result<Box<dyn Tokenizer>> {
///     spec.finish(&[])?;
///     Ok(Box::new(Chars))
/// }
///
/// const CHARS: Kind = Kind::new("chars", "chars", "one token per character", load_chars);
///
/// let mut registry = Registry::builtin();
/// registry.register(CHARS);
/// let tokenizer = registry.load("chars", ".".as_ref()).unwrap();
/// assert_eq!(tokenizer.tokenize("héllo").len(), 5);
/// assert!(registry.load("ws", ".".as_ref()).is_ok(), "the built-in kinds are still there");
/// ```
#[derive(Clone, Debug)]
pub struct Registry {
    kinds: Cow<'static, [Kind]>,
}

impl Registry {
    /// The kinds toklab ships with.
    pub fn builtin() -> Registry {
        Registry {
            kinds: Cow::Borrowed(BUILTIN),
        }
    }

    /// A registry with no kinds, for programs that want only their own engines.
    pub fn empty() -> Registry {
        Registry {
            kinds: Cow::Borrowed(&[]),
        }
    }

    /// Adds a kind; one of the same name is replaced, so a program can swap a built-in engine.
    pub fn register(&mut self, kind: Kind) -> &mut Registry {
        let kinds = self.kinds.to_mut();
        match kinds.iter_mut().find(|k| k.name == kind.name) {
            Some(existing) => *existing = kind,
            None => kinds.push(kind),
        }
        self
    }

    /// The kinds, in the order the help lists them.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// The valid kinds as one line, for error messages.
    pub fn valid_kinds(&self) -> String {
        let usages: Vec<&str> = self.kinds.iter().map(|k| k.usage).collect();
        usages.join(", ")
    }

    /// Parses a spec whose relative paths are resolved against `base`; the kind decides
    /// whether `?key=value` options are split off.
    /// A spec that is only a path (`tokenizer.json`, `models/gpt2/`) takes the kind its
    /// content shows ([`crate::core::sniff`]).
    pub fn parse(&self, text: &str, base: &Path) -> Result<Spec> {
        let name = Spec::kind_name(text);
        if self.kind(name).is_none()
            && let Some(sniffed) = sniff::sniff(&base.join(name))
            && self.kind(sniffed.kind).is_some()
        {
            return self.parse(&format!("{}:{}", sniffed.kind, text.trim()), base);
        }
        let Some(kind) = self.kind(name) else {
            return Err(Error::UnknownKind {
                spec: text.to_string(),
                kind: name.to_string(),
                valid: self.valid_kinds(),
            });
        };
        Spec::parse_as(kind, text, base).map_err(|e| self.with_usage(e))
    }

    /// Loads the tokenizer a spec names, resolving relative paths against `base`. A
    /// `LABEL=` before the spec ([`crate::core::label`]) is for the views and is ignored here.
    pub fn load(&self, text: &str, base: &Path) -> Result<Box<dyn Tokenizer>> {
        self.load_spec(self.parse(crate::core::label::split(text).spec, base)?)
    }

    /// Loads a parsed spec with its kind's loader.
    pub fn load_spec(&self, spec: Spec) -> Result<Box<dyn Tokenizer>> {
        let Some(kind) = self.kind(&spec.kind) else {
            return Err(Error::UnknownKind {
                kind: spec.kind.clone(),
                spec: spec.text,
                valid: self.valid_kinds(),
            });
        };
        let path = spec.path();
        let named = spec.kind.clone();
        (kind.load)(self, spec).map_err(|e| {
            self.wrong_kind(&named, &path)
                .unwrap_or_else(|| self.with_usage(e))
        })
    }

    /// When a loader failed on a file that is plainly of another kind, that kind's error.
    fn wrong_kind(&self, named: &str, path: &Path) -> Option<Error> {
        if !path.exists() {
            return None;
        }
        let sniffed = sniff::sniff(path)?;
        let reads_it = sniffed.kind == named
            // `bpe:` reads tokenizer.json, tiktoken and SentencePiece files too.
            || (named == "bpe" && matches!(sniffed.kind, "hf" | "tiktoken" | "spm"));
        if reads_it || self.kind(sniffed.kind).is_none() {
            return None;
        }
        Some(Error::WrongKind {
            path: path.to_path_buf(),
            kind: named.to_string(),
            what: sniffed.what.to_string(),
            suggestion: format!("{}:{}", sniffed.kind, path.display()),
        })
    }

    /// A spec error with its kind's usage, so the message says what would have worked.
    fn with_usage(&self, error: Error) -> Error {
        match error {
            Error::BadSpec {
                spec,
                message,
                usage,
            } if usage.is_empty() => {
                let usage = self
                    .kind(Spec::kind_name(&spec))
                    .map(|k| k.usage.to_string())
                    .unwrap_or_default();
                Error::BadSpec {
                    spec,
                    message,
                    usage,
                }
            }
            other => other,
        }
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::builtin()
    }
}

impl Spec {
    /// Parses a spec of a built-in kind, relative paths resolved against the working folder.
    pub fn parse(text: &str) -> Result<Spec> {
        Registry::builtin().parse(text, Path::new(""))
    }

    /// Parses a spec of a built-in kind whose relative paths are resolved against `base`.
    pub fn parse_in(text: &str, base: &Path) -> Result<Spec> {
        Registry::builtin().parse(text, base)
    }
}

/// Loads the tokenizer a spec of a built-in kind names, resolving relative paths against the
/// working folder.
pub fn load(spec: &str) -> Result<Box<dyn Tokenizer>> {
    Registry::builtin().load(spec, Path::new(""))
}

/// Loads the tokenizer a spec of a built-in kind names, resolving relative paths against
/// `base`.
pub fn load_in(spec: &str, base: &Path) -> Result<Box<dyn Tokenizer>> {
    Registry::builtin().load(spec, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_kinds_parse_as_before() {
        let mut s = Spec::parse("pretok:gpt2").unwrap();
        assert_eq!((s.kind.as_str(), s.arg.as_str()), ("pretok", "gpt2"));
        assert!(s.take_option("x").is_none());
        let s = Spec::parse(r"regex:\w+(?:'\w+)?|https?://\S+").unwrap();
        assert_eq!(s.arg, r"\w+(?:'\w+)?|https?://\S+");
        let mut s = Spec::parse("fst:a.fst?repr=da").unwrap();
        assert_eq!(s.take_option("repr").as_deref(), Some("da"));
    }

    #[test]
    fn unknown_kind_lists_valid_kinds() {
        let e = Spec::parse("bogus:x").unwrap_err().to_string();
        assert!(e.contains("unknown tokenizer kind `bogus`"), "{e}");
        assert!(e.contains("ws, words, regex:PATTERN"), "{e}");
    }

    #[test]
    fn a_bad_spec_of_a_valid_kind_shows_that_kinds_usage_not_every_kind() {
        let e = load("pretok:nope").err().unwrap().to_string();
        assert!(e.contains("unknown pre-tokenizer `nope`"), "{e}");
        assert!(
            e.ends_with("(usage: pretok:gpt2|cl100k|o200k|qwen2)"),
            "{e}"
        );
        assert!(!e.contains("valid kinds"), "{e}");
        let e = load("fst:x?broken").err().unwrap().to_string();
        assert!(e.contains("not key=value"), "{e}");
        assert!(
            e.ends_with("(usage: fst:FILE[?repr=matrix|da][&allow=files])"),
            "{e}"
        );
    }

    #[test]
    fn every_kind_is_listed_once() {
        let registry = Registry::builtin();
        for kind in registry.kinds() {
            let same = registry.kinds().iter().filter(|k| k.name == kind.name);
            assert_eq!(same.count(), 1, "{}", kind.name);
        }
    }

    #[test]
    fn register_replaces_a_kind_of_the_same_name() {
        let mut registry = Registry::builtin();
        let count = registry.kinds().len();
        registry.register(crate::engines::simple::WORDS);
        assert_eq!(registry.kinds().len(), count);
        let mut empty = Registry::empty();
        empty.register(crate::engines::simple::WS);
        assert!(empty.load("ws", Path::new("")).is_ok());
        let e = empty
            .load("words", Path::new(""))
            .err()
            .unwrap()
            .to_string();
        assert!(e.ends_with("valid kinds: ws"), "unknown here: {e}");
    }
}
