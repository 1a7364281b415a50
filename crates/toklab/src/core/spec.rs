//! Tokenizer specs: `KIND:ARG[?key=value&...]`, the one string that names a tokenizer on the
//! command line, in workspaces and in the workbench's prompt.

use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};
use crate::core::tokenizer::Tokenizer;

/// The loader of one kind: the registry it was called from (so a spec that wraps another, such
/// as `sent:SPEC`, loads it with every kind the caller registered) and a parsed spec in, a
/// tokenizer out.
pub type LoadFn = fn(&crate::Registry, Spec) -> Result<Box<dyn Tokenizer>>;

/// One spec kind (`ws`, `fst`, `rules`, …): its name, its help text and its loader. Engines
/// declare theirs as constants (`fst::KIND`); a `Registry` lists them.
/// Built with [`Kind::new`] so fields can be added without breaking engines defined elsewhere.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Kind {
    /// What comes before the `:` in a spec.
    pub name: &'static str,
    /// The spec's shape for help text, such as `fst:FILE[?repr=matrix|da]`.
    pub usage: &'static str,
    /// One line on what the kind does.
    pub about: &'static str,
    /// Whether `?key=value` options are parsed; kinds whose argument is a pattern take none,
    /// so a `?` in the pattern is never mistaken for options.
    pub takes_options: bool,
    /// Whether the argument names a file or folder (relative to the workspace's folder), so a
    /// workspace saved elsewhere rewrites it; a pattern or a name is left as it is.
    pub names_file: bool,
    /// Builds the tokenizer from a spec of this kind.
    pub load: LoadFn,
}

impl Kind {
    /// A kind whose argument is taken whole (no `?key=value` options).
    pub const fn new(
        name: &'static str,
        usage: &'static str,
        about: &'static str,
        load: LoadFn,
    ) -> Kind {
        Kind {
            name,
            usage,
            about,
            takes_options: false,
            names_file: true,
            load,
        }
    }

    /// The same kind, whose argument is a pattern or a name rather than a path.
    pub const fn with_text_arg(mut self) -> Kind {
        self.names_file = false;
        self
    }

    /// The same kind, with `?key=value` options parsed from its specs.
    pub const fn with_options(mut self) -> Kind {
        self.takes_options = true;
        self
    }
}

/// A parsed spec. Options are consumed by the engine that loads it; any left over are an error,
/// so a misspelt option is never silently ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The spec as the user wrote it, for messages.
    pub text: String,
    /// The kind before the first `:` (`bpe`, `rules`, …).
    pub kind: String,
    /// The argument after the `:`, without the options (a path, a pattern).
    pub arg: String,
    options: Vec<(String, String)>,
    /// Where relative paths in `arg` are resolved (the workspace's folder, or the working folder).
    pub base: PathBuf,
}

impl Spec {
    /// The kind a spec text names: what comes before its first `:` (the whole text when there
    /// is none), so a registry can look the kind up before the spec is parsed.
    pub fn kind_name(text: &str) -> &str {
        let trimmed = text.trim();
        let end = trimmed.find([':', '?']).unwrap_or(trimmed.len());
        &trimmed[..end]
    }

    /// Parses a spec of `kind`, its relative paths resolved against `base`. Options are split
    /// off only when the kind takes them. Usually called through a
    /// `Registry`, which finds the kind by name.
    pub fn parse_as(kind: &Kind, text: &str, base: &Path) -> Result<Spec> {
        let trimmed = text.trim();
        let name = Spec::kind_name(trimmed);
        // `KIND?options` without an argument: the `?` cannot belong to a pattern, so the
        // options are always split off (and a kind that takes none says so when it loads).
        let (rest, bare_options) = match trimmed[name.len()..].strip_prefix('?') {
            Some(query) => ("", Some(query)),
            None => (trimmed[name.len()..].strip_prefix(':').unwrap_or(""), None),
        };
        if name != kind.name {
            return Err(Error::BadSpec {
                spec: text.to_string(),
                message: format!("not a `{}:` spec", kind.name),
                usage: String::new(),
            });
        }
        let (arg, options) = match (bare_options, split_query(rest)) {
            (Some(query), _) => ("", parse_options(text, query)?),
            (None, Some((arg, query))) if kind.takes_options => (arg, parse_options(text, query)?),
            _ => (rest, Vec::new()),
        };
        Ok(Spec {
            text: text.to_string(),
            kind: name.to_string(),
            arg: arg.to_string(),
            options,
            base: base.to_path_buf(),
        })
    }

    /// The spec's text with its argument replaced (the options kept as written): what a
    /// workspace saved in another folder writes for a path that moved relative to it.
    pub fn with_arg(&self, arg: &str) -> String {
        let trimmed = self.text.trim();
        let after_kind = &trimmed[self.kind.len()..];
        let rest = after_kind
            .strip_prefix(':')
            .and_then(|r| r.strip_prefix(self.arg.as_str()))
            .unwrap_or(after_kind);
        format!("{}:{arg}{rest}", self.kind)
    }

    /// Whether option `key` was given (and not taken yet).
    pub fn has_option(&self, key: &str) -> bool {
        self.options.iter().any(|(k, _)| k == key)
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

    /// The argument as a path, resolved against the spec's base folder. A workspace in
    /// `samples/` naming `../rules` gives `rules`, not `samples/../rules`, so origins and
    /// messages show the path a user would write.
    pub fn path(&self) -> PathBuf {
        let path = Path::new(&self.arg);
        if path.is_absolute() || self.base.as_os_str().is_empty() {
            path.to_path_buf()
        } else {
            without_parent_steps(&self.base.join(path))
        }
    }

    /// An error about this spec.
    pub fn bad(&self, message: impl Into<String>) -> Error {
        Error::BadSpec {
            spec: self.text.clone(),
            message: message.into(),
            usage: String::new(),
        }
    }
}

/// Options whose value, unless it is a plain word, runs verbatim to the end of the spec, so a
/// regex may hold `?`, `&` and `=`: such an option must come last (`tiktoken:FILE?special=none&pattern=(?i:'s)| ?\p{L}+`).
const VERBATIM_OPTIONS: &[&str] = &["pattern"];

/// Splits `FILE?OPTIONS` at the first `?` that starts an option (`?key=`), so a verbatim option
/// may hold `?`; when none does, at the last `?`.
fn split_query(rest: &str) -> Option<(&str, &str)> {
    let starts_option = |query: &str| {
        query.split_once('=').is_some_and(|(key, _)| {
            !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    rest.match_indices('?')
        .map(|(at, _)| (&rest[..at], &rest[at + 1..]))
        .find(|(_, query)| starts_option(query))
        .or_else(|| rest.rsplit_once('?'))
}

fn parse_options(spec: &str, query: &str) -> Result<Vec<(String, String)>> {
    let mut verbatim = None;
    let mut rest = query;
    let mut at = 0;
    while at < query.len() {
        let pair = &query[at..];
        // A plain word (`pattern=cl100k&special=none`) is an ordinary value.
        let plain = |value: &str| {
            let word = value.split('&').next().unwrap_or("");
            !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if let Some(key) = VERBATIM_OPTIONS.iter().find(|k| {
            pair.strip_prefix(**k)
                .and_then(|v| v.strip_prefix('='))
                .is_some_and(|v| !plain(v))
        }) {
            verbatim = Some((key.to_string(), pair[key.len() + 1..].to_string()));
            rest = &query[..at.saturating_sub(1)];
            break;
        }
        at += pair.find('&').map_or(pair.len(), |i| i + 1);
    }
    let mut options = parse_pairs(spec, rest)?;
    options.extend(verbatim);
    Ok(options)
}

fn parse_pairs(spec: &str, query: &str) -> Result<Vec<(String, String)>> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(Error::BadSpec {
                spec: spec.to_string(),
                message: format!("option `{pair}` is not key=value"),
                usage: String::new(),
            }),
        })
        .collect()
}

/// `path` with each `folder/..` pair taken out where `folder` is a plain name; a leading `..`
/// stays (there is nothing to take it from).
fn without_parent_steps(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut kept: Vec<Component> = Vec::new();
    for component in path.components() {
        match component {
            Component::ParentDir if matches!(kept.last(), Some(Component::Normal(_))) => {
                kept.pop();
            }
            Component::CurDir if !kept.is_empty() => {}
            other => kept.push(other),
        }
    }
    if kept.is_empty() {
        PathBuf::from(".")
    } else {
        kept.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_from_a_workspace_folder_loses_its_parent_steps() {
        let clean = |p: &str| without_parent_steps(Path::new(p));
        assert_eq!(clean("samples/../rules"), Path::new("rules"));
        assert_eq!(
            clean("samples/./bpe/../fst/x.fst"),
            Path::new("samples/fst/x.fst")
        );
        assert_eq!(clean("../shared/data"), Path::new("../shared/data"));
        assert_eq!(clean("/a/b/../c"), Path::new("/a/c"));
        assert_eq!(clean("samples/.."), Path::new("."));
    }

    fn never(_: &crate::Registry, _: Spec) -> Result<Box<dyn Tokenizer>> {
        unimplemented!("only parsed here")
    }

    const PLAIN: Kind = Kind::new("plain", "plain:ARG", "an argument taken whole", never);
    const OPTIONS: Kind = Kind::new("opts", "opts:ARG?k=v", "options", never).with_options();

    #[test]
    fn a_pattern_option_takes_the_rest_of_the_spec() {
        let kind = Kind::new("k", "k:FILE", "", |_, _| unreachable!()).with_options();
        let spec = Spec::parse_as(
            &kind,
            "k:f.txt?special=none&pattern=(?i:'s)| ?\\p{L}+|a&b=c",
            Path::new(""),
        )
        .unwrap();
        assert_eq!(spec.arg, "f.txt");
        let mut spec = spec;
        assert_eq!(spec.take_option("special").as_deref(), Some("none"));
        assert_eq!(
            spec.take_option("pattern").as_deref(),
            Some("(?i:'s)| ?\\p{L}+|a&b=c")
        );
        let plain = Spec::parse_as(&kind, "k:f?x=1&y=2", Path::new("")).unwrap();
        assert_eq!((plain.arg.as_str(), plain.options.len()), ("f", 2));
        let mut named =
            Spec::parse_as(&kind, "k:f?pattern=cl100k&special=none", Path::new("")).unwrap();
        assert_eq!(named.take_option("pattern").as_deref(), Some("cl100k"));
        assert_eq!(named.take_option("special").as_deref(), Some("none"));
    }

    #[test]
    fn kind_arg_and_options() {
        assert_eq!(Spec::kind_name(" opts:a?x=1 "), "opts");
        assert_eq!(Spec::kind_name("ws"), "ws");
        let mut s = Spec::parse_as(&OPTIONS, "opts:a:b?x=1", Path::new("")).unwrap();
        assert_eq!((s.kind.as_str(), s.arg.as_str()), ("opts", "a:b"));
        assert_eq!(s.take_option("x").as_deref(), Some("1"));
        assert!(s.take_option("x").is_none());
        assert!(s.finish(&[]).is_ok());
    }

    #[test]
    fn kinds_without_options_keep_question_marks_and_colons() {
        let s = Spec::parse_as(&PLAIN, r"plain:\w+(?:'\w+)?|https?://\S+", Path::new("")).unwrap();
        assert_eq!(s.arg, r"\w+(?:'\w+)?|https?://\S+");
    }

    #[test]
    fn a_spec_of_another_kind_is_refused() {
        let e = Spec::parse_as(&PLAIN, "opts:a", Path::new(""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a `plain:` spec"), "{e}");
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
        let s = Spec::parse_as(&PLAIN, "plain:x", Path::new("/tmp/ws")).unwrap();
        assert_eq!(s.path(), PathBuf::from("/tmp/ws/x"));
    }
}
