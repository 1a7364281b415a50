//! `toklab bpe`: dictionary analysis (`check`), training (`train`) and the merge steps of one
//! word under both semantics (`steps`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, Subcommand, ValueEnum};

use crate::merges::read::read_model;
use crate::merges::train::{Pretok, Trainer, show_token};
use crate::merges::write::write_gpt2;
use crate::merges::{Analysis, Comparison, Derivation, Dictionary, Side, Unit};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Is the dictionary proper? Which rules can never apply? How much lookahead is enough?
    Check(CheckArgs),
    /// Learn merges from a corpus and write a GPT-2-format model (encoder.json + vocab.bpe).
    Train(TrainArgs),
    /// The merge steps of one word under SentencePiece and HuggingFace semantics.
    Steps(StepsArgs),
}

#[derive(ClapArgs)]
struct CheckArgs {
    /// A GPT-2 directory (vocab.bpe or merges.txt), a merges file, or a .tiktoken rank file.
    model: PathBuf,
    /// How many rules of each finding to list.
    #[arg(long, default_value_t = 10)]
    list: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum PretokArg {
    Gpt2,
    None,
}

#[derive(ClapArgs)]
struct TrainArgs {
    /// How many merges to learn.
    #[arg(long)]
    merges: usize,
    /// Train on bytes (byte-level BPE) instead of characters.
    #[arg(long)]
    bytes: bool,
    /// Pre-tokenization: GPT-2's pattern, or none (each line is one word).
    #[arg(long, value_enum, default_value = "gpt2")]
    pretok: PretokArg,
    /// The training text (UTF-8).
    corpus: PathBuf,
    /// The directory to write encoder.json and vocab.bpe into.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Print every merge on standard output: rank, left, right, new token, count.
    #[arg(long)]
    log: bool,
}

#[derive(ClapArgs)]
struct StepsArgs {
    /// A model path as for `check`.
    #[arg(long, required_unless_present = "rules", conflicts_with = "rules")]
    model: Option<PathBuf>,
    /// Rules written like the paper: "ab a, a b" (characters are symbols).
    #[arg(long)]
    rules: Option<String>,
    /// The word (pre-token) to derive.
    word: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Check(a) => check(a),
        Command::Train(a) => train(a),
        Command::Steps(a) => steps(a),
    }
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let loaded = read_model(&args.model)?;
    let read_time = started.elapsed();
    let dict = &loaded.dict;
    let analysis = Analysis::new(dict);
    let mut out = std::io::stdout().lock();
    let unit = match dict.unit() {
        Unit::Byte => "bytes",
        Unit::Char => "characters",
    };
    writeln!(
        out,
        "model: {} ({}), {} rules over {unit}",
        loaded.path.display(),
        loaded.format,
        analysis.rules
    )?;
    if !loaded.unreachable.is_empty() {
        writeln!(
            out,
            "unreachable tokens: {} (no merge of two lower-ranked tokens makes them; ranks {})",
            loaded.unreachable.len(),
            list(&loaded.unreachable, args.list)
        )?;
    }
    if analysis.is_proper() {
        writeln!(
            out,
            "proper: yes (Definition 5: every longer side is made by an earlier rule), so both semantics agree (Lemma 1)"
        )?;
    } else {
        writeln!(
            out,
            "proper: no, {} rule side(s) not made by an earlier rule (Definition 5); the semantics may differ",
            analysis.improper.len()
        )?;
        for bad in analysis.improper.iter().take(args.list) {
            let side = match bad.side {
                Side::Left => "left",
                Side::Right => "right",
            };
            let maker = match bad.made_by {
                Some(m) => format!("made only by rule #{} {}", m + 1, dict.show_rule(m)),
                None => "made by no rule".to_string(),
            };
            writeln!(
                out,
                "  rule #{} {}: {side} side {maker}",
                bad.rule + 1,
                dict.show_rule(bad.rule)
            )?;
        }
    }
    writeln!(out, "duplicated pairs: {}", analysis.duplicates.len())?;
    if loaded.format == "tiktoken ranks" {
        writeln!(
            out,
            "  (a rank file's rules are found by encoding each token with the rules before it, so each is used on its own string; its never-useful entries are the unreachable tokens)"
        )?;
    }
    for (name, never) in [
        ("SentencePiece", &analysis.never_useful_sp),
        ("HuggingFace", &analysis.never_useful_hf),
    ] {
        writeln!(
            out,
            "never useful under {name} semantics (Corollary 1): {}",
            never.len()
        )?;
        for &rule in never.iter().take(args.list) {
            writeln!(out, "  rule #{} {}", rule + 1, dict.show_rule(rule))?;
        }
    }
    writeln!(
        out,
        "lookahead: max |uv| = {} symbols; Definition 7: |D|·max|uv| = {}; Remark 5: chain length c(D) ≤ {}, so lookahead ≤ {}",
        analysis.max_rule_symbols,
        analysis.sufficient_lookahead,
        analysis.chain_bound,
        analysis.chain_lookahead
    )?;
    if !analysis.is_proper() {
        writeln!(
            out,
            "  (the lookahead theorems assume a proper dictionary; these bounds do not hold here)"
        )?;
    }
    let shown: Vec<String> = analysis
        .chain
        .iter()
        .take(args.list)
        .map(|&r| format!("#{} «{}»", r + 1, show_token(&dict.rules()[r].merged())))
        .collect();
    writeln!(
        out,
        "  a longest chain starts: {}{}",
        shown.join(" < "),
        if analysis.chain.len() > args.list {
            " < …"
        } else {
            ""
        }
    )?;
    let mut times = vec![format!("read {:.2}s", read_time.as_secs_f64())];
    times.extend(
        analysis
            .timings
            .iter()
            .map(|(name, t)| format!("{name} {:.2}s", t.as_secs_f64())),
    );
    writeln!(out, "time: {}", times.join(", "))?;
    Ok(ExitCode::SUCCESS)
}

fn list(values: &[u32], n: usize) -> String {
    let mut shown: Vec<String> = values.iter().take(n).map(u32::to_string).collect();
    if values.len() > n {
        shown.push("…".into());
    }
    shown.join(", ")
}

fn train(args: TrainArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.corpus)
        .with_context(|| format!("reading {}", args.corpus.display()))?;
    let corpus = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => bail!(
            "{}: invalid UTF-8 at byte {}",
            args.corpus.display(),
            e.utf8_error().valid_up_to()
        ),
    };
    let unit = if args.bytes { Unit::Byte } else { Unit::Char };
    let pretok = match args.pretok {
        PretokArg::Gpt2 => Pretok::Gpt2,
        PretokArg::None => Pretok::None,
    };
    let started = Instant::now();
    let mut trainer = Trainer::new(&corpus, unit, pretok);
    let counted = started.elapsed();
    let show_progress = std::io::stderr().is_terminal();
    let mut progress = |p: crate::merges::train::Progress| {
        if show_progress {
            let width = 40;
            let filled = p.done * width / p.total.max(1);
            eprint!(
                "\r[{}{}] {}/{} merges",
                "#".repeat(filled),
                " ".repeat(width - filled),
                p.done,
                p.total
            );
        }
    };
    trainer.train(args.merges, &mut progress);
    if show_progress {
        eprintln!();
    }
    let trained = started.elapsed();
    let written = write_gpt2(&trainer, &args.output)?;
    if args.log {
        let mut out = std::io::stdout().lock();
        writeln!(out, "rank\tleft\tright\tnew\tcount")?;
        for m in trainer.merges() {
            writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}",
                m.rank + 1,
                show_token(trainer.token(m.left)),
                show_token(trainer.token(m.right)),
                show_token(trainer.token(m.new)),
                m.count
            )?;
        }
    }
    if trainer.merges().len() < args.merges {
        eprintln!(
            "toklab: warning: only {} merges possible (no adjacent pair left)",
            trainer.merges().len()
        );
    }
    eprintln!(
        "toklab: {} words ({} distinct), {} merges in {:.2}s (counting {:.2}s); wrote {} tokens, {} merges ({} building characters) to {}",
        trainer.words().iter().map(|w| w.count).sum::<u64>(),
        trainer.words().len(),
        trainer.merges().len(),
        trained.as_secs_f64(),
        counted.as_secs_f64(),
        written.tokens,
        written.merges,
        written.char_merges,
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn steps(args: StepsArgs) -> anyhow::Result<ExitCode> {
    let dict = match (&args.rules, &args.model) {
        (Some(rules), _) => Dictionary::parse_paper(rules).map_err(anyhow::Error::msg)?,
        (None, Some(path)) => read_model(path)?.dict,
        (None, None) => bail!("give a model path or --rules"),
    };
    let comparison = Comparison::new(&dict, args.word.as_bytes());
    let mut out = std::io::stdout().lock();
    for d in [&comparison.sp, &comparison.hf] {
        write_derivation(&mut out, &dict, d, comparison.parts_at)?;
    }
    match comparison.parts_at {
        None => writeln!(out, "the two semantics take the same steps")?,
        Some(k) => writeln!(
            out,
            "the semantics part at step {}; results {}",
            k + 1,
            if comparison.results_differ() {
                "differ"
            } else {
                "agree"
            }
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

fn write_derivation(
    out: &mut impl Write,
    dict: &Dictionary,
    d: &Derivation,
    parts_at: Option<usize>,
) -> std::io::Result<()> {
    let name = match d.semantics {
        crate::merges::Semantics::SentencePiece => "SentencePiece (Definition 3)",
        crate::merges::Semantics::HuggingFace => "HuggingFace (Definition 4)",
    };
    let tokens = |k: usize| {
        d.tokens_after(k)
            .into_iter()
            .map(show_token)
            .collect::<Vec<_>>()
            .join(" ⟩ ")
    };
    writeln!(out, "{name}:")?;
    writeln!(out, "  τ0 = {}", tokens(0))?;
    for (k, step) in d.steps.iter().enumerate() {
        writeln!(
            out,
            "{} τ{} = {}    rule #{} {} rank {} at token {}",
            if parts_at == Some(k) { "*" } else { " " },
            k + 1,
            tokens(k + 1),
            step.rule + 1,
            dict.show_rule(step.rule),
            step.rank,
            step.position
        )?;
    }
    Ok(())
}
