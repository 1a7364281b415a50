//! `toklab lex vocab`: Jung's Algorithm 1, a POS vocabulary for `lex:` from a word set.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use toklab::engines::lex::{
    BuildOptions, Cleaning, Vocabulary, analyse, load_words, wordmap::digits,
};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Build a POS vocabulary: wordmaps of every word against every other (Algorithm 1),
    /// cleaned to their leading and trailing runs, summed per position, and split where the
    /// z-score crosses the threshold.
    Vocab {
        /// Words of one part of speech, one per line (`#` comment lines are skipped).
        #[arg(long, value_name = "WORDS.txt")]
        words: PathBuf,
        /// The z-score that separates a word's frequent (functional) from its rare (lexical)
        /// positions.
        #[arg(
            long,
            value_name = "Z",
            default_value_t = 0.0,
            allow_negative_numbers = true
        )]
        threshold: f64,
        /// How a wordmap is cleaned: runs (only the leading and trailing runs of matches
        /// survive) or regex (one non-overlapping pass of 01+0 → zeros).
        #[arg(long, default_value = "runs", value_parser = ["runs", "regex"])]
        clean: String,
        /// Where to write the vocabulary (`segment<TAB>count` per line).
        #[arg(short = 'o', long = "output", value_name = "VOCAB")]
        output: PathBuf,
        /// Replace the output if it exists.
        #[arg(long)]
        force: bool,
        /// Print every word's positional sums, z-scores and segments on standard output.
        #[arg(long)]
        show: bool,
    },
}

/// Runs `toklab lex vocab`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Command::Vocab {
        words,
        threshold,
        clean,
        output,
        force,
        show,
    } = args.command;
    if output.exists() && !force {
        bail!("{} exists (--force replaces it)", output.display());
    }
    let cleaning = Cleaning::from_name(&clean).context("--clean wants runs or regex")?;
    let list = load_words(&words)?;
    let analyses = analyse(
        &list,
        BuildOptions {
            threshold,
            cleaning,
        },
    );
    if show {
        // The words come from the word list: written as every report is.
        let mut out = super::report_stdout();
        for a in &analyses {
            let z: Vec<String> = a.z.iter().map(|z| format!("{z:+.2}")).collect();
            let sums: Vec<String> = a.counts.iter().map(u32::to_string).collect();
            writeln!(
                out,
                "{}\t{}\tsums {}\tz {}\t{}",
                a.word,
                digits(&a.z.iter().map(|&z| z >= threshold).collect::<Vec<_>>()),
                sums.join(" "),
                z.join(" "),
                a.segments.join(" | ")
            )?;
        }
    }
    let vocabulary = Vocabulary::from_analyses(&analyses);
    let comment = format!(
        "toklab lex vocab: Jung's Algorithm 1 over {} ({} words)\nthreshold {threshold}, cleaning {}",
        words.display(),
        list.len(),
        cleaning.name()
    );
    super::write_output(&output, force, vocabulary.to_text(&comment).as_bytes())?;
    eprintln!(
        "toklab lex vocab: {} words → {} segments in {}",
        list.len(),
        vocabulary.entries.len(),
        super::safe_path(&output)
    );
    Ok(ExitCode::SUCCESS)
}
