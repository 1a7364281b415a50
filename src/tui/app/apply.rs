//! Applying an action: [`App::apply`] prepares (a pending edit, an armed quit), lets the help
//! overlay take what it handles, and dispatches to the named command group the action belongs
//! to: moving the cursor, the lower pane's views, editing and prompts, or the workbench as a
//! whole. Each group returns whether the action was one of its own.

use super::search::Search;
use super::{Action, App, Effect, IdsMode, Mode, Prompt, PromptKind, RowSetup, View, Yank};
use crate::tui::panes::align::AlignCommand;
use crate::tui::panes::align::typed::TypedWords;

impl App {
    /// Applies one action (a key, a click, a command); every change of state goes through here.
    pub fn apply(&mut self, action: Action) {
        if !matches!(action, Action::Type(_) | Action::Backspace | Action::Delete) {
            self.flush_edit();
        }
        if action != Action::Quit && action != Action::Back {
            self.quit_armed = false;
        }
        if action != Action::LastLine {
            self.doc.to_last_line = false;
        }
        if self.panes.help.handle(action, self.viewport.help_scroll) {
            return;
        }
        let shown_before = (self.doc.line, self.doc.top);
        let handled = self.move_cursor(action)
            || self.pane_command(action)
            || self.edit_command(action)
            || self.workbench_command(action);
        debug_assert!(handled, "{action:?} belongs to no command group");
        if let Mode::Insert { caret } = self.mode {
            self.reveal_byte(caret);
        }
        if shown_before != (self.doc.line, self.doc.top)
            && self.shows_unsteady_widths(shown_before.1)
        {
            self.redraw = true;
        }
        self.refresh_pane();
        self.sync_trained_row();
    }

    /// Moves between lines, rows and tokens, and scrolls the rows.
    fn move_cursor(&mut self, action: Action) -> bool {
        let page = self.viewport.text_lines.max(1);
        match action {
            Action::LineUp => self.go_to_line(self.doc.line.saturating_sub(1)),
            Action::LineDown => self.go_to_line(self.doc.line + 1),
            Action::PageUp => self.go_to_line(self.doc.line.saturating_sub(page)),
            Action::PageDown => self.go_to_line(self.doc.line + page),
            Action::FirstLine => self.go_to_line(0),
            Action::LastLine => {
                self.doc.to_last_line = !self.doc.lines.is_indexed();
                self.go_to_line(usize::MAX);
            }
            Action::GoToLine(n) => self.go_to_line(n),
            Action::SelectRow(row) if row < self.rows.len() => self.select_row(row),
            Action::SelectRow(_) => {}
            Action::RowNext => self.select_row((self.rows.selected + 1) % self.rows.len().max(1)),
            Action::RowPrev => self.select_row(
                self.rows
                    .selected
                    .checked_sub(1)
                    .unwrap_or(self.rows.len().saturating_sub(1)),
            ),
            Action::TokenNext => self.step_token(true),
            Action::TokenPrev => self.step_token(false),
            Action::TokenFirst => self.select_token(Some(0)),
            Action::TokenLast => self.select_token(self.rows.token_count().checked_sub(1)),
            Action::Pick { row, column } => self.pick(row, column),
            Action::ScrollLeft | Action::ScrollRight
                if self.panes.current == View::Align && self.panes.align.choice.matrix =>
            {
                self.pane_action(View::Align, action)
            }
            Action::ScrollLeft => self.rows.hscroll = self.rows.hscroll.saturating_sub(8),
            Action::ScrollRight => {
                let max = self
                    .rows_width()
                    .saturating_sub(self.viewport.row_columns.max(1));
                self.rows.hscroll = (self.rows.hscroll + 8).min(max);
            }
            _ => return false,
        }
        true
    }

    /// The lower pane: which view it shows, its size, and the commands of its views.
    fn pane_command(&mut self, action: Action) -> bool {
        match action {
            Action::ShowView(view) => self.show_view(view),
            Action::NextView => self.show_view(self.panes.current.next()),
            // Enter in the trace view is about the trace line, not the alignment.
            Action::Align(AlignCommand::ToggleMatrix) if self.panes.current == View::Trace => {
                self.edit_trace_line()
            }
            Action::Align(_) => {
                self.show_view(View::Align);
                self.pane_action(View::Align, action);
            }
            Action::DemoStep(_) | Action::DemoPlay => {
                let view = self.panes.demo_view();
                if view == View::Align {
                    self.show_view(View::Align);
                }
                self.pane_action(view, action);
            }
            // Filling the matrix at once does not open the alignment view.
            Action::DemoFinish => self.pane_action(self.panes.demo_view(), action),
            Action::ViewDown(_) | Action::ViewUp(_) => self.pane_action(self.panes.current, action),
            Action::ComputeStats => self.pane_action(View::Stats, action),
            Action::Train(_) | Action::PlaySlower | Action::PlayFaster | Action::ToggleMaximise => {
                self.teach(action)
            }
            Action::LatticeBytes => match self.panes.current {
                View::Merges | View::Train => self.pane_action(self.panes.current, action),
                _ => self.flash("B counts the unigram lattice in bytes: in views 4 and 5"),
            },
            Action::GrowView => self.panes.split = (self.panes.split + 10).min(80),
            Action::ShrinkView => self.panes.split = self.panes.split.saturating_sub(10).max(10),
            _ => return false,
        }
        true
    }

    /// Editing the line, and typing into prompts.
    fn edit_command(&mut self, action: Action) -> bool {
        match action {
            Action::Edit => {
                // A conversation's prompts are not the line: editing starts at its end.
                let caret = self
                    .rows
                    .selected_token()
                    .filter(|_| self.chat.is_none())
                    .map_or(self.doc.text.len(), |t| t.span.start);
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
            Action::Undo => {
                if !self.undo_removal() {
                    self.undo()
                }
            }
            Action::Redo => self.redo(),
            Action::Save => self.save_text(None, false),
            Action::StartPrompt(kind) => {
                let initial = match kind {
                    PromptKind::SaveWorkspaceAs => self
                        .workspace
                        .path
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                self.mode = Mode::Prompt(Prompt::new(kind, initial));
            }
            Action::Complete => {
                if let Mode::Prompt(prompt) = &mut self.mode {
                    prompt.complete(self.workspace.start_folder());
                }
            }
            _ => return false,
        }
        true
    }

    /// Searching, rows and files, copying, quitting: everything else.
    fn workbench_command(&mut self, action: Action) -> bool {
        match action {
            // Handled by the help overlay above.
            Action::ToggleHelp => {}
            Action::Redraw => self.redraw = true,
            Action::ToggleMouse => {
                self.mouse = !self.mouse;
                self.flash(if self.mouse {
                    "mouse on"
                } else {
                    "mouse off: the terminal's own selection works"
                });
            }
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::RemoveRow => self.remove_row(),
            Action::ReloadRows => {
                self.effects.push(Effect::ReloadRows);
                self.reloading = true;
                self.flash("reloading every tokenizer…");
            }
            Action::SaveWorkspace => self.save_workspace(None, false),
            Action::EditOrigin => self.edit_origin(),
            Action::ChangedLine(forward) => self.go_to_change(forward),
            Action::ShowChanges => self.toggle_changes(),
            // With the ids shown instead of the forms, Y copies the ids.
            Action::Yank(Yank::Row) if self.ids == IdsMode::Ids => self.yank(Yank::Ids, None),
            Action::Yank(what) => self.yank(what, None),
            Action::DiffJump { forward, count } => self.jump_to_diff(forward, count),
            Action::ToggleIds => self.set_ids(self.ids.next()),
            Action::PinRow => self.toggle_pin(),
            Action::GenerationPrompt => self.toggle_generation_prompt(),
            Action::ExportPicture => self.export_picture(),
            Action::Back => self.back(),
            Action::Quit => self.request_quit(),
            Action::ForceQuit => self.quit = true,
            _ => return false,
        }
        true
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
                self.rows.add(RowSetup {
                    folder: Some(self.workspace.start_folder().to_path_buf()),
                    ..RowSetup::new(&input)
                });
                self.flash(format!("loading {input}"));
            }
            PromptKind::Search => {
                self.doc.search = Some(Search {
                    query: input,
                    job: None,
                });
                self.search_again(true);
            }
            PromptKind::Command => self.run_command(&input),
            PromptKind::OpenText => self.open_text(self.workspace.typed(&input)),
            PromptKind::SaveTextAs => self.save_text(Some(self.workspace.typed(&input)), false),
            PromptKind::SaveWorkspaceAs => {
                self.save_workspace(Some(self.workspace.typed(&input)), false)
            }
            // Enter on the name as offered confirms; an edited name is a save under it, asked
            // about in turn if it exists too.
            PromptKind::SaveModel => self.save_model(self.workspace.typed(&input)),
            PromptKind::OverwriteText => {
                let same = input == prompt.offered;
                self.save_text(Some(self.workspace.typed(&input)), same)
            }
            PromptKind::OverwriteWorkspace => {
                let same = input == prompt.offered;
                self.save_workspace(Some(self.workspace.typed(&input)), same)
            }
            PromptKind::ChangedText | PromptKind::ChangedWorkspace => {
                self.answer_change(prompt.kind, &input, &prompt.offered)
            }
            PromptKind::LossySave => self.accept_lossy_save(&input, &prompt.offered),
            PromptKind::FstApply => self.apply_fst(&prompt.input),
            PromptKind::AlignWords => match TypedWords::parse(&input) {
                Ok(words) => {
                    self.show_view(View::Align);
                    self.panes.align.show_typed(words);
                }
                Err(e) => self.flash(e),
            },
        }
    }

    /// `F`: the typed word applied down and up to the selected FST row's network, in the
    /// trace view.
    fn apply_fst(&mut self, input: &str) {
        let Some(row) = self.rows.selected_row() else {
            return;
        };
        let fst = row
            .tokenizer()
            .and_then(|t| t.downcast_ref::<toklab::engines::fst::FstTokenizer>());
        let Some(fst) = fst else {
            self.flash(format!(
                "F applies a word to a finite-state row's network; {} is not one (Tab to an fst: row)",
                row.setup.label
            ));
            return;
        };
        let shown = crate::tui::panes::trace::apply::FstApply::new(fst, &row.setup.label, input);
        self.panes.trace.apply = Some(shown);
        self.show_view(View::Trace);
    }

    /// Esc on foma's results in the trace view: the trace again; true if they were shown.
    fn close_fst_apply(&mut self) -> bool {
        self.panes.current == View::Trace && self.panes.trace.apply.take().is_some()
    }

    fn back(&mut self) {
        if matches!(self.mode, Mode::Insert { .. }) {
            self.end_insert();
        } else if matches!(self.mode, Mode::Prompt(_)) {
            self.mode = Mode::Normal;
        } else if self.close_changes() || self.close_fst_apply() {
            // The reload's changed lines, or foma's results, gave the lower pane back.
        } else if let Some(job) = self.doc.search.as_mut().and_then(|s| s.job.take()) {
            job.cancel();
            self.flash("search cancelled");
        } else if self.rows.stop_tokenizing() {
            self.flash(
                "stopped waiting for the line's tokens: an edit or another line starts again",
            );
        } else if self.panes.stats.cancel() {
            self.flash("statistics cancelled: the figures so far are marked partial");
        } else {
            // A reflexive Esc never quits (and so never loses edits): q does.
            self.flash("nothing to close or cancel: q quits");
        }
    }

    pub(super) fn request_quit(&mut self) {
        if self.doc.is_dirty() && !self.quit_armed {
            self.quit_armed = true;
            self.flash("unsaved edits: Ctrl-s saves; q again (or Q) quits without saving");
        } else {
            self.quit = true;
        }
    }

    fn remove_row(&mut self) {
        let at = self.rows.selected;
        if let Some(removed) = self.rows.remove_selected() {
            self.flash(format!(
                "removed {} (u puts it back; W saves the workspace)",
                removed.setup.label
            ));
            self.removed = Some((at, removed, self.doc.history.mark()));
        }
    }

    /// `u` after `X`: the removed row back where it was, when no text edit came after it.
    /// True if it did.
    pub(super) fn undo_removal(&mut self) -> bool {
        let edits = self.doc.history.mark();
        match self.removed.take() {
            Some((at, row, then)) if then == edits => {
                let label = row.setup.label.clone();
                self.rows.insert(at, row);
                self.load_line();
                self.flash(format!("{label} is back"));
                true
            }
            Some(_) | None => false,
        }
    }
}
