//! A toy pane for the list's test: the selected row's longest token, moved by `J`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

use crate::tui::app::Action;
use crate::tui::panes::{Context, Pane, Reply};
use crate::tui::theme::Theme;

/// Shows the selected row's `rank`-th longest token; `J` goes one further down the ranks.
#[derive(Default)]
pub struct ToyPane {
    pub rank: usize,
}

impl Pane for ToyPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, _theme: &Theme) {
        let text = cx.text();
        let mut forms: Vec<&str> = cx
            .selected_row()
            .map(|r| r.tokens.iter().map(|t| t.form(text)).collect())
            .unwrap_or_default();
        forms.sort_by_key(|f| std::cmp::Reverse(f.chars().count()));
        let shown = forms.get(self.rank).copied().unwrap_or("-");
        frame.render_widget(Paragraph::new(format!("#{} {shown}", self.rank + 1)), area);
    }

    fn handle(&mut self, action: Action, _cx: &Context) -> Reply {
        match action {
            Action::ViewDown(n) => {
                self.rank += n;
                Reply::Handled
            }
            _ => Reply::Ignored,
        }
    }
}
