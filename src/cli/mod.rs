//! The `toklab` command line: one file per subcommand. With no subcommand it opens the
//! workbench on the shipped samples.

pub(crate) mod align;
mod bpe;
mod chat;
mod choice;
mod compare;
mod decode;
mod detokenize;
mod explain;
mod fertility;
mod fst;
mod gave_up;
mod input;
mod kinds;
mod lex;
mod models;
mod render;
mod rules;
mod tokenize;
mod unigram;
pub mod workbench;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "toklab",
    version,
    about = "A terminal workbench for tokenization: rule files, finite-state tokenizers and subword models side by side",
    after_help = "With no command, opens the workbench on the shipped samples.\nTokenizer specs are KIND:ARG[?key=value&...]; `toklab kinds` lists them."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a command, `toklab [--with SPEC]... [FILE]` opens the workbench.
    #[command(flatten)]
    workbench: workbench::Args,
}

#[derive(Subcommand)]
enum Command {
    /// Tokenize each line of a file or of standard input.
    Tokenize(tokenize::Args),
    /// Show how a tokenizer arrived at its tokens for a text.
    Explain(explain::Args),
    /// Join tokens (one text per line, separated by spaces) back into text with a
    /// tokenizer's detokenizer (ptb: Treebank's; sent:SPEC: SPEC's; subword kinds: the
    /// vocabulary's spellings, `Ġworld`, `▁world`, `##ing`, through the model's decoder).
    Detokenize(detokenize::Args),
    /// Render a conversation with a model's chat template and count the prompt's tokens.
    Chat(chat::Args),
    /// Turn ids (one line of space-separated ids per text) back into text.
    Decode(decode::Args),
    /// Open the workbench (the default command).
    Tui(workbench::Args),
    /// Open the workbench on a saved workspace.
    Open(workbench::OpenArgs),
    /// List the tokenizer kinds a spec can name.
    Kinds,
    /// List the models of the local HuggingFace cache and their tokenizer files.
    Models,
    /// Edit distance and a minimum-cost alignment of two texts (code points, graphemes, bytes
    /// or tokens), optionally with the DP matrix.
    Align(align::Args),
    /// Compare tokenizers on the same texts (or against gold): agreement, F1, inline diffs.
    Compare(compare::Args),
    /// Draw the side-by-side rows of a text as a standalone SVG image or HTML page.
    Render(render::Args),
    /// BPE dictionaries: check (properness, useful rules, lookahead), train, steps.
    Bpe(bpe::Args),
    /// Unigram language models: train one (EM and pruning) into a SentencePiece .model.
    Unigram(unigram::Args),
    /// Inspect a finite-state network, or save it in toklab's compiled form.
    Fst(fst::Args),
    /// Work with rule files in utoken's format (`toklab rules check FILE…`).
    Rules(rules::Args),
    /// Jung's lexicalized segmenter: build its POS vocabulary (`toklab lex vocab`).
    Lex(lex::Args),
}

/// Runs the command line; errors are printed as `toklab: …` with exit status 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse_from(flags_after_the_command(std::env::args_os().collect()));
    let result = match cli.command {
        Some(Command::Tokenize(args)) => tokenize::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Detokenize(args)) => detokenize::run(args),
        Some(Command::Decode(args)) => decode::run(args),
        Some(Command::Chat(args)) => chat::run(args),
        Some(Command::Tui(args)) => workbench::run(args),
        Some(Command::Open(args)) => workbench::run(args.into()),
        Some(Command::Kinds) => kinds::run(),
        Some(Command::Models) => models::run(),
        Some(Command::Align(args)) => align::run(args),
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Render(args)) => render::run(args),
        Some(Command::Bpe(args)) => bpe::run(args),
        Some(Command::Unigram(args)) => unigram::run(args),
        Some(Command::Fst(args)) => fst::run(args),
        Some(Command::Rules(args)) => rules::run(args),
        Some(Command::Lex(args)) => lex::run(args),
        None => workbench::run(cli.workbench),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("toklab: {}", safe(&format!("{error:#}")));
            ExitCode::FAILURE
        }
    }
}

/// `toklab --theme light open W` and `toklab -w ws tokenize`: flags written before a command
/// are moved after its name, where clap looks for them, instead of making the command's name
/// read as the workbench's FILE. A flag the command does not take is then clap's usual
/// "unexpected argument" error, naming that command.
fn flags_after_the_command(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    use clap::CommandFactory;
    const TAKES_A_VALUE: &[&str] = &["--theme", "--with", "-w", "--workspace"];
    let mut i = 1;
    while let Some(arg) = args.get(i).and_then(|a| a.to_str()) {
        if !arg.starts_with('-') || arg == "-" || arg == "--" {
            break;
        }
        i += if TAKES_A_VALUE.contains(&arg) { 2 } else { 1 };
    }
    let names_a_command = args.get(i).and_then(|a| a.to_str()).is_some_and(|name| {
        Cli::command()
            .get_subcommands()
            .any(|c| c.get_name() == name)
    });
    if i > 1 && names_a_command {
        let command = args.remove(i);
        args.insert(1, command);
    }
    args
}

/// The most threads `--threads` takes: far more than any machine's cores (more threads than
/// cores only add switching), and few enough that the system can start them all.
const MOST_THREADS: u32 = 1024;

/// Reads `--threads N`: a number from 1 to [`MOST_THREADS`], or an error saying why not.
fn threads(value: &str) -> Result<u32, String> {
    let n: u32 = value
        .parse()
        .map_err(|_| format!("`{value}` is not a number of threads"))?;
    match n {
        0 => Err("at least one thread is needed".into()),
        n if n > MOST_THREADS => Err(format!(
            "{n} threads is more than the {MOST_THREADS} toklab starts (this machine has {} core{}; \
             more threads than cores do not go faster)",
            toklab::core::batch::default_threads(),
            if toklab::core::batch::default_threads() == 1 {
                ""
            } else {
                "s"
            }
        )),
        n => Ok(n),
    }
}

/// Loads a spec and prints its warnings on stderr, as every subcommand does.
fn load(spec: &str) -> anyhow::Result<Box<dyn toklab::Tokenizer>> {
    let tokenizer = toklab::load(spec)?;
    for warning in tokenizer.warnings() {
        warn(&format!("{}: {warning}", tokenizer.name()));
    }
    Ok(tokenizer)
}

/// A message for standard error with its control characters shown as pictures: messages name
/// files, rule entries and tokenizer.json components, all of which come from untrusted files.
fn safe(message: &str) -> std::borrow::Cow<'_, str> {
    toklab::core::display::terminal_safe(message, toklab::core::display::Keep::Lines)
}

/// A file name for a message, on one line with its control characters shown as pictures: a
/// name may come from a glob or a script and hold anything a file system allows.
fn safe_path(path: &std::path::Path) -> String {
    toklab::core::display::terminal_safe(
        &path.display().to_string(),
        toklab::core::display::Keep::Nothing,
    )
    .into_owned()
}

/// Prints `toklab: warning: MESSAGE` on standard error, escaped as [`safe`] escapes.
fn warn(message: &str) {
    eprintln!("toklab: warning: {}", safe(message));
}

/// Standard output for a command's data (tokens, texts): on a terminal its control characters
/// are shown as pictures unless `raw` asks for the bytes; to a pipe or a file it is exact.
fn data_stdout(raw: bool) -> Box<dyn Write> {
    let stdout = std::io::stdout();
    let escape = !raw && stdout.is_terminal();
    let out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if escape {
        Box::new(toklab::core::display::SafeWriter::new(out))
    } else {
        Box::new(out)
    }
}

/// Standard output for a report meant to be read (a trace, a table): always escaped, so a
/// report saved to a file is as safe to `cat` as one shown directly.
fn report_stdout() -> toklab::core::display::SafeWriter<std::io::StdoutLock<'static>> {
    toklab::core::display::SafeWriter::new(std::io::stdout().lock())
}

/// The width of a table column: its widest cell in characters, and at least the heading's
/// `at_least`.
fn column_width<'a>(cells: impl IntoIterator<Item = &'a str>, at_least: usize) -> usize {
    cells
        .into_iter()
        .map(|cell| cell.chars().count())
        .fold(at_least, usize::max)
}

/// Stops a command before it replaces files the user has: without `--force`, an existing
/// file among `paths` is an error naming it.
fn refuse_to_overwrite(paths: &[std::path::PathBuf], force: bool) -> anyhow::Result<()> {
    if force {
        return Ok(());
    }
    if let Some(existing) = paths.iter().find(|p| p.exists()) {
        anyhow::bail!(
            "{} exists; give --force to overwrite it",
            existing.display()
        );
    }
    Ok(())
}

/// Writes a command's output file with the one writer (whole or not at all, links and mode
/// kept): an existing file is replaced only with `--force`.
fn write_output(path: &std::path::Path, force: bool, bytes: &[u8]) -> anyhow::Result<()> {
    use toklab::core::files::{Expect, WriteError, write_bytes};
    let expect = if force {
        Expect::Replace
    } else {
        Expect::Absent
    };
    match write_bytes(path, &expect, bytes) {
        Ok(_) => Ok(()),
        Err(WriteError::Exists(_)) => {
            anyhow::bail!("{} exists; give --force to overwrite it", path.display())
        }
        Err(e) => Err(e.into()),
    }
}

/// The exit of a command that writes to standard output: the reader going away (`| head`)
/// is not an error.
fn finish_output(result: anyhow::Result<()>) -> anyhow::Result<ExitCode> {
    match result {
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
        Ok(()) => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifted(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(std::ffi::OsString::from).collect();
        flags_after_the_command(args)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn threads_are_bounded_with_a_reason() {
        assert_eq!(threads("4"), Ok(4));
        assert_eq!(threads("1024"), Ok(1024));
        assert!(threads("0").unwrap_err().contains("at least one"));
        let error = threads("100000").unwrap_err();
        assert!(error.contains("more than the 1024"), "{error}");
        assert!(threads("many").is_err());
    }

    #[test]
    fn flags_before_a_command_move_after_its_name() {
        assert_eq!(
            lifted(&["toklab", "--theme", "light", "open", "w.toml"]),
            ["toklab", "open", "--theme", "light", "w.toml"]
        );
        assert_eq!(
            lifted(&["toklab", "--no-mouse", "-w", "ws", "tui", "x.txt"]),
            ["toklab", "tui", "--no-mouse", "-w", "ws", "x.txt"]
        );
        let parsed = Cli::try_parse_from(lifted(&["toklab", "--theme", "light", "open", "w.toml"]));
        assert!(matches!(
            parsed,
            Ok(Cli {
                command: Some(Command::Open(_)),
                ..
            })
        ));
    }

    #[test]
    fn a_file_named_after_no_command_stays_the_workbenchs_file() {
        let args = ["toklab", "--theme", "light", "notes.txt"];
        assert_eq!(lifted(&args), args);
        let args = ["toklab", "open", "--theme", "light", "w.toml"];
        assert_eq!(lifted(&args), args);
    }
}
