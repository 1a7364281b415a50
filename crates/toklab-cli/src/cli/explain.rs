//! `toklab explain`: the engine's trace for a text, as indented text.

use std::io::{self, Write};
use std::process::ExitCode;

use super::input::Lines;

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer, as a spec (see `toklab kinds`).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// The text to explain; without it, every line of INPUT (or standard input) is explained.
    #[arg(long, short = 't')]
    text: Option<String>,
    /// Replace invalid UTF-8 in the input with U+FFFD instead of stopping (a warning counts the
    /// lines).
    #[arg(long, conflicts_with = "text")]
    lossy: bool,
    /// Input file when no --text is given; standard input when absent or `-`.
    #[arg(conflicts_with = "text")]
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = (|| -> anyhow::Result<()> {
        if let Some(text) = &args.text {
            out.write_all(tokenizer.explain(text).to_text().as_bytes())?;
            return Ok(());
        }
        let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
        let mut first = true;
        while let Some(text) = lines.next_text()? {
            if !first {
                out.write_all(b"\n")?;
            }
            first = false;
            writeln!(out, "# {}", toklab::tokenizer::quote(&text))?;
            out.write_all(tokenizer.explain(&text).to_text().as_bytes())?;
        }
        lines.report();
        Ok(())
    })();
    super::finish_output(result)
}
