//! `toklab tui`, `toklab open WORKSPACE` (and `toklab` alone): open the workbench.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use crate::tui::app::{App, Loader, RowSetup, WorkspacePlace};
use crate::tui::document::Document;
use crate::tui::panes::View;
use crate::tui::theme::{Theme, ThemeName};
use crate::workspace::Workspace;

#[derive(clap::Args, Default)]
pub struct Args {
    /// A tokenizer to show, as SPEC or LABEL=SPEC (repeat for more rows); without any, the
    /// workspace's tokenizers.
    #[arg(long = "with", short = 'w', value_name = "[LABEL=]SPEC")]
    pub with: Vec<String>,
    /// A workspace file (TOML) naming the text and tokenizers; default: samples/workspace.toml.
    #[arg(long)]
    pub workspace: Option<PathBuf>,
    /// Colour theme (NO_COLOR in the environment selects `plain`; `high-contrast` is for
    /// projectors); default: the workspace's `theme`, else dark.
    #[arg(long, value_enum)]
    pub theme: Option<ThemeName>,
    /// Large print for projectors: the lesson views (merges, train) draw each token in a
    /// padded cell with a blank line between lines (also `large_print = true` in a workspace).
    #[arg(long)]
    pub large_print: bool,
    /// Do not capture the mouse (leaves the terminal's own selection working; `m` toggles).
    #[arg(long)]
    pub no_mouse: bool,
    /// The text file to show; default: the workspace's text.
    pub file: Option<PathBuf>,
}

/// `toklab open WORKSPACE`.
#[derive(clap::Args)]
pub struct OpenArgs {
    /// The workspace file to restore.
    workspace: PathBuf,
    /// Colour theme (NO_COLOR in the environment selects `plain`).
    #[arg(long, value_enum)]
    theme: Option<ThemeName>,
    /// Large print for projectors (see `toklab tui --help`).
    #[arg(long)]
    large_print: bool,
    /// Do not capture the mouse.
    #[arg(long)]
    no_mouse: bool,
}

impl From<OpenArgs> for Args {
    fn from(open: OpenArgs) -> Args {
        Args {
            workspace: Some(open.workspace),
            theme: open.theme,
            large_print: open.large_print,
            no_mouse: open.no_mouse,
            ..Args::default()
        }
    }
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

/// Builds the workbench state the arguments ask for (shared by the CLI and the frame-time
/// benchmark); an XFST script a workspace row names is not compiled (nobody was asked).
pub fn build_app(args: &Args) -> anyhow::Result<App> {
    build_app_asking(args, &mut |_, _| false)
}

/// [`build_app`], asking with `ask` (the workspace file, the script) before a workspace row
/// compiles an XFST script with foma that the user has not agreed to yet ([`crate::consent`]).
pub fn build_app_asking(
    args: &Args,
    ask: &mut dyn FnMut(&Path, &crate::consent::Script) -> bool,
) -> anyhow::Result<App> {
    let given_workspace = args.workspace.is_some();
    let workspace_path = args
        .workspace
        .clone()
        .unwrap_or_else(|| samples_dir().join("workspace.toml"));
    let workspace = if given_workspace || args.with.is_empty() || args.file.is_none() {
        Workspace::load(&workspace_path, &View::NAMES)?
    } else {
        Workspace::default()
    };
    let use_workspace_rows = args.with.is_empty();
    let setups = row_setups(args, &workspace, use_workspace_rows);
    // Specs from a workspace resolve against its folder; specs typed on the command line
    // against the working folder.
    let base = if use_workspace_rows {
        workspace.base.clone()
    } else {
        PathBuf::new()
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
    let declined = if use_workspace_rows {
        let scripts: Vec<_> = workspace
            .tokenizers
            .iter()
            .filter_map(|t| crate::consent::script_of(&t.spec, &base))
            .collect();
        crate::consent::settle(&scripts, &crate::consent::store(), &mut |s| {
            ask(&workspace_path, s)
        })
        .context("cannot keep the list of agreed XFST scripts")?
    } else {
        Vec::new()
    };
    let loader = consenting_loader(base, declined);
    let mut app = App::new(doc, setups, loader);
    if let Some(view) = workspace.view.as_deref().and_then(View::from_name) {
        // Opening the view as a key would, so views that start work (training, statistics) do.
        app.apply(crate::tui::app::Action::ShowView(view));
    }
    if let Some(split) = workspace.split {
        app.panes.split = split.clamp(10, 80);
    }
    app.mouse = !args.no_mouse;
    // A workspace named on the command line is where `W` saves (after asking once, as the
    // file is the user's or a shipped sample); the shipped default is not saved to without
    // asking for a name.
    app.workspace = WorkspacePlace {
        base: workspace.base,
        path: given_workspace.then_some(workspace_path),
        start: std::env::current_dir().unwrap_or_default(),
        written: false,
        theme: workspace.theme.clone(),
        large_print: workspace.large_print,
        on_disk: workspace.on_disk.clone(),
    };
    Ok(app)
}

/// The rows to show: the workspace's, or those given with `--with`. Rows are labelled as
/// written (`label = …`, or LABEL=SPEC) or from their file names, made distinct across the rows.
fn row_setups(args: &Args, workspace: &Workspace, use_workspace_rows: bool) -> Vec<RowSetup> {
    if use_workspace_rows {
        let specs: Vec<&str> = workspace
            .tokenizers
            .iter()
            .map(|t| t.spec.as_str())
            .collect();
        let derived = toklab::core::label::labels(&specs);
        workspace
            .tokenizers
            .iter()
            .zip(derived)
            .map(|(t, derived)| RowSetup {
                label: t.label.clone().unwrap_or(derived),
                colour: t.colour.clone(),
                ..RowSetup::new(&t.spec)
            })
            .collect()
    } else {
        let labels = toklab::core::label::labels(&args.with);
        args.with
            .iter()
            .zip(labels)
            .map(|(s, label)| RowSetup {
                label,
                ..RowSetup::new(s)
            })
            .collect()
    }
}

/// Loads a row's spec against `base` (or the folder it is given), refusing the XFST scripts
/// the user declined so that foma never runs on them.
fn consenting_loader(base: PathBuf, declined: Vec<PathBuf>) -> Loader {
    Arc::new(move |spec: &str, folder: Option<&std::path::Path>| {
        let folder = folder.unwrap_or(&base);
        if let Some(script) = crate::consent::script_of(spec, folder)
            && declined.contains(&script.path)
        {
            return Err(format!(
                "{} was not compiled: foma runs only on a workspace's script you agree to \
                 (open the workspace again to be asked)",
                script.path.display()
            ));
        }
        toklab::load_in(spec, folder).map_err(|e| e.to_string())
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the workbench needs a terminal (standard input and output are not both one); \
             for batch work use `toklab tokenize`, `explain`, `compare` or `align`"
        );
    }
    let app = build_app_asking(&args, &mut |workspace, script| {
        use std::io::{BufRead, Write};
        eprint!("{}", crate::consent::question(script, workspace));
        let _ = std::io::stderr().flush();
        let mut answer = String::new();
        std::io::stdin().lock().read_line(&mut answer).is_ok()
            && matches!(answer.trim(), "y" | "Y" | "yes")
    })?;
    let theme = Theme::for_workbench(args.theme, args.large_print, &app.workspace);
    crate::tui::run(app, theme)?;
    Ok(ExitCode::SUCCESS)
}
