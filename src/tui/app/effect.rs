//! File I/O as values: `App::apply` only queues what it wants read or written, and the event
//! loop performs it ([`crate::tui::effect::perform`]) and hands the result back. So the state
//! update stays pure, and tests see what would be written without touching a disk.

use std::path::PathBuf;

use crate::tui::document::Snapshot;
use crate::workspace::Workspace;
use toklab::core::files::Expect;

/// File work the workbench asked for.
pub enum Effect {
    /// Write the text (with its edits) to `path`, finding there what `expect` says (the
    /// text's file as it was read, no file, or anything when the user agreed); else the user
    /// is asked.
    SaveText {
        path: PathBuf,
        text: Snapshot,
        expect: Expect,
    },
    /// Read another text in place of this one.
    OpenText(PathBuf),
    /// Write the workspace file, finding there what `expect` says; else the user is asked.
    SaveWorkspace {
        path: PathBuf,
        workspace: Workspace,
        expect: Expect,
    },
    /// Load every row's tokenizer again from its files.
    ReloadRows,
    /// Write the model being trained into a folder (GPT-2 `vocab.json` + `merges.txt`).
    SaveModel(PathBuf),
    /// Open a rule file in the user's editor at a line (the rows watching it then reload).
    EditFile { path: PathBuf, line: usize },
    /// Put `text` on the clipboard (OSC 52), or write it to `file`; `what` names it for the
    /// status bar.
    Copy {
        text: String,
        what: String,
        file: Option<PathBuf>,
    },
    /// Write a picture of the rows as `stem.svg` and `stem.html` (under free names).
    ExportPicture {
        stem: PathBuf,
        svg: String,
        html: String,
    },
}

impl std::fmt::Debug for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Effect::SaveText { path, text, .. } => write!(
                f,
                "SaveText({}, {} lines)",
                path.display(),
                text.line_count()
            ),
            Effect::OpenText(path) => write!(f, "OpenText({})", path.display()),
            Effect::SaveWorkspace { path, .. } => write!(f, "SaveWorkspace({})", path.display()),
            Effect::ReloadRows => f.write_str("ReloadRows"),
            Effect::SaveModel(path) => write!(f, "SaveModel({})", path.display()),
            Effect::EditFile { path, line } => write!(f, "EditFile({}:{line})", path.display()),
            Effect::Copy { what, file, .. } => write!(f, "Copy({what}, {file:?})"),
            Effect::ExportPicture { stem, .. } => write!(f, "ExportPicture({})", stem.display()),
        }
    }
}
