//! `toklab rules check FILE…`: lint rule files in utoken's format.

use crate::counted::counted;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `toklab rules …`: a group of subcommands, so more rule-file tools can join `check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Report malformed lines, unknown or missing slots, regexes that do not compile,
    /// duplicate entries and entries that can never fire, each with file:line:column.
    /// Exit status 1 when there are errors.
    Check {
        /// Rule files (`tok-resource*.txt`, `detok-resource*.txt`, `top-level-domain*.txt`)
        /// or folders of them; files are checked together, in the order given.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Leave out warnings (duplicates, entries that never fire).
        #[arg(long)]
        errors_only: bool,
    },
}

/// Runs a `rules` subcommand; exit status 1 when a check finds errors.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Check { files, errors_only } => check(&files, errors_only),
    }
}

fn check(paths: &[PathBuf], errors_only: bool) -> anyhow::Result<ExitCode> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(folder_files(path)?);
        } else {
            files.push(path.clone());
        }
    }
    let diagnostics = toklab::engines::rules::check_files(&files);
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    for d in &diagnostics {
        if errors_only && !d.is_error() {
            continue;
        }
        println!("{}", super::safe(&d.to_string()));
    }
    eprintln!(
        "toklab rules check: {}, {} in {}",
        counted(errors, "error"),
        counted(warnings, "warning"),
        counted(files.len(), "file")
    );
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The rule files of a folder, in the order utoken loads them (language files first).
fn folder_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.ends_with(".txt")
                && (n.starts_with("tok-resource")
                    || n.starts_with("detok-resource")
                    || n.starts_with("top-level-domain"))
        })
        .collect();
    let rank = |n: &str| match n {
        "tok-resource-eng-global.txt" => 1,
        "tok-resource.txt" => 2,
        _ if n.starts_with("detok") => 3,
        _ if n.starts_with("top-level") => 4,
        _ => 0,
    };
    names.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    Ok(names.into_iter().map(|n| dir.join(n)).collect())
}
