//! `E`: the selected token's rule (its origin's file and line) opened in the user's editor, so
//! a rule author goes from a wrong token to the line that made it in one key.

use std::path::PathBuf;

use super::{App, Effect};

impl App {
    /// Asks for the selected token's origin to be opened in `$VISUAL`/`$EDITOR` at its line;
    /// says why not when no token is selected or its origin names no file line.
    pub(super) fn edit_origin(&mut self) {
        let Some(token) = self.rows.selected_token() else {
            self.flash("select a token first (← → or h l): E opens the rule that made it");
            return;
        };
        let Some(loc) = token.origin.source() else {
            let origin = token.origin.to_string();
            self.flash(format!(
                "the token's origin ({origin}) names no file line to edit"
            ));
            return;
        };
        self.effects.push(Effect::EditFile {
            path: PathBuf::from(&*loc.file),
            line: loc.line,
        });
    }
}
