//! The workbench's state and how actions change it. Pure state: no terminal and no drawing,
//! so every behaviour is tested by applying actions and looking at the state. Engine work is
//! only called through the `Tokenizer` trait; long work runs in [`jobs`].

pub mod align;
mod demo;
mod edit;
pub mod jobs;
mod prompt;
mod rows;
pub mod search;
pub mod stats;
mod trace;
mod train;
mod views;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub use prompt::{Prompt, PromptKind};
pub use rows::{Engine, Loader, Row, RowSetup};
pub use views::{View, Views};

use align::{AlignChoice, AlignData};
use edit::History;
use search::Search;
use stats::StatsRun;
use trace::{MergeReplay, TraceCache};
use train::TrainDemo;

use super::document::Document;
use super::layout::LineLayout;
use crate::workspace::{TokenizerEntry, Workspace};

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
    /// Alignment view: the next row as B, or a given row (a click on its label).
    AlignNextOther,
    AlignWith(usize),
    ToggleMatrix,
    ToggleMatrixScope,
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
    ComputeStats,
    /// Closes an overlay, leaves a mode, cancels work — or quits when there is nothing to close.
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
}

/// The whole state of the workbench.
pub struct App {
    pub doc: Document,
    pub rows: Vec<Row>,
    loader: Loader,
    /// The cursor line, whose text every row shows.
    pub line: usize,
    /// The first line shown in the text pane.
    pub top: usize,
    pub text: String,
    pub layout: LineLayout,
    pub row: usize,
    pub token: Option<usize>,
    /// The first layout column shown in the side-by-side pane.
    pub hscroll: usize,
    pub mode: Mode,
    pub views: Views,
    pub help: bool,
    /// The first line of the help overlay shown (it scrolls in small terminals).
    pub help_scroll: usize,
    pub mouse: bool,
    pub quit: bool,
    pub viewport: Viewport,
    /// A short message for the status bar (saved, an error, a hint) and when it was set.
    pub message: Option<(String, Instant)>,
    pub search: Option<Search>,
    pub align: AlignChoice,
    align_data: Option<AlignData>,
    pub stats: Option<StatsRun>,
    /// The workspace this session came from and where to save it.
    pub workspace: Workspace,
    pub workspace_path: Option<PathBuf>,
    history: History,
    /// Bumped whenever `text` or any row's tokens change, so cached views know to refresh.
    pub version: u64,
    /// The selected row's trace for the current text, when a view needs it.
    trace: Option<TraceCache>,
    pub merges: MergeReplay,
    pub train: Option<TrainDemo>,
    line_available: bool,
    quit_armed: bool,
    /// `G` was pressed while the file was still being indexed: go to the last line once it is.
    to_last_line: bool,
}

impl App {
    /// Builds the workbench; every row's tokenizer loads in the background through `loader`.
    pub fn new(doc: Document, setups: Vec<RowSetup>, loader: Loader) -> App {
        let rows = setups.into_iter().map(|s| Row::load(s, &loader)).collect();
        let mut app = App {
            doc,
            rows,
            loader,
            line: 0,
            top: 0,
            text: String::new(),
            layout: LineLayout::default(),
            row: 0,
            token: None,
            hscroll: 0,
            mode: Mode::Normal,
            views: Views::default(),
            help: false,
            help_scroll: 0,
            mouse: true,
            quit: false,
            viewport: Viewport {
                text_lines: 10,
                row_columns: 60,
            },
            message: None,
            search: None,
            align: AlignChoice::default(),
            align_data: None,
            stats: None,
            workspace: Workspace::default(),
            workspace_path: None,
            history: History::default(),
            version: 0,
            trace: None,
            merges: MergeReplay::default(),
            train: None,
            line_available: false,
            quit_armed: false,
            to_last_line: false,
        };
        app.load_line();
        app
    }

    /// Waits until every row has loaded (tests and benchmarks).
    pub fn finish_loading(&mut self) {
        while self.rows.iter().any(Row::is_loading) {
            std::thread::sleep(std::time::Duration::from_millis(1));
            self.tick();
        }
    }

    /// Whether background work is running (the loop then polls more often to show progress).
    pub fn busy(&self) -> bool {
        self.demo_playing()
            || !self.doc.is_indexed()
            || self.rows.iter().any(Row::is_loading)
            || self.search.as_ref().is_some_and(|s| s.job.is_some())
            || self.stats.as_ref().is_some_and(|s| s.job.is_some())
    }

    /// Shows a message in the status bar for a few seconds.
    pub fn flash(&mut self, message: impl Into<String>) {
        self.message = Some((message.into(), Instant::now()));
    }

    /// Re-reads the cursor line and re-tokenizes it in every row.
    pub fn load_line(&mut self) {
        let line = self.doc.line(self.line);
        self.line_available = line.is_some();
        self.text = line.map(|l| l.into_owned()).unwrap_or_default();
        self.token = None;
        self.hscroll = 0;
        self.retokenize_from(None);
    }

    /// Re-tokenizes the current text in every row; `previous` is the text before an edit.
    fn retokenize_from(&mut self, previous: Option<&str>) {
        self.layout = LineLayout::new(&self.text);
        for row in &mut self.rows {
            row.tokenize(&self.text, previous);
            row.owners = self.layout.owners(&row.tokens);
        }
        if let Some(t) = self.token
            && t >= self.row_token_count()
        {
            self.token = self.row_token_count().checked_sub(1);
        }
        self.mark_disagreements();
        self.version += 1;
    }

    /// Marks, in every row but the selected one, the boundaries it does not share with the
    /// selected row.
    fn mark_disagreements(&mut self) {
        let reference = self.rows.get(self.row).map(|r| r.tokens.clone());
        for (i, row) in self.rows.iter_mut().enumerate() {
            row.disagree = match &reference {
                Some(reference) if i != self.row && row.tokenizer().is_some() => {
                    toklab::compare::BoundaryDiff::new(&self.text, reference, &row.tokens)
                        .boundaries
                        .iter()
                        .filter(|b| b.side != toklab::compare::Side::Both)
                        .map(|b| b.at)
                        .collect()
                }
                _ => Vec::new(),
            };
        }
    }

    /// Called on every turn of the event loop: finished loads, file changes, search and
    /// statistics results, and the cursor line once background indexing has reached it.
    pub fn tick(&mut self) {
        let now = Instant::now();
        let mut changed = false;
        for row in &mut self.rows {
            changed |= row.tick(&self.loader, now);
        }
        if changed || !self.line_available {
            let token = self.token;
            let hscroll = self.hscroll;
            self.load_line();
            (self.token, self.hscroll) = (token.filter(|&t| t < self.row_token_count()), hscroll);
        }
        if self.to_last_line && self.doc.is_indexed() {
            self.to_last_line = false;
            self.go_to_line(usize::MAX);
        }
        self.poll_search();
        if let Some(run) = &mut self.stats
            && run.job.as_ref().is_some_and(|j| j.poll().is_some())
        {
            run.job = None;
        }
        if self
            .message
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed().as_secs() >= 4)
        {
            self.message = None;
        }
        if self.views.current == View::Train {
            self.start_training();
        }
        self.demo_tick();
        self.refresh_views();
    }

    pub fn apply(&mut self, action: Action) {
        if action != Action::Quit && action != Action::Back {
            self.quit_armed = false;
        }
        if action != Action::LastLine {
            self.to_last_line = false;
        }
        let page = self.viewport.text_lines.max(1);
        match action {
            Action::ViewDown(n) if self.help => self.help_scroll += n,
            Action::ViewUp(n) if self.help => self.help_scroll = self.help_scroll.saturating_sub(n),
            Action::LineUp => self.go_to_line(self.line.saturating_sub(1)),
            Action::LineDown => self.go_to_line(self.line + 1),
            Action::PageUp => self.go_to_line(self.line.saturating_sub(page)),
            Action::PageDown => self.go_to_line(self.line + page),
            Action::FirstLine => self.go_to_line(0),
            Action::LastLine => {
                self.to_last_line = !self.doc.is_indexed();
                self.go_to_line(usize::MAX);
            }
            Action::GoToLine(n) => self.go_to_line(n),
            Action::SelectRow(row) if row < self.rows.len() => self.select_row(row),
            Action::SelectRow(_) => {}
            Action::RowNext => self.select_row((self.row + 1) % self.rows.len().max(1)),
            Action::RowPrev => self.select_row(
                self.row
                    .checked_sub(1)
                    .unwrap_or(self.rows.len().saturating_sub(1)),
            ),
            Action::TokenNext => self.step_token(true),
            Action::TokenPrev => self.step_token(false),
            Action::TokenFirst => self.select_token(Some(0)),
            Action::TokenLast => self.select_token(self.row_token_count().checked_sub(1)),
            Action::Pick { row, column } => self.pick(row, column),
            Action::ScrollLeft => self.hscroll = self.hscroll.saturating_sub(8),
            Action::ScrollRight => {
                let max = self
                    .layout
                    .width
                    .saturating_sub(self.viewport.row_columns.max(1));
                self.hscroll = (self.hscroll + 8).min(max);
            }
            Action::ShowView(view) => self.show_view(view),
            Action::NextView => self.show_view(self.views.current.next()),
            Action::AlignNextOther
            | Action::AlignWith(_)
            | Action::ToggleMatrix
            | Action::ToggleMatrixScope => self.align_action(action),
            Action::DemoStep(forward) => self.demo_step(forward),
            Action::DemoPlay => self.demo_play(),
            Action::DemoFinish => self.demo_finish(),
            Action::ViewDown(n) => self.move_view_cursor(n as isize),
            Action::ViewUp(n) => self.move_view_cursor(-(n as isize)),
            Action::GrowView => self.views.split = (self.views.split + 10).min(80),
            Action::ShrinkView => self.views.split = self.views.split.saturating_sub(10).max(10),
            Action::ToggleHelp => {
                self.help = !self.help;
                self.help_scroll = 0;
            }
            Action::ToggleMouse => {
                self.mouse = !self.mouse;
                self.flash(if self.mouse {
                    "mouse on"
                } else {
                    "mouse off: the terminal's own selection works"
                });
            }
            Action::Edit => {
                let caret = self
                    .selected_token()
                    .map_or(self.text.len(), |t| t.span.start);
                self.begin_insert(caret);
            }
            Action::OpenLine => self.open_line_below(),
            Action::Type(c) => self.type_char(c),
            Action::Backspace => self.on_mode(
                |app| app.backspace(),
                |p| {
                    p.input.pop();
                },
            ),
            Action::Delete => self.on_mode(|app| app.delete(), |_| {}),
            Action::CaretLeft => self.caret_left(),
            Action::CaretRight => self.caret_right(),
            Action::CaretHome => self.caret_home(),
            Action::CaretEnd => self.caret_end(),
            Action::Enter => self.enter(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Save => self.save_text(None),
            Action::StartPrompt(kind) => {
                let initial = match kind {
                    PromptKind::SaveWorkspaceAs => self
                        .workspace_path
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                self.mode = Mode::Prompt(Prompt::new(kind, initial));
            }
            Action::Complete => {
                let base = self.workspace.base.clone();
                if let Mode::Prompt(prompt) = &mut self.mode {
                    prompt.complete(&base);
                }
            }
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::RemoveRow => self.remove_row(),
            Action::ReloadRows => {
                for row in &mut self.rows {
                    row.reload(&self.loader);
                }
                self.flash("reloading every tokenizer");
            }
            Action::SaveWorkspace => self.save_workspace(None),
            Action::ComputeStats => self.compute_stats(),
            Action::Back => self.back(),
            Action::Quit => self.request_quit(),
            Action::ForceQuit => self.quit = true,
        }
        self.refresh_views();
    }

    fn refresh_views(&mut self) {
        self.refresh_trace();
        self.refresh_align();
        if self.views.current == View::Merges {
            self.sync_merge_word();
        }
    }

    /// Pasted text goes into the line being edited or the prompt, as if typed.
    pub fn paste(&mut self, text: &str) {
        match &mut self.mode {
            Mode::Insert { .. } => self.insert_str(&text.replace(['\n', '\r'], " ")),
            Mode::Prompt(p) => p.input.push_str(text.lines().next().unwrap_or("")),
            Mode::Normal => {}
        }
    }

    fn on_mode(&mut self, insert: impl FnOnce(&mut App), prompt: impl FnOnce(&mut Prompt)) {
        match &mut self.mode {
            Mode::Insert { .. } => insert(self),
            Mode::Prompt(p) => prompt(p),
            Mode::Normal => {}
        }
    }

    fn type_char(&mut self, c: char) {
        match &mut self.mode {
            Mode::Insert { .. } => self.insert_str(c.encode_utf8(&mut [0; 4])),
            Mode::Prompt(p) => {
                p.input.push(c);
                p.candidates.clear();
            }
            Mode::Normal => {}
        }
    }

    fn enter(&mut self) {
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Insert { caret } => {
                self.mode = Mode::Insert { caret };
                self.split_line();
            }
            Mode::Prompt(prompt) => self.accept_prompt(prompt),
            Mode::Normal => {}
        }
    }

    fn accept_prompt(&mut self, prompt: Prompt) {
        let input = prompt.input.trim().to_string();
        if input.is_empty() {
            return;
        }
        match prompt.kind {
            PromptKind::AddTokenizer => {
                let setup = RowSetup::new(&input);
                self.rows.push(Row::load(setup, &self.loader));
                self.row = self.rows.len() - 1;
                self.flash(format!("loading {input}"));
            }
            PromptKind::Search => {
                self.search = Some(Search {
                    query: input,
                    job: None,
                });
                self.search_again(true);
            }
            PromptKind::OpenText => self.open_text(&self.workspace.base.join(&input)),
            PromptKind::SaveTextAs => self.save_text(Some(PathBuf::from(input))),
            PromptKind::SaveWorkspaceAs => self.save_workspace(Some(PathBuf::from(input))),
        }
    }

    fn back(&mut self) {
        if self.help {
            self.help = false;
        } else if matches!(self.mode, Mode::Insert { .. }) {
            self.end_insert();
        } else if matches!(self.mode, Mode::Prompt(_)) {
            self.mode = Mode::Normal;
        } else if let Some(job) = self.search.as_mut().and_then(|s| s.job.take()) {
            job.cancel();
            self.flash("search cancelled");
        } else if let Some(job) = self.stats.as_mut().and_then(|s| s.job.take()) {
            job.cancel();
            self.flash("statistics cancelled");
        } else {
            self.request_quit();
        }
    }

    fn request_quit(&mut self) {
        if self.doc.is_dirty() && !self.quit_armed {
            self.quit_armed = true;
            self.flash("unsaved edits: Ctrl-s saves; q again (or Q) quits without saving");
        } else {
            self.quit = true;
        }
    }

    /// Moves the cursor to line `n` (clamped); user navigation leaves insert mode.
    fn go_to_line(&mut self, n: usize) {
        if matches!(self.mode, Mode::Insert { .. }) {
            self.end_insert();
        }
        self.move_to_line(n);
    }

    /// Moves the cursor without leaving insert mode (editing itself moves between lines).
    fn move_to_line(&mut self, n: usize) {
        let last = self.doc.line_count().saturating_sub(1);
        let n = n.min(last);
        if n != self.line {
            self.line = n;
            self.load_line();
        }
        self.scroll_to_cursor();
    }

    /// Moves to a line and reloads it even if it is the current one (after undo).
    fn go_to_line_forced(&mut self, n: usize) {
        self.line = n.min(self.doc.line_count().saturating_sub(1));
        self.load_line();
        self.scroll_to_cursor();
    }

    fn scroll_to_cursor(&mut self) {
        let page = self.viewport.text_lines.max(1);
        if self.line < self.top {
            self.top = self.line;
        } else if self.line >= self.top + page {
            self.top = self.line + 1 - page;
        }
    }

    fn select_row(&mut self, row: usize) {
        let byte = self.selected_token().map(|t| t.span.start);
        self.row = row;
        self.mark_disagreements();
        self.version += 1;
        // Keep the selection near the same place in the text when changing rows.
        self.token = byte.and_then(|byte| {
            let tokens = &self.rows.get(row)?.tokens.tokens;
            let i = tokens.partition_point(|t| t.span.end <= byte);
            (i < tokens.len())
                .then_some(i)
                .or(tokens.len().checked_sub(1))
        });
        self.reveal_token();
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.rows.get(self.row)
    }

    pub fn selected_token(&self) -> Option<&toklab::token::Token> {
        self.selected_row()?.tokens.tokens.get(self.token?)
    }

    fn row_token_count(&self) -> usize {
        self.selected_row().map_or(0, |r| r.tokens.len())
    }

    fn step_token(&mut self, forward: bool) {
        let count = self.row_token_count();
        let next = match (self.token, forward) {
            (None, true) => Some(0),
            (None, false) => count.checked_sub(1),
            (Some(t), true) => Some((t + 1).min(count.saturating_sub(1))),
            (Some(t), false) => Some(t.saturating_sub(1)),
        };
        self.select_token(next);
    }

    fn select_token(&mut self, token: Option<usize>) {
        self.token = token.filter(|&t| t < self.row_token_count());
        self.reveal_token();
        self.follow_token_in_view();
    }

    /// Puts the view's cursor on the selected token: its row in the table, and in the trace
    /// the first line about the token's span.
    fn follow_token_in_view(&mut self) {
        let Some(span) = self.selected_token().map(|t| t.span) else {
            return;
        };
        match self.views.current {
            View::Table => self.views.cursor = self.token.unwrap_or(0),
            View::Trace => {
                self.refresh_trace();
                let found = self
                    .trace_lines()
                    .iter()
                    .position(|l| l.span == Some(span))
                    .or_else(|| {
                        self.trace_lines().iter().position(|l| {
                            l.span.is_some_and(|s| {
                                s.start <= span.start && span.end <= s.end && !s.is_empty()
                            })
                        })
                    });
                if let Some(line) = found {
                    self.views.cursor = line;
                }
            }
            View::Align => {
                self.refresh_align();
                let token = self.token;
                if let Some(pair) = self
                    .align_data
                    .as_ref()
                    .and_then(|d| d.tokens.pairs.iter().position(|p| p.a == token))
                {
                    self.views.cursor = pair;
                }
            }
            View::Merges | View::Train | View::Stats => {}
        }
    }

    fn pick(&mut self, row: usize, column: usize) {
        if row >= self.rows.len() {
            return;
        }
        self.row = row;
        self.token = self
            .layout
            .cell_at_column(column)
            .and_then(|cell| self.rows[row].owners.get(cell).copied().flatten());
        self.follow_token_in_view();
    }

    /// Scrolls horizontally so the selected token is in view.
    fn reveal_token(&mut self) {
        let Some(span) = self.selected_token().map(|t| t.span) else {
            return;
        };
        let start = self.layout.column_of_byte(span.start);
        let end = self
            .layout
            .column_of_byte(span.end.saturating_sub(1).max(span.start))
            + 1;
        let width = self.viewport.row_columns.max(1);
        if start < self.hscroll {
            self.hscroll = start;
        } else if end > self.hscroll + width {
            self.hscroll = end.saturating_sub(width).min(start);
        }
    }

    fn remove_row(&mut self) {
        if self.rows.is_empty() {
            return;
        }
        let removed = self.rows.remove(self.row);
        self.row = self.row.min(self.rows.len().saturating_sub(1));
        self.token = None;
        self.flash(format!(
            "removed {} (W saves the workspace)",
            removed.setup.label
        ));
        self.version += 1;
    }

    /// Replaces the text with another file (refused while there are unsaved edits).
    fn open_text(&mut self, path: &std::path::Path) {
        if self.doc.is_dirty() {
            self.flash("unsaved edits: Ctrl-s saves them first (or u undoes them)");
            return;
        }
        match Document::open(path) {
            Ok(doc) => {
                self.doc = doc;
                self.history = History::default();
                self.search = None;
                self.stats = None;
                self.train = None;
                self.line = 0;
                self.top = 0;
                self.load_line();
                self.flash(format!("opened {}", path.display()));
            }
            Err(e) => self.flash(format!("cannot open {}: {e}", path.display())),
        }
    }

    fn save_text(&mut self, path: Option<PathBuf>) {
        if path.is_none() && self.doc.path.is_none() {
            self.mode = Mode::Prompt(Prompt::new(PromptKind::SaveTextAs, ""));
            return;
        }
        match self.doc.save(path.as_deref()) {
            Ok(saved) => self.flash(format!("saved {}", saved.display())),
            Err(e) => self.flash(format!("could not save: {e}")),
        }
    }

    /// The workspace as it is now: text, rows and view.
    pub fn current_workspace(&self) -> Workspace {
        Workspace {
            text: self
                .doc
                .path
                .as_ref()
                .map(|p| relative_to(p, &self.workspace.base)),
            tokenizers: self
                .rows
                .iter()
                .map(|r| TokenizerEntry {
                    spec: r.setup.spec.clone(),
                    label: (r.setup.label != r.setup.spec).then(|| r.setup.label.clone()),
                    colour: r.setup.colour.clone(),
                })
                .collect(),
            view: Some(self.views.current.name().to_string()),
            split: Some(self.views.split),
            base: self.workspace.base.clone(),
        }
    }

    fn save_workspace(&mut self, path: Option<PathBuf>) {
        let Some(path) = path.or_else(|| self.workspace_path.clone()) else {
            self.mode = Mode::Prompt(Prompt::new(PromptKind::SaveWorkspaceAs, "workspace.toml"));
            return;
        };
        match self.current_workspace().save(&path) {
            Ok(()) => {
                self.flash(format!("saved workspace {}", path.display()));
                self.workspace_path = Some(path);
            }
            Err(e) => self.flash(format!("could not save the workspace: {e}")),
        }
    }

    fn show_view(&mut self, view: View) {
        if self.views.current != view {
            self.views.current = view;
            self.views.cursor = 0;
        }
        if view == View::Table
            && let Some(t) = self.token
        {
            self.views.cursor = t;
        }
        if view == View::Stats && self.stats.is_none() {
            self.compute_stats();
        }
        if view == View::Train {
            self.start_training();
        }
    }

    fn move_view_cursor(&mut self, delta: isize) {
        let len = match self.views.current {
            View::Trace => self.trace_lines().len(),
            View::Table => self.row_token_count(),
            View::Align => self.align_data.as_ref().map_or(0, |d| d.tokens.pairs.len()),
            View::Merges | View::Train | View::Stats => 0,
        };
        let cursor =
            (self.views.cursor as isize + delta).clamp(0, len.saturating_sub(1) as isize) as usize;
        self.views.cursor = cursor;
        if self.views.current == View::Table && len > 0 {
            self.token = Some(cursor);
            self.reveal_token();
        }
    }

    fn compute_stats(&mut self) {
        if let Some(job) = self.stats.as_ref().and_then(|s| s.job.as_ref()) {
            job.cancel();
        }
        let tokenizers = self
            .rows
            .iter()
            .filter_map(|r| Some((r.setup.label.clone(), Arc::clone(r.tokenizer()?))))
            .collect();
        let (job, figures) = stats::start(self.doc.snapshot(), tokenizers);
        self.stats = Some(StatsRun {
            job: Some(job),
            figures,
        });
    }

    fn search_again(&mut self, forward: bool) {
        let Some(search) = &mut self.search else {
            self.flash("no search yet: / starts one");
            return;
        };
        if let Some(job) = search.job.take() {
            job.cancel();
        }
        search.job = Some(search::start(
            self.doc.snapshot(),
            search.query.clone(),
            self.line,
            forward,
        ));
    }

    fn poll_search(&mut self) {
        let Some(search) = &mut self.search else {
            return;
        };
        let Some(result) = search.job.as_ref().and_then(|j| j.poll()) else {
            return;
        };
        search.job = None;
        let query = search.query.clone();
        match result {
            Ok(Some(hit)) => {
                self.go_to_line(hit.line);
                let token = self
                    .selected_row()
                    .map(|r| r.tokens.tokens.partition_point(|t| t.span.end <= hit.start));
                self.select_token(token);
            }
            Ok(None) => self.flash(format!("not found: {query}")),
            Err(()) => {}
        }
    }
}

/// `path` relative to `base` when it is inside it, as workspaces store paths.
fn relative_to(path: &std::path::Path, base: &std::path::Path) -> String {
    let absolute =
        |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (path_abs, base_abs) = (absolute(path), absolute(base));
    match path_abs.strip_prefix(&base_abs) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => path_abs.display().to_string(),
    }
}

#[cfg(test)]
pub(crate) mod tests;
