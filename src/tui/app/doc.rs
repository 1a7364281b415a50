//! The document state: the text, the cursor line and what was read of it, the edit history
//! and the last search. One value, so opening another text replaces it whole.

use super::edit::History;
use super::search::Search;
use crate::tui::document::Document;
use crate::tui::layout::LineLayout;

/// The text being looked at and everything that belongs to it rather than to the view.
pub struct DocState {
    /// The text's lines (a file read lazily, or text held in memory) with the user's edits.
    pub lines: Document,
    /// Which document this is: panes over the whole text (statistics, training) start again
    /// when it changes.
    pub id: u64,
    /// The cursor line, whose text every row shows.
    pub line: usize,
    /// The first line shown in the text pane.
    pub top: usize,
    /// The cursor line's text.
    pub text: String,
    /// Where the cursor line's characters are drawn.
    pub layout: LineLayout,
    pub history: History,
    pub search: Option<Search>,
    /// Whether the cursor line was read yet (background indexing may not have reached it).
    pub line_available: bool,
    /// `G` was pressed while the file was still being indexed: go to the last line once it is.
    pub to_last_line: bool,
}

impl DocState {
    /// A document shown from its first line; `id` tells it from the one it replaces.
    pub fn new(lines: Document, id: u64) -> DocState {
        DocState {
            lines,
            id,
            line: 0,
            top: 0,
            text: String::new(),
            layout: LineLayout::default(),
            history: History::default(),
            search: None,
            line_available: false,
            to_last_line: false,
        }
    }

    /// Reads the cursor line into `text` (empty while it is not indexed yet).
    pub fn read_line(&mut self) {
        let line = self.lines.line(self.line);
        self.line_available = line.is_some();
        self.text = line.map(|l| l.into_owned()).unwrap_or_default();
    }

    /// Scrolls the text pane so the cursor line is among its `page` lines.
    pub fn scroll_to_cursor(&mut self, page: usize) {
        let page = page.max(1);
        if self.line < self.top {
            self.top = self.line;
        } else if self.line >= self.top + page {
            self.top = self.line + 1 - page;
        }
    }

    /// Whether there are unsaved edits: changes made and not undone back to the saved text.
    pub fn is_dirty(&self) -> bool {
        self.lines.is_dirty() && !self.history.at_saved()
    }

    /// The last line's index.
    pub fn last_line(&self) -> usize {
        self.lines.line_count().saturating_sub(1)
    }
}
