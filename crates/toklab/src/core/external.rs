//! The one way toklab starts another program (the user's editor, foma). File names come from
//! files people send each other, so a name must never become an option (`--eval=…`, `-c`) or a
//! command (`+!sh`) of the program it is handed to: [`Args`] takes options only as literals
//! written in toklab's code and numbers, and takes a file only as an operand that starts with
//! `/` or `./`, which no program reads as an option or a `+command`.

use std::ffi::OsString;
use std::path::{Component, Path};
use std::process::Command;

/// An argument list for another program, safe by construction: see the module's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args(Vec<OsString>);

impl Args {
    /// An empty list, to which options and files are added.
    pub fn new() -> Args {
        Args::default()
    }

    /// An option spelled in toklab's own code (never text from a file).
    pub fn option(mut self, literal: &'static str) -> Args {
        self.0.push(literal.into());
        self
    }

    /// An option made of a literal prefix and a number, as the editor's `+LINE`.
    pub fn numbered(mut self, prefix: &'static str, n: usize) -> Args {
        self.0.push(format!("{prefix}{n}").into());
        self
    }

    /// A file operand: `path` as it names the file, made to start with `/` or `./`.
    pub fn file(mut self, path: &Path) -> Args {
        self.0.push(file_operand(path));
        self
    }

    /// A command for a program that reads commands from its arguments (foma's `-e`): a literal
    /// prefix and a file name checked by [`script_word`].
    pub fn command_on(mut self, prefix: &'static str, path: &Path) -> std::io::Result<Args> {
        self.0
            .push(format!("{prefix}{}", script_word(path)?).into());
        Ok(self)
    }

    /// The arguments, for [`Command::args`].
    pub fn as_slice(&self) -> &[OsString] {
        &self.0
    }
}

/// `path` so that it starts with `/` or `./`: an absolute path as it is, a relative one with
/// `./` before it (it names the same file from the same folder).
pub fn file_operand(path: &Path) -> OsString {
    if path.is_absolute() {
        return path.as_os_str().to_owned();
    }
    match path.components().next() {
        Some(Component::CurDir) => path.as_os_str().to_owned(),
        _ => {
            let mut operand = OsString::from("./");
            operand.push(path.as_os_str());
            operand
        }
    }
}

/// The command for `words` (the program and the options the user configured, as `$EDITOR`
/// holds them: the user's own choice, trusted) followed by `args`.
pub fn command(words: &[String], args: &Args) -> std::io::Result<Command> {
    let (program, own) = words
        .split_first()
        .ok_or_else(|| std::io::Error::other("no program to run"))?;
    let mut command = Command::new(program);
    command.args(own).args(args.as_slice());
    Ok(command)
}

/// `path` as one word of a line-based command language (foma's `save stack NAME`): absolute,
/// with no control character (a newline would end the command and start another) and no
/// blank at either end (which such languages trim). Refused otherwise.
pub fn script_word(path: &Path) -> std::io::Result<String> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    };
    let text = absolute
        .to_str()
        .ok_or_else(|| std::io::Error::other(format!("{} is not UTF-8", absolute.display())))?;
    if text.chars().any(char::is_control) || text.trim() != text {
        return Err(std::io::Error::other(format!(
            "{text:?} has a control character or blank at its end, which foma would misread; \
             choose another folder (for the cache: set $XDG_CACHE_HOME)"
        )));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_never_an_option_or_a_command() {
        for name in ["+!touch PWNED", "--eval=(x)", "-c", "a\nb c", "plain.txt"] {
            let arg = file_operand(Path::new(name));
            let text = arg.to_string_lossy();
            assert!(text.starts_with("./"), "{text}");
            assert_eq!(&text[2..], name);
        }
        assert_eq!(file_operand(Path::new("/abs/-c")), "/abs/-c");
        assert_eq!(file_operand(Path::new("./x")), "./x");
        let args = Args::new().numbered("+", 3).file(Path::new("-x"));
        assert_eq!(args.as_slice(), ["+3", "./-x"]);
    }

    #[test]
    fn a_script_word_has_no_line_break() {
        assert!(script_word(Path::new("/tmp/a\nsystem x")).is_err());
        assert!(script_word(Path::new("/tmp/x ")).is_err());
        assert_eq!(
            script_word(Path::new("/tmp/a b.fst")).unwrap(),
            "/tmp/a b.fst"
        );
    }
}
