//! What an XFST script may ask foma to do. A script is a file people send each other, and
//! foma's language reaches the shell (`system`) and the file system (`source`, `save`, `load`,
//! `read lexc`, `write att`, `print words > F`, `@"F"` in a regular expression, …). Unless the
//! user allows files (`?allow=files`), every statement must be one of an allow-list of commands
//! that only build and inspect networks in memory; anything else is refused, naming the file
//! and line, before foma runs.
//!
//! The scan follows foma's own reading of a script: a command is a line, except `define`,
//! `regex` (`read regex`) and `NAME = …`, whose regular expression runs to the first `;` that is
//! not escaped with `%`, quoted, inside braces or in a `#`/`!` comment; a function definition
//! `define F(x) …;` has no comments. Text after that `;` on the same line is not read as a
//! command by foma (commands are only recognised at the start of a line).

use std::path::Path;

use crate::core::error::{Error, Result};

/// Commands (first word) that build, combine or inspect networks in memory and never read or
/// write a file or start a program, whatever follows them on the line.
const HARMLESS: &[&str] = &[
    "ambiguous",
    "assert-stack",
    "clear",
    "close",
    "compact",
    "complete",
    "compose",
    "concatenate",
    "crossproduct",
    "det",
    "determinize",
    "echo",
    "eliminate",
    "exit",
    "extract",
    "factorize",
    "ignore",
    "intersect",
    "invert",
    "label",
    "letter",
    "lower-side",
    "min",
    "minimize",
    "name",
    "negate",
    "one-plus",
    "pop",
    "prune",
    "push",
    "quit",
    "reverse",
    "rotate",
    "sequentialize",
    "set",
    "show",
    "shuffle",
    "sigma",
    "sort",
    "substitute",
    "test",
    "turn",
    "twosided",
    "undefine",
    "union",
    "upper-side",
    "zero-plus",
];

/// Printing commands: harmless as long as the line has no `>` (which sends the output to a
/// file). `dot` is left out: foma's `print dot`/`view` may start a viewer.
const PRINTING: &[&str] = &[
    "defined",
    "lower-words",
    "name",
    "net",
    "pairs",
    "random-lower",
    "random-upper",
    "random-words",
    "shortest-string",
    "shortest-string-size",
    "sigma",
    "size",
    "stack-size",
    "upper-words",
    "words",
];

/// Words that start a regular expression statement (`regex`, `read regex`, `define`), with
/// foma's shortened forms.
const REGEX_HEADS: &[&str] = &["re", "reg", "rege", "regex"];
const READ: &[&str] = &["re", "rea", "read"];
const DEFINE: &[&str] = &["de", "def", "defi", "defin", "define"];

/// Checks `text` (the script `path`) statement by statement; the first refused one is the
/// error, naming `path` and its line.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut line = 1;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        let this = &text[at..end];
        // foma's reader has no rule for a NUL byte: refused rather than guessing how it reads on.
        if this.contains('\0') {
            return Err(refuse(path, line, this, "the line holds a NUL byte"));
        }
        let statement = classify(this).map_err(|why| refuse(path, line, this, &why))?;
        let next = match statement {
            Statement::Line => end,
            Statement::Regex { from, function } => {
                let body = at + from;
                let close = regex_end(bytes, body, function)
                    .ok_or_else(|| refuse(path, line, this, "the `;` that ends it is missing"))?;
                if let Some(why) = reads_file(&bytes[body..close]) {
                    return Err(refuse(path, line, this, why));
                }
                // foma reads no command after the `;` on the same line.
                memchr::memchr(b'\n', &bytes[close..]).map_or(bytes.len(), |i| close + i)
            }
        };
        line += bytes[at..next].iter().filter(|&&b| b == b'\n').count() + 1;
        at = next + 1;
    }
    Ok(())
}

fn refuse(path: &Path, line: usize, text: &str, why: impl std::fmt::Display) -> Error {
    let shown: String = text.trim().chars().take(60).collect();
    Error::format(
        path,
        Some(line),
        format!(
            "foma command {shown:?} is not run: {why}. A script may only build networks in \
             memory; to let it read or write files or run programs, load it with \
             `?allow=files` (only for a script you trust)"
        ),
    )
}

/// How a line starts a statement.
enum Statement {
    /// A one-line command (or a comment, or a blank line).
    Line,
    /// A regular expression from byte `from` of the line to the next unescaped `;`.
    Regex { from: usize, function: bool },
}

/// Why a line is not run; the loader adds the file, line and the way to allow it.
#[derive(Debug)]
enum Refused {
    /// A regex command with nothing after its head word.
    NoRegex,
    /// A printing command redirected to a file.
    WritesFile,
    /// `system` in any of its abbreviations.
    Shell,
    /// Any other command, named: it touches files, runs programs or is unknown.
    Command(String),
    /// `define` without a name.
    NoName,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NoRegex => f.write_str("a regular expression must follow on the same line"),
            Refused::WritesFile => f.write_str("it writes its output to a file"),
            Refused::Shell => f.write_str("it runs a shell command"),
            Refused::Command(first) => write!(
                f,
                "`{first}` reads or writes files, runs a program or is not a foma command"
            ),
            Refused::NoName => f.write_str("a name must follow `define`"),
        }
    }
}

impl std::error::Error for Refused {}

fn classify(line: &str) -> std::result::Result<Statement, Refused> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let indent = line.len() - trimmed.len();
    let content = trimmed.trim_end_matches(['\r', ' ', '\t']);
    if content.is_empty() || content.starts_with(['#', '!']) {
        return Ok(Statement::Line);
    }
    // `NAME = regex ;`
    if let Some(eq) = content.find('=') {
        let name = content[..eq].trim_end_matches([' ', '\t']);
        if !name.is_empty() && !name.contains([' ', '\t', '!', '#']) {
            return Ok(Statement::Regex {
                from: indent + eq + 1,
                function: false,
            });
        }
    }
    let mut words = content.split([' ', '\t']).filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default();
    let second = words.next();
    // The regular expression starts after the head word(s) and the blank after them.
    let after = |n: usize| -> Option<usize> {
        let mut rest = trimmed;
        for _ in 0..n {
            rest = rest.trim_start_matches([' ', '\t']);
            let word = rest.find([' ', '\t'])?;
            rest = &rest[word..];
        }
        Some(line.len() - rest.len())
    };
    if REGEX_HEADS.contains(&first) || (READ.contains(&first) && second == Some("regex")) {
        let n = if REGEX_HEADS.contains(&first) { 1 } else { 2 };
        return after(n)
            .map(|from| Statement::Regex {
                from,
                function: false,
            })
            .ok_or(Refused::NoRegex);
    }
    if DEFINE.contains(&first) {
        return define(trimmed, indent);
    }
    if HARMLESS.contains(&first) && !content.contains('>') {
        return Ok(Statement::Line);
    }
    let printed = if first == "print" {
        second
    } else {
        Some(first)
    };
    if printed.is_some_and(|w| PRINTING.contains(&w)) {
        return if content.contains('>') {
            Err(Refused::WritesFile)
        } else {
            Ok(Statement::Line)
        };
    }
    Err(match first {
        "system" | "sy" | "sys" | "syst" | "syste" => Refused::Shell,
        _ => Refused::Command(first.to_string()),
    })
}

/// `define NAME regex ;`, `define F(x) … ;`, or `define NAME` alone (which names the network
/// on the stack and ends at the line's end, as foma reads it).
fn define(trimmed: &str, indent: usize) -> std::result::Result<Statement, Refused> {
    let head = trimmed.find([' ', '\t']).ok_or(Refused::NoName)?;
    let rest = &trimmed[head..];
    let name_start = head + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    let after_name = &trimmed[name_start..];
    let name_len = after_name
        .find([' ', '\t', '(', '\r', ';'])
        .unwrap_or(after_name.len());
    if name_len == 0 {
        return Err(Refused::NoName);
    }
    let next = after_name[name_len..].chars().next();
    match next {
        Some('(') => Ok(Statement::Regex {
            from: indent + name_start + name_len,
            function: true,
        }),
        Some(' ' | '\t') => Ok(Statement::Regex {
            from: indent + name_start + name_len,
            function: false,
        }),
        _ => Ok(Statement::Line),
    }
}

/// Where the regular expression starting at `from` ends: the index of its `;`.
fn regex_end(bytes: &[u8], from: usize, function: bool) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b';' => return Some(i),
            b'%' => i += 1,
            b'"' => i += memchr::memchr(b'"', &bytes[i + 1..])? + 1,
            b'{' => i += memchr::memchr(b'}', &bytes[i + 1..])? + 1,
            b'.' if !function && bytes.get(i + 1) == Some(&b'#') => i += 1,
            b'#' | b'!' if !function => {
                i += memchr::memchr(b'\n', &bytes[i..]).unwrap_or(bytes.len() - i)
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a regular expression reads a file: `@"F"`, `@re"F"`, `@txt"F"`, `@stxt"F"`, …
/// outside quotes, braces and escapes.
fn reads_file(regex: &[u8]) -> Option<&'static str> {
    let mut i = 0;
    while i < regex.len() {
        match regex[i] {
            b'%' => i += 1,
            b'"' => i += memchr::memchr(b'"', &regex[i + 1..]).map_or(regex.len(), |n| n + 1),
            b'{' => i += memchr::memchr(b'}', &regex[i + 1..]).map_or(regex.len(), |n| n + 1),
            b'@' => {
                let letters = regex[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                if regex.get(i + 1 + letters) == Some(&b'"') {
                    return Some("its regular expression reads a file (`@\"…\"`)");
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
#[path = "xfst_guard_tests.rs"]
mod tests;
