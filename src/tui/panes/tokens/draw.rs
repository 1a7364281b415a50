//! The token table: every token of the selected row with its offsets, kind, id and origin —
//! the chart/offsets view of one line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row, Table};
use unicode_width::UnicodeWidthStr;

use crate::tui::panes::Context;
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::core::offsets::CodePoints;
use toklab::core::tokenizer::quote;

/// Draws the tokens table; its cursor is the selected token.
pub fn draw(frame: &mut Frame, area: Rect, _pane: &super::TablePane, cx: &Context, theme: &Theme) {
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
    let texts: Vec<[String; 9]> = tokens.tokens[first..(first + height).min(tokens.len())]
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let index = first + i;
            let surface = token.surface(cx.text());
            let form = token.form(cx.text());
            [
                format!("{}", index + 1),
                quote(form),
                if form == surface {
                    String::new()
                } else {
                    quote(surface)
                },
                format!("{}..{}", token.span.start, token.span.end),
                format!("{}..{}", cp.at(token.span.start), cp.at(token.span.end)),
                token.kind.name().to_string(),
                token.id.map(|id| id.to_string()).unwrap_or_default(),
                origin(&token.origin),
                if tokens.ends_sentence(index) && !tokens.sentence_ends.is_empty() {
                    "¶".to_string()
                } else {
                    String::new()
                },
            ]
        })
        .collect();
    let names = [
        "#", "form", "surface", "bytes", "chars", "kind", "id", "origin", "end",
    ];
    // Each column as wide as what it shows on screen (forms and surfaces at most 24), so an
    // empty surface or id column leaves the room to the origin, which takes the rest.
    let width = |column: usize, most: usize| {
        let widest = texts
            .iter()
            .map(|t| t[column].width())
            .chain([names[column].width()])
            .max()
            .unwrap_or(1);
        Constraint::Length(widest.min(most) as u16)
    };
    let widths = [
        width(0, 8),
        width(1, 24),
        width(2, 24),
        width(3, 16),
        width(4, 16),
        width(5, 16),
        width(6, 10),
        Constraint::Fill(1),
        width(8, 3),
    ];
    let body: Vec<Row> = texts
        .into_iter()
        .enumerate()
        .map(|(i, cells)| {
            let row = Row::new(cells.map(Cell::from));
            if Some(first + i) == cx.rows.token {
                row.style(theme.selected_token)
            } else {
                row
            }
        })
        .collect();
    let header = Row::new(names).style(theme.title);
    frame.render_widget(
        Table::new(body, widths).header(header).column_spacing(1),
        area,
    );
}

/// The origin as the column shows it: the resource line that made the token first (the part a
/// rule author looks for, kept when a narrow column cuts the rest), then the step.
fn origin(origin: &toklab::core::token::Origin) -> String {
    let text = origin.to_string();
    match origin.source() {
        Some(source) => {
            let at = source.to_string();
            let rest = text.replace(&format!(" from {at}"), "");
            format!("{at}  {rest}")
        }
        None => text,
    }
}
