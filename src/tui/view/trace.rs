//! The trace view: the selected row's explanation of the current line, any engine's, as
//! indented lines; the selected line's span is marked on the text above.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::window_start;
use crate::engine::Role;
use crate::tui::app::App;
use crate::tui::theme::Theme;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let lines = app.trace_lines();
    if lines.is_empty() {
        let hint = match app.selected_row() {
            Some(row) if row.is_loading() => "loading…",
            Some(row) if row.tokenizer().is_none() => "this row has no tokenizer loaded",
            Some(_) => "no trace for an empty line",
            None => "no tokenizer rows",
        };
        frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim)), area);
        return;
    }
    let height = area.height as usize;
    let cursor = app.views.cursor.min(lines.len() - 1);
    let first = window_start(cursor, height, lines.len());
    let shown: Vec<Line> = lines[first..(first + height).min(lines.len())]
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut spans = vec![Span::raw("  ".repeat(line.depth))];
            spans.extend(
                line.parts
                    .iter()
                    .map(|part| Span::styled(part.text.clone(), role_style(part.role, theme))),
            );
            let line = Line::from(spans);
            if first + i == cursor {
                line.style(theme.cursor_line)
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), area);
}

pub fn role_style(role: Role, theme: &Theme) -> Style {
    match role {
        Role::Plain => Style::new(),
        Role::Label => theme.label,
        Role::Token => theme.title,
        Role::Dropped => theme.dropped,
        Role::Detail => theme.dim,
        Role::Backtrack => theme.error,
    }
}
