//! `toklab compare`: several tokenizers over the same texts, each against the first or against
//! gold: per-line agreement, totals, the F1 table, and the disagreeing lines with inline diffs.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::input::{Batch, Lines};
use toklab::analysis::compare::{Comparison, Gold, GoldFormat, GoldText, Projection, project};
use toklab::analysis::{FertilityTable, VocabularyGrowth};
use toklab::core::batch;
use toklab::core::token::Tokenization;

mod report;
use report::write_report;

/// The command line of `toklab compare`.
#[derive(clap::Args)]
pub struct Args {
    /// A tokenizer, as a spec or LABEL=SPEC (see `toklab kinds`); give two or more, or one with
    /// --gold. The first is the reference when there is no gold.
    #[arg(
        long = "with",
        short = 'w',
        value_name = "[LABEL=]SPEC",
        required = true
    )]
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
    #[arg(long, short = 'j', value_name = "N", value_parser = super::threads)]
    threads: Option<u32>,
    /// Fertility per group: column N (1-based) of each TAB-separated line is its group (a
    /// language tag, say); the text compared is the line without that column.
    #[arg(long, value_name = "COLUMN", value_parser = clap::value_parser!(u64).range(1..))]
    by: Option<u64>,
    /// text (the report) or json (one object with the same figures).
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: ReportFormat,
    /// Input files, one text per line; standard input when absent or `-`. With several, each
    /// file is a group of the fertility table (named by its stem) and lines are numbered on
    /// across the files.
    inputs: Vec<PathBuf>,
}

/// How `toklab compare` writes its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ReportFormat {
    /// The report for reading.
    Text,
    /// One JSON object: agreement per tokenizer, fertility, Heaps' law.
    Json,
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

/// What goes with a text to compare: its line number, its gold line, and its group for the
/// fertility table (its tag or its file).
struct About<'g> {
    line: usize,
    gold: Option<&'g GoldText>,
    group: Option<String>,
}

/// Texts handed to a thread together, each with what goes with it.
#[derive(Default)]
struct Texts<'g> {
    /// The texts compared (with `--by`, the lines without the group's column).
    texts: Batch,
    about: Vec<About<'g>>,
}

/// One text tokenized by every tokenizer, with the gold placed on it: the work a thread does,
/// before the texts are added to the comparison in input order.
struct Tokenized {
    /// The gold's projection, when there is a gold; otherwise the first tokenization is the
    /// reference.
    projection: Option<(usize, Projection)>,
    tokenizations: Vec<Tokenization>,
}

/// Tokenizes `text` with every tokenizer and places its gold line on it.
fn tokenize_text(
    tokenizers: &[Box<dyn toklab::Tokenizer>],
    text: &str,
    about: &About,
) -> anyhow::Result<Tokenized> {
    let (line, gold) = (about.line, about.gold);
    let tokenizations: Vec<Tokenization> = tokenizers.iter().map(|t| t.tokenize(text)).collect();
    // Comparisons index the text by the spans: a broken engine is an error, not a panic.
    for (tokenizer, tokens) in tokenizers.iter().zip(&tokenizations) {
        if let Err(problem) = tokens.check(text) {
            bail!(
                "{} returned invalid tokens on line {line}: {problem}",
                tokenizer.name()
            );
        }
    }
    Ok(Tokenized {
        projection: gold.map(|g| (g.line, project(text, g))),
        tokenizations,
    })
}

/// What is summed over the texts in input order, beside the comparison itself.
struct Tally {
    projected: Projected,
    /// Each tokenizer's vocabulary as the texts are read, for the Heaps' law table.
    growth: Vec<VocabularyGrowth>,
    /// Tokens per word and per character, over all texts and per group.
    fertility: FertilityTable,
    /// The tokenizers' labels, for the lines where one gave up.
    labels: Vec<String>,
    /// Whether a tokenizer gave up on a line with an error (not a warning).
    failed: bool,
}

impl Tally {
    /// Adds a tokenized text to `comparison`, against its gold or the first tokenizer.
    fn add(
        &mut self,
        comparison: &mut Comparison,
        text: &str,
        about: &About,
        tokenized: &Tokenized,
    ) {
        let tokenizations = &tokenized.tokenizations;
        for (label, tokens) in self.labels.iter().zip(tokenizations) {
            if let Some(gave_up) = tokens.gave_up() {
                let at = format!("line {}", about.line);
                self.failed |= super::gave_up::report(&at, label, &gave_up);
            }
        }
        for (growth, tokens) in self.growth.iter_mut().zip(tokenizations) {
            growth.add(text, tokens);
        }
        self.fertility
            .add(about.group.as_deref(), text, tokenizations);
        let (reference, compared) = match &tokenized.projection {
            Some((gold_line, projection)) => {
                let projected = &mut self.projected;
                if projection.edits > 0 {
                    projected.texts += 1;
                    projected.edits += projection.edits;
                    if projected.first.len() < 5 {
                        projected.first.push(*gold_line);
                    }
                }
                (&projection.tokenization, &tokenizations[..])
            }
            None => (&tokenizations[0], &tokenizations[1..]),
        };
        comparison.add(about.line, text, reference, compared);
    }
}

/// Adds the texts `next` gives to `comparison`, tokenized on `threads` threads. `next` fills
/// the texts it gets (texts compared before, to read into: see `toklab::core::batch`; their
/// `about` emptied) or gives `None` at the end.
fn compare_all<'g>(
    threads: usize,
    tokenizers: &[Box<dyn toklab::Tokenizer>],
    mut next: impl FnMut(Texts<'g>) -> anyhow::Result<Option<Texts<'g>>>,
    comparison: &mut Comparison,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    batch::ordered_map(
        threads,
        |spare: Option<Texts<'g>>| {
            let mut texts = spare.unwrap_or_default();
            texts.about.clear();
            next(texts)
        },
        |item, _written| {
            (item.texts.iter().zip(&item.about))
                .map(|(text, about)| tokenize_text(tokenizers, text, about))
                .collect::<anyhow::Result<Vec<_>>>()
        },
        |item, tokenized| {
            let done = std::mem::replace(tokenized, Ok(Vec::new()))?;
            for ((text, about), tokenized) in item.texts.iter().zip(&item.about).zip(&done) {
                tally.add(comparison, text, about, tokenized);
            }
            // Back to the worker that made them, to be freed there.
            *tokenized = Ok(done);
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
    let names = toklab::core::label::labels(&args.with);
    let gold = match &args.gold {
        Some(path) => Some(Gold::read(path, args.gold_format)?),
        None => None,
    };
    if gold.is_some() && args.inputs.len() > 1 {
        bail!("--gold goes with one INPUT, not {}", args.inputs.len());
    }
    let (reference, compared) = match &gold {
        Some(_) => ("gold".to_string(), names.clone()),
        None => (names[0].clone(), names[1..].to_vec()),
    };
    let mut comparison = Comparison::new(&reference, &compared, args.show);
    let mut tally = Tally {
        projected: Projected::default(),
        growth: vec![VocabularyGrowth::default(); tokenizers.len()],
        fertility: FertilityTable::new(tokenizers.len()),
        labels: names.clone(),
        failed: false,
    };
    let mut work = Work {
        threads: args
            .threads
            .map_or_else(batch::default_threads, |n| n as usize),
        tokenizers: &tokenizers,
        comparison: &mut comparison,
        tally: &mut tally,
    };
    match &gold {
        Some(gold) if gold.format == GoldFormat::Conllu => work.conllu(&args, gold)?,
        _ => work.inputs(&args, gold.as_ref())?,
    }
    if let Err(e) = write_report(&args, &names, gold.as_ref(), &comparison, &tally) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e.into());
    }
    if let Some(gold) = &gold {
        warn_projected(gold, &tally.projected);
    }
    Ok(if tally.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What every text is compared with and added to.
struct Work<'a> {
    threads: usize,
    tokenizers: &'a [Box<dyn toklab::Tokenizer>],
    comparison: &'a mut Comparison,
    tally: &'a mut Tally,
}

impl Work<'_> {
    /// The texts of CoNLL-U gold, which carries its own (`# text =`).
    fn conllu(&mut self, args: &Args, gold: &Gold) -> anyhow::Result<()> {
        if !args.inputs.is_empty() {
            bail!(
                "{}: CoNLL-U gold carries its own texts (# text =); give no INPUT",
                gold.path.display()
            );
        }
        if args.by.is_some() {
            bail!("--by reads a column of INPUT; CoNLL-U gold has no INPUT");
        }
        let mut texts = gold.texts.chunks(256);
        compare_all(
            self.threads,
            self.tokenizers,
            |mut item| {
                let Some(chunk) = texts.next() else {
                    return Ok(None);
                };
                item.texts.clear(0);
                for g in chunk {
                    item.texts.push(g.text.as_deref().unwrap_or_default());
                    item.about.push(About {
                        line: g.line,
                        gold: Some(g),
                        group: None,
                    });
                }
                Ok(Some(item))
            },
            self.comparison,
            self.tally,
        )
    }

    /// The lines of the INPUT files (standard input when none), numbered on across the files,
    /// each with its gold line when there is gold.
    fn inputs(&mut self, args: &Args, gold: Option<&Gold>) -> anyhow::Result<()> {
        let inputs: Vec<Option<&std::path::Path>> = if args.inputs.is_empty() {
            vec![None]
        } else {
            args.inputs.iter().map(|p| Some(p.as_path())).collect()
        };
        let several = inputs.len() > 1;
        let mut number = 0;
        for input in inputs {
            let mut lines = Lines::open(input, args.lossy)?;
            let file_group = several.then(|| group_of_file(input));
            let offset = number;
            let mut read = None;
            compare_all(
                self.threads,
                self.tokenizers,
                |mut item| {
                    // With --by the texts are not the lines read, which are read into `read`.
                    let spare = match args.by {
                        Some(_) => read.take(),
                        None => Some(std::mem::take(&mut item.texts)),
                    };
                    let Some(batch) = lines.next_batch(spare)? else {
                        return Ok(None);
                    };
                    if args.by.is_some() {
                        item.texts.clear(batch.first);
                    }
                    for (in_file, text) in batch.numbered() {
                        number = offset + in_file;
                        let group = match args.by {
                            Some(column) => {
                                let (tag, rest) =
                                    split_column(text, column as usize).map_err(|m| {
                                        anyhow::anyhow!("{}:{in_file}: {m}", lines.name())
                                    })?;
                                item.texts.push(&rest);
                                Some(tag)
                            }
                            None => file_group.clone(),
                        };
                        let gold = gold_line(gold, number)?;
                        item.about.push(About {
                            line: number,
                            gold,
                            group,
                        });
                    }
                    match args.by {
                        Some(_) => read = Some(batch),
                        None => item.texts = batch,
                    }
                    Ok(Some(item))
                },
                self.comparison,
                self.tally,
            )?;
            lines.report();
        }
        if let Some(gold) = gold
            && gold.texts.len() > number
        {
            bail!(
                "{}: the gold has {} lines but the input only {number}",
                gold.path.display(),
                gold.texts.len()
            );
        }
        Ok(())
    }
}

/// The gold line for input line `number`; an error when the gold has fewer lines.
fn gold_line(gold: Option<&Gold>, number: usize) -> anyhow::Result<Option<&GoldText>> {
    let Some(gold) = gold else {
        return Ok(None);
    };
    match gold.texts.get(number - 1) {
        Some(g) => Ok(Some(g)),
        None => bail!(
            "{}: the gold has {} lines but the input has more (line {number})",
            gold.path.display(),
            gold.texts.len()
        ),
    }
}

/// The warning for gold whose tokens did not spell the text and were placed by alignment.
fn warn_projected(gold: &Gold, projected: &Projected) {
    if projected.texts == 0 {
        return;
    }
    super::warn(&format!(
        "{}: in {} text{} the gold's tokens differ from the text ({} character edits in all; first at line{} {}); \
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
    ));
}

/// A file's group in the fertility table: its name without the extension.
fn group_of_file(input: Option<&std::path::Path>) -> String {
    input.and_then(|p| p.file_stem()).map_or_else(
        || "<stdin>".to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// Splits TAB-separated column `column` (1-based) off `line`: the tag, and the line without
/// it (the other columns joined by TABs again).
fn split_column(line: &str, column: usize) -> Result<(String, String), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    if column > fields.len() {
        return Err(format!(
            "no column {column} for --by (the line has {} TAB-separated column{})",
            fields.len(),
            if fields.len() == 1 { "" } else { "s" }
        ));
    }
    let tag = fields[column - 1].trim().to_string();
    let rest: Vec<&str> = fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != column - 1)
        .map(|(_, f)| *f)
        .collect();
    Ok((tag, rest.join("\t")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_column_is_split_off_the_text() {
        assert_eq!(
            split_column("en\tThe cat", 1).unwrap(),
            ("en".to_string(), "The cat".to_string())
        );
        assert_eq!(
            split_column("1\tDer Hund\tde", 3).unwrap(),
            ("de".to_string(), "1\tDer Hund".to_string())
        );
        assert_eq!(
            split_column("no tab", 2).unwrap_err(),
            "no column 2 for --by (the line has 1 TAB-separated column)"
        );
    }
}
