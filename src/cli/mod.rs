//! The `toklab` command line: one file per subcommand. With no subcommand it opens the
//! workbench on the shipped samples.

mod explain;
mod input;
mod kinds;
mod rules;
mod tokenize;
mod workbench;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "toklab",
    version,
    about = "A terminal workbench for tokenization: rule files, finite-state tokenizers and subword models side by side",
    after_help = "With no command, opens the workbench on the shipped samples.\nTokenizer specs are KIND:ARG[?key=value&...]; `toklab kinds` lists them."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Tokenize each line of a file or of standard input.
    Tokenize(tokenize::Args),
    /// Show how a tokenizer arrived at its tokens for a text.
    Explain(explain::Args),
    /// Open the workbench (the default command).
    Tui(workbench::Args),
    /// List the tokenizer kinds a spec can name.
    Kinds,
    /// Work with rule files in utoken's format (`toklab rules check FILE…`).
    Rules(rules::Args),
}

/// Runs the command line; errors are printed as `toklab: …` with exit status 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Tokenize(args)) => tokenize::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Tui(args)) => workbench::run(args),
        Some(Command::Kinds) => kinds::run(),
        Some(Command::Rules(args)) => rules::run(args),
        None => workbench::run(workbench::Args::default()),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("toklab: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Loads a spec and prints its warnings on stderr, as every subcommand does.
fn load(spec: &str) -> anyhow::Result<Box<dyn crate::Tokenizer>> {
    let tokenizer = crate::load(spec)?;
    for warning in tokenizer.warnings() {
        eprintln!("toklab: warning: {}: {warning}", tokenizer.name());
    }
    Ok(tokenizer)
}

/// Whether an I/O error means the reader of our output went away (`| head`): not an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
