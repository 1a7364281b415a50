//! `toklab align`: the edit distance and a minimum-cost alignment of two texts, as the textbook
//! draws them; `--matrix` adds the DP matrix with its arrows and the backtrace marked.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::bail;

use toklab::analysis::align::{self, Costs, Interner, Matrix, MatrixStyle, Unit};

/// The largest matrix `--matrix` and `--all` (and the workbench) will build (cells), so a long input gets a clear
/// error instead of exhausting memory; plain alignment has no such limit (Hirschberg).
pub const MATRIX_CELL_LIMIT: usize = 16_000_000;

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
    /// The source (the matrix's rows).
    a: String,
    /// The target (the matrix's columns).
    b: String,
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
    let mut interner = Interner::new();
    let ((a, a_labels), (b, b_labels)) = match (&args.with, unit) {
        (Some(spec), _) => {
            let tokenizer = super::load(spec)?;
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
            (tokens(&args.a), tokens(&args.b))
        }
        _ => (
            align::segment(&args.a, unit, &mut interner),
            align::segment(&args.b, unit, &mut interner),
        ),
    };

    // The reader going away (`| head -1`) ends the output quietly, as in every command.
    let result = (|| -> anyhow::Result<()> {
        let stdout = io::stdout();
        let mut out = stdout.lock();
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
                    write_rows(&mut out, alignment, &a_labels, &b_labels)?;
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
                write_rows(&mut out, &best, &a_labels, &b_labels)?;
            }
            writeln!(out, "distance {} ({costs}; {unit_name})", best.cost)?;
        } else {
            let alignment = align::align(&a, &b, costs);
            write_rows(&mut out, &alignment, &a_labels, &b_labels)?;
            writeln!(out, "distance {} ({costs}; {unit_name})", alignment.cost)?;
        }
        Ok(())
    })();
    super::finish_output(result)
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
