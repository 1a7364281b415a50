//! `toklab decode`: ids back to text, one line of space-separated ids per text, with the
//! model's own decoder (`Tokenizer::decode`). A line that is not ids, or ids the model does not
//! have, stops with an error naming the line.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use super::input::Lines;

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer, as a spec (see `toklab kinds`).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// Leave special tokens (`<s>`, `[CLS]`, …) out of the text, as HuggingFace's
    /// `decode(ids, skip_special_tokens=True)` does (tokenizer.json models).
    #[arg(long)]
    skip_special: bool,
    /// Write the bytes exactly even to a terminal (there, control characters are otherwise
    /// shown as pictures such as `␛`; to a pipe or a file the output is always exact).
    #[arg(long)]
    raw: bool,
    /// Input file of ids; standard input when absent or `-`.
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let mut lines = Lines::open(args.input.as_deref(), false)?;
    let mut out = super::data_stdout(args.raw);
    let result = (|| -> anyhow::Result<()> {
        let mut number = 0;
        while let Some(line) = lines.next_text()? {
            number += 1;
            let mut ids = line
                .split_ascii_whitespace()
                .map(|id| {
                    id.parse::<u32>()
                        .with_context(|| format!("line {number}: `{id}` is not an id"))
                })
                .collect::<anyhow::Result<Vec<u32>>>()?;
            if args.skip_special {
                ids.retain(|&id| !tokenizer.is_special(id));
            }
            let text = tokenizer
                .decode(&ids)
                .with_context(|| format!("line {number}"))?;
            writeln!(out, "{text}")?;
        }
        out.flush()?;
        Ok(())
    })();
    super::finish_output(result)
}
