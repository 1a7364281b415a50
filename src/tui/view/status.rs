//! The bottom lines: the prompt when one is open (with completion candidates above it), and
//! the status bar: mode, file, position, token counts, running work, messages, the help key.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use crate::tui::app::{App, Mode, Prompt};
use crate::tui::theme::Theme;

/// Lines needed below the panes besides the status bar.
pub fn extra_lines(app: &App, _width: u16) -> u16 {
    let prompt = match &app.mode {
        Mode::Prompt(p) if !p.candidates.is_empty() => 2,
        Mode::Prompt(_) => 1,
        _ => 0,
    };
    prompt + problems(app).len() as u16
}

/// Rows whose tokenizer failed to reload: the error stays on screen until the file is fixed
/// (the row keeps its last good tokenizer meanwhile).
fn problems(app: &App) -> Vec<(&str, &str)> {
    app.rows
        .iter()
        .filter_map(|r| Some((r.setup.label.as_str(), r.reload_error.as_deref()?)))
        .collect()
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let problems = problems(app);
    let [above, problem_area, bar] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(problems.len() as u16),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_problems(frame, problem_area, &problems, theme);
    if let Mode::Prompt(prompt) = &app.mode {
        draw_prompt(frame, above, prompt, theme);
    }
    let spans = bar_spans(app, theme, bar.width as usize);
    let help = Span::styled(" ? help  q quit ", theme.key);
    let help_width = help.width() as u16;
    let used: usize = spans.iter().map(Span::width).sum();
    frame.render_widget(Paragraph::new(Line::from(spans)).style(theme.status), bar);
    // The hint only where it does not cover the counts.
    if used as u16 + help_width <= bar.width {
        let right = Rect {
            x: bar.x + bar.width - help_width,
            width: help_width,
            ..bar
        };
        frame.render_widget(Paragraph::new(Line::from(help)).style(theme.status), right);
    }
}

/// The rows whose reload failed, one line each, above the bar.
fn draw_problems(frame: &mut Frame, area: Rect, problems: &[(&str, &str)], theme: &Theme) {
    let lines: Vec<Line> = problems
        .iter()
        .map(|(label, error)| {
            Line::from(vec![
                Span::styled(
                    format!(" ! {label}: reload failed, keeping the last good version: "),
                    theme.error,
                ),
                Span::raw(error.lines().next().unwrap_or("").to_string()),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// A prompt's input line with the caret, and its completion candidates above.
fn draw_prompt(frame: &mut Frame, above: Rect, prompt: &Prompt, theme: &Theme) {
    let [candidates, input] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(above);
    if !prompt.candidates.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(prompt.candidates.join("  "), theme.dim)),
            candidates,
        );
    }
    let label = format!("{}: ", prompt.kind.title());
    let x = input.x + (label.width() + prompt.input.width()) as u16;
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(label, theme.key),
            Span::raw(prompt.input.clone()),
        ])),
        input,
    );
    frame.set_cursor_position(Position::new(
        x.min(input.x + input.width.saturating_sub(1)),
        input.y,
    ));
}

/// The bar's text: mode, file and line, playing demo, differences, then the message or every
/// row's token count, with labels shortened so every count fits in `width` columns.
fn bar_spans<'a>(app: &'a App, theme: &Theme, width: usize) -> Vec<Span<'a>> {
    let mode = match app.mode {
        Mode::Insert { .. } => Span::styled(" INSERT ", theme.selected_tab),
        _ => Span::styled(" NORMAL ", theme.tab),
    };
    let lines = if app.doc.lines.is_indexed() {
        app.doc.lines.line_count().to_string()
    } else {
        format!(
            "{}+ (indexing {:.0}%)",
            app.doc.lines.line_count(),
            app.doc.lines.progress() * 100.0
        )
    };
    let dirty = if app.doc.is_dirty() { " [+]" } else { "" };
    let mut spans = vec![
        mode,
        Span::raw(format!(
            " {}{dirty} {}/{} ",
            app.doc.lines.name(),
            app.doc.line + 1,
            lines
        )),
    ];
    if app.panes.demo_playing() {
        spans.push(Span::styled(
            format!("│ ▶ {} {{ }} ", app.panes.teach.describe()),
            theme.key,
        ));
    }
    if let Some(diffs) = app.diff_status() {
        spans.push(Span::styled(format!("│ {diffs} "), theme.key));
    }
    if let Some((message, _)) = &app.message {
        spans.push(Span::styled(format!("│ {message} "), theme.key));
    } else {
        let mut counts = Vec::with_capacity(app.rows.len());
        for (index, row) in app.rows.iter().enumerate() {
            let count = if row.is_loading() {
                "…".to_string()
            } else if row.error().is_some() || row.own_error().is_some() {
                // A row whose tokenizer or whose own text (a conversation's prompt) failed has
                // no count: its zero tokens are not a figure.
                "failed".to_string()
            } else {
                row.tokens.len().to_string()
            };
            let count = match app.ids {
                // With ids on, the row's figures: tokens and characters per token.
                crate::tui::app::IdsMode::Off => count,
                _ if row.tokenizer().is_some() && row.own_error().is_none() => {
                    super::ids::row_figures(row, app.row_text(index))
                }
                _ => count,
            };
            counts.push((row.setup.label.as_str(), count));
        }
        let mut tail = Vec::new();
        if let Some(changed) = app.changed_summary() {
            tail.push(Span::styled(format!("│ {changed} (]c [c) "), theme.key));
        }
        if let Some(note) = app.gave_up_note() {
            tail.push(Span::styled(format!("│ {note} "), theme.error));
        }
        let used: usize = spans.iter().chain(&tail).map(Span::width).sum();
        spans.extend(row_counts(&counts, width.saturating_sub(used)));
        spans.extend(tail);
    }
    spans
}

/// Every row's `│ label count`, each label cut to the longest length at which all of them fit
/// in `room` columns (a count is never cut: it is the figure the user reads); labels go when
/// even a character and `…` each do not fit.
fn row_counts<'a>(counts: &[(&str, String)], room: usize) -> Vec<Span<'a>> {
    let width_at = |limit: usize| -> usize {
        counts
            .iter()
            .map(|(label, count)| {
                let label = label.width().min(limit);
                // "│ " + label + " " + count + " ", or "│ " + count + " " without a label.
                2 + if limit == 0 { 0 } else { label + 1 } + count.width() + 1
            })
            .sum()
    };
    let longest = counts.iter().map(|(l, _)| l.width()).max().unwrap_or(0);
    // A label cut to fewer than two columns says nothing: then the counts stand alone.
    let limit = std::iter::once(longest)
        .chain((2..longest).rev())
        .find(|&limit| width_at(limit) <= room)
        .unwrap_or(0);
    counts
        .iter()
        .map(|(label, count)| match limit {
            0 => Span::raw(format!("│ {count} ")),
            _ => Span::raw(format!("│ {} {count} ", shorten(label, limit))),
        })
        .collect()
}

/// `label` in at most `limit` columns, its cut marked with `…`.
fn shorten(label: &str, limit: usize) -> String {
    if label.width() <= limit {
        return label.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in label.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > limit {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}
