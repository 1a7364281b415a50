//! `toklab unigram train`: a unigram language model (Kudo 2018) trained by EM with pruning,
//! written as a SentencePiece `.model`, with a log line per EM iteration and pruning step and
//! a progress bar over the rounds.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand};

use toklab::engines::subword::train::unigram::{UnigramConfig, UnigramEvent, model_bytes, train};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a unigram model on a corpus and write a SentencePiece .model.
    Train(TrainArgs),
}

#[derive(ClapArgs)]
struct TrainArgs {
    /// The vocabulary size, <unk>, <s> and </s> included (as spm_train's --vocab_size).
    #[arg(long)]
    vocab_size: usize,
    /// The longest piece, in characters.
    #[arg(long, default_value_t = 16)]
    max_piece_length: usize,
    /// The share of the vocabulary each pruning step keeps.
    #[arg(long, default_value_t = 0.75)]
    shrinking_factor: f64,
    /// The training text (UTF-8); words are its whitespace-separated strings.
    corpus: PathBuf,
    /// The .model file to write.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Train(args) => train_command(args),
    }
}

fn train_command(args: TrainArgs) -> anyhow::Result<ExitCode> {
    super::refuse_to_overwrite(std::slice::from_ref(&args.output), args.force)?;
    if !(args.shrinking_factor > 0.0 && args.shrinking_factor < 1.0) {
        bail!(
            "--shrinking-factor wants a number between 0 and 1, not {}",
            args.shrinking_factor
        );
    }
    if args.max_piece_length == 0 {
        bail!("--max-piece-length wants 1 or more");
    }
    let bytes = super::input::read_whole(&args.corpus)?;
    let corpus = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => bail!(
            "{}: invalid UTF-8 at byte {}",
            args.corpus.display(),
            e.utf8_error().valid_up_to()
        ),
    };
    let config = UnigramConfig {
        max_piece_len: args.max_piece_length,
        shrinking_factor: args.shrinking_factor,
        ..UnigramConfig::new(args.vocab_size)
    };
    let started = Instant::now();
    let bar = std::io::stderr().is_terminal();
    let mut rounds = 1;
    let mut log = |event: &UnigramEvent| {
        if bar {
            eprint!("\r\x1b[K");
        }
        match event {
            UnigramEvent::Seeded {
                words,
                chars,
                pieces,
                rounds: r,
            } => {
                rounds = *r;
                eprintln!(
                    "seed: {words} distinct words, {chars} characters, {pieces} seed pieces; about {r} rounds"
                );
            }
            UnigramEvent::Em {
                round,
                iteration,
                pieces,
                loss,
                tokens,
            } => eprintln!(
                "round {round} EM {iteration}: {pieces} pieces, loss {loss:.4} per word, {tokens} tokens"
            ),
            UnigramEvent::Pruned { round, from, to } => {
                eprintln!("round {round} prune: {from} → {to} pieces")
            }
            UnigramEvent::Finished { pieces } => {
                eprintln!("final: {pieces} pieces + <unk> <s> </s>")
            }
            _ => {}
        }
        let done = match event {
            UnigramEvent::Pruned { round, .. } => *round,
            UnigramEvent::Finished { .. } => rounds,
            _ => 0,
        };
        if bar && done > 0 {
            let width = 40;
            let filled = (done * width / rounds.max(1)).min(width);
            eprint!(
                "[{}{}] round {done}/{rounds}",
                "#".repeat(filled),
                " ".repeat(width - filled)
            );
        }
    };
    let model = train(&corpus, &config, &mut log)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.corpus.display()))?;
    if bar {
        eprintln!();
    }
    super::write_output(&args.output, args.force, &model_bytes(&model))?;
    eprintln!(
        "wrote {} ({} pieces) in {:.1}s",
        super::safe_path(&args.output),
        model.pieces.len() + toklab::engines::subword::train::unigram::META_PIECES,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
