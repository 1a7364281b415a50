//! `toklab explain`: the engine's trace for a text, as indented text.

use std::io::Write;
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
    let mut out = super::report_stdout();
    let mut failed = false;
    // A trace does not say whether the engine gave up, and may be cut short before it shows
    // where: the tokens say it, for the one report `tokenize` gives too.
    let mut check = |at: &str, text: &str| {
        if let Some(gave_up) = tokenizer.tokenize(text).gave_up() {
            failed |= super::gave_up::report(at, tokenizer.name(), &gave_up);
        }
    };
    let result = (|| -> anyhow::Result<()> {
        if let Some(text) = &args.text {
            out.write_all(tokenizer.explain(text).to_text().as_bytes())?;
            out.write_all(cut_characters(tokenizer.as_ref(), text).as_bytes())?;
            out.flush()?;
            check("--text", text);
            return Ok(());
        }
        let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
        let mut first = true;
        let mut number = 0;
        while let Some(text) = lines.next_text()? {
            number += 1;
            if !first {
                out.write_all(b"\n")?;
            }
            first = false;
            writeln!(out, "# {}", toklab::core::tokenizer::quote(&text))?;
            out.write_all(tokenizer.explain(&text).to_text().as_bytes())?;
            out.write_all(cut_characters(tokenizer.as_ref(), &text).as_bytes())?;
            out.flush()?;
            check(&format!("{}:{number}", lines.name()), &text);
        }
        lines.report();
        Ok(())
    })();
    let exit = super::finish_output(result)?;
    Ok(if failed { ExitCode::FAILURE } else { exit })
}

/// The pieces that hold part of a character, each with the bytes it holds: a trace shows
/// pieces by their form and the text by characters, so neither says where such a piece lies.
/// Empty when no piece cuts a character.
fn cut_characters(tokenizer: &dyn toklab::Tokenizer, text: &str) -> String {
    let tokens = tokenizer.tokenize(text);
    let mut out = String::new();
    for token in tokens.iter() {
        let bytes = token.bytes();
        if text.is_char_boundary(bytes.start) && text.is_char_boundary(bytes.end) {
            continue;
        }
        if out.is_empty() {
            out.push_str("pieces that cut a character\n");
        }
        out.push_str(&format!(
            "  {} {}\n",
            toklab::core::tokenizer::quote(token.form(text)),
            toklab::core::offsets::describe_bytes(text, bytes)
        ));
    }
    out
}
