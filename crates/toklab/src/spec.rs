//! Tokenizer specs: `KIND:ARG[?key=value&...]`, the one string that names a tokenizer on the
//! command line, in workspaces and in the workbench's prompt.

use std::path::{Path, PathBuf};

use crate::engine::Tokenizer;
use crate::error::{Error, Result};

/// One spec kind, for the loader and for the help text that lists valid kinds.
pub struct KindInfo {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
    /// Whether `?key=value` options are parsed; kinds whose argument is a pattern take none,
    /// so a `?` in the pattern is never mistaken for options.
    pub takes_options: bool,
}

/// Every kind the loader knows, in the order the help lists them.
pub const KINDS: &[KindInfo] = &[
    KindInfo {
        name: "ws",
        usage: "ws",
        about: "split on whitespace",
        takes_options: false,
    },
    KindInfo {
        name: "words",
        usage: "words",
        about: "Unicode word boundaries (UAX #29), whitespace dropped",
        takes_options: false,
    },
    KindInfo {
        name: "regex",
        usage: "regex:PATTERN",
        about: "tokens are the pattern's matches (as NLTK's regexp_tokenize); look-around allowed",
        takes_options: false,
    },
    KindInfo {
        name: "pretok",
        usage: "pretok:gpt2|cl100k|o200k",
        about: "a BPE pre-tokenizer's pieces",
        takes_options: false,
    },
    KindInfo {
        name: "maxmatch",
        usage: "maxmatch:DICT?dir=fwd|bwd",
        about: "longest dictionary words (one word per line), forward or backward; where the two directions disagree is marked ambiguous",
        takes_options: true,
    },
    KindInfo {
        name: "fst",
        usage: "fst:FILE[?repr=matrix|da]",
        about: "a finite-state tokenizer (foma .fst, AT&T, Datok .matok/.datok) run as Datok runs it",
        takes_options: true,
    },
    KindInfo {
        name: "bpe",
        usage: "bpe:DIR|FILE.json",
        about: "BPE model: GPT-2 folder (encoder.json + vocab.bpe) or HuggingFace tokenizer.json; ?pattern=gpt2|cl100k|o200k|none&special=all|none&semantics=sp|hf",
        takes_options: true,
    },
    KindInfo {
        name: "tiktoken",
        usage: "tiktoken:FILE",
        about: "tiktoken rank file; ?pattern=r50k|p50k|p50k_edit|cl100k|o200k (default from the file name)&special=all|none&semantics=sp|hf",
        takes_options: true,
    },
    KindInfo {
        name: "spm",
        usage: "spm:FILE.model",
        about: "SentencePiece model, BPE or unigram (its normalizer, ▁ for spaces, byte fallback); ?semantics=sp|hf for BPE",
        takes_options: true,
    },
    KindInfo {
        name: "wordpiece",
        usage: "wordpiece:vocab.txt",
        about: "BERT WordPiece: basic pre-split, greedy longest match with ##; ?lowercase=true|false&special=all|none",
        takes_options: true,
    },
    KindInfo {
        name: "rules",
        usage: "rules:DIR?lang=LC",
        about: "utoken's rule files run as utoken runs them (also rules:FILE; options simple=true, strict=false)",
        takes_options: true,
    },
];

/// The valid kinds as one line, for error messages.
pub fn valid_kinds() -> String {
    KINDS.iter().map(|k| k.usage).collect::<Vec<_>>().join(", ")
}

/// A parsed spec. Options are consumed by the engine that loads it; any left over are an error,
/// so a misspelt option is never silently ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub text: String,
    pub kind: String,
    pub arg: String,
    options: Vec<(String, String)>,
    /// Where relative paths in `arg` are resolved (the workspace's folder, or the working folder).
    pub base: PathBuf,
}

impl Spec {
    pub fn parse(text: &str) -> Result<Spec> {
        Spec::parse_in(text, Path::new(""))
    }

    /// Parses a spec whose relative paths are resolved against `base`.
    pub fn parse_in(text: &str, base: &Path) -> Result<Spec> {
        let trimmed = text.trim();
        let (kind, rest) = match trimmed.split_once(':') {
            Some((kind, rest)) => (kind, rest),
            None => (trimmed, ""),
        };
        let Some(info) = KINDS.iter().find(|k| k.name == kind) else {
            return Err(Error::UnknownKind {
                spec: text.to_string(),
                kind: kind.to_string(),
                valid: valid_kinds(),
            });
        };
        let (arg, options) = match rest.rsplit_once('?') {
            Some((arg, query)) if info.takes_options => (arg, parse_options(text, query)?),
            _ => (rest, Vec::new()),
        };
        Ok(Spec {
            text: text.to_string(),
            kind: kind.to_string(),
            arg: arg.to_string(),
            options,
            base: base.to_path_buf(),
        })
    }

    /// Removes and returns option `key`.
    pub fn take_option(&mut self, key: &str) -> Option<String> {
        let index = self.options.iter().position(|(k, _)| k == key)?;
        Some(self.options.remove(index).1)
    }

    /// A boolean option (`true`/`false`, `1`/`0`, `yes`/`no`), `default` when absent.
    pub fn take_flag(&mut self, key: &str, default: bool) -> Result<bool> {
        match self.take_option(key).as_deref() {
            None => Ok(default),
            Some("true" | "1" | "yes") => Ok(true),
            Some("false" | "0" | "no") => Ok(false),
            Some(other) => {
                Err(self.bad(format!("option `{key}` wants true or false, not `{other}`")))
            }
        }
    }

    /// Errors if options remain that the engine did not take, naming the ones it accepts.
    pub fn finish(&self, accepted: &[&str]) -> Result<()> {
        match self.options.first() {
            None => Ok(()),
            Some((key, _)) => Err(self.bad(if accepted.is_empty() {
                format!("kind `{}` takes no options, got `{key}`", self.kind)
            } else {
                format!(
                    "unknown option `{key}` for kind `{}` (accepted: {})",
                    self.kind,
                    accepted.join(", ")
                )
            })),
        }
    }

    /// The argument as a path, resolved against the spec's base folder.
    pub fn path(&self) -> PathBuf {
        let path = Path::new(&self.arg);
        if path.is_absolute() || self.base.as_os_str().is_empty() {
            path.to_path_buf()
        } else {
            self.base.join(path)
        }
    }

    /// An error about this spec.
    pub fn bad(&self, message: impl Into<String>) -> Error {
        Error::BadSpec {
            spec: self.text.clone(),
            message: message.into(),
            valid: valid_kinds(),
        }
    }
}

fn parse_options(spec: &str, query: &str) -> Result<Vec<(String, String)>> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(Error::BadSpec {
                spec: spec.to_string(),
                message: format!("option `{pair}` is not key=value"),
                valid: valid_kinds(),
            }),
        })
        .collect()
}

/// Loads the tokenizer a spec names, resolving relative paths against the working folder.
pub fn load(spec: &str) -> Result<Box<dyn Tokenizer>> {
    load_spec(Spec::parse(spec)?)
}

/// Loads the tokenizer a spec names, resolving relative paths against `base`.
pub fn load_in(spec: &str, base: &Path) -> Result<Box<dyn Tokenizer>> {
    load_spec(Spec::parse_in(spec, base)?)
}

/// Dispatches a parsed spec to its engine's loader.
pub fn load_spec(spec: Spec) -> Result<Box<dyn Tokenizer>> {
    match spec.kind.as_str() {
        "ws" | "words" | "regex" => crate::simple::load(spec),
        "pretok" => crate::pretok::load(spec),
        "maxmatch" => crate::maxmatch::load(spec),
        "fst" => crate::fst::load(spec),
        "bpe" | "tiktoken" | "spm" => crate::bpe::load(spec),
        "wordpiece" => crate::wordpiece::load(spec),
        "rules" => crate::rules::load(spec),
        other => unreachable!("kind `{other}` is in KINDS but has no loader"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_arg_and_options() {
        let mut s = Spec::parse("pretok:gpt2").unwrap();
        assert_eq!((s.kind.as_str(), s.arg.as_str()), ("pretok", "gpt2"));
        assert!(s.take_option("x").is_none());
        assert!(s.finish(&[]).is_ok());
    }

    #[test]
    fn regex_keeps_question_marks_and_colons() {
        let s = Spec::parse(r"regex:\w+(?:'\w+)?|https?://\S+").unwrap();
        assert_eq!(s.arg, r"\w+(?:'\w+)?|https?://\S+");
    }

    #[test]
    fn unknown_kind_lists_valid_kinds() {
        let e = Spec::parse("bogus:x").unwrap_err().to_string();
        assert!(e.contains("unknown tokenizer kind `bogus`"), "{e}");
        assert!(e.contains("ws, words, regex:PATTERN"), "{e}");
    }

    #[test]
    fn malformed_option_is_an_error() {
        let e = parse_options("k:a?x", "x").unwrap_err().to_string();
        assert!(e.contains("not key=value"), "{e}");
    }

    #[test]
    fn leftover_options_are_named() {
        let s = Spec {
            text: "k:a?colour=red".into(),
            kind: "k".into(),
            arg: "a".into(),
            options: vec![("colour".into(), "red".into())],
            base: PathBuf::new(),
        };
        let e = s.finish(&["lang"]).unwrap_err().to_string();
        assert!(
            e.contains("unknown option `colour`") && e.contains("accepted: lang"),
            "{e}"
        );
    }

    #[test]
    fn relative_paths_resolve_against_base() {
        let s = Spec::parse_in("ws:x", Path::new("/tmp/ws")).unwrap();
        assert_eq!(s.path(), PathBuf::from("/tmp/ws/x"));
    }
}
