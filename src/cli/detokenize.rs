//! `toklab detokenize`: the way back from tokens to text, one line per text, with the
//! tokenizer's own conventions (`Tokenizer::detokenize`).
//!
//! Input: one text per line, its tokens separated by single spaces (what `toklab tokenize`
//! writes in its text format); runs of whitespace count as one separator, so a token cannot
//! contain a space.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use super::input::Lines;

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer whose conventions join the tokens, as a spec (see `toklab kinds`).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// Write the bytes exactly even to a terminal (there, control characters are otherwise
    /// shown as pictures such as `␛`; to a pipe or a file the output is always exact).
    #[arg(long)]
    raw: bool,
    /// Replace invalid UTF-8 with U+FFFD instead of stopping (a warning counts the lines).
    #[arg(long)]
    lossy: bool,
    /// Tokens, one text per line separated by spaces; standard input when absent or `-`.
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
    let mut out = super::data_stdout(args.raw);
    let result = (|| -> anyhow::Result<()> {
        let mut number = 0;
        while let Some(line) = lines.next_text()? {
            number += 1;
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let text = tokenizer
                .detokenize(&tokens)
                .with_context(|| format!("line {number}"))?;
            writeln!(out, "{text}")?;
        }
        out.flush()?;
        Ok(())
    })();
    lines.report();
    super::finish_output(result)
}
