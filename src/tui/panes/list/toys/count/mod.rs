//! A toy pane for the list's test: the number of the selected row's tokens.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

use crate::tui::panes::{Context, Pane};
use crate::tui::theme::Theme;

/// Shows how many tokens the selected row has.
#[derive(Default)]
pub struct CountPane;

impl Pane for CountPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, _theme: &Theme) {
        let count = cx.selected_row().map_or(0, |r| r.tokens.len());
        frame.render_widget(Paragraph::new(format!("{count} tokens")), area);
    }
}
