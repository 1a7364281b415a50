//! The `:` command line: `:N` or `:goto N` goes to a line, `:yank WHAT [FILE]` copies,
//! `:ids` switches the id display, `:diffs` counts the differing lines again, `:w` and `:q`
//! as in vi.

use super::yank::Yank;
use super::{App, IdsMode};

/// What `:help`-less users see when a command is unknown.
pub const USAGE: &str =
    ":N  :goto N  :yank token|row|ids|line [FILE]  :ids [off|hues|ids]  :diffs  :w  :q";

impl App {
    /// Runs one command typed after `:`.
    pub(super) fn run_command(&mut self, input: &str) {
        let input = input.trim().trim_start_matches(':').trim();
        let mut words = input.split_whitespace();
        let Some(name) = words.next() else {
            return;
        };
        let args: Vec<&str> = words.collect();
        match (name, args.as_slice()) {
            (n, []) if n.chars().all(|c| c.is_ascii_digit()) => self.goto_command(n),
            ("goto" | "go" | "line", [n]) => self.goto_command(n),
            ("yank" | "y", [what, file @ ..]) if file.len() <= 1 => match Yank::from_name(what) {
                Some(what) => {
                    let file = file.first().map(|f| self.workspace.typed(f));
                    self.yank(what, file);
                }
                None => self.flash(format!(
                    "yank what? {} (then a file name to write instead of copying)",
                    Yank::NAMES
                )),
            },
            ("ids", []) => self.set_ids(self.ids.next()),
            ("ids", [mode]) => match IdsMode::from_name(mode) {
                Some(mode) => self.set_ids(mode),
                None => self.flash("ids off, ids hues, ids ids or ids both"),
            },
            ("diffs", []) => self.rescan_diffs(),
            ("w", []) => self.save_text(None, false),
            ("q", []) => self.request_quit(),
            ("q!", []) => self.quit = true,
            _ => self.flash(format!("unknown command :{input} — {USAGE}")),
        }
    }

    fn goto_command(&mut self, n: &str) {
        match n.parse::<usize>() {
            Ok(n) if n >= 1 && n <= self.doc.lines.line_count() => self.go_to_line(n - 1),
            _ => self.flash(format!(
                "no line {n}: lines are 1 to {}",
                self.doc.lines.line_count()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::app::tests::{app, type_text};
    use crate::tui::app::{Action, Effect, IdsMode, PromptKind};

    fn command(app: &mut crate::tui::app::App, text: &str) {
        app.apply(Action::StartPrompt(PromptKind::Command));
        type_text(app, text);
        app.apply(Action::Enter);
    }

    #[test]
    fn goes_to_lines_and_refuses_lines_that_are_not_there() {
        let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let mut app = app(&text, &["ws"]);
        command(&mut app, "12");
        assert_eq!(app.doc.line, 11);
        command(&mut app, "goto 3");
        assert_eq!(app.doc.line, 2);
        command(&mut app, "31");
        assert_eq!(app.doc.line, 2);
        assert!(app.message.as_ref().unwrap().0.contains("no line 31"));
        command(&mut app, "frobnicate");
        assert!(app.message.as_ref().unwrap().0.contains("unknown command"));
    }

    #[test]
    fn yank_to_a_file_and_switch_ids() {
        let mut app = app("We're here", &["ws", "pretok:gpt2"]);
        app.apply(Action::RowNext);
        command(&mut app, "yank row /tmp/out.json");
        let effects = app.take_effects();
        match effects.as_slice() {
            [Effect::Copy { text, file, .. }] => {
                assert_eq!(text, r#"["We","'re"," here"]"#);
                assert_eq!(file.as_deref(), Some(std::path::Path::new("/tmp/out.json")));
            }
            other => panic!("{other:?}"),
        }
        command(&mut app, "ids ids");
        assert_eq!(app.ids, IdsMode::Ids);
        command(&mut app, "ids");
        assert_eq!(app.ids, IdsMode::FormsAndIds);
        command(&mut app, "ids");
        assert_eq!(app.ids, IdsMode::Off);
        command(&mut app, "ids both");
        assert_eq!(app.ids, IdsMode::FormsAndIds);
    }
}
