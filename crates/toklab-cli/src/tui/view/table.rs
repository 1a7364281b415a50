//! The token table: every token of the selected row with its offsets, kind, id and origin —
//! the chart/offsets view of one line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row, Table};

use super::window_start;
use crate::tui::app::Context;
use crate::tui::theme::Theme;
use toklab::offsets::CodePoints;
use toklab::tokenizer::quote;

/// Draws the tokens table; its cursor is the selected token.
pub fn draw(frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
    let Some(row) = cx.selected_row() else {
        return;
    };
    let tokens = &row.tokens;
    if tokens.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("no tokens on this line", theme.dim)),
            area,
        );
        return;
    }
    let height = (area.height as usize).saturating_sub(1);
    let cursor = cx.rows.token.unwrap_or(0).min(tokens.len() - 1);
    let first = window_start(cursor, height, tokens.len());
    let mut cp = CodePoints::new(cx.text());
    let body: Vec<Row> = tokens.tokens[first..(first + height).min(tokens.len())]
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let index = first + i;
            let surface = token.surface(cx.text());
            let form = token.form(cx.text());
            let cells = vec![
                Cell::from(format!("{}", index + 1)),
                Cell::from(quote(form)),
                Cell::from(if form == surface {
                    String::new()
                } else {
                    quote(surface)
                }),
                Cell::from(format!("{}..{}", token.span.start, token.span.end)),
                Cell::from(format!(
                    "{}..{}",
                    cp.at(token.span.start),
                    cp.at(token.span.end)
                )),
                Cell::from(token.kind.name()),
                Cell::from(token.id.map(|id| id.to_string()).unwrap_or_default()),
                Cell::from(token.origin.to_string()),
                Cell::from(
                    if tokens.ends_sentence(index) && !tokens.sentence_ends.is_empty() {
                        "¶"
                    } else {
                        ""
                    },
                ),
            ];
            let row = Row::new(cells);
            if Some(index) == cx.rows.token {
                row.style(theme.selected_token)
            } else {
                row
            }
        })
        .collect();
    let header = Row::new([
        "#", "form", "surface", "bytes", "chars", "kind", "id", "origin", "end",
    ])
    .style(theme.title);
    let widths = [
        Constraint::Length(4),
        Constraint::Min(8),
        Constraint::Min(6),
        Constraint::Length(11),
        Constraint::Length(11),
        Constraint::Length(12),
        Constraint::Length(7),
        Constraint::Fill(2),
        Constraint::Length(3),
    ];
    frame.render_widget(
        Table::new(body, widths).header(header).column_spacing(1),
        area,
    );
}
