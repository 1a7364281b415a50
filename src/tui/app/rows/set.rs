//! Every row together: the selection among them, the token selected in the selected row, the
//! sideways scroll, and the work they do as one (tokenizing the line, reloading, marking where
//! they disagree).

use std::sync::Arc;
use std::time::Instant;

use super::{Loader, Row, RowEvent, RowSetup};
use crate::tui::layout::{Changed, LineLayout};
use toklab::analysis::compare::Presence;
use toklab::core::token::Token;

/// The rows, the selection among them and the tokens of the current line they show.
pub struct Rows {
    list: Vec<Row>,
    loader: Loader,
    /// The selected row (row A of the alignment view).
    pub selected: usize,
    /// The selected token of the selected row.
    pub token: Option<usize>,
    /// The first layout column shown in the side-by-side pane.
    pub hscroll: usize,
    /// Bumped whenever the tokens shown change (the line, a tokenizer, the rows or the
    /// selected row), so panes know to refresh.
    pub version: u64,
    /// The line every row tokenizes, shared with the background tokenizations.
    text: Arc<str>,
}

impl std::ops::Deref for Rows {
    type Target = [Row];

    fn deref(&self) -> &[Row] {
        &self.list
    }
}

impl std::ops::DerefMut for Rows {
    fn deref_mut(&mut self) -> &mut [Row] {
        &mut self.list
    }
}

impl Rows {
    /// The row pinned for `]d` / `[d` to compare with (`*`).
    pub fn pinned(&self) -> Option<usize> {
        self.list.iter().position(|r| r.pinned)
    }

    /// Starts loading every row's tokenizer in the background through `loader`.
    pub fn load(setups: Vec<RowSetup>, loader: Loader) -> Rows {
        Rows {
            list: setups.into_iter().map(|s| Row::load(s, &loader)).collect(),
            loader,
            selected: 0,
            token: None,
            hscroll: 0,
            version: 0,
            text: Arc::from(""),
        }
    }

    /// Adds a row (loading in the background) and selects it.
    pub fn add(&mut self, mut setup: RowSetup) {
        let taken: Vec<&str> = self.list.iter().map(|r| r.setup.label.as_str()).collect();
        setup.label = toklab::core::label::unique(&taken, &setup.label);
        self.list.push(Row::load(setup, &self.loader));
        self.selected = self.list.len() - 1;
    }

    /// Adds a row that is already loaded, without selecting it.
    pub fn push(&mut self, row: Row) {
        self.list.push(row);
        self.version += 1;
    }

    /// Puts `row` back at `index` (undoing a removal) and selects it.
    pub fn insert(&mut self, index: usize, row: Row) {
        let index = index.min(self.list.len());
        self.list.insert(index, row);
        self.selected = index;
        self.token = None;
        self.version += 1;
    }

    /// Removes row `index`, returning it.
    pub fn remove(&mut self, index: usize) -> Option<Row> {
        if index >= self.list.len() {
            return None;
        }
        let removed = self.list.remove(index);
        if self.selected >= self.list.len() || self.selected > index {
            self.selected = self.selected.saturating_sub(1);
        }
        self.token = None;
        self.version += 1;
        Some(removed)
    }

    /// Removes the selected row, returning it.
    pub fn remove_selected(&mut self) -> Option<Row> {
        if self.list.is_empty() {
            return None;
        }
        let removed = self.list.remove(self.selected);
        self.selected = self.selected.min(self.list.len().saturating_sub(1));
        self.token = None;
        self.version += 1;
        Some(removed)
    }

    /// Loads every tokenizer again (the `r` key).
    pub fn reload_all(&mut self) {
        for row in &mut self.list {
            row.reload(&self.loader);
        }
    }

    /// Advances loading and watching; what happened, by row.
    pub fn tick(&mut self, now: Instant) -> Vec<(usize, RowEvent)> {
        self.list
            .iter_mut()
            .enumerate()
            .filter_map(|(i, row)| Some((i, row.tick(&self.loader, now)?)))
            .collect()
    }

    /// Whether any row is loading or reloading.
    pub fn is_reloading(&self) -> bool {
        self.list.iter().any(Row::is_reloading)
    }

    pub fn is_loading(&self) -> bool {
        self.list.iter().any(Row::is_loading)
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.list.get(self.selected)
    }

    pub fn selected_token(&self) -> Option<&Token> {
        self.selected_row()?.tokens.tokens.get(self.token?)
    }

    /// Tokens of the selected row.
    pub fn token_count(&self) -> usize {
        self.selected_row().map_or(0, |r| r.tokens.len())
    }

    /// The line the rows tokenized last (the one the line layout was made of).
    pub fn line(&self) -> &str {
        &self.text
    }

    /// Tokenizes `text` in every row (long lines in the background); `edit` says it is an
    /// edit of the line the rows show, and `changed` where it changed the text and `layout`
    /// (`LineLayout::edit`): rows that keep their tokens look again only from there. A row
    /// with a text of its own tokenizes that instead, laid out on its own.
    pub fn tokenize(&mut self, text: &str, edit: bool, layout: &LineLayout, changed: Changed) {
        self.text = Arc::from(text);
        for row in &mut self.list {
            match row.own.take() {
                Some(own) => {
                    let text = own.text();
                    // The prompt does not follow the cursor line: the same prompt keeps its
                    // tokens while the cursor moves.
                    let same = Arc::ptr_eq(&row.tokens_of, &text) && !row.stopped;
                    if !same {
                        row.tokenize(&text, false, 0);
                        row.paint(own_layout(&own), 0);
                    }
                    row.own = Some(own);
                }
                None => {
                    let kept = row.tokenize(&self.text, edit, changed.byte);
                    row.paint(layout, if kept { changed.cell } else { 0 });
                }
            }
        }
        self.settle(text);
    }

    /// Installs the background tokenizations that ended; true when a row's tokens changed.
    pub fn poll_tokens(&mut self, layout: &LineLayout) -> bool {
        let arrived: Vec<bool> = self
            .list
            .iter_mut()
            .map(|row| {
                let own = row.own.take();
                let current = own
                    .as_ref()
                    .map_or_else(|| Arc::clone(&self.text), |o| o.text());
                let arrived = row.poll_tokens(&current);
                if arrived {
                    row.paint(own.as_ref().map_or(layout, own_layout), 0);
                }
                row.own = own;
                arrived
            })
            .collect();
        let changed = arrived.contains(&true);
        if changed {
            let text = Arc::clone(&self.text);
            self.clamp_token();
            self.mark(&text, Some(&arrived));
        }
        changed
    }

    /// Whether the rows tokenize texts of their own (a conversation's prompts): comparing
    /// them by span (boundary marks, `]d`, the alignment) does not apply then.
    pub fn own_texts(&self) -> bool {
        self.list.iter().any(|r| r.own.is_some())
    }

    /// The text row `index` tokenized: its own, or the shared line.
    pub fn text_of(&self, index: usize) -> &str {
        self.list
            .get(index)
            .and_then(Row::own_text)
            .unwrap_or(&self.text)
    }

    /// Whether any row's tokens of the current line are still being computed.
    pub fn is_tokenizing(&self) -> bool {
        self.list.iter().any(Row::is_tokenizing)
    }

    /// Stops waiting for every background tokenization (Esc); true if one was running.
    pub fn stop_tokenizing(&mut self) -> bool {
        let mut stopped = false;
        for row in &mut self.list {
            stopped |= row.stop_tokenizing();
        }
        stopped
    }

    /// After the tokens changed: the selected token stays in range and the rows' differences
    /// are marked again.
    fn settle(&mut self, text: &str) {
        self.clamp_token();
        self.mark_disagreements(text);
    }

    /// Keeps the selected token in range.
    fn clamp_token(&mut self) {
        if let Some(t) = self.token
            && t >= self.token_count()
        {
            self.token = self.token_count().checked_sub(1);
        }
    }

    /// Marks, in every row but the selected one, the boundaries it does not share with the
    /// selected row.
    pub fn mark_disagreements(&mut self, text: &str) {
        self.mark(text, None);
    }

    /// Marks the disagreements again, in every row or, given which rows' tokens just
    /// `arrived` while the selected row's did not, in those rows only (the others compare the
    /// same tokens as before): each arrival of a long line's tokens compares one row, not all.
    fn mark(&mut self, text: &str, arrived: Option<&[bool]>) {
        let only = arrived.filter(|a| !a.get(self.selected).copied().unwrap_or(true));
        // Rows of different texts share no spans to compare.
        let apart = self.own_texts();
        // Rows whose tokens are of an earlier text (a long line tokenizing) are not compared:
        // the marks would be wrong and the work is done again when the tokens arrive.
        let reference = self.list.get(self.selected).filter(|r| !r.stale);
        let marks: Vec<Option<Vec<(usize, bool)>>> = self
            .list
            .iter()
            .enumerate()
            .map(|(i, row)| match reference {
                _ if only.is_some_and(|a| !a.get(i).copied().unwrap_or(true)) => None,
                _ if apart => Some(Vec::new()),
                Some(reference)
                    if i != self.selected && row.tokenizer().is_some() && !row.stale =>
                {
                    toklab::analysis::compare::BoundaryDiff::new(
                        text,
                        &reference.tokens,
                        &row.tokens,
                    )
                    .boundaries
                    .iter()
                    .filter(|b| b.side != Presence::Both)
                    .map(|b| (b.at, b.side == Presence::OnlyA))
                    .collect::<Vec<_>>()
                    .into()
                }
                _ => Some(Vec::new()),
            })
            .collect();
        for (row, marks) in self.list.iter_mut().zip(marks) {
            let Some(marks) = marks else { continue };
            row.disagree = marks.iter().map(|&(at, _)| at).collect();
            row.lacking = marks.iter().filter(|m| m.1).map(|&(at, _)| at).collect();
        }
        self.version += 1;
    }
}

/// The layout of a row's own text (a failed one has no cells).
fn own_layout(own: &super::OwnText) -> &LineLayout {
    static EMPTY: LineLayout = LineLayout {
        cells: Vec::new(),
        width: 0,
    };
    match own {
        super::OwnText::Prompt { layout, .. } => layout,
        super::OwnText::Failed(_) => &EMPTY,
    }
}
