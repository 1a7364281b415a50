//! The workbench's state and how actions change it. Pure state: no terminal, no drawing and
//! no file I/O (that is queued as [`Effect`]s the event loop performs), so every behaviour is
//! tested by applying actions and looking at the state. The state is a document ([`DocState`]),
//! the rows ([`Rows`]), the lower pane's views ([`Panes`], each in its folder under
//! `tui/panes`) and the background jobs. Actions are applied in `apply.rs`, which dispatches
//! each to the named command group it belongs to. Engine work is only called through the
//! `Tokenizer` trait; long work runs in [`jobs`].

mod apply;
pub mod changes;
pub mod chat;
mod command;
pub mod diffs;
pub mod doc;
mod edit;
mod effect;
mod files;
mod gave_up;
mod ids;
pub mod jobs;
mod lossy_save;
mod navigate;
mod origin;
pub mod picture;
mod prompt;
pub mod rows;
pub mod scan;
pub mod search;
pub mod yank;

use std::time::{Duration, Instant};

pub use doc::DocState;
pub use effect::Effect;
pub use files::WorkspacePlace;
pub use ids::IdsMode;
pub use prompt::{Prompt, PromptKind};
pub use rows::{Engine, Loader, Row, RowEvent, RowSetup, Rows};
pub use yank::Yank;

use super::panes::align::AlignCommand;
use super::panes::train::TrainCommand;
use super::panes::{Context, Panes, Reply, View};

use super::document::Document;
use super::layout::LineLayout;

/// How often a playing demo (the matrix fill, merge replay, training) takes a step at first;
/// `{` and `}` change it (see [`crate::tui::panes::teach::SPEEDS`]).
pub const PLAY_STEP: Duration = Duration::from_micros(10_000_000 / 70);

/// Whether a demo playing since `playing` is due for its next step, `step` after the last.
pub fn step_due(playing: Option<Instant>, step: Duration) -> bool {
    playing.is_some_and(|t| t.elapsed() >= step)
}

/// What keys do at the moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// Editing the current line; `caret` is a byte offset into it.
    Insert {
        caret: usize,
    },
    Prompt(Prompt),
}

/// What the user can ask for; keys and mouse events map to these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    LineUp,
    LineDown,
    PageUp,
    PageDown,
    FirstLine,
    LastLine,
    /// Moves the cursor to a line (a mouse click in the text pane).
    GoToLine(usize),
    RowNext,
    RowPrev,
    SelectRow(usize),
    TokenNext,
    TokenPrev,
    TokenFirst,
    TokenLast,
    /// Selects the token of `row` drawn at line-layout column `column` (a mouse click).
    Pick {
        row: usize,
        column: usize,
    },
    ScrollLeft,
    ScrollRight,
    ShowView(View),
    NextView,
    /// A command of the alignment view (opens it).
    Align(AlignCommand),
    /// Teaching demos (the matrix fill, merge replay, training): one step forward (true) or
    /// back, play, or go to the end.
    DemoStep(bool),
    DemoPlay,
    DemoFinish,
    /// Moves the view's cursor (trace line, table row) down or up by n.
    ViewDown(usize),
    ViewUp(usize),
    GrowView,
    ShrinkView,
    ToggleHelp,
    ToggleMouse,
    /// Draws the whole screen again (Ctrl-L).
    Redraw,
    // Editing.
    Edit,
    OpenLine,
    Type(char),
    Backspace,
    Delete,
    CaretLeft,
    CaretRight,
    CaretHome,
    CaretEnd,
    Enter,
    Undo,
    Redo,
    Save,
    // Prompts and commands.
    StartPrompt(PromptKind),
    Complete,
    SearchNext,
    SearchPrev,
    RemoveRow,
    ReloadRows,
    SaveWorkspace,
    /// Opens the selected token's rule file in the user's editor at its line.
    EditOrigin,
    /// `]c` / `[c`: the next (true) or previous line the last reload tokenizes differently.
    ChangedLine(bool),
    /// The lines the last reload changed, before | after, over the lower pane (or not).
    ShowChanges,
    /// Writes the current line's rows as an SVG image and an HTML page.
    ExportPicture,
    ComputeStats,
    /// A command of the training view (opens it).
    Train(TrainCommand),
    /// Lessons: play speed, the lower pane maximised.
    PlaySlower,
    PlayFaster,
    ToggleMaximise,
    /// The unigram lattice's positions in bytes or in characters.
    LatticeBytes,
    /// Copies to the clipboard (OSC 52).
    Yank(Yank),
    /// To the `count`-th next (`forward`) or previous line where the rows disagree.
    DiffJump {
        forward: bool,
        count: usize,
    },
    /// Ids off → hues → ids instead of forms.
    ToggleIds,
    /// In a conversation document: each row's prompt ends with the assistant's header, or not.
    GenerationPrompt,
    /// Pins the selected row for `]d` / `[d` to compare with, or unpins it.
    PinRow,
    /// Closes an overlay, leaves a mode or cancels work; never quits.
    Back,
    Quit,
    /// Quits even with unsaved edits.
    ForceQuit,
}

/// The size of the panes, as last drawn; paging and horizontal scrolling depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewport {
    pub text_lines: usize,
    pub row_columns: usize,
    /// How far the help overlay can scroll (its lines that do not fit).
    pub help_scroll: usize,
}

/// The whole state of the workbench.
pub struct App {
    pub doc: DocState,
    pub rows: Rows,
    pub panes: Panes,
    pub mode: Mode,
    /// A short message for the status bar (saved, an error, a hint) and when it was set.
    pub message: Option<(String, Instant)>,
    pub mouse: bool,
    pub quit: bool,
    /// `q` was pressed once with unsaved edits: a second one quits.
    quit_armed: bool,
    /// `r` reloads every row: say so when the last one is done.
    reloading: bool,
    /// The row `X` removed last, where it stood, and how many text edits could be undone
    /// then (`History::mark`): `u` puts it back while no text edit came after it.
    removed: Option<(usize, Row, u64)>,
    /// The current line was edited and not laid out and tokenized again yet (long lines:
    /// keys are coalesced).
    edit_pending: bool,
    /// The screen must be drawn again from scratch (Ctrl-L, or after lines whose character
    /// widths terminals disagree on).
    pub redraw: bool,
    pub viewport: Viewport,
    pub workspace: WorkspacePlace,
    /// File work asked for and not performed yet.
    effects: Vec<Effect>,
    /// The lines the last reload changed (compared in the background).
    changes: Option<changes::ChangeRun>,
    /// How the rows show token ids.
    pub ids: IdsMode,
    /// The background count of the lines where the rows disagree (`]d`, `[d`).
    pub diffs: Option<diffs::DiffScan>,
    /// Bytes for the terminal itself (OSC 52 copies), written by the event loop.
    pub to_terminal: Vec<u8>,
    /// The document is a conversation: every row tokenizes its own model's prompt of it.
    pub chat: Option<chat::ChatDoc>,
    /// The document (by id) already looked at for being a conversation.
    chat_checked: Option<u64>,
}

impl App {
    /// Builds the workbench; every row's tokenizer loads in the background through `loader`.
    pub fn new(doc: Document, setups: Vec<RowSetup>, loader: Loader) -> App {
        let mut app = App {
            doc: DocState::new(doc, 0),
            rows: Rows::load(setups, loader),
            panes: Panes::default(),
            mode: Mode::Normal,
            message: None,
            mouse: true,
            quit: false,
            quit_armed: false,
            reloading: false,
            removed: None,
            edit_pending: false,
            redraw: false,
            viewport: Viewport {
                text_lines: 10,
                row_columns: 60,
                help_scroll: 0,
            },
            workspace: WorkspacePlace::default(),
            effects: Vec::new(),
            changes: None,
            ids: IdsMode::Off,
            diffs: None,
            to_terminal: Vec::new(),
            chat: None,
            chat_checked: None,
        };
        app.load_line();
        app.detect_conversation();
        app
    }

    /// What panes read: the document and the rows.
    pub fn context(&self) -> Context<'_> {
        Context {
            doc: &self.doc,
            rows: &self.rows,
            play_step: self.panes.play_step(),
        }
    }

    /// Waits until every row has loaded and tokenized the line (tests and benchmarks).
    pub fn finish_loading(&mut self) {
        self.flush_edit();
        while self.rows.is_loading() || self.rows.is_tokenizing() {
            std::thread::sleep(std::time::Duration::from_millis(1));
            self.tick();
        }
    }

    /// Waits until loads, indexing, searches, statistics and tokenizing have ended: what tests
    /// and programs driving the workbench through this library call before they read the
    /// screen, so nothing they check depends on timing.
    pub fn settle(&mut self) {
        self.finish_loading();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while self.busy() || !self.doc.lines.is_indexed() {
            assert!(
                std::time::Instant::now() < deadline,
                "background work did not end"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
            self.tick();
        }
        self.tick();
        self.finish_loading();
    }

    /// Whether background work is running (the loop then polls more often to show progress).
    pub fn busy(&self) -> bool {
        self.edit_pending
            || self.panes.busy()
            || !self.doc.lines.is_indexed()
            || self.rows.is_loading()
            || self.rows.is_tokenizing()
            || self.doc.search.as_ref().is_some_and(|s| s.job.is_some())
            || self.diffs.as_ref().is_some_and(diffs::DiffScan::is_running)
    }

    /// Shows a message in the status bar for a few seconds.
    pub fn flash(&mut self, message: impl Into<String>) {
        self.message = Some((message.into(), Instant::now()));
    }

    /// Queues file work for the event loop (a command's effect on disk).
    pub(crate) fn queue(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    /// The file work queued by the actions applied since the last call, to perform in order.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Re-reads the cursor line and re-tokenizes it in every row.
    pub fn load_line(&mut self) {
        self.doc.read_line();
        self.rows.token = None;
        self.rows.hscroll = 0;
        self.retokenize(false);
    }

    /// Lays out and re-tokenizes the current text in every row; `edit` says it is an edit of
    /// the line the rows show.
    pub(crate) fn retokenize(&mut self, edit: bool) {
        self.edit_pending = false;
        // An edit lays out again only around what changed.
        let changed = if edit {
            self.doc.layout.edit(self.rows.line(), &self.doc.text)
        } else {
            self.doc.layout = LineLayout::new(&self.doc.text);
            super::layout::Changed { cell: 0, byte: 0 }
        };
        self.render_prompts();
        self.rows
            .tokenize(&self.doc.text, edit, &self.doc.layout, changed);
        if edit {
            self.note_edited_line();
        }
    }

    /// Keys typed into a long line are applied to the text at once, but the line is laid out
    /// and handed to the tokenizers once per batch of keys (before the next frame, or before
    /// a key that needs the layout).
    fn flush_edit(&mut self) {
        if self.edit_pending {
            self.retokenize(true);
            if let Mode::Insert { caret } = self.mode {
                self.reveal_byte(caret);
            }
        }
    }

    /// Called on every turn of the event loop: finished loads, file changes, search and
    /// statistics results, playing demos, and the cursor line once background indexing has
    /// reached it.
    pub fn tick(&mut self) {
        self.flush_edit();
        let events = self.rows.tick(Instant::now());
        self.report_reloads(&events);
        let changed = events
            .iter()
            .any(|(_, e)| matches!(e, RowEvent::Loaded | RowEvent::Reloaded));
        if self.rows.poll_tokens(&self.doc.layout) {
            let cx = Context {
                doc: &self.doc,
                rows: &self.rows,
                play_step: self.panes.play_step(),
            };
            self.panes.current_mut().follow_token(&cx);
        }
        if changed || !self.doc.line_available {
            let (token, hscroll) = (self.rows.token, self.rows.hscroll);
            self.load_line();
            self.rows.token = token.filter(|&t| t < self.rows.token_count());
            self.rows.hscroll = hscroll;
        }
        self.detect_conversation();
        if self.doc.to_last_line && self.doc.lines.is_indexed() {
            self.doc.to_last_line = false;
            self.go_to_line(usize::MAX);
        }
        self.poll_search();
        self.poll_diffs();
        if self
            .message
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed().as_secs() >= 4)
        {
            self.message = None;
        }
        let cx = Context {
            doc: &self.doc,
            rows: &self.rows,
            play_step: self.panes.play_step(),
        };
        self.panes.tick(&cx);
        self.panes.refresh(&cx);
        self.sync_trained_row();
    }

    /// Whether the text pane showed (from line `old_top`) or shows characters whose width
    /// terminals disagree on (flags, emoji sequences): moving past them can leave stray
    /// glyphs that only a full redraw clears.
    fn shows_unsteady_widths(&self, old_top: usize) -> bool {
        let page = self.viewport.text_lines.max(1);
        let lines = |top: usize| top..top + page;
        lines(old_top)
            .chain(lines(self.doc.top))
            .filter_map(|n| self.doc.lines.line(n))
            .any(|line| crate::tui::layout::has_unsteady_width(&line))
    }

    /// Refreshes the pane on screen (the others wait until they are shown).
    pub(crate) fn refresh_pane(&mut self) {
        let cx = Context {
            doc: &self.doc,
            rows: &self.rows,
            play_step: self.panes.play_step(),
        };
        self.panes.refresh(&cx);
    }

    /// Hands an action to the pane of `view`, and selects the token it answers with.
    pub(crate) fn pane_action(&mut self, view: View, action: Action) {
        let cx = Context {
            doc: &self.doc,
            rows: &self.rows,
            play_step: self.panes.play_step(),
        };
        if let Reply::SelectToken(t) = self.panes.pane_mut(view).handle(action, &cx) {
            self.rows.token = Some(t);
            self.reveal_token();
        }
    }

    /// Messages about reloads: a watched file's row reloaded (or failed to: the error stays on
    /// screen), and the end of an `r` with how it went.
    fn report_reloads(&mut self, events: &[(usize, RowEvent)]) {
        if self.reloading {
            if !self.rows.is_reloading() {
                self.reloading = false;
                let failed = self
                    .rows
                    .iter()
                    .filter(|r| r.reload_error.is_some())
                    .count();
                let count = self.rows.len();
                self.flash(match failed {
                    0 => format!("reloaded every tokenizer ({count})"),
                    _ => format!(
                        "reloaded: {failed} of {count} failed, keeping their last good version"
                    ),
                });
            }
            return;
        }
        for &(row, event) in events {
            let label = &self.rows[row].setup.label;
            if event == RowEvent::Loaded {
                // Replaces "loading SPEC", which would otherwise outlive the load.
                let loading = self
                    .message
                    .as_ref()
                    .is_some_and(|(m, _)| m.starts_with("loading "));
                match self.rows[row].error() {
                    Some(error) if loading => {
                        let first = error.lines().next().unwrap_or_default();
                        self.flash(format!("{label} failed to load: {first}"))
                    }
                    None if loading => self.flash(format!("{label} loaded")),
                    _ => {}
                }
            }
            if event == RowEvent::Reloaded {
                self.compare_reload(row);
                let label = self.rows[row].setup.label.clone();
                self.flash(format!("{label} reloaded from its changed files"));
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
mod tests_compare;
#[cfg(test)]
mod tests_files;
#[cfg(test)]
mod tests_saving;
