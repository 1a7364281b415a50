//! Moving around: lines, rows, tokens and views. Every move keeps what is shown consistent: the
//! rows show the cursor line, the selected token is scrolled into view and the pane on screen
//! follows it.

use super::{App, Context, Mode, View};

impl App {
    /// Moves the cursor to line `n` (clamped); user navigation leaves insert mode.
    pub(super) fn go_to_line(&mut self, n: usize) {
        if matches!(self.mode, Mode::Insert { .. }) {
            self.end_insert();
        }
        self.move_to_line(n);
    }

    /// Moves the cursor without leaving insert mode (editing itself moves between lines).
    pub(super) fn move_to_line(&mut self, n: usize) {
        let n = n.min(self.doc.last_line());
        if n != self.doc.line {
            self.doc.line = n;
            self.load_line();
        }
        self.doc.scroll_to_cursor(self.viewport.text_lines);
    }

    /// Moves to a line and reloads it even if it is the current one (after undo).
    pub(super) fn go_to_line_forced(&mut self, n: usize) {
        self.doc.line = n.min(self.doc.last_line());
        self.load_line();
        self.doc.scroll_to_cursor(self.viewport.text_lines);
    }

    pub(super) fn select_row(&mut self, row: usize) {
        let byte = self.rows.selected_token().map(|t| t.span.start);
        self.rows.selected = row;
        self.rows.mark_disagreements(&self.doc.text);
        // Keep the selection near the same place in the text when changing rows.
        self.rows.token = byte.and_then(|byte| {
            let tokens = &self.rows.get(row)?.tokens.tokens;
            let i = tokens.partition_point(|t| t.span.end <= byte);
            (i < tokens.len())
                .then_some(i)
                .or(tokens.len().checked_sub(1))
        });
        self.reveal_token();
        self.follow_token_in_pane();
    }

    pub(super) fn step_token(&mut self, forward: bool) {
        let count = self.rows.token_count();
        let next = match (self.rows.token, forward) {
            (None, true) => Some(0),
            (None, false) => count.checked_sub(1),
            (Some(t), true) => Some((t + 1).min(count.saturating_sub(1))),
            (Some(t), false) => Some(t.saturating_sub(1)),
        };
        self.select_token(next);
    }

    pub(super) fn select_token(&mut self, token: Option<usize>) {
        self.rows.token = token.filter(|&t| t < self.rows.token_count());
        self.reveal_token();
        self.follow_token_in_pane();
    }

    /// Puts the pane's cursor on the selected token (the trace line about it, its pair).
    pub(super) fn follow_token_in_pane(&mut self) {
        let cx = Context {
            doc: &self.doc,
            rows: &self.rows,
            play_step: self.panes.play_step(),
        };
        self.panes.current_mut().follow_token(&cx);
    }

    pub(super) fn pick(&mut self, row: usize, column: usize) {
        if row >= self.rows.len() {
            return;
        }
        self.rows.selected = row;
        self.rows.token = self
            .row_layout(row)
            .cell_at_column(column)
            .and_then(|cell| self.rows[row].owners.get(cell).copied().flatten());
        self.follow_token_in_pane();
    }

    /// Scrolls horizontally so the selected token is in view.
    pub(super) fn reveal_token(&mut self) {
        let Some(span) = self.rows.selected_token().map(|t| t.span) else {
            return;
        };
        let layout = self.row_layout(self.rows.selected);
        let start = layout.column_of_byte(span.start);
        let end = layout.column_of_byte(span.end.saturating_sub(1).max(span.start)) + 1;
        let width = self.viewport.row_columns.max(1);
        let hscroll = &mut self.rows.hscroll;
        if start < *hscroll {
            *hscroll = start;
        } else if end > *hscroll + width {
            *hscroll = end.saturating_sub(width).min(start);
        }
    }

    /// Scrolls horizontally (the rows and the text pane) so the caret at byte `byte` of the
    /// line is in view, with a few columns of context on the side it moves to.
    pub(super) fn reveal_byte(&mut self, byte: usize) {
        let column = self.doc.layout.column_of_byte(byte);
        let width = self.viewport.row_columns.max(1);
        let margin = (width / 4).min(8);
        let hscroll = &mut self.rows.hscroll;
        if column < *hscroll {
            *hscroll = column.saturating_sub(margin);
        } else if column >= *hscroll + width {
            *hscroll = (column + 1 + margin).saturating_sub(width);
        }
    }

    /// Shows a view; one shown anew starts at the top (the tokens table at the selected
    /// token).
    pub(crate) fn show_view(&mut self, view: View) {
        if self.panes.current != view {
            self.panes.current = view;
            self.panes.pane_mut(view).reset_cursor();
            // A view shown anew starts at the selected token (the trace at the step that
            // made it), when one is selected.
            self.follow_token_in_pane();
        }
    }
}
