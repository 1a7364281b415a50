//! The training view: BPE learned from the current text one merge at a time — the next merge
//! and its count, the most frequent pairs as a bar chart, the merges so far, and the most
//! frequent words in their current segmentation.

use crate::counted::counted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Paragraph};

use crate::tui::app::Context;
use crate::tui::app::panes::TrainPane;
use crate::tui::theme::Theme;
use toklab::subword::train::show_token;

/// Draws the training pane: the next merge, the pair counts, the merges and the words.
pub fn draw(frame: &mut Frame, area: Rect, pane: &TrainPane, cx: &Context, theme: &Theme) {
    let Some(demo) = pane.demo(cx) else {
        frame.render_widget(Paragraph::new(Line::styled("starting…", theme.dim)), area);
        return;
    };
    let t = &demo.trainer;
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let next = demo
        .pairs
        .first()
        .map_or("nothing left to merge".to_string(), |p| {
            format!(
                "next: «{}» + «{}» → «{}{}» ({}×)",
                show_token(t.token(p.left)),
                show_token(t.token(p.right)),
                show_token(t.token(p.left)),
                show_token(t.token(p.right)),
                p.count
            )
        });
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                format!("{} learned", counted(t.merges().len(), "merge")),
                theme.title,
            ),
            Span::raw(format!(
                " from {} ({}) · ",
                counted(demo.lines, "line"),
                counted(demo.corpus_len(), "byte")
            )),
            Span::styled(next, theme.key),
            Span::styled("   . merge · , undo · p play · f 100 more", theme.dim),
        ])),
        head,
    );
    let [pairs_area, merges_area, words_area] = Layout::horizontal([
        Constraint::Percentage(40),
        Constraint::Percentage(25),
        Constraint::Percentage(35),
    ])
    .areas(body);

    let bars: Vec<Bar> = demo
        .pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let label = format!(
                "{}+{}",
                show_token(t.token(p.left)),
                show_token(t.token(p.right))
            );
            let bar = Bar::default()
                .value(p.count)
                .label(Line::from(label))
                .text_value(p.count.to_string());
            if i == 0 { bar.style(theme.key) } else { bar }
        })
        .collect();
    frame.render_widget(
        BarChart::default()
            .block(
                Block::new()
                    .borders(Borders::RIGHT)
                    .border_style(theme.border)
                    .title(Span::styled("pair counts", theme.dim)),
            )
            .direction(Direction::Horizontal)
            .bar_width(1)
            .bar_gap(0)
            .bar_style(theme.bar)
            .value_style(theme.title)
            .data(BarGroup::default().bars(&bars)),
        pairs_area,
    );

    let height = merges_area.height.saturating_sub(1) as usize;
    let merges = t.merges();
    let mut lines = vec![Line::styled(" merges (newest last)", theme.dim)];
    lines.extend(
        merges
            .iter()
            .skip(merges.len().saturating_sub(height))
            .map(|m| {
                Line::from(vec![
                    Span::styled(format!(" {:>4} ", m.rank + 1), theme.dim),
                    Span::raw(format!(
                        "{} + {} → ",
                        show_token(t.token(m.left)),
                        show_token(t.token(m.right))
                    )),
                    Span::styled(show_token(t.token(m.new)), theme.title),
                    Span::styled(format!(" {}×", m.count), theme.dim),
                ])
            }),
    );
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::RIGHT)
                .border_style(theme.border),
        ),
        merges_area,
    );

    let mut lines = vec![Line::styled(" words by count, as segmented now", theme.dim)];
    for word in t
        .words()
        .iter()
        .take(words_area.height.saturating_sub(1) as usize)
    {
        let mut spans = vec![Span::styled(format!(" {:>5}× ", word.count), theme.dim)];
        for (i, &s) in word.symbols.iter().enumerate() {
            spans.push(Span::styled(show_token(t.token(s)), theme.token[i % 2]));
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), words_area);
}
