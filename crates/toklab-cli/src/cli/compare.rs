//! `toklab compare`: several tokenizers over the same texts, each against the first or against
//! gold: per-line agreement, totals, the F1 table, and the disagreeing lines with inline diffs.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::input::Lines;
use toklab::analysis::VocabularyGrowth;
use toklab::analysis::compare::{Comparison, Gold, GoldFormat, GoldText, Projection, project};
use toklab::batch;
use toklab::token::Tokenization;

/// The command line of `toklab compare`.
#[derive(clap::Args)]
pub struct Args {
    /// A tokenizer, as a spec (see `toklab kinds`); give two or more, or one with --gold. The
    /// first is the reference when there is no gold.
    #[arg(long = "with", short = 'w', value_name = "SPEC", required = true)]
    with: Vec<String>,
    /// Reference tokenization: one line per input line with tokens separated by spaces, or
    /// CoNLL-U (which carries its own texts, so no INPUT).
    #[arg(long, value_name = "FILE")]
    gold: Option<PathBuf>,
    /// The gold file's format, when its name or content does not tell.
    #[arg(long, value_parser = super::choice::choice::<GoldFormat>(), requires = "gold")]
    gold_format: Option<GoldFormat>,
    /// How many disagreeing lines to list (a number, or `all`).
    #[arg(long, value_name = "N|all", default_value = "20", value_parser = parse_show)]
    show: usize,
    /// Replace invalid UTF-8 in INPUT with U+FFFD instead of stopping.
    #[arg(long)]
    lossy: bool,
    /// Threads to tokenize on (the report is the same); default: every core.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Input file, one text per line; standard input when absent or `-`.
    input: Option<PathBuf>,
}

fn parse_show(value: &str) -> Result<usize, String> {
    if value == "all" {
        return Ok(usize::MAX);
    }
    value
        .parse()
        .map_err(|_| format!("`{value}` is neither a number nor `all`"))
}

/// Texts where the gold's tokens are not exactly the text's characters, for the warning.
#[derive(Default)]
struct Projected {
    texts: usize,
    edits: u64,
    first: Vec<usize>,
}

/// One text tokenized by every tokenizer, with the gold placed on it: the work a thread does,
/// before the texts are added to the comparison in input order.
struct Tokenized {
    line: usize,
    text: String,
    /// The gold's projection, when there is a gold; otherwise the first tokenization is the
    /// reference.
    projection: Option<(usize, Projection)>,
    tokenizations: Vec<Tokenization>,
}

/// Tokenizes `text` with every tokenizer and places its gold line on it.
fn tokenize_text(
    tokenizers: &[Box<dyn toklab::Tokenizer>],
    line: usize,
    text: String,
    gold: Option<&GoldText>,
) -> anyhow::Result<Tokenized> {
    let tokenizations: Vec<Tokenization> = tokenizers.iter().map(|t| t.tokenize(&text)).collect();
    // Comparisons index the text by the spans: a broken engine is an error, not a panic.
    for (tokenizer, tokens) in tokenizers.iter().zip(&tokenizations) {
        if let Err(problem) = tokens.check(&text) {
            bail!(
                "{} returned invalid tokens on line {line}: {problem}",
                tokenizer.name()
            );
        }
    }
    Ok(Tokenized {
        line,
        projection: gold.map(|g| (g.line, project(&text, g))),
        text,
        tokenizations,
    })
}

/// What is summed over the texts in input order, beside the comparison itself.
struct Tally {
    projected: Projected,
    /// Each tokenizer's vocabulary as the texts are read, for the Heaps' law table.
    growth: Vec<VocabularyGrowth>,
}

impl Tally {
    /// Adds a tokenized text to `comparison`, against its gold or the first tokenizer.
    fn add(&mut self, comparison: &mut Comparison, mut tokenized: Tokenized) {
        for (growth, tokens) in self.growth.iter_mut().zip(&tokenized.tokenizations) {
            growth.add(&tokenized.text, tokens);
        }
        let reference = match tokenized.projection {
            Some((gold_line, projection)) => {
                let projected = &mut self.projected;
                if projection.edits > 0 {
                    projected.texts += 1;
                    projected.edits += projection.edits;
                    if projected.first.len() < 5 {
                        projected.first.push(gold_line);
                    }
                }
                projection.tokenization
            }
            None => tokenized.tokenizations.remove(0),
        };
        comparison.add(
            tokenized.line,
            &tokenized.text,
            &reference,
            &tokenized.tokenizations,
        );
    }
}

/// Texts handed to a thread together, with their line numbers and gold lines.
type Texts<'g> = Vec<(usize, String, Option<&'g GoldText>)>;

/// Adds the texts `next` gives to `comparison`, tokenized on `threads` threads.
fn compare_all<'g>(
    threads: usize,
    tokenizers: &[Box<dyn toklab::Tokenizer>],
    next: impl FnMut() -> anyhow::Result<Option<Texts<'g>>>,
    comparison: &mut Comparison,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    batch::ordered_map(
        threads,
        next,
        |texts: Texts| {
            texts
                .into_iter()
                .map(|(line, text, gold)| tokenize_text(tokenizers, line, text, gold))
                .collect::<anyhow::Result<Vec<_>>>()
        },
        |tokenized| {
            for t in tokenized? {
                tally.add(comparison, t);
            }
            Ok(())
        },
    )
}

/// Runs `toklab compare`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.gold.is_none() && args.with.len() < 2 {
        bail!("compare needs two tokenizers (--with A --with B) or one and a --gold file");
    }
    let tokenizers = args
        .with
        .iter()
        .map(|spec| super::load(spec))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names: Vec<String> = tokenizers.iter().map(|t| t.name().to_string()).collect();
    let gold = match &args.gold {
        Some(path) => Some(Gold::read(path, args.gold_format)?),
        None => None,
    };
    let (reference, compared) = match &gold {
        Some(_) => ("gold".to_string(), names.clone()),
        None => (names[0].clone(), names[1..].to_vec()),
    };
    let mut comparison = Comparison::new(&reference, &compared, args.show);
    let mut tally = Tally {
        projected: Projected::default(),
        growth: vec![VocabularyGrowth::default(); tokenizers.len()],
    };
    let threads = args
        .threads
        .map_or_else(batch::default_threads, |n| n as usize);
    match &gold {
        Some(gold) if gold.format == GoldFormat::Conllu => {
            if args.input.is_some() {
                bail!(
                    "{}: CoNLL-U gold carries its own texts (# text =); give no INPUT",
                    gold.path.display()
                );
            }
            let mut texts = gold.texts.chunks(256);
            compare_all(
                threads,
                &tokenizers,
                || {
                    Ok(texts.next().map(|chunk| {
                        chunk
                            .iter()
                            .map(|g| (g.line, g.text.clone().unwrap_or_default(), Some(g)))
                            .collect()
                    }))
                },
                &mut comparison,
                &mut tally,
            )?;
        }
        _ => {
            let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
            let mut number = 0;
            compare_all(
                threads,
                &tokenizers,
                || {
                    let Some(batch) = lines.next_batch()? else {
                        return Ok(None);
                    };
                    let mut texts = Vec::with_capacity(batch.texts.len());
                    for (i, text) in batch.texts.into_iter().enumerate() {
                        number = batch.first + i;
                        let gold_text = match &gold {
                            Some(gold) => match gold.texts.get(number - 1) {
                                Some(g) => Some(g),
                                None => bail!(
                                    "{}: the gold has {} lines but the input has more (line {number})",
                                    gold.path.display(),
                                    gold.texts.len()
                                ),
                            },
                            None => None,
                        };
                        texts.push((number, text, gold_text));
                    }
                    Ok(Some(texts))
                },
                &mut comparison,
                &mut tally,
            )?;
            lines.report();
            if let Some(gold) = &gold
                && gold.texts.len() > number
            {
                bail!(
                    "{}: the gold has {} lines but the input only {number}",
                    gold.path.display(),
                    gold.texts.len()
                );
            }
        }
    }

    let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if let Some(gold) = &gold {
        writeln!(
            out,
            "gold: {} ({})",
            gold.path.display(),
            toklab::Choice::about(gold.format)
        )?;
    }
    let written = comparison
        .write_report(&mut out, colour)
        .and_then(|()| write_heaps(&mut out, &names, &tally.growth))
        .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e.into());
    }
    let projected = &tally.projected;
    if projected.texts > 0
        && let Some(gold) = &gold
    {
        eprintln!(
            "toklab: warning: {}: in {} text{} the gold's tokens differ from the text ({} character edits in all; first at line{} {}); \
             they were placed by character alignment, rewritten forms kept",
            gold.path.display(),
            projected.texts,
            if projected.texts == 1 { "" } else { "s" },
            projected.edits,
            if projected.first.len() == 1 { "" } else { "s" },
            projected
                .first
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The Heaps' law table: per tokenizer, tokens N, types |V| and the fit of |V| = k·N^β.
fn write_heaps(
    out: &mut impl Write,
    names: &[String],
    growth: &[VocabularyGrowth],
) -> io::Result<()> {
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(9)
        .max(9);
    writeln!(out)?;
    writeln!(
        out,
        "Heaps' law |V| = k·N^β (types against tokens as the input is read, least squares on log-log):"
    )?;
    writeln!(
        out,
        "  {:width$}  {:>10}  {:>9}  {:>8}  {:>6}  {:>6}",
        "tokenizer", "tokens N", "types |V|", "k", "β", "R²"
    )?;
    for (name, growth) in names.iter().zip(growth) {
        let fit = growth.curve().fit();
        let (k, beta, r2) = match fit {
            Some(f) => (
                format!("{:.2}", f.k),
                format!("{:.3}", f.beta),
                format!("{:.3}", f.r_squared),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        writeln!(
            out,
            "  {name:width$}  {:>10}  {:>9}  {k:>8}  {beta:>6}  {r2:>6}",
            growth.tokens(),
            growth.types()
        )?;
    }
    Ok(())
}
