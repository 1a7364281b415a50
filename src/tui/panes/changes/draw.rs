//! The listing of the lines a reload changed: a head naming the reloaded row and the count,
//! then one line per changed line, `line │ before │ after`, the tokens either side lacks
//! marked, the current line highlighted and kept in view.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::{Side, before_after};
use crate::tui::app::App;
use crate::tui::app::changes::ChangeRun;
use crate::tui::app::rows::SYNC_BYTES;
use crate::tui::theme::Theme;
use crate::tui::view::text::clip;
use crate::tui::view::window_start;

/// Draws the listing in `area` (the lower pane's inside).
pub fn draw(frame: &mut Frame, area: Rect, app: &App, run: &ChangeRun, theme: &Theme) {
    let found = run.found();
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let count = found.lines.len();
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("reload of {}", found.label), theme.title),
            Span::raw(format!(
                ": {count} line{} changed{}",
                if count == 1 { "" } else { "s" },
                if found.complete { "" } else { " so far…" }
            )),
            Span::styled(
                " · marked: tokens the other side lacks · ]c [c go to one · C Esc close",
                theme.dim,
            ),
        ])),
        head,
    );
    if found.lines.is_empty() {
        let note = if found.complete {
            "the reload changed no line of the text"
        } else {
            "comparing…"
        };
        frame.render_widget(Paragraph::new(Line::styled(note, theme.dim)), body);
        return;
    }
    let number_width = (found.lines.last().copied().unwrap_or(0) + 1)
        .to_string()
        .len()
        .max(4);
    let column = (body.width as usize).saturating_sub(number_width + 6) / 2;
    let height = body.height as usize;
    let Some(first_line) = height.checked_sub(1) else {
        return;
    };
    let cursor = found.lines.partition_point(|&n| n < app.doc.line);
    let first = window_start(cursor.min(count - 1), first_line, count);
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{:>number_width$} │ ", "line"), theme.dim),
        Span::styled(format!("{:<column$}", "before"), theme.label),
        Span::styled(" │ ", theme.dim),
        Span::styled("after", theme.label),
    ])];
    for &n in found.lines.iter().skip(first).take(first_line) {
        let mut spans = vec![Span::styled(
            format!("{:>number_width$} │ ", n + 1),
            theme.dim,
        )];
        match app.doc.lines.line(n) {
            Some(text) if text.len() <= SYNC_BYTES => {
                let (before, after) =
                    before_after(&text, &run.old.tokenize(&text), &run.new.tokenize(&text));
                spans.extend(side(&before, column, true, theme));
                spans.push(Span::styled(" │ ", theme.dim));
                spans.extend(side(&after, column, false, theme));
            }
            Some(_) => spans.push(Span::styled(
                "a long line: ]c shows it in the rows",
                theme.dim,
            )),
            None => spans.push(Span::styled("no longer in the text", theme.dim)),
        }
        let line = Line::from(spans);
        lines.push(if n == app.doc.line {
            line.style(theme.cursor_line)
        } else {
            line
        });
    }
    frame.render_widget(Paragraph::new(lines), body);
}

/// One side's tokens joined by `·`, clipped and (on the left) padded to `width` columns;
/// tokens the other side lacks in the disagreement style.
fn side(tokens: &Side, width: usize, pad: bool, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut used = 0;
    for (i, (form, differs)) in tokens.iter().enumerate() {
        let sep = if i == 0 { "" } else { "·" };
        let shown = clip(form, width.saturating_sub(used + sep.width()));
        if shown.is_empty() && !form.is_empty() {
            break;
        }
        used += sep.width() + shown.width();
        spans.push(Span::styled(sep, theme.dim));
        let style = if *differs {
            theme.disagree
        } else {
            Style::new()
        };
        spans.push(Span::styled(shown, style));
    }
    if pad {
        spans.push(Span::raw(" ".repeat(width.saturating_sub(used))));
    }
    spans
}
