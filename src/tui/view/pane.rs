//! The lower pane: a tab bar and the selected view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use super::Regions;
use crate::tui::app::{App, View};
use crate::tui::theme::Theme;

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
    let about = match app.panes.current {
        View::Trace | View::Table | View::Align | View::Merges => app
            .rows
            .selected_row()
            .map(|r| format!(" {} ", r.setup.label)),
        View::Train | View::Stats => None,
    };
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
    let cx = app.context();
    let panes = &app.panes;
    match panes.current {
        View::Trace => super::trace::draw(frame, inner, &panes.trace, &cx, theme),
        View::Table => super::table::draw(frame, inner, &cx, theme),
        View::Align => super::align::draw(frame, inner, &panes.align, &cx, theme),
        View::Merges => super::merges::draw(frame, inner, &panes.merges, &cx, theme),
        View::Train => super::train::draw(frame, inner, &panes.train, &cx, theme),
        View::Stats => super::stats::draw(frame, inner, &panes.stats, &cx, theme),
    }
}
