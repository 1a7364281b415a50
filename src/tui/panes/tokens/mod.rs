//! The tokens table: every token of the selected row. Its cursor is the selected token, so it
//! keeps no state of its own.

pub mod draw;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Context, Pane, Reply};
use crate::tui::app::Action;
use crate::tui::theme::Theme;

/// The tokens table.
#[derive(Default)]
pub struct TablePane;

impl Pane for TablePane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }
    /// Moving in the table selects the token of the row moved to.
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        let delta = match action {
            Action::ViewDown(n) => n as isize,
            Action::ViewUp(n) => -(n as isize),
            _ => return Reply::Ignored,
        };
        let count = cx.selected_row().map_or(0, |r| r.tokens.len());
        if count == 0 {
            return Reply::Handled;
        }
        let at = cx.rows.token.unwrap_or(0);
        Reply::SelectToken(at.saturating_add_signed(delta).min(count - 1))
    }
}
