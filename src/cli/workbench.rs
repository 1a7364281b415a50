//! `toklab tui` (and `toklab` alone): open the workbench.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use ratatui::style::Color;

use crate::tui::TerminalOptions;
use crate::tui::app::{App, RowSetup};
use crate::tui::document::Document;
use crate::tui::theme::{Theme, ThemeName};
use crate::workspace::Workspace;

#[derive(clap::Args, Default)]
pub struct Args {
    /// A tokenizer to show (repeat for more rows); without any, the workspace's tokenizers.
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: Vec<String>,
    /// A workspace file (TOML) naming the text and tokenizers; default: samples/workspace.toml.
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// Colour theme (NO_COLOR in the environment selects `plain`).
    #[arg(long, value_enum)]
    theme: Option<ThemeName>,
    /// Do not capture the mouse (leaves the terminal's own selection working).
    #[arg(long)]
    no_mouse: bool,
    /// The text file to show; default: the workspace's text.
    file: Option<PathBuf>,
}

/// The shipped samples: `samples/` in the working folder, else next to the crate's sources
/// (so `cargo run` works from any folder of the checkout).
pub fn samples_dir() -> PathBuf {
    let local = Path::new("samples");
    if local.join("workspace.toml").is_file() {
        local.to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let workspace_path = args
        .workspace
        .clone()
        .unwrap_or_else(|| samples_dir().join("workspace.toml"));
    let workspace = Workspace::load(&workspace_path)?;
    let (setups, base) = if args.with.is_empty() {
        let setups = workspace
            .tokenizers
            .iter()
            .map(|t| RowSetup {
                label: t.label().to_string(),
                spec: t.spec.clone(),
                colour: t.colour.as_deref().and_then(|c| c.parse::<Color>().ok()),
            })
            .collect();
        (setups, workspace.base.clone())
    } else {
        let setups = args
            .with
            .iter()
            .map(|spec| RowSetup {
                label: spec.clone(),
                spec: spec.clone(),
                colour: None,
            })
            .collect();
        (setups, PathBuf::new())
    };
    let text_path = match args.file.clone().or_else(|| workspace.text_path()) {
        Some(path) => path,
        None => anyhow::bail!(
            "{}: names no text file and none was given",
            workspace_path.display()
        ),
    };
    let doc = Document::open(&text_path)
        .with_context(|| format!("cannot open {}", text_path.display()))?;
    let app = App::new(doc, setups, |spec| {
        crate::load_in(spec, &base).map_err(|e| e.to_string())
    });
    crate::tui::run(
        app,
        Theme::choose(args.theme),
        TerminalOptions {
            mouse: !args.no_mouse,
        },
    )?;
    Ok(ExitCode::SUCCESS)
}
