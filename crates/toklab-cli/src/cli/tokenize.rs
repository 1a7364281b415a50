//! `toklab tokenize`: a streaming filter, one output record per input line.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use super::input::{Batch, Lines};
use toklab::batch;
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
    /// Threads to tokenize on (the output is the same, in input order); default: every core.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Input file; standard input when absent or `-`.
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let threads = args
        .threads
        .map_or_else(batch::default_threads, |n| n as usize);
    let result = batch::ordered_map(
        threads,
        || lines.next_batch(),
        |batch| records(tokenizer.as_ref(), args.format, &batch),
        |records| Ok(out.write_all(&records?)?),
    )
    .and_then(|()| Ok(out.flush()?));
    lines.report();
    super::finish_output(result)
}

/// The output records of one batch, as the writer will write them.
fn records(
    tokenizer: &dyn toklab::Tokenizer,
    format: Format,
    batch: &Batch,
) -> io::Result<Vec<u8>> {
    let mut records = Vec::with_capacity(batch.texts.iter().map(|t| 2 * t.len() + 16).sum());
    for (i, text) in batch.texts.iter().enumerate() {
        let tokens = tokenizer.tokenize(text);
        output::write_record(&mut records, format, batch.first + i, text, &tokens)?;
    }
    Ok(records)
}
