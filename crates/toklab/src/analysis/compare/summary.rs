//! A comparison of several tokenizers over many texts, each against one reference (the first
//! tokenizer, or gold): per-line agreement, totals, the F1 table, and the disagreeing lines
//! with their inline diffs. `toklab compare` feeds it line by line and prints its report.

use std::io::{self, Write};

use super::boundary::{BoundaryDiff, Segmentation, Skeleton};
use super::inline::{legend, render_inline};
use super::scores::{Counts, Scores};
use crate::core::token::Tokenization;

/// What one compared tokenizer accumulated.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// The tokenizer's name.
    pub name: String,
    /// Its tokens over all texts.
    pub tokens: usize,
    /// Lines cut exactly as the reference cuts them (same boundaries, same text covered).
    pub same_boundaries: usize,
    /// Lines where the forms agree too.
    pub same_forms: usize,
    /// Its scores against the reference, summed over all texts.
    pub scores: Scores,
}

/// A line where some compared tokenizer disagrees with the reference.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// Line number in the input (or the gold file, for CoNLL-U).
    pub line: usize,
    /// The line's text, to write the inline diffs into.
    pub text: String,
    /// For each disagreeing tokenizer (index into [`Comparison::compared`]), its diff.
    pub diffs: Vec<(usize, BoundaryDiff)>,
}

/// The running comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The reference's name (`gold`, or the first tokenizer's).
    pub reference: String,
    /// The reference's tokens over all texts.
    pub reference_tokens: usize,
    /// One tally per compared tokenizer, in command-line order.
    pub compared: Vec<Tally>,
    /// Texts compared.
    pub lines: usize,
    /// Their total size in bytes.
    pub bytes: usize,
    /// Lines where at least one tokenizer disagrees.
    pub disagreeing: usize,
    /// The first `keep` of them, with their diffs.
    pub kept: Vec<Disagreement>,
    keep: usize,
}

impl Comparison {
    /// A comparison of the tokenizers `compared` against `reference`, keeping the first `keep`
    /// disagreeing lines for the report.
    pub fn new(reference: &str, compared: &[String], keep: usize) -> Comparison {
        Comparison {
            reference: reference.to_string(),
            reference_tokens: 0,
            compared: compared
                .iter()
                .map(|name| Tally {
                    name: name.clone(),
                    ..Tally::default()
                })
                .collect(),
            lines: 0,
            bytes: 0,
            disagreeing: 0,
            kept: Vec::new(),
            keep,
        }
    }

    /// Adds one text: the reference's tokenization and each compared tokenizer's, in order.
    pub fn add(
        &mut self,
        line: usize,
        text: &str,
        reference: &Tokenization,
        compared: &[Tokenization],
    ) {
        assert_eq!(
            compared.len(),
            self.compared.len(),
            "one tokenization per compared tokenizer"
        );
        self.lines += 1;
        self.bytes += text.len();
        self.reference_tokens += reference.len();
        let skeleton = Skeleton::new(text);
        let gold = Segmentation::new(text, &skeleton, reference);
        let mut diffs = Vec::new();
        for (index, (tally, tokens)) in self.compared.iter_mut().zip(compared).enumerate() {
            let candidate = Segmentation::new(text, &skeleton, tokens);
            tally.tokens += tokens.len();
            tally.scores.add(Scores::between(&gold, &candidate));
            let diff = BoundaryDiff::between(&skeleton, &gold, &candidate);
            tally.same_boundaries += usize::from(diff.segmentation_agrees());
            tally.same_forms += usize::from(diff.agrees());
            if !diff.agrees() {
                diffs.push((index, diff));
            }
        }
        if !diffs.is_empty() {
            self.disagreeing += 1;
            if self.kept.len() < self.keep {
                self.kept.push(Disagreement {
                    line,
                    text: text.to_string(),
                    diffs,
                });
            }
        }
    }

    /// The report: agreement and totals, the F1 table, the disagreeing lines.
    pub fn write_report(&self, out: &mut dyn Write, colour: bool) -> io::Result<()> {
        let width = self
            .compared
            .iter()
            .map(|t| t.name.chars().count())
            .chain([self.reference.chars().count() + 12, 9])
            .max()
            .unwrap_or(9);
        self.write_totals(out, width)?;
        writeln!(out)?;
        self.write_scores(out, width)?;
        self.write_disagreements(out, width, colour)
    }

    /// The lines and bytes read, and per tokenizer its tokens and the lines it agrees on.
    fn write_totals(&self, out: &mut dyn Write, width: usize) -> io::Result<()> {
        writeln!(
            out,
            "{} line{}, {} bytes; reference: {}",
            self.lines,
            if self.lines == 1 { "" } else { "s" },
            self.bytes,
            self.reference
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:width$}  {:>9}  {:>24}  {:>24}",
            "tokenizer", "tokens", "lines with same cuts", "... and same forms"
        )?;
        writeln!(
            out,
            "{:width$}  {:>9}",
            format!("{} (reference)", self.reference),
            self.reference_tokens
        )?;
        for tally in &self.compared {
            writeln!(
                out,
                "{:width$}  {:>9}  {:>24}  {:>24}",
                tally.name,
                tally.tokens,
                fraction(tally.same_boundaries, self.lines),
                fraction(tally.same_forms, self.lines)
            )?;
        }
        Ok(())
    }

    /// Precision, recall and F1 of each tokenizer against the reference, and the counts
    /// behind them.
    fn write_scores(&self, out: &mut dyn Write, width: usize) -> io::Result<()> {
        let header = format!(
            "{:width$}  {:^20}  {:^20}  {:^20}",
            format!("against {}", self.reference),
            "token boundaries",
            "tokens (both ends)",
            "sentence ends"
        );
        writeln!(out, "{}", header.trim_end())?;
        let columns = "     P      R     F1";
        writeln!(out, "{:width$}  {columns}  {columns}  {columns}", "")?;
        for tally in &self.compared {
            let s = &tally.scores;
            writeln!(
                out,
                "{:width$}  {}  {}  {}",
                tally.name,
                prf(&s.boundaries),
                prf(&s.tokens),
                prf(&s.sentences)
            )?;
        }
        for tally in &self.compared {
            let b = &tally.scores.boundaries;
            writeln!(
                out,
                "{}: {} boundaries shared, {} only in {}, {} only in {}; sentence ends: {} shared, {} only in {}, {} only in {}",
                tally.name,
                b.hits,
                b.extra,
                tally.name,
                b.missed,
                self.reference,
                tally.scores.sentences.hits,
                tally.scores.sentences.extra,
                tally.name,
                tally.scores.sentences.missed,
                self.reference
            )?;
        }
        writeln!(
            out,
            "(P, R, F1 in %; – where there is nothing to count; the end of each text is not counted as a sentence end)"
        )?;
        Ok(())
    }

    /// The disagreeing lines kept, each shown once per tokenizer against the reference.
    fn write_disagreements(
        &self,
        out: &mut dyn Write,
        width: usize,
        colour: bool,
    ) -> io::Result<()> {
        if self.disagreeing == 0 {
            writeln!(out, "\nno disagreeing lines")?;
            return Ok(());
        }
        writeln!(
            out,
            "\n{} disagreeing line{}{}:",
            self.disagreeing,
            if self.disagreeing == 1 { "" } else { "s" },
            if self.kept.len() < self.disagreeing {
                format!(" (the first {} shown; --show N for more)", self.kept.len())
            } else {
                String::new()
            }
        )?;
        writeln!(out, "  {}", legend(&self.reference))?;
        for disagreement in &self.kept {
            writeln!(out, "line {}", disagreement.line)?;
            for (index, diff) in &disagreement.diffs {
                writeln!(
                    out,
                    "  {:width$}  {}",
                    self.compared[*index].name,
                    render_inline(&disagreement.text, diff, colour)
                )?;
            }
        }
        Ok(())
    }
}

fn fraction(part: usize, whole: usize) -> String {
    match whole {
        0 => format!("{part}/0"),
        _ => format!(
            "{part}/{whole} ({:.2}%)",
            100.0 * part as f64 / whole as f64
        ),
    }
}

fn prf(counts: &Counts) -> String {
    let cell = |value: Option<f64>| {
        value.map_or("     –".to_string(), |v| format!("{:>6.2}", 100.0 * v))
    };
    format!(
        "{} {} {}",
        cell(counts.precision()),
        cell(counts.recall()),
        cell(counts.f1())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::word_tokens as tokens;

    #[test]
    fn report_of_two_lines() {
        let mut c = Comparison::new("ws", &["words".to_string()], 10);
        c.add(
            1,
            "a b",
            &tokens(&[(0, 1), (2, 3)]),
            &[tokens(&[(0, 1), (2, 3)])],
        );
        c.add(2, "dogs!", &tokens(&[(0, 5)]), &[tokens(&[(0, 4), (4, 5)])]);
        assert_eq!((c.lines, c.disagreeing), (2, 1));
        let tally = &c.compared[0];
        assert_eq!((tally.tokens, tally.same_boundaries), (4, 1));
        assert_eq!(
            tally.scores.boundaries,
            Counts {
                hits: 1,
                extra: 1,
                missed: 0
            }
        );
        let mut out = Vec::new();
        c.write_report(&mut out, false).unwrap();
        let report = String::from_utf8(out).unwrap();
        assert!(report.contains("1/2 (50.00%)"), "{report}");
        assert!(report.contains(" 50.00 100.00  66.67"), "{report}");
        assert!(report.contains("line 2\n  words"), "{report}");
        assert!(report.contains("dogs|!"), "{report}");
    }
}
