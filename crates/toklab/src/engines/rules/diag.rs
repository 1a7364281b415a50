//! Diagnostics of rule files: what the loader and `toklab rules check` report, each with the
//! file, line and column, so a rule author (or the workbench's error pane) can go straight to
//! the place.

use std::fmt;
use std::path::PathBuf;

/// How bad a finding is: errors make utoken skip or misread a line; warnings are lines that
/// load but do not do what their author probably meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Loads, but probably not as meant.
    Warning,
    /// utoken skips or misreads the line.
    Error,
}

/// One finding in a rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule file.
    pub path: PathBuf,
    /// 1-based; 0 for findings about the whole file.
    pub line: usize,
    /// 1-based, in characters; 0 when the finding is about the whole line or file.
    pub column: usize,
    /// How bad it is.
    pub severity: Severity,
    /// What is wrong and, where it helps, what to write instead.
    pub message: String,
}

impl Diagnostic {
    /// A finding that makes utoken skip or misread a line (and fails a strict load).
    pub fn error(
        path: impl Into<PathBuf>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            path: path.into(),
            line,
            column,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    /// A finding that loads but probably does not do what was meant.
    pub fn warning(
        path: impl Into<PathBuf>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, line, column, message)
        }
    }

    /// Whether the finding fails a strict load (and `rules check`).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The library's error for this finding (used when a load must fail).
    pub fn to_error(&self, more: usize) -> crate::Error {
        let message = if more > 0 {
            format!(
                "{} (and {more} more error{}; `toklab rules check` lists them)",
                self.message,
                if more == 1 { "" } else { "s" }
            )
        } else {
            self.message.clone()
        };
        crate::Error::Format {
            path: self.path.clone(),
            line: (self.line > 0).then_some(self.line),
            column: (self.column > 0).then_some(self.column),
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, ": {level}: {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_place() {
        let d = Diagnostic::error("r/tok.txt", 3, 14, "unknown slot `::x`");
        assert_eq!(d.to_string(), "r/tok.txt:3:14: error: unknown slot `::x`");
        let d = Diagnostic::warning("r/tok.txt", 0, 0, "empty file");
        assert_eq!(d.to_string(), "r/tok.txt: warning: empty file");
        assert_eq!(
            d.to_error(2).to_string(),
            "r/tok.txt: empty file (and 2 more errors; `toklab rules check` lists them)"
        );
    }
}
