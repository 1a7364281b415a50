//! The report of `toklab compare` on standard output: the labels, the agreement and F1 tables,
//! fertility and the Heaps' law fit, as text or as one JSON object.

use std::io::{self, BufWriter, IsTerminal, Write};

use toklab::analysis::VocabularyGrowth;
use toklab::analysis::compare::{Comparison, Gold};

use super::{Args, ReportFormat, Tally};
use crate::cli::{column_width, fertility};

/// The report on standard output, as text or JSON.
pub(super) fn write_report(
    args: &Args,
    names: &[String],
    gold: Option<&Gold>,
    comparison: &Comparison,
    tally: &Tally,
) -> io::Result<()> {
    let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        ReportFormat::Json => {
            let value = report_json(&args.with, names, comparison, tally);
            serde_json::to_writer_pretty(&mut out, &value)?;
            writeln!(out)?;
        }
        ReportFormat::Text => {
            if let Some(gold) = gold {
                writeln!(
                    out,
                    "gold: {} ({})",
                    gold.path.display(),
                    toklab::Choice::about(gold.format)
                )?;
            }
            write_labels(&mut out, &args.with, names)?;
            comparison.write_report(&mut out, colour)?;
            fertility::write_table(&mut out, names, &tally.fertility)?;
            write_heaps(&mut out, names, &tally.growth)?;
        }
    }
    out.flush()
}

/// Which label stands for which spec, when a label is not the spec itself.
fn write_labels(out: &mut impl Write, with: &[String], names: &[String]) -> io::Result<()> {
    let mut any = false;
    for (text, name) in with.iter().zip(names) {
        let spec = toklab::core::label::split(text).spec;
        if spec != name {
            writeln!(out, "{name} = {spec}")?;
            any = true;
        }
    }
    if any {
        writeln!(out)?;
    }
    Ok(())
}

/// The report as one JSON object.
fn report_json(
    with: &[String],
    names: &[String],
    comparison: &Comparison,
    tally: &Tally,
) -> serde_json::Value {
    use serde_json::json;
    let f1 = |c: &toklab::analysis::compare::Counts| c.f1();
    json!({
        "tokenizers": with.iter().zip(names).map(|(text, name)| json!({
            "label": name,
            "spec": toklab::core::label::split(text).spec,
        })).collect::<Vec<_>>(),
        "reference": comparison.reference,
        "lines": comparison.lines,
        "bytes": comparison.bytes,
        "disagreeing_lines": comparison.disagreeing,
        "compared": comparison.compared.iter().map(|t| json!({
            "label": t.name,
            "tokens": t.tokens,
            "lines_with_same_cuts": t.same_boundaries,
            "lines_with_same_forms": t.same_forms,
            "boundary_f1": f1(&t.scores.boundaries),
            "token_f1": f1(&t.scores.tokens),
            "sentence_f1": f1(&t.scores.sentences),
        })).collect::<Vec<_>>(),
        "fertility": fertility::to_json(names, &tally.fertility),
        "heaps": names.iter().zip(&tally.growth).map(|(name, growth)| {
            let fit = growth.curve().fit();
            json!({
                "tokenizer": name,
                "tokens": growth.tokens(),
                "types": growth.types(),
                "k": fit.as_ref().map(|f| f.k),
                "beta": fit.as_ref().map(|f| f.beta),
                "r_squared": fit.as_ref().map(|f| f.r_squared),
            })
        }).collect::<Vec<_>>(),
    })
}

/// The Heaps' law table: per tokenizer, tokens N, types |V| and the fit of |V| = k·N^β.
fn write_heaps(
    out: &mut impl Write,
    names: &[String],
    growth: &[VocabularyGrowth],
) -> io::Result<()> {
    let width = column_width(names.iter().map(String::as_str), 9);
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
