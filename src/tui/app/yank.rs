//! Yanking: the selected token, the selected row's tokens or ids, or the whole line's
//! comparison, as text for the clipboard (an OSC 52 escape the event loop writes to the
//! terminal) or for a file. Lists are JSON arrays, so a token with a space or a quote in it
//! pastes unambiguously into a bug report or a script.

use std::path::PathBuf;
use toklab::core::files::{Expect, WriteError, write_bytes};

use super::{App, Effect};
use crate::counted::counted;

/// What to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yank {
    /// The selected token's form.
    Token,
    /// The selected row's token forms.
    Row,
    /// The selected row's token ids.
    Ids,
    /// The line and every row's tokens (and ids where the row has them).
    Line,
}

impl Yank {
    /// The names `:yank` takes.
    pub const NAMES: &'static str = "token|row|ids|line";

    pub fn from_name(name: &str) -> Option<Yank> {
        Some(match name {
            "token" | "t" => Yank::Token,
            "row" | "r" | "tokens" => Yank::Row,
            "ids" | "i" => Yank::Ids,
            "line" | "l" => Yank::Line,
            _ => return None,
        })
    }
}

impl App {
    /// Copies `what` to the clipboard, or writes it to `file`; the status bar says which.
    pub(super) fn yank(&mut self, what: Yank, file: Option<PathBuf>) {
        match yank_text(self, what) {
            Ok((text, what)) => self.effects.push(Effect::Copy { text, what, file }),
            Err(message) => self.flash(message),
        }
    }
}

/// The text to copy and how the status bar names it, or why there is nothing to copy.
pub fn yank_text(app: &App, what: Yank) -> Result<(String, String), String> {
    let row = app
        .rows
        .selected_row()
        .ok_or("no tokenizer rows: nothing to copy")?;
    let text = app.row_text(app.rows.selected);
    let label = &row.setup.label;
    let tokens = &row.tokens.tokens;
    match what {
        Yank::Token => {
            let token = app
                .rows
                .selected_token()
                .ok_or("no token selected (← → select one)")?;
            let form = token.form(text).to_string();
            let name = format!("token {}", toklab::core::tokenizer::quote(&form));
            Ok((form, name))
        }
        Yank::Row => Ok((
            forms_json(row, text),
            format!("{label}'s {}", counted(tokens.len(), "token")),
        )),
        Yank::Ids => Ok((
            ids_json(row).ok_or(format!("{label} gives its tokens no ids"))?,
            format!("{label}'s {}", counted(tokens.len(), "id")),
        )),
        Yank::Line => {
            let mut out = format!("line {}: {text}\n", app.doc.line + 1);
            for row in app.rows.iter() {
                out.push_str(&format!("{}\t{}", row.setup.label, forms_json(row, text)));
                if let Some(ids) = ids_json(row) {
                    out.push_str(&format!("\tids {ids}"));
                }
                out.push('\n');
            }
            Ok((
                out,
                format!(
                    "line {}'s comparison ({})",
                    app.doc.line + 1,
                    counted(app.rows.len(), "row")
                ),
            ))
        }
    }
}

fn forms_json(row: &super::Row, text: &str) -> String {
    let forms = row.tokens.forms(text);
    serde_json::to_string(&forms).expect("strings serialize")
}

/// The row's ids as a JSON array; `None` when a token has none (rule and regex tokenizers).
fn ids_json(row: &super::Row) -> Option<String> {
    let ids: Option<Vec<u32>> = row.tokens.tokens.iter().map(|t| t.id).collect();
    let ids = ids.filter(|ids| !ids.is_empty())?;
    Some(serde_json::to_string(&ids).expect("numbers serialize"))
}

/// Performs a copy the app asked for (the event loop's side): the text goes to `file`, or as
/// an OSC 52 escape into [`App::to_terminal`], which the loop writes to the terminal.
pub fn deliver(app: &mut App, text: &str, what: &str, file: Option<PathBuf>) {
    match file {
        // A yank makes a new file: an existing one is not replaced (give another name).
        Some(path) => match write_bytes(&path, &Expect::Absent, text.as_bytes()) {
            Ok(_) => app.flash(format!("wrote {what} to {}", path.display())),
            Err(WriteError::Exists(_)) => app.flash(format!(
                "{} already exists and was left as it is: yank to another name",
                path.display()
            )),
            Err(e) => app.flash(format!("could not write: {e}")),
        },
        None => {
            app.to_terminal.extend(crate::tui::osc52::sequence(text));
            app.flash(format!("copied {what} to the clipboard (OSC 52)"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::Action;
    use crate::tui::app::tests::app;

    #[test]
    fn copies_the_token_the_row_its_ids_and_the_line() {
        let gpt2 = format!("bpe:{}/samples/bpe/gpt2", env!("CARGO_MANIFEST_DIR"));
        let mut app = app("We're 350", &["ws", &gpt2]);
        app.rows[1].setup.label = "gpt2".into();
        assert_eq!(
            yank_text(&app, Yank::Token).unwrap_err(),
            "no token selected (← → select one)"
        );
        app.apply(Action::TokenNext);
        let (text, what) = yank_text(&app, Yank::Token).unwrap();
        assert_eq!((text.as_str(), what.as_str()), ("We're", "token «We're»"));
        assert_eq!(yank_text(&app, Yank::Row).unwrap().0, r#"["We're","350"]"#);
        assert_eq!(
            yank_text(&app, Yank::Ids).unwrap_err(),
            "ws gives its tokens no ids"
        );
        app.apply(Action::RowNext);
        let tokens = toklab::load(&gpt2).unwrap().tokenize("We're 350");
        let ids: Vec<String> = tokens
            .tokens
            .iter()
            .map(|t| t.id.unwrap().to_string())
            .collect();
        let forms: Vec<String> = tokens
            .tokens
            .iter()
            .map(|t| serde_json::to_string(t.form("We're 350")).unwrap())
            .collect();
        let (copied, what) = yank_text(&app, Yank::Ids).unwrap();
        assert_eq!(what, format!("gpt2's {} ids", ids.len()));
        assert_eq!(copied, format!("[{}]", ids.join(",")));
        let (line, _) = yank_text(&app, Yank::Line).unwrap();
        assert_eq!(
            line,
            format!(
                "line 1: We're 350\nws\t[\"We're\",\"350\"]\ngpt2\t[{}]\tids [{}]\n",
                forms.join(","),
                ids.join(",")
            )
        );
    }

    #[test]
    fn the_clipboard_gets_an_osc52_escape_and_a_file_the_text() {
        let mut app = app("a b", &["ws"]);
        app.apply(Action::TokenLast);
        app.apply(Action::Yank(Yank::Token));
        crate::tui::effect::perform_all(&mut app);
        assert_eq!(app.to_terminal, b"\x1b]52;c;Yg==\x07");
        assert_eq!(
            app.message.as_ref().unwrap().0,
            "copied token «b» to the clipboard (OSC 52)"
        );
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("row.json");
        app.yank(Yank::Row, Some(path.clone()));
        crate::tui::effect::perform_all(&mut app);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), r#"["a","b"]"#);
        assert!(
            app.message
                .as_ref()
                .unwrap()
                .0
                .starts_with("wrote ws's 2 tokens to ")
        );
    }
}
