//! `toklab tokenize`: a streaming filter, one output record per input line.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use super::input::Lines;
use toklab::output::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer, as a spec (see `toklab kinds`).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// Output format.
    #[arg(long, short = 'f', value_parser = super::choice::choice::<Format>(), default_value = "text")]
    format: Format,
    /// Replace invalid UTF-8 with U+FFFD instead of stopping (a warning counts the lines).
    #[arg(long)]
    lossy: bool,
    /// Input file; standard input when absent or `-`.
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut gave_up = 0usize;
    let result = (|| -> anyhow::Result<()> {
        let mut number = 0;
        while let Some(text) = lines.next_text()? {
            number += 1;
            let tokens = tokenizer.tokenize(&text);
            output::write_record(&mut out, args.format, number, &text, &tokens)?;
            if let Some((span, reason)) = tokens.gave_up() {
                out.flush()?;
                eprintln!(
                    "toklab: error: {}:{number}: {reason}; from byte {} on the line is one unknown token",
                    lines.name(),
                    span.start
                );
                gave_up += 1;
            }
        }
        out.flush()?;
        Ok(())
    })();
    lines.report();
    let exit = super::finish_output(result)?;
    Ok(if gave_up > 0 { ExitCode::FAILURE } else { exit })
}
