//! `toklab render`: the side-by-side rows of a text as a standalone SVG image or HTML page
//! (`toklab::picture`), for slides, papers and bug reports.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::input::Lines;
use toklab::core::token::Tokenization;
use toklab::picture::{Picture, PictureLine, PictureRow};

/// Without `--line`, inputs longer than this are refused: a picture of a whole corpus is of no
/// use, and the message says how to pick a line.
const MOST_LINES: usize = 200;

/// What `toklab render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// One SVG image (hover shows ids in viewers that show `<title>`).
    Svg,
    /// One HTML page, no scripts or external files; hovering a token shows its id.
    Html,
}

/// The command line of `toklab render`.
#[derive(clap::Args)]
pub struct Args {
    /// A tokenizer, as a spec or LABEL=SPEC (see `toklab kinds`); repeat for more rows.
    #[arg(
        long = "with",
        short = 'w',
        value_name = "[LABEL=]SPEC",
        required = true
    )]
    with: Vec<String>,
    /// Draw only this line of INPUT (1-based); without it every line is drawn (at most 200).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    line: Option<u64>,
    /// svg or html; default: from the -o file's extension, else svg.
    #[arg(long, short = 'f', value_enum)]
    format: Option<PictureFormat>,
    /// The file to write; standard output when absent.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace the -o file when it exists.
    #[arg(long)]
    force: bool,
    /// Replace invalid UTF-8 in INPUT with U+FFFD instead of stopping.
    #[arg(long)]
    lossy: bool,
    /// Input file, one text per line; standard input when absent or `-`.
    input: Option<PathBuf>,
}

/// The format asked for, or the one the output file's name implies.
fn format_of(args: &Args) -> anyhow::Result<PictureFormat> {
    if let Some(format) = args.format {
        return Ok(format);
    }
    let extension = args
        .output
        .as_deref()
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        None | Some("svg") => Ok(PictureFormat::Svg),
        Some("html" | "htm") => Ok(PictureFormat::Html),
        Some(other) => bail!("cannot tell the format from `.{other}`; give --format svg|html"),
    }
}

/// The lines to draw, with their numbers: the one `--line` names, or all of them.
fn read_lines(args: &Args) -> anyhow::Result<(String, Vec<(usize, String)>)> {
    let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
    let name = lines.name().to_string();
    let mut chosen = Vec::new();
    let mut number = 0;
    while let Some(text) = lines.next_text()? {
        number += 1;
        match args.line {
            Some(wanted) if wanted as usize == number => {
                chosen.push((number, text));
                break;
            }
            Some(_) => {}
            None if number > MOST_LINES => {
                bail!("{name} has more than {MOST_LINES} lines; pick one with --line N")
            }
            None => chosen.push((number, text)),
        }
    }
    lines.report();
    if let Some(wanted) = args.line
        && chosen.is_empty()
    {
        bail!(
            "{name} has {number} line{}, not {wanted}",
            if number == 1 { "" } else { "s" }
        );
    }
    Ok((name, chosen))
}

/// Runs `toklab render`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = format_of(&args)?;
    let tokenizers = args
        .with
        .iter()
        .map(|spec| super::load(spec))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let labels = toklab::core::label::labels(&args.with);
    let (name, lines) = read_lines(&args)?;
    let tokenized: Vec<Vec<Tokenization>> = lines
        .iter()
        .map(|(number, text)| {
            tokenizers
                .iter()
                .map(|tokenizer| {
                    let tokens = tokenizer.tokenize(text);
                    tokens.check(text).map_err(|problem| {
                        anyhow::anyhow!(
                            "{} returned invalid tokens on line {number}: {problem}",
                            tokenizer.name()
                        )
                    })?;
                    Ok(tokens)
                })
                .collect::<anyhow::Result<Vec<_>>>()
        })
        .collect::<anyhow::Result<_>>()?;
    let picture = Picture {
        title: format!("{name} · {}", labels.join(" · ")),
        lines: lines
            .iter()
            .zip(&tokenized)
            .map(|((number, text), rows)| PictureLine {
                number: *number,
                text,
                rows: labels
                    .iter()
                    .zip(rows)
                    .map(|(label, tokens)| PictureRow {
                        label,
                        tokens: Ok(tokens),
                    })
                    .collect(),
            })
            .collect(),
    };
    let document = match format {
        PictureFormat::Svg => toklab::picture::svg(&picture),
        PictureFormat::Html => toklab::picture::html(&picture),
    };
    match &args.output {
        Some(path) => super::write_output(path, args.force, document.as_bytes())?,
        None => {
            let written = std::io::stdout()
                .lock()
                .write_all(document.as_bytes())
                .map_err(anyhow::Error::from);
            return super::finish_output(written);
        }
    }
    Ok(ExitCode::SUCCESS)
}
