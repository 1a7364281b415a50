//! Opening and saving texts and workspaces. Nothing here reads or writes a file: the actions
//! queue [`Effect`]s, and the event loop performs them and calls back (`replace_document`,
//! `text_saved`).

use std::path::PathBuf;

use super::{App, DocState, Effect, Mode, Prompt, PromptKind};
use crate::tui::document::Document;
use crate::workspace::{TokenizerEntry, Workspace, rebase_spec};
use toklab::core::files::{Expect, Stamp};

/// Where the workspace is: the folder its relative paths are resolved against, and the file
/// `W` saves to (none until the user names one, so the shipped default is not overwritten);
/// and the folder the user started in, which paths typed at the prompts are relative to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkspacePlace {
    pub base: PathBuf,
    pub path: Option<PathBuf>,
    pub start: PathBuf,
    /// Whether this session wrote `path` already: `W` then saves again without asking, where
    /// the first save over a file it did not write (a shipped sample) asks first.
    pub written: bool,
    /// The theme and layout the workspace asked for, written back when it is saved.
    pub theme: Option<String>,
    pub large_print: Option<bool>,
    /// The workspace file as it was read or last written: `W` over it expects that.
    pub on_disk: Option<Stamp>,
}

impl WorkspacePlace {
    /// A path typed at a prompt, resolved against the folder the user started in.
    pub fn typed(&self, input: &str) -> PathBuf {
        self.start_folder().join(input)
    }

    /// The folder the user started in (the current folder when unknown).
    pub fn start_folder(&self) -> &std::path::Path {
        if self.start.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            &self.start
        }
    }
}

impl App {
    /// Asks for another text (refused while there are unsaved edits).
    pub(super) fn open_text(&mut self, path: PathBuf) {
        if self.doc.is_dirty() {
            self.flash("unsaved edits: Ctrl-s saves them first (or u undoes them)");
            return;
        }
        self.effects.push(Effect::OpenText(path));
    }

    /// Shows another text from its first line: the document state is replaced whole (its
    /// history and search go with it), and panes over the whole text start again.
    pub fn replace_document(&mut self, lines: Document) {
        self.doc = DocState::new(lines, self.doc.id + 1);
        self.forget_conversation();
        self.load_line();
        self.detect_conversation();
        self.refresh_pane();
    }

    /// Asks for the text to be written to `path` (its own file when `None`; without one, the
    /// prompt asks for a name).
    pub(super) fn save_text(&mut self, path: Option<PathBuf>, confirmed: bool) {
        let Some(path) = path.or_else(|| self.doc.lines.path.clone()) else {
            self.mode = Mode::Prompt(Prompt::new(PromptKind::SaveTextAs, ""));
            return;
        };
        if !self.doc.lines.is_indexed() {
            self.flash("could not save: the file is still being indexed");
            return;
        }
        let text = self.doc.lines.snapshot();
        // A confirmed overwrite comes after the question about lost bytes, if there was one.
        if !confirmed && self.ask_before_lossy_save(&path, &text) {
            return;
        }
        self.queue_save(path, text, confirmed);
    }

    /// Queues the write of `text` to `path`; `confirmed` when the user agreed to replace it.
    pub(super) fn queue_save(
        &mut self,
        path: PathBuf,
        text: crate::tui::document::Snapshot,
        confirmed: bool,
    ) {
        // The text's own file is what Ctrl-s is for (as it was read: a change another
        // program made is asked about); any other existing file is asked about too.
        let expect = if confirmed {
            Expect::Replace
        } else if self.doc.lines.path.as_ref() == Some(&path) {
            Expect::Unchanged(self.doc.lines.on_disk())
        } else {
            Expect::Absent
        };
        self.effects.push(Effect::SaveText { path, text, expect });
    }

    /// `path` was changed by another program since it was read: the prompt asks what to do
    /// (the file named in `offered`, the answer typed).
    pub fn ask_about_change(&mut self, kind: PromptKind, path: &std::path::Path) {
        let mut prompt = Prompt::new(kind, "");
        prompt.offered = path.display().to_string();
        self.mode = Mode::Prompt(prompt);
    }

    /// The answer to [`App::ask_about_change`]: `o` overwrites, `r` reloads the text (its
    /// edits dropped), anything else is a name to save under instead.
    pub(super) fn answer_change(&mut self, kind: PromptKind, input: &str, offered: &str) {
        let file = PathBuf::from(offered);
        match (kind, input) {
            (PromptKind::ChangedText, "o") => self.save_text(Some(file), true),
            (PromptKind::ChangedText, "r") => self.effects.push(Effect::OpenText(file)),
            (PromptKind::ChangedText, name) => {
                self.save_text(Some(self.workspace.typed(name)), false)
            }
            (_, "o") => self.save_workspace(Some(file), true),
            (_, name) => self.save_workspace(Some(self.workspace.typed(name)), false),
        }
    }

    /// The workspace was written to `path` as `stamp`: `W` saves there again.
    pub fn workspace_saved(&mut self, path: PathBuf, stamp: Stamp) {
        self.flash(format!("saved workspace {}", path.display()));
        self.workspace.path = Some(path);
        self.workspace.written = true;
        self.workspace.on_disk = Some(stamp);
    }

    /// `path` exists and is not the file being saved over on purpose: the prompt asks, with
    /// the name ready to edit for a save under another name.
    pub fn confirm_overwrite(&mut self, kind: PromptKind, path: &std::path::Path) {
        self.mode = Mode::Prompt(Prompt::new(kind, path.display().to_string()));
    }

    /// The text was written to `path` as `stamp`: it is now the text's file, with nothing
    /// unsaved.
    pub fn text_saved(&mut self, path: PathBuf, stamp: Stamp) {
        self.flash(format!("saved {}", path.display()));
        self.doc.lines.mark_saved(path, stamp);
        self.doc.history.mark_saved();
    }

    /// The workspace as it is now: text, rows and view.
    pub fn current_workspace(&self) -> Workspace {
        Workspace {
            text: self
                .doc
                .lines
                .path
                .as_ref()
                .map(|p| relative_to(p, &self.workspace.base)),
            tokenizers: self
                .rows
                .iter()
                .filter(|r| r.setup.spec != crate::tui::panes::train::TRAINED_SPEC)
                .map(|r| TokenizerEntry {
                    // A spec typed at the prompt is relative to the starting folder.
                    spec: match &r.setup.folder {
                        Some(folder) => rebase_spec(&r.setup.spec, folder, &self.workspace.base),
                        None => r.setup.spec.clone(),
                    },
                    label: (r.setup.label != r.setup.spec).then(|| r.setup.label.clone()),
                    colour: r.setup.colour.clone(),
                })
                .collect(),
            view: Some(self.panes.current.name().to_string()),
            split: Some(self.panes.split),
            theme: self.workspace.theme.clone(),
            large_print: self.workspace.large_print,
            base: self.workspace.base.clone(),
            on_disk: None,
        }
    }

    pub(super) fn save_workspace(&mut self, path: Option<PathBuf>, confirmed: bool) {
        let Some(path) = path.or_else(|| self.workspace.path.clone()) else {
            self.mode = Mode::Prompt(Prompt::new(PromptKind::SaveWorkspaceAs, "workspace.toml"));
            return;
        };
        // The file this session wrote is saved over as written (a change another program
        // made is asked about); any other existing file is asked about.
        let expect = if confirmed {
            Expect::Replace
        } else if self.workspace.written && self.workspace.path.as_ref() == Some(&path) {
            Expect::Unchanged(self.workspace.on_disk.clone())
        } else {
            Expect::Absent
        };
        let workspace = self.current_workspace();
        self.effects.push(Effect::SaveWorkspace {
            path,
            workspace,
            expect,
        });
    }
}

/// `path` relative to `base`, as workspaces store paths.
fn relative_to(path: &std::path::Path, base: &std::path::Path) -> String {
    crate::workspace::relative_path(path, base)
}
