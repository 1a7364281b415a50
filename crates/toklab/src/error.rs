//! Errors of the library: every one names what the user gave (a spec, a file and line) so the
//! message alone says what to fix.

use std::path::PathBuf;

/// What can go wrong loading a tokenizer or reading its input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("unknown tokenizer kind `{kind}` in spec `{spec}`; valid kinds: {valid}")]
    UnknownKind {
        spec: String,
        kind: String,
        valid: String,
    },
    /// `valid` lists the kinds of the registry that loaded the spec (empty when none did).
    #[error("bad spec `{spec}`: {message}{}", listed(valid))]
    BadSpec {
        spec: String,
        message: String,
        valid: String,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file that was read but is not what it should be, with the place of the first problem.
    #[error("{}{}: {message}", path.display(), place(*line, *column))]
    Format {
        path: PathBuf,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
}

fn listed(valid: &str) -> String {
    if valid.is_empty() {
        String::new()
    } else {
        format!("; valid kinds: {valid}")
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
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

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
}

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
