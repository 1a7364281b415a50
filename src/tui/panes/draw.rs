//! The lower pane: a tab bar and the view it shows, which draws itself.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use super::View;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use crate::tui::view::Regions;

/// Draws the pane.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, regions: &mut Regions) {
    let mut title = vec![Span::raw(" ")];
    let mut x = area.x + 2;
    for (i, view) in View::ALL.into_iter().enumerate() {
        let label = format!(" {} {} ", i + 1, view.name());
        let width = label.chars().count() as u16;
        regions.tabs.push((Rect::new(x, area.y, width, 1), view));
        x += width + 1;
        let style = if view == app.panes.current {
            theme.selected_tab
        } else {
            theme.tab
        };
        title.push(Span::styled(label, style));
        title.push(Span::raw(" "));
    }
    let cx = app.context();
    let pane = app.panes.current();
    let about = pane
        .shows_selected_row()
        .then(|| {
            app.rows
                .selected_row()
                .map(|r| format!(" {} ", r.setup.label))
        })
        .flatten();
    let mut block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Line::from(title));
    if let Some(about) = about {
        block = block.title_top(Line::styled(about, theme.label).right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    regions.view = inner;
    match app.reload_changes().filter(|run| run.shown) {
        Some(run) => super::changes::draw(frame, inner, app, run, theme),
        None => pane.draw(frame, inner, &cx, theme),
    }
}
