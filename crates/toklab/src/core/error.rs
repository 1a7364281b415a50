//! Errors of the library: every one names what the user gave (a spec, a file and line) so the
//! message alone says what to fix.

use std::path::PathBuf;

/// What can go wrong loading a tokenizer or reading its input.
///
/// Non-exhaustive: new engines bring new ways to fail, and callers should show the message
/// rather than match every case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A spec whose kind (before the `:`) no loader knows, with the kinds that exist so the
    /// message lists the alternatives.
    #[error("unknown tokenizer kind `{kind}` in spec `{spec}`; valid kinds: {valid}")]
    UnknownKind {
        /// The whole spec as given.
        spec: String,
        /// The kind part that matched no loader.
        kind: String,
        /// The known kinds, comma-separated.
        valid: String,
    },
    /// A spec of a known kind whose argument or options its loader rejects, with that kind's
    /// usage line (the list of every kind would only bury it).
    #[error("bad spec `{spec}`: {message}{}", usage_of(usage))]
    BadSpec {
        /// The whole spec as given.
        spec: String,
        /// What the loader found wrong.
        message: String,
        /// The kind's usage, e.g. `fst:FILE[?repr=matrix|da]` (empty when no registry
        /// loaded the spec).
        usage: String,
    },
    /// A file that could not be read at all. The operating system's reason is part of the
    /// message and not also a `source()`, so a printed error chain says it once.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file, as the user named it.
        path: PathBuf,
        /// The operating system's reason.
        cause: std::io::Error,
    },
    /// A file that was read but is not what it should be, with the place of the first problem.
    #[error("{}{}: {message}", path.display(), place(*line, *column))]
    Format {
        /// The file, as the user named it.
        path: PathBuf,
        /// 1-based line of the problem, when the format has lines.
        line: Option<usize>,
        /// 1-based column of the problem, when known.
        column: Option<usize>,
        /// What is wrong there.
        message: String,
    },
    /// A file given to a kind that does not read it, told by its content, with the spec that
    /// does: the loader's own complaint (bad UTF-8 at some offset) would not say what to do.
    #[error("{}: this is {what}, which `{kind}:` does not read; use `{suggestion}`", path.display())]
    WrongKind {
        /// The file or folder the spec named.
        path: PathBuf,
        /// The kind the spec named.
        kind: String,
        /// What the file is (`a SentencePiece model`).
        what: String,
        /// The spec that reads it (`spm:FILE`).
        suggestion: String,
    },
    /// A module's own typed error (a pattern that does not compile, an automaton too large
    /// for a table, an alignment that does not replay) where no file or spec is at hand to
    /// name. Boxed so the core names no engine; the message is the inner error's.
    #[error(transparent)]
    Invalid(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// Something this tokenizer does not offer (decoding ids with a kind that has no ids),
    /// naming both so the user knows which row or spec to change.
    #[error("`{tokenizer}` cannot {operation}")]
    Unsupported {
        /// The tokenizer's name, as [`crate::Tokenizer::name`] gives it.
        tokenizer: String,
        /// What was asked of it, with the reason, e.g. "decode ids: it has no vocabulary".
        operation: String,
    },
}

fn usage_of(usage: &str) -> String {
    if usage.is_empty() {
        String::new()
    } else {
        format!(" (usage: {usage})")
    }
}

fn place(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

impl Error {
    /// An [`Error::Io`] for `path`, so call sites read `.map_err(|e| Error::io(path, e))`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            cause: source,
        }
    }

    /// An [`Error::Format`] without a column, the common case for line-based formats.
    pub fn format(
        path: impl Into<PathBuf>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        Error::Format {
            path: path.into(),
            line,
            column: None,
            message: message.into(),
        }
    }

    /// Wraps a module's own error type; the `From` impls next to those types call this.
    pub fn invalid(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Error::Invalid(Box::new(error))
    }
}

/// The library's result type: [`Error`] unless a module says otherwise.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_error_names_file_line_column() {
        let e = Error::Format {
            path: "rules/eng.txt".into(),
            line: Some(12),
            column: Some(5),
            message: "unknown slot ::foo".into(),
        };
        assert_eq!(e.to_string(), "rules/eng.txt:12:5: unknown slot ::foo");
        let e = Error::format("x.fst", None, "truncated");
        assert_eq!(e.to_string(), "x.fst: truncated");
    }
}
