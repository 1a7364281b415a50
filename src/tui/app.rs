//! The workbench's state and how actions change it. Pure: no terminal, no drawing, so every
//! behaviour can be tested by applying actions and looking at the state.

use std::sync::Arc;

use ratatui::style::Color;

use super::document::Document;
use super::layout::LineLayout;
use crate::engine::Tokenizer;
use crate::token::Tokenization;

/// A tokenizer to show, as named in a workspace or on the command line.
#[derive(Clone, Debug)]
pub struct RowSetup {
    pub label: String,
    pub spec: String,
    pub colour: Option<Color>,
}

/// One row of the side-by-side view: a tokenizer (or why it failed to load) and its tokens of
/// the current line.
pub struct Row {
    pub label: String,
    pub spec: String,
    pub colour: Option<Color>,
    pub tokenizer: Result<Arc<dyn Tokenizer>, String>,
    pub tokens: Tokenization,
    /// For each cell of the line layout, the token covering it.
    pub owners: Vec<Option<usize>>,
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
    ToggleHelp,
    /// Closes an overlay if one is open, else quits.
    Back,
    Quit,
}

/// The size of the panes, as last drawn; paging and horizontal scrolling depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewport {
    pub text_lines: usize,
    pub row_columns: usize,
}

pub struct App {
    pub doc: Document,
    pub rows: Vec<Row>,
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
    pub help: bool,
    pub quit: bool,
    pub viewport: Viewport,
    /// Whether the cursor line was available when last loaded (a file still being indexed
    /// may not have reached it yet).
    line_available: bool,
}

impl App {
    /// Builds the workbench state, loading every row's tokenizer with `load`.
    pub fn new(
        doc: Document,
        setups: Vec<RowSetup>,
        load: impl Fn(&str) -> Result<Box<dyn Tokenizer>, String>,
    ) -> App {
        let rows = setups
            .into_iter()
            .map(|setup| Row {
                tokenizer: load(&setup.spec).map(Arc::from),
                label: setup.label,
                spec: setup.spec,
                colour: setup.colour,
                tokens: Tokenization::default(),
                owners: Vec::new(),
            })
            .collect();
        let mut app = App {
            doc,
            rows,
            line: 0,
            top: 0,
            text: String::new(),
            layout: LineLayout::default(),
            row: 0,
            token: None,
            hscroll: 0,
            help: false,
            quit: false,
            line_available: false,
            viewport: Viewport {
                text_lines: 10,
                row_columns: 60,
            },
        };
        app.load_line();
        app
    }

    /// Re-reads the cursor line and re-tokenizes it in every row.
    pub fn load_line(&mut self) {
        self.text = self
            .doc
            .line(self.line)
            .map(|l| l.into_owned())
            .unwrap_or_default();
        self.layout = LineLayout::new(&self.text);
        for row in &mut self.rows {
            row.tokens = match &row.tokenizer {
                Ok(tokenizer) => tokenizer.tokenize(&self.text),
                Err(_) => Tokenization::default(),
            };
            row.owners = self.layout.owners(&row.tokens);
        }
        self.token = None;
        self.hscroll = 0;
    }

    /// Called on every turn of the event loop: picks up the cursor line once background
    /// indexing has reached it.
    pub fn tick(&mut self) {
        if !self.line_available {
            self.load_line();
        }
    }

    pub fn apply(&mut self, action: Action) {
        let page = self.viewport.text_lines.max(1);
        match action {
            Action::LineUp => self.go_to_line(self.line.saturating_sub(1)),
            Action::LineDown => self.go_to_line(self.line + 1),
            Action::PageUp => self.go_to_line(self.line.saturating_sub(page)),
            Action::PageDown => self.go_to_line(self.line + page),
            Action::FirstLine => self.go_to_line(0),
            Action::LastLine => self.go_to_line(usize::MAX),
            Action::GoToLine(n) => self.go_to_line(n),
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
            Action::ToggleHelp => self.help = !self.help,
            Action::Back if self.help => self.help = false,
            Action::Back | Action::Quit => self.quit = true,
        }
    }

    fn go_to_line(&mut self, n: usize) {
        let last = self.doc.line_count().saturating_sub(1);
        let n = n.min(last);
        if n != self.line {
            self.line = n;
            self.load_line();
        }
        let page = self.viewport.text_lines.max(1);
        if self.line < self.top {
            self.top = self.line;
        } else if self.line >= self.top + page {
            self.top = self.line + 1 - page;
        }
    }

    fn select_row(&mut self, row: usize) {
        let column = self
            .token
            .and_then(|t| self.selected_row().and_then(|r| r.tokens.tokens.get(t)))
            .map(|t| t.span.start);
        self.row = row;
        // Keep the selection near the same place in the text when changing rows.
        self.token = column.and_then(|byte| {
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
    }

    /// Scrolls horizontally so the selected token is in view.
    fn reveal_token(&mut self) {
        let Some(token) = self
            .token
            .and_then(|t| self.selected_row()?.tokens.tokens.get(t))
        else {
            return;
        };
        let start = self.layout.column_of_byte(token.span.start);
        let end = self
            .layout
            .column_of_byte(token.span.end.saturating_sub(1).max(token.span.start))
            + 1;
        let width = self.viewport.row_columns.max(1);
        if start < self.hscroll {
            self.hscroll = start;
        } else if end > self.hscroll + width {
            self.hscroll = end.saturating_sub(width).min(start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn app(text: &str, specs: &[&str]) -> App {
        let setups = specs
            .iter()
            .map(|s| RowSetup {
                label: s.to_string(),
                spec: s.to_string(),
                colour: None,
            })
            .collect();
        App::new(Document::from_text(text), setups, |spec| {
            crate::load(spec).map_err(|e| e.to_string())
        })
    }

    #[test]
    fn moving_the_cursor_retokenizes_every_row() {
        let mut app = app("a b\nWe're here\nlast", &["ws", "words"]);
        assert_eq!(app.rows[0].tokens.len(), 2);
        app.apply(Action::LineDown);
        assert_eq!(app.text, "We're here");
        assert_eq!(app.rows[0].tokens.len(), 2);
        assert_eq!(app.rows[1].tokens.len(), 2);
        app.apply(Action::LastLine);
        assert_eq!(app.line, 2);
        app.apply(Action::LineDown);
        assert_eq!(app.line, 2, "stays on the last line");
        app.apply(Action::FirstLine);
        assert_eq!(app.text, "a b");
    }

    #[test]
    fn paging_keeps_cursor_visible() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let mut app = app(&text, &["ws"]);
        app.viewport.text_lines = 10;
        app.apply(Action::PageDown);
        assert_eq!((app.line, app.top), (10, 1));
        app.apply(Action::LastLine);
        assert_eq!((app.line, app.top), (99, 90));
        app.apply(Action::PageUp);
        assert_eq!((app.line, app.top), (89, 89));
    }

    #[test]
    fn token_selection_follows_rows_and_scrolls() {
        let mut app = app("aaaa bbbb cccc dddd", &["ws", "words"]);
        app.viewport.row_columns = 8;
        app.apply(Action::TokenLast);
        assert_eq!(app.token, Some(3));
        assert!(
            app.hscroll >= 11,
            "last token in view, hscroll {}",
            app.hscroll
        );
        app.apply(Action::RowNext);
        assert_eq!((app.row, app.token), (1, Some(3)));
        app.apply(Action::TokenFirst);
        assert_eq!((app.token, app.hscroll), (Some(0), 0));
        app.apply(Action::Pick { row: 0, column: 6 });
        assert_eq!((app.row, app.token), (0, Some(1)));
        app.apply(Action::Pick { row: 0, column: 4 });
        assert_eq!(app.token, None, "a space belongs to no token");
    }

    #[test]
    fn broken_spec_becomes_an_error_row() {
        let app = app("x", &["nope:1", "ws"]);
        assert!(
            app.rows[0]
                .tokenizer
                .as_ref()
                .err()
                .unwrap()
                .contains("unknown tokenizer kind")
        );
        assert_eq!(app.rows[1].tokens.len(), 1);
    }

    #[test]
    fn escape_closes_help_before_quitting() {
        let mut app = app("x", &["ws"]);
        app.apply(Action::ToggleHelp);
        app.apply(Action::Back);
        assert!(!app.help && !app.quit);
        app.apply(Action::Back);
        assert!(app.quit);
    }
}
