//! The `toklab` command line: one file per subcommand. With no subcommand it opens the
//! workbench on the shipped samples.

mod align;
mod bpe;
mod choice;
mod compare;
mod decode;
mod explain;
mod fst;
mod input;
mod kinds;
mod models;
mod rules;
mod tokenize;
pub mod workbench;

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
    /// BPE dictionaries: check (properness, useful rules, lookahead), train, steps.
    Bpe(bpe::Args),
    /// Inspect a finite-state network, or save it in toklab's compiled form.
    Fst(fst::Args),
    /// Work with rule files in utoken's format (`toklab rules check FILE…`).
    Rules(rules::Args),
}

/// Runs the command line; errors are printed as `toklab: …` with exit status 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Tokenize(args)) => tokenize::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Decode(args)) => decode::run(args),
        Some(Command::Tui(args)) => workbench::run(args),
        Some(Command::Open(args)) => workbench::run(args.into()),
        Some(Command::Kinds) => kinds::run(),
        Some(Command::Models) => models::run(),
        Some(Command::Align(args)) => align::run(args),
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Bpe(args)) => bpe::run(args),
        Some(Command::Fst(args)) => fst::run(args),
        Some(Command::Rules(args)) => rules::run(args),
        None => workbench::run(cli.workbench),
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
fn load(spec: &str) -> anyhow::Result<Box<dyn toklab::Tokenizer>> {
    let tokenizer = toklab::load(spec)?;
    for warning in tokenizer.warnings() {
        eprintln!("toklab: warning: {}: {warning}", tokenizer.name());
    }
    Ok(tokenizer)
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
