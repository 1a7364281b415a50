//! `toklab kinds`: the spec kinds and what they do.

use std::process::ExitCode;

use toklab::spec::KINDS;

pub fn run() -> anyhow::Result<ExitCode> {
    let width = KINDS.iter().map(|k| k.usage.len()).max().unwrap_or(0);
    for kind in KINDS {
        println!("{:<width$}  {}", kind.usage, kind.about);
    }
    println!(
        "\nA spec is KIND:ARG[?key=value&...]; relative paths resolve against the working folder\n(or, in a workspace, the workspace's folder)."
    );
    Ok(ExitCode::SUCCESS)
}
