//! `E`: the selected token's rule (its origin's file and line) opened in the user's editor, so
//! a rule author goes from a wrong token to the line that made it in one key. In the trace
//! view the selected trace line's rule comes first: a near miss names a rule that made no token.

use std::path::PathBuf;

use super::{App, Effect};
use crate::tui::panes::View;
use toklab::core::token::SourceLoc;

impl App {
    /// Asks for the selected token's origin to be opened in `$VISUAL`/`$EDITOR` at its line;
    /// says why not when no token is selected or its origin names no file line.
    pub(super) fn edit_origin(&mut self) {
        if let Some(loc) = self.trace_line_rule() {
            self.edit_at(loc);
            return;
        }
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
        let loc = loc.clone();
        self.edit_at(loc);
    }

    /// Enter in the trace view: the selected trace line's rule opened as `E` opens it, or why not.
    pub(super) fn edit_trace_line(&mut self) {
        match self.trace_line_rule() {
            Some(loc) => self.edit_at(loc),
            None => {
                self.flash("this trace line names no rule file line (E opens the token's rule)")
            }
        }
    }

    /// The rule file line of the trace view's selected line, when that view is shown.
    fn trace_line_rule(&self) -> Option<SourceLoc> {
        if self.panes.current != View::Trace {
            return None;
        }
        let trace = &self.panes.trace;
        trace.lines().get(trace.cursor)?.source.clone()
    }

    fn edit_at(&mut self, loc: SourceLoc) {
        self.effects.push(Effect::EditFile {
            path: PathBuf::from(&*loc.file),
            line: loc.line,
        });
    }
}
