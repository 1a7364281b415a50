//! The alignment view by character spans: the stretches of the line both rows cut alike, one
//! per line, `=` where both cover it with one token and `≠` where one splits it (the boundary
//! agreement `compare` counts), so conventions such as a kept leading space, `▁` or `##` do
//! not count as differences the way they do in the alignment of forms.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::panes::Context;
use crate::tui::panes::{AlignData, AlignPane};
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::analysis::compare::{BoundaryDiff, align_spans};
use toklab::core::tokenizer::quote;

/// Draws the span alignment of the rows `data` compares.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    pane: &AlignPane,
    cx: &Context,
    data: &AlignData,
    theme: &Theme,
) {
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let (a, b) = (&cx.rows[data.a], &cx.rows[data.b]);
    let text = cx.text();
    let groups = align_spans(text, &a.tokens, &b.tokens);
    let diff = BoundaryDiff::new(text, &a.tokens, &b.tokens);
    let agreeing = groups.iter().filter(|g| g.agree).count();
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("A {} ", a.setup.label), theme.selected_label),
            Span::raw(" vs "),
            Span::styled(format!(" B {} ", b.setup.label), theme.selected_tab),
            Span::raw(format!(
                "  by spans: {agreeing} of {} stretches agree · boundaries only A {} · only B {}",
                groups.len(),
                diff.only_a(),
                diff.only_b()
            )),
            Span::styled("   S forms", theme.dim),
        ])),
        head,
    );
    if groups.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("no tokens on this line", theme.dim)),
            body,
        );
        return;
    }
    let height = body.height as usize;
    let cursor = pane.cursor.min(groups.len() - 1);
    let first = window_start(cursor, height, groups.len());
    let column = (body.width as usize).saturating_sub(4) / 2;
    let forms = |tokens: &toklab::core::token::Tokenization, range: std::ops::Range<usize>| {
        tokens.tokens[range]
            .iter()
            .map(|t| quote(t.form(text)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let lines: Vec<Line> = groups[first..(first + height).min(groups.len())]
        .iter()
        .enumerate()
        .map(|(k, group)| {
            let (mark, style) = if group.agree {
                ("=", theme.dim)
            } else {
                ("≠", theme.key)
            };
            let sides = (
                forms(&a.tokens, group.a.clone()),
                forms(&b.tokens, group.b.clone()),
            );
            super::draw::pair_line(mark, sides, column, style, first + k == cursor, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
}
