//! `toklab kinds`: the spec kinds and what they do.

use std::process::ExitCode;

use toklab::Registry;

pub fn run() -> anyhow::Result<ExitCode> {
    let registry = Registry::builtin();
    let width = registry
        .kinds()
        .iter()
        .map(|k| k.usage.len())
        .max()
        .unwrap_or(0);
    for kind in registry.kinds() {
        println!("{:<width$}  {}", kind.usage, kind.about);
    }
    println!(
        "\nA spec is KIND:ARG[?key=value&...]; relative paths resolve against the working folder\n(or, in a workspace, the workspace's folder)."
    );
    Ok(ExitCode::SUCCESS)
}
