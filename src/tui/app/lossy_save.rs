//! Saving never loses bytes silently: untouched lines are written back byte for byte, but an
//! edited line whose original had bytes that are not UTF-8 can only be saved with the U+FFFD
//! it was shown with. The save then stops and asks, naming the lines, as an overwrite does.

use std::path::{Path, PathBuf};

use super::{App, Mode, Prompt, PromptKind};
use crate::tui::document::Snapshot;

impl App {
    /// When saving `text` would replace bytes by U+FFFD: says which lines on the status line,
    /// opens the confirmation prompt, and returns true (the save waits for the answer).
    pub(super) fn ask_before_lossy_save(&mut self, path: &Path, text: &Snapshot) -> bool {
        let lines = text.lossy_edits();
        let Some(&first) = lines.first() else {
            return false;
        };
        let which = match lines.len() {
            1 => format!("line {}", first + 1),
            n => format!("lines {} and {} more", first + 1, n - 1),
        };
        self.flash(format!(
            "edited {which}: bytes that are not UTF-8 on it would be saved as U+FFFD"
        ));
        self.mode = Mode::Prompt(Prompt::new(
            PromptKind::LossySave,
            path.display().to_string(),
        ));
        true
    }

    /// Enter at the question: the name as offered saves there anyway; an edited name is a
    /// save under that name, asked about again.
    pub(super) fn accept_lossy_save(&mut self, input: &str, offered: &str) {
        if input != offered {
            self.save_text(Some(self.workspace.typed(input)), false);
            return;
        }
        let text = self.doc.lines.snapshot();
        self.queue_save(PathBuf::from(offered), text, false);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::tui::app::{Action, App, Loader, Mode, PromptKind};
    use crate::tui::document::Document;
    use crate::tui::effect::perform_all;

    /// A workbench over a file holding `bytes`, indexed.
    fn app_over(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, App) {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("latin1.txt");
        std::fs::write(&path, bytes).unwrap();
        let doc = Document::open(&path).unwrap();
        while !doc.is_indexed() {
            std::thread::yield_now();
        }
        let loader: Loader = Arc::new(|spec: &str, _: Option<&std::path::Path>| {
            toklab::load(spec).map_err(|e| e.to_string())
        });
        let mut app = App::new(doc, Vec::new(), loader);
        app.finish_loading();
        (temp, path, app)
    }

    fn message(app: &App) -> &str {
        app.message.as_ref().map_or("", |(m, _)| m.as_str())
    }

    const ORIGINAL: &[u8] = b"plain\r\ncaf\xe9 au lait\r\nlast\r\n";

    #[test]
    fn an_edited_line_with_bytes_not_utf8_asks_before_saving() {
        let (_temp, path, mut app) = app_over(ORIGINAL);
        // Line 2 is shown as "caf\u{FFFD} au lait"; the user appends to it.
        let shown = app.doc.lines.line(1).unwrap().into_owned();
        app.doc.lines.set_line(1, format!("{shown}!")).unwrap();
        app.apply(Action::Save);
        perform_all(&mut app);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            ORIGINAL,
            "nothing written yet"
        );
        assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::LossySave));
        assert!(message(&app).contains("line 2"), "{}", message(&app));
        // Esc cancels and leaves the file alone.
        app.apply(Action::Back);
        assert!(matches!(app.mode, Mode::Normal));
        assert_eq!(std::fs::read(&path).unwrap(), ORIGINAL);
        // Asked again, Enter saves anyway: only the edited line changes.
        app.apply(Action::Save);
        perform_all(&mut app);
        app.apply(Action::Enter);
        perform_all(&mut app);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            "plain\r\ncaf\u{FFFD} au lait!\r\nlast\r\n".as_bytes()
        );
        assert!(!app.doc.lines.is_dirty());
    }

    #[test]
    fn a_line_changed_back_or_rid_of_its_bad_bytes_saves_without_asking() {
        let (_temp, path, mut app) = app_over(ORIGINAL);
        let shown = app.doc.lines.line(1).unwrap().into_owned();
        app.doc.lines.set_line(1, "changed".into()).unwrap();
        app.doc.lines.set_line(1, shown).unwrap();
        app.doc.lines.set_line(0, "PLAIN".into()).unwrap();
        app.apply(Action::Save);
        perform_all(&mut app);
        assert!(matches!(app.mode, Mode::Normal));
        // The line shown as it was is written as the bytes it was.
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"PLAIN\r\ncaf\xe9 au lait\r\nlast\r\n"
        );
        // The user removed the unreadable character: nothing shown is lost, no question.
        app.doc.lines.set_line(1, "cafe au lait".into()).unwrap();
        app.apply(Action::Save);
        perform_all(&mut app);
        assert!(matches!(app.mode, Mode::Normal));
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"PLAIN\r\ncafe au lait\r\nlast\r\n"
        );
    }

    /// Saves, and returns the question's status line (empty when it saved without asking).
    fn save_asks(app: &mut App) -> String {
        app.apply(Action::Save);
        perform_all(app);
        let asked = matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::LossySave);
        if asked {
            app.apply(Action::Back);
        }
        if asked {
            message(app).to_string()
        } else {
            String::new()
        }
    }

    #[test]
    fn a_line_split_off_or_joined_to_a_line_not_utf8_asks_before_saving() {
        // Enter after "caf": the U+FFFD goes to a new line 3, the old line keeps "caf".
        let (_temp, path, mut app) = app_over(ORIGINAL);
        app.move_to_line(1);
        app.mode = Mode::Insert { caret: 3 };
        app.split_line();
        assert_eq!(app.doc.lines.line(2).unwrap(), "\u{FFFD} au lait");
        let asked = save_asks(&mut app);
        assert!(asked.contains("line 3"), "{asked:?}");
        assert_eq!(std::fs::read(&path).unwrap(), ORIGINAL);
        // Backspace at the start of line 3 joins it back: the line is its original again and
        // is saved as its bytes, without asking.
        app.mode = Mode::Insert { caret: 0 };
        app.join_with_previous_line();
        assert!(save_asks(&mut app).is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), ORIGINAL);

        // Backspace at the start of line 2 joins it to line 1, whose own bytes are UTF-8.
        let (_temp, path, mut app) = app_over(ORIGINAL);
        app.move_to_line(1);
        app.mode = Mode::Insert { caret: 0 };
        app.join_with_previous_line();
        assert_eq!(app.doc.lines.line(0).unwrap(), "plaincaf\u{FFFD} au lait");
        let asked = save_asks(&mut app);
        assert!(asked.contains("line 1"), "{asked:?}");
        assert_eq!(std::fs::read(&path).unwrap(), ORIGINAL);
        // Undone, the line comes back as it was shown: saved as its bytes, no question.
        app.mode = Mode::Normal;
        app.undo();
        assert_eq!(app.doc.lines.line(1).unwrap(), "caf\u{FFFD} au lait");
        assert!(save_asks(&mut app).is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), ORIGINAL);
    }
}
