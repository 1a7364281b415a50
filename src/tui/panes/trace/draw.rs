//! The trace view: the selected row's explanation of the current line, any engine's, as
//! indented lines; the selected line's span is marked on the text above.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::tui::panes::Context;
use crate::tui::panes::TracePane;
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::core::tokenizer::Role;

/// Draws the trace pane: the trace's lines around the cursor.
pub fn draw(frame: &mut Frame, area: Rect, pane: &TracePane, cx: &Context, theme: &Theme) {
    if let Some(apply) = &pane.apply {
        super::apply::draw(frame, area, apply, theme);
        return;
    }
    let lines = pane.lines();
    if lines.is_empty() {
        let hint = match cx.selected_row() {
            Some(row) if row.is_loading() => "loading…",
            Some(row) if row.tokenizer().is_none() => "this row has no tokenizer loaded",
            Some(_) => "no trace for an empty line",
            None => "no tokenizer rows",
        };
        frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim)), area);
        return;
    }
    let cursor = pane.cursor.min(lines.len() - 1);
    let styled = |line: &toklab::core::tokenizer::TraceLine| {
        let mut spans = vec![Span::raw("  ".repeat(line.depth))];
        spans.extend(
            line.parts
                .iter()
                .map(|part| Span::styled(part.text.clone(), role_style(part.role, theme))),
        );
        Line::from(spans)
    };
    // A selected line wider than the pane is shown whole, wrapped, at the bottom.
    let selected = styled(&lines[cursor]);
    let width = selected.width();
    let footer = if width > area.width as usize && area.height >= 6 {
        (width.div_ceil(area.width.max(1) as usize) as u16).min(3) + 1
    } else {
        0
    };
    let [list, full] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(footer)]).areas(area);
    let height = list.height as usize;
    let first = window_start(cursor, height, lines.len());
    let shown: Vec<Line> = lines[first..(first + height).min(lines.len())]
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let line = styled(line);
            if first + i == cursor {
                line.style(theme.cursor_line)
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), list);
    if footer > 0 {
        frame.render_widget(
            Paragraph::new(selected).wrap(Wrap { trim: false }).block(
                Block::new()
                    .borders(Borders::TOP)
                    .border_style(theme.border),
            ),
            full,
        );
    }
}

pub fn role_style(role: Role, theme: &Theme) -> Style {
    match role {
        Role::Label => theme.label,
        Role::Token => theme.title,
        Role::Dropped => theme.dropped,
        Role::Detail => theme.dim,
        Role::Backtrack => theme.error,
        // Plain, and roles added later: unstyled until the workbench gives them a style.
        _ => Style::new(),
    }
}
