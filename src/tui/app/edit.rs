//! Editing the text under the cursor: an insert mode whose every keystroke re-tokenizes every
//! row (incrementally where the engine can), new lines, and undo/redo by groups (one group per
//! insert session, as in vi).

use unicode_segmentation::GraphemeCursor;

use super::{App, Mode};

/// One change to the document, with what is needed to revert it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Change {
    Set {
        line: usize,
        before: String,
        after: String,
    },
    /// A line inserted; `sources`, the original lines its text came from (a split).
    Insert {
        line: usize,
        text: String,
        sources: Vec<usize>,
    },
    /// A line removed; `sources`, the original lines its text came from (for undo).
    Remove {
        line: usize,
        text: String,
        sources: Vec<usize>,
    },
}

/// Changes applied together and undone together, with an id that names the state of the text
/// after them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    id: u64,
    changes: Vec<Change>,
}

/// Undo and redo stacks of change groups, and which state of the text is the one saved, so
/// undoing back to it leaves nothing unsaved.
pub struct History {
    undo: Vec<Group>,
    redo: Vec<Group>,
    open: Vec<Change>,
    next_id: u64,
    /// The state (see [`History::state`]) the file holds; `None` once that state can no
    /// longer be reached (an edit after undoing past it dropped its redo).
    saved: Option<u64>,
}

impl Default for History {
    fn default() -> History {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
            open: Vec::new(),
            next_id: 1,
            saved: Some(0),
        }
    }
}

impl History {
    /// The state of the text: the id of the last group applied (0 for none), `None` while a
    /// group is still open.
    fn state(&self) -> Option<u64> {
        if self.open.is_empty() {
            Some(self.undo.last().map_or(0, |g| g.id))
        } else {
            None
        }
    }

    /// Whether the text is as it was last saved (or opened), whatever was done in between.
    pub fn at_saved(&self) -> bool {
        self.saved.is_some() && self.state() == self.saved
    }

    /// The text was saved as it is now.
    pub fn mark_saved(&mut self) {
        self.close();
        self.saved = self.state();
    }

    fn record(&mut self, change: Change) {
        if self.redo.iter().any(|g| Some(g.id) == self.saved) {
            self.saved = None;
        }
        self.redo.clear();
        // Consecutive keystrokes on one line collapse into one change.
        if let (
            Change::Set { line, after, .. },
            Some(Change::Set {
                line: last,
                after: last_after,
                ..
            }),
        ) = (&change, self.open.last_mut())
            && line == last
        {
            *last_after = after.clone();
            return;
        }
        self.open.push(change);
    }

    /// A mark that changes with every text edit made from now on (edits still being typed
    /// count as made), for undo steps kept outside the text's history.
    pub(super) fn mark(&mut self) -> u64 {
        self.close();
        self.next_id
    }

    fn close(&mut self) {
        if !self.open.is_empty() {
            let id = self.next_id;
            self.next_id += 1;
            self.undo.push(Group {
                id,
                changes: std::mem::take(&mut self.open),
            });
        }
    }
}

impl App {
    /// Enters insert mode with the caret at `caret` (a byte offset of the current line).
    pub(super) fn begin_insert(&mut self, caret: usize) {
        if let Err(e) = self
            .doc
            .lines
            .set_line(self.doc.line, self.doc.text.clone())
        {
            self.flash(e.to_string());
            return;
        }
        self.mode = Mode::Insert {
            caret: caret.min(self.doc.text.len()),
        };
    }

    /// Opens a new empty line below the cursor and starts editing it.
    pub(super) fn open_line_below(&mut self) {
        let at = self.doc.line + 1;
        if let Err(e) = self.doc.lines.insert_line(at, String::new()) {
            self.flash(e.to_string());
            return;
        }
        self.doc.history.record(Change::Insert {
            line: at,
            text: String::new(),
            sources: Vec::new(),
        });
        self.move_to_line(at);
        self.begin_insert(0);
    }

    pub(super) fn end_insert(&mut self) {
        self.doc.history.close();
        self.mode = Mode::Normal;
    }

    fn caret(&self) -> usize {
        match self.mode {
            Mode::Insert { caret } => caret,
            _ => 0,
        }
    }

    fn set_caret(&mut self, caret: usize) {
        if let Mode::Insert { caret: c } = &mut self.mode {
            *c = caret;
        }
    }

    /// Applies a change of the current line's text and re-tokenizes every row from the old text.
    fn change_text(&mut self, new_text: String, caret: usize) {
        let old = std::mem::replace(&mut self.doc.text, new_text);
        match self
            .doc
            .lines
            .set_line(self.doc.line, self.doc.text.clone())
        {
            Ok(before) => self.doc.history.record(Change::Set {
                line: self.doc.line,
                before,
                after: self.doc.text.clone(),
            }),
            Err(e) => {
                self.doc.text = old;
                self.flash(e.to_string());
                return;
            }
        }
        self.set_caret(caret);
        if self.doc.text.len() > super::rows::SYNC_BYTES {
            self.edit_pending = true;
        } else {
            self.retokenize(true);
        }
    }

    pub(super) fn insert_str(&mut self, s: &str) {
        let caret = self.caret();
        let mut text = self.doc.text.clone();
        text.insert_str(caret, s);
        self.change_text(text, caret + s.len());
    }

    pub(super) fn backspace(&mut self) {
        let caret = self.caret();
        if caret == 0 {
            self.join_with_previous_line();
            return;
        }
        let start = grapheme_before(&self.doc.text, caret);
        let mut text = self.doc.text.clone();
        text.replace_range(start..caret, "");
        self.change_text(text, start);
    }

    pub(super) fn delete(&mut self) {
        let caret = self.caret();
        if caret >= self.doc.text.len() {
            return;
        }
        let end = grapheme_after(&self.doc.text, caret);
        let mut text = self.doc.text.clone();
        text.replace_range(caret..end, "");
        self.change_text(text, caret);
    }

    pub(super) fn caret_left(&mut self) {
        let c = grapheme_before(&self.doc.text, self.caret());
        self.set_caret(c);
    }

    pub(super) fn caret_right(&mut self) {
        let c = grapheme_after(&self.doc.text, self.caret());
        self.set_caret(c);
    }

    pub(super) fn caret_home(&mut self) {
        self.set_caret(0);
    }

    pub(super) fn caret_end(&mut self) {
        let end = self.doc.text.len();
        self.set_caret(end);
    }

    /// Enter in insert mode: the text after the caret becomes a new line below, carrying
    /// the original lines the split line came from.
    pub(super) fn split_line(&mut self) {
        let caret = self.caret();
        let sources = self.doc.lines.sources(self.doc.line);
        let rest = self.doc.text[caret..].to_string();
        let head = self.doc.text[..caret].to_string();
        self.change_text(head, caret);
        let at = self.doc.line + 1;
        if let Err(e) = self.doc.lines.insert_line(at, rest.clone()) {
            self.flash(e.to_string());
            return;
        }
        let _ = self.doc.lines.carry(at, &sources);
        self.doc.history.record(Change::Insert {
            line: at,
            text: rest,
            sources,
        });
        self.move_to_line(at);
        self.mode = Mode::Insert { caret: 0 };
    }

    /// Backspace at the start of a line joins it to the previous one, which then carries
    /// the original lines the removed one came from.
    pub(super) fn join_with_previous_line(&mut self) {
        if self.doc.line == 0 {
            return;
        }
        let sources = self.doc.lines.sources(self.doc.line);
        let Ok(removed) = self.doc.lines.remove_line(self.doc.line) else {
            return;
        };
        self.doc.history.record(Change::Remove {
            line: self.doc.line,
            text: removed.clone(),
            sources: sources.clone(),
        });
        self.move_to_line(self.doc.line - 1);
        let caret = self.doc.text.len();
        let joined = format!("{}{}", self.doc.text, removed);
        self.mode = Mode::Insert { caret };
        self.change_text(joined, caret);
        let _ = self.doc.lines.carry(self.doc.line, &sources);
    }

    pub(super) fn undo(&mut self) {
        self.doc.history.close();
        let Some(group) = self.doc.history.undo.pop() else {
            self.flash("nothing to undo");
            return;
        };
        let mut line = self.doc.line;
        for change in group.changes.iter().rev() {
            line = self.revert(change);
        }
        self.doc.history.redo.push(group);
        self.go_to_line_forced(line);
    }

    pub(super) fn redo(&mut self) {
        let Some(group) = self.doc.history.redo.pop() else {
            self.flash("nothing to redo");
            return;
        };
        let mut line = self.doc.line;
        for change in &group.changes {
            line = self.replay(change);
        }
        self.doc.history.undo.push(group);
        self.go_to_line_forced(line);
    }

    /// Undoes one change; returns the line it touched. Edits made through the history were
    /// valid when made, so reverting them in order cannot fail.
    fn revert(&mut self, change: &Change) -> usize {
        match change {
            Change::Set { line, before, .. } => {
                let _ = self.doc.lines.set_line(*line, before.clone());
                *line
            }
            Change::Insert { line, .. } => {
                let _ = self.doc.lines.remove_line(*line);
                line.saturating_sub(1)
            }
            Change::Remove {
                line,
                text,
                sources,
            } => {
                let _ = self.doc.lines.insert_line(*line, text.clone());
                let _ = self.doc.lines.carry(*line, sources);
                *line
            }
        }
    }

    fn replay(&mut self, change: &Change) -> usize {
        match change {
            Change::Set { line, after, .. } => {
                let _ = self.doc.lines.set_line(*line, after.clone());
                *line
            }
            Change::Insert {
                line,
                text,
                sources,
            } => {
                let _ = self.doc.lines.insert_line(*line, text.clone());
                let _ = self.doc.lines.carry(*line, sources);
                *line
            }
            Change::Remove { line, .. } => {
                let _ = self.doc.lines.remove_line(*line);
                line.saturating_sub(1)
            }
        }
    }
}

fn grapheme_before(text: &str, at: usize) -> usize {
    GraphemeCursor::new(at, text.len(), true)
        .prev_boundary(text, 0)
        .ok()
        .flatten()
        .unwrap_or(0)
}

fn grapheme_after(text: &str, at: usize) -> usize {
    GraphemeCursor::new(at, text.len(), true)
        .next_boundary(text, 0)
        .ok()
        .flatten()
        .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{app, type_text};
    use super::super::{Action, Mode};

    #[test]
    fn typing_retokenizes_every_row_and_undo_restores() {
        let mut app = app("We are\nnext", &["ws", "words"]);
        app.apply(Action::Edit);
        app.apply(Action::CaretEnd);
        type_text(&mut app, "n't");
        assert_eq!(app.doc.text, "We aren't");
        assert_eq!(app.rows[0].tokens.len(), 2);
        assert_eq!(app.doc.lines.line(0).unwrap(), "We aren't");
        app.apply(Action::Back);
        assert_eq!(app.mode, Mode::Normal);
        app.apply(Action::Undo);
        assert_eq!(app.doc.text, "We are");
        assert_eq!(app.doc.lines.line(0).unwrap(), "We are");
        app.apply(Action::Redo);
        assert_eq!(app.doc.text, "We aren't");
    }

    #[test]
    fn undoing_back_to_the_saved_text_leaves_nothing_unsaved() {
        let mut app = app("one", &["ws"]);
        assert!(!app.doc.is_dirty());
        app.apply(Action::Edit);
        assert!(!app.doc.is_dirty(), "entering insert mode changes nothing");
        type_text(&mut app, "x");
        assert!(app.doc.is_dirty());
        app.apply(Action::Back);
        app.apply(Action::Undo);
        assert!(!app.doc.is_dirty(), "back to the opened text");
        app.apply(Action::Redo);
        assert!(app.doc.is_dirty());
        // Saved after the edit: undo makes it unsaved, redo saved again.
        let saved = tempfile::NamedTempFile::new().unwrap();
        let (_, stamp) = toklab::core::files::Stamp::read(saved.path()).unwrap();
        app.text_saved(saved.path().to_path_buf(), stamp);
        assert!(!app.doc.is_dirty());
        app.apply(Action::Undo);
        assert!(app.doc.is_dirty());
        app.apply(Action::Redo);
        assert!(!app.doc.is_dirty());
        // An edit after undoing past the saved state makes it unreachable.
        app.apply(Action::Undo);
        app.apply(Action::Edit);
        type_text(&mut app, "y");
        app.apply(Action::Back);
        assert!(app.doc.is_dirty());
        app.apply(Action::Undo);
        assert!(
            app.doc.is_dirty(),
            "the saved text was «xone», this is «one»"
        );
    }

    #[test]
    fn enter_splits_and_backspace_joins() {
        let mut app = app("ab cd", &["ws"]);
        app.apply(Action::Edit);
        app.apply(Action::CaretHome);
        app.apply(Action::CaretRight);
        app.apply(Action::CaretRight);
        app.apply(Action::Enter);
        assert_eq!((app.doc.line, app.doc.text.as_str()), (1, " cd"));
        assert_eq!(app.doc.lines.line(0).unwrap(), "ab");
        app.apply(Action::Backspace);
        assert_eq!((app.doc.line, app.doc.text.as_str()), (0, "ab cd"));
        assert_eq!(app.doc.lines.line_count(), 1);
        app.apply(Action::Back);
        app.apply(Action::Undo);
        assert_eq!(app.doc.lines.line(0).unwrap(), "ab cd");
        assert_eq!(app.doc.lines.line_count(), 1);
    }

    #[test]
    fn backspace_removes_a_whole_grapheme() {
        let mut app = app("e\u{301}x👍🏽", &["ws"]);
        app.apply(Action::Edit);
        app.apply(Action::CaretEnd);
        app.apply(Action::Backspace);
        assert_eq!(app.doc.text, "e\u{301}x");
        app.apply(Action::CaretLeft);
        app.apply(Action::Backspace);
        assert_eq!(app.doc.text, "x");
    }

    #[test]
    fn open_line_below_and_undo() {
        let mut app = app("one\ntwo", &["ws"]);
        app.apply(Action::OpenLine);
        type_text(&mut app, "new");
        app.apply(Action::Back);
        assert_eq!(app.doc.lines.line(1).unwrap(), "new");
        assert_eq!(app.doc.lines.line_count(), 3);
        app.apply(Action::Undo);
        assert_eq!(app.doc.lines.line_count(), 2);
        assert_eq!(app.doc.lines.line(1).unwrap(), "two");
    }
}
