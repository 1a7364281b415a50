//! `toklab bpe`: dictionary analysis (`check`), training (`train`) and the merge steps of one
//! word under both semantics (`steps`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand, ValueEnum};

use toklab::core::spec::Spec;
use toklab::engines::subword::bpe::{FormalDictionary, RuleSource, Subword, load_subword};
use toklab::engines::subword::formal::{
    Analysis, Comparison, Derivation, Dictionary, RuleSide, SymbolUnit,
};
use toklab::engines::subword::train::write_gpt2;
use toklab::engines::subword::train::{Pretok, Trainer, show_token};

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
    /// A `bpe:`, `tiktoken:` or `spm:` spec, or a path: a GPT-2 folder (or a file in one), a
    /// tokenizer.json, a .tiktoken rank file, a SentencePiece .model.
    model: String,
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
    /// Replace encoder.json and vocab.bpe if the directory already has them.
    #[arg(long)]
    force: bool,
    /// Print every merge on standard output: rank, left, right, new token, count.
    #[arg(long)]
    log: bool,
}

#[derive(ClapArgs)]
struct StepsArgs {
    /// A model spec or path as for `check`.
    #[arg(long, required_unless_present = "rules", conflicts_with = "rules")]
    model: Option<String>,
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

/// A model argument as a spec: a `bpe:`, `tiktoken:` or `spm:` spec as given, or a path whose
/// format its name tells.
fn model_spec(model: &str) -> anyhow::Result<Spec> {
    if ["bpe:", "tiktoken:", "spm:"]
        .iter()
        .any(|kind| model.starts_with(kind))
    {
        return Ok(Spec::parse(model)?);
    }
    let path = std::path::Path::new(model);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_folder = ["vocab.bpe", "merges.txt", "encoder.json", "vocab.json"].contains(&name);
    let spec = if path.is_dir() {
        format!("bpe:{model}")
    } else if in_folder {
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        format!(
            "bpe:{}",
            folder.unwrap_or(std::path::Path::new(".")).display()
        )
    } else if name.ends_with(".json") {
        format!("bpe:{model}")
    } else if name.ends_with(".tiktoken") {
        format!("tiktoken:{model}")
    } else if name.ends_with(".model") {
        format!("spm:{model}")
    } else {
        bail!(
            "{model}: cannot tell the model format from the name; give a spec (bpe:DIR, bpe:FILE.json, tiktoken:FILE, spm:FILE.model)"
        );
    };
    Ok(Spec::parse(&spec)?)
}

/// Loads a model as `tokenize` does, printing its warnings on stderr.
fn load_model(model: &str) -> anyhow::Result<Subword> {
    let subword = load_subword(model_spec(model)?)?;
    let tokenizer = subword.tokenizer();
    for warning in tokenizer.warnings() {
        super::warn(&format!("{}: {warning}", tokenizer.name()));
    }
    Ok(subword)
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let subword = load_model(&args.model)?;
    let model = subword.bpe_model();
    let load_time = started.elapsed();
    if subword
        .spm_model()
        .is_some_and(|m| m.model_type != toklab::engines::subword::spm::ModelType::Bpe)
    {
        bail!(
            "{}: a unigram model has no merge rules to check",
            args.model
        );
    }
    let started = Instant::now();
    let formal = model.formal();
    let convert_time = started.elapsed();
    let dict = &formal.dict;
    let analysis = Analysis::new(dict);
    let mut out = std::io::stdout().lock();
    let unit = match dict.unit() {
        SymbolUnit::Byte => "bytes",
        SymbolUnit::Char => "characters",
    };
    writeln!(
        out,
        "model: {} ({}), {} rules over {unit}",
        subword.tokenizer().name(),
        formal.source.describe(),
        analysis.rules
    )?;
    if !formal.unreachable.is_empty() {
        let ranks: Vec<u32> = formal
            .unreachable
            .iter()
            .filter_map(|&id| model.rank_of_token(id))
            .collect();
        writeln!(
            out,
            "unreachable tokens: {} (their own string does not merge into them; ranks {})",
            formal.unreachable.len(),
            list(&ranks, args.list)
        )?;
    }
    write_properness(&mut out, &analysis, formal, args.list)?;
    write_usefulness(&mut out, &analysis, dict, args.list)?;
    write_lookahead(&mut out, &analysis, dict, args.list)?;
    let mut times = vec![
        format!("load {:.2}s", load_time.as_secs_f64()),
        format!("dictionary {:.2}s", convert_time.as_secs_f64()),
    ];
    times.extend(
        analysis
            .timings
            .iter()
            .map(|(name, t)| format!("{name} {:.2}s", t.as_secs_f64())),
    );
    writeln!(out, "time: {}", times.join(", "))?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the dictionary is proper (Definition 5), with the rule sides that make it not.
fn write_properness(
    out: &mut impl Write,
    analysis: &Analysis,
    formal: &FormalDictionary,
    shown: usize,
) -> std::io::Result<()> {
    let dict = &formal.dict;
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
        for bad in analysis.improper.iter().take(shown) {
            let side = match bad.side {
                RuleSide::Left => "left",
                RuleSide::Right => "right",
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
    if formal.source == RuleSource::RankedVocabulary {
        writeln!(
            out,
            "  (each token's rule is the last merge of its own string, so each rule is used on its own string; tokens merging never makes are the unreachable ones)"
        )?;
    }
    Ok(())
}

/// The rules no word ever uses, under each semantics (Corollary 1).
fn write_usefulness(
    out: &mut impl Write,
    analysis: &Analysis,
    dict: &Dictionary,
    shown: usize,
) -> std::io::Result<()> {
    for (name, never) in [
        ("SentencePiece", &analysis.never_useful_sp),
        ("HuggingFace", &analysis.never_useful_hf),
    ] {
        writeln!(
            out,
            "never useful under {name} semantics (Corollary 1): {}",
            never.len()
        )?;
        for &rule in never.iter().take(shown) {
            writeln!(out, "  rule #{} {}", rule + 1, dict.show_rule(rule))?;
        }
    }
    Ok(())
}

/// The lookahead bounds (Definition 7, Remark 5) and the start of a longest chain.
fn write_lookahead(
    out: &mut impl Write,
    analysis: &Analysis,
    dict: &Dictionary,
    list: usize,
) -> std::io::Result<()> {
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
        .take(list)
        .map(|&r| format!("#{} «{}»", r + 1, show_token(&dict.rules()[r].merged())))
        .collect();
    writeln!(
        out,
        "  a longest chain starts: {}{}",
        shown.join(" < "),
        if analysis.chain.len() > list {
            " < …"
        } else {
            ""
        }
    )?;
    Ok(())
}

fn list(values: &[u32], n: usize) -> String {
    let mut shown: Vec<String> = values.iter().take(n).map(u32::to_string).collect();
    if values.len() > n {
        shown.push("…".into());
    }
    shown.join(", ")
}

fn train(args: TrainArgs) -> anyhow::Result<ExitCode> {
    super::refuse_to_overwrite(
        &[
            args.output.join("encoder.json"),
            args.output.join("vocab.bpe"),
        ],
        args.force,
    )?;
    let bytes = super::input::read_whole(&args.corpus)?;
    let corpus = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => bail!(
            "{}: invalid UTF-8 at byte {}",
            args.corpus.display(),
            e.utf8_error().valid_up_to()
        ),
    };
    let unit = if args.bytes {
        SymbolUnit::Byte
    } else {
        SymbolUnit::Char
    };
    let pretok = match args.pretok {
        PretokArg::Gpt2 => Pretok::Gpt2,
        PretokArg::None => Pretok::None,
    };
    let started = Instant::now();
    let mut trainer = Trainer::new(&corpus, unit, pretok);
    let counted = started.elapsed();
    let show_progress = std::io::stderr().is_terminal();
    let mut progress = |p: toklab::engines::subword::train::Progress| {
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
    let written = write_gpt2(&trainer, &args.output, args.force)?;
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
        let words = match pretok {
            Pretok::None => "line (with --pretok none each line is one word)",
            _ => "word (merges never cross a pre-token)",
        };
        eprintln!(
            "toklab: warning: made {} of the {} merges asked for: training stopped because no two adjacent symbols are left inside any {words}",
            trainer.merges().len(),
            args.merges
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
        super::safe_path(&args.output)
    );
    Ok(ExitCode::SUCCESS)
}

fn steps(args: StepsArgs) -> anyhow::Result<ExitCode> {
    let subword;
    let paper;
    let mut word = args.word.clone();
    let dict = match (&args.rules, &args.model) {
        (Some(rules), _) => {
            paper = Dictionary::parse_paper(rules).map_err(anyhow::Error::msg)?;
            &paper
        }
        (None, Some(model)) => {
            subword = load_model(model)?;
            if let Some(spm) = subword.spm_model() {
                word = spm
                    .normalizer
                    .normalize(&args.word)
                    .normalized()
                    .to_string();
            }
            subword.bpe_model().dictionary()
        }
        (None, None) => bail!("give a model or --rules"),
    };
    let comparison = Comparison::new(dict, word.as_bytes());
    let mut out = std::io::stdout().lock();
    if word != args.word {
        writeln!(out, "normalized: «{word}»")?;
    }
    for d in [&comparison.sp, &comparison.hf] {
        write_derivation(&mut out, dict, d, comparison.parts_at)?;
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
        toklab::engines::subword::formal::Semantics::SentencePiece => {
            "SentencePiece (Definition 3)"
        }
        toklab::engines::subword::formal::Semantics::HuggingFace => "HuggingFace (Definition 4)",
    };
    let tokens = |k: usize| d.show_after(k);
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
