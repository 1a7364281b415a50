//! `toklab align`: the edit distance and a minimum-cost alignment of two texts, as the textbook
//! draws them; `--matrix` adds the DP matrix with its arrows and the backtrace marked.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};

use toklab::Tokenizer;
use toklab::analysis::align::{
    self, Costs, Interner, MATRIX_CELL_LIMIT, Matrix, MatrixStyle, Unit,
};

/// The command line of `toklab align`.
#[derive(clap::Args)]
pub struct Args {
    /// Cost of a substitution (1: Levenshtein; 2: the textbook's insertion/deletion variant).
    #[arg(long, value_name = "N", default_value_t = 1)]
    sub_cost: u32,
    /// Cost of an insertion (a unit of B not in A).
    #[arg(long, value_name = "N", default_value_t = 1)]
    ins_cost: u32,
    /// Cost of a deletion (a unit of A not in B).
    #[arg(long, value_name = "N", default_value_t = 1)]
    del_cost: u32,
    /// Also print the DP matrix with its backpointer arrows and the backtrace in brackets.
    #[arg(long)]
    matrix: bool,
    /// Print the distance alone (for scripts); uses the bit-parallel algorithm where it can.
    #[arg(long, conflicts_with_all = ["matrix", "all"])]
    distance: bool,
    /// What the distance counts. Default: code points, or tokens when --with is given.
    #[arg(long, value_parser = super::choice::choice::<Unit>())]
    unit: Option<Unit>,
    /// The tokenizer that makes the tokens for `--unit token` (default: whitespace).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: Option<String>,
    /// Print every minimum-cost alignment (up to --limit) and how many there are.
    #[arg(long)]
    all: bool,
    /// How many alignments --all prints at most.
    #[arg(long, value_name = "N", default_value_t = 20, requires = "all")]
    limit: usize,
    /// Align every pair of FILE (`-`: standard input): one pair a line, source and target
    /// separated by the line's first TAB; each pair's output is what `toklab align A B` prints.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a", "b"])]
    pairs: Option<PathBuf>,
    /// text: the three rows and the distance; ops: one line per pair, the distance then each
    /// edit operation (`replace`/`insert`/`delete`, source position, target position) as
    /// rapidfuzz's `Levenshtein.editops` lists them, TAB-separated; json: the same as one JSON
    /// object a line.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text,
          conflicts_with_all = ["matrix", "all", "distance"])]
    format: Format,
    /// The source (the matrix's rows).
    #[arg(required_unless_present = "pairs")]
    a: Option<String>,
    /// The target (the matrix's columns).
    #[arg(required_unless_present = "pairs")]
    b: Option<String>,
}

/// How `toklab align` writes each pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// The alignment drawn in three rows, then the distance.
    Text,
    /// The distance and the edit operations on one TAB-separated line.
    Ops,
    /// The distance and the edit operations as one JSON object.
    Json,
}

/// Runs `toklab align`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let unit = match (args.unit, &args.with) {
        (None, None) => Unit::Codepoint,
        (None, Some(_)) | (Some(Unit::Token), _) => Unit::Token,
        (Some(unit), Some(spec)) => {
            bail!(
                "--with {spec} makes tokens; it needs --unit token, not --unit {}",
                unit.name()
            )
        }
        (Some(unit), None) => unit,
    };
    let costs = Costs::new(args.ins_cost, args.del_cost, args.sub_cost);
    let tokenizer = args.with.as_deref().map(super::load).transpose()?;
    let mut job = Job {
        args: &args,
        unit,
        costs,
        tokenizer: tokenizer.as_deref(),
        aligner: align::RapidfuzzAligner::new(),
        line: Vec::new(),
    };
    // The reader going away (`| head -1`) ends the output quietly, as in every command.
    let result = (|| -> anyhow::Result<()> {
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        match (&args.pairs, &args.a, &args.b) {
            (Some(path), _, _) => {
                let text = read_pairs(path)?;
                for (number, line) in text.lines().enumerate() {
                    let Some((a, b)) = line.split_once('\t') else {
                        bail!(
                            "{}:{}: no TAB: a line of --pairs is a source and a target separated by a TAB",
                            path.display(),
                            number + 1
                        );
                    };
                    job.align(a, b, &mut out)?;
                }
            }
            (None, Some(a), Some(b)) => job.align(a, b, &mut out)?,
            _ => bail!("toklab align needs two texts, or --pairs FILE"),
        }
        out.flush()?;
        Ok(())
    })();
    super::finish_output(result)
}

/// The text of a --pairs file, or of standard input for `-`, as UTF-8 (an error names the
/// line of the first invalid byte).
fn read_pairs(path: &Path) -> anyhow::Result<String> {
    let bytes = super::input::read_whole(path).context("reading the pairs")?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!("{}:{line}: not UTF-8", path.display())
    })
}

/// What every pair of one run is aligned with, and the buffers one pair leaves to the next.
struct Job<'r> {
    args: &'r Args,
    unit: Unit,
    costs: Costs,
    tokenizer: Option<&'r dyn Tokenizer>,
    aligner: align::RapidfuzzAligner,
    /// One pair's line of `--format ops` or `json`.
    line: Vec<u8>,
}

impl Job<'_> {
    /// The symbols of `text` in the run's unit, without labels (the formats for scripts
    /// print positions, never units).
    fn symbols(&self, text: &str, interner: &mut Interner) -> Vec<u32> {
        match self.tokenizer {
            Some(tokenizer) => tokenizer
                .tokenize(text)
                .tokens
                .iter()
                .map(|t| interner.intern(t.form(text)))
                .collect(),
            None => align::symbols(text, self.unit, interner),
        }
    }

    /// Writes what `toklab align A B` prints for one pair.
    fn align(&mut self, a_text: &str, b_text: &str, out: &mut dyn Write) -> anyhow::Result<()> {
        let (args, unit, costs) = (self.args, self.unit, self.costs);
        let mut interner = Interner::new();
        if args.format != Format::Text {
            let a = self.symbols(a_text, &mut interner);
            let b = self.symbols(b_text, &mut interner);
            return Ok(self.write_editops(out, &a, &b)?);
        }
        let ((a, a_labels), (b, b_labels)) = match self.tokenizer {
            Some(tokenizer) => {
                let mut tokens = |text: &str| -> (Vec<u32>, Vec<String>) {
                    let tokenization = tokenizer.tokenize(text);
                    tokenization
                        .tokens
                        .iter()
                        .map(|t| {
                            let form = t.form(text);
                            (interner.intern(form), align::display_label(form))
                        })
                        .unzip()
                };
                (tokens(a_text), tokens(b_text))
            }
            None => (
                align::segment(a_text, unit, &mut interner),
                align::segment(b_text, unit, &mut interner),
            ),
        };
        if args.distance {
            writeln!(out, "{}", align::distance(&a, &b, costs))?;
            return Ok(());
        }
        let unit_name = unit.plural();
        if args.matrix || args.all {
            let cells = (a.len() + 1).saturating_mul(b.len() + 1);
            if cells > MATRIX_CELL_LIMIT {
                bail!(
                    "--matrix and --all build the whole matrix: {cells} cells here, at most {MATRIX_CELL_LIMIT}; \
                     without them the alignment is computed in linear memory"
                );
            }
            let matrix = Matrix::new(&a, &b, costs);
            let best = matrix.backtrace().expect("a new matrix is complete");
            if args.matrix {
                let style = MatrixStyle {
                    colour: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
                };
                let path = matrix.path(&best);
                out.write_all(
                    align::render_matrix(&matrix, &a_labels, &b_labels, &path, style).as_bytes(),
                )?;
                writeln!(out)?;
            }
            if args.all {
                let all = matrix.alignments(args.limit);
                for alignment in &all.alignments {
                    write_rows(out, alignment, &a_labels, &b_labels)?;
                    writeln!(out)?;
                }
                let total = if all.saturated {
                    format!("more than {}", u128::MAX)
                } else {
                    all.total.to_string()
                };
                writeln!(
                    out,
                    "{} of {total} minimum-cost alignments shown (--limit {})",
                    all.alignments.len(),
                    args.limit
                )?;
            } else {
                write_rows(out, &best, &a_labels, &b_labels)?;
            }
            writeln!(out, "distance {} ({costs}; {unit_name})", best.cost)?;
        } else {
            let alignment = align::align(&a, &b, costs);
            write_rows(out, &alignment, &a_labels, &b_labels)?;
            writeln!(out, "distance {} ({costs}; {unit_name})", alignment.cost)?;
        }
        Ok(())
    }
}

impl Job<'_> {
    /// Writes one pair's line of `--format ops` or `json`. Under unit costs the operations are
    /// the ones rapidfuzz lists; under other costs, those of the alignment the text format
    /// draws.
    fn write_editops(&mut self, out: &mut dyn Write, a: &[u32], b: &[u32]) -> io::Result<()> {
        let (costs, json) = (self.costs, self.args.format == Format::Json);
        let unit = costs.ins == costs.del && costs.del == costs.sub && costs.ins > 0;
        let other;
        let (alignment, cost) = if unit {
            let found = self.aligner.align(a, b);
            (found, found.cost * u64::from(costs.ins))
        } else {
            other = align::align(a, b, costs);
            (&other, other.cost)
        };
        let line = &mut self.line;
        line.clear();
        let mut number = itoa::Buffer::new();
        if json {
            line.extend_from_slice(b"{\"distance\":");
            line.extend_from_slice(number.format(cost).as_bytes());
            line.extend_from_slice(b",\"editops\":[");
        } else {
            line.extend_from_slice(number.format(cost).as_bytes());
        }
        for (k, op) in alignment.editops().enumerate() {
            let (open, between, close): (&[u8], &[u8], &[u8]) = if !json {
                (b"\t", b" ", b"")
            } else if k == 0 {
                (b"[\"", b"\",", b"]")
            } else {
                (b",[\"", b"\",", b"]")
            };
            line.extend_from_slice(open);
            line.extend_from_slice(op.kind.name().as_bytes());
            line.extend_from_slice(between);
            line.extend_from_slice(number.format(op.src).as_bytes());
            line.push(if json { b',' } else { b' ' });
            line.extend_from_slice(number.format(op.dest).as_bytes());
            line.extend_from_slice(close);
        }
        if json {
            line.extend_from_slice(b"],\"src_len\":");
            line.extend_from_slice(number.format(a.len()).as_bytes());
            line.extend_from_slice(b",\"dest_len\":");
            line.extend_from_slice(number.format(b.len()).as_bytes());
            line.push(b'}');
        }
        line.push(b'\n');
        out.write_all(line)
    }
}

fn write_rows(
    out: &mut dyn Write,
    alignment: &align::Alignment,
    a: &[String],
    b: &[String],
) -> io::Result<()> {
    for row in align::render_rows(alignment, a, b) {
        writeln!(out, "{row}")?;
    }
    Ok(())
}
