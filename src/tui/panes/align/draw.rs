//! The alignment view: the selected row (A) against another (B) on the current line, as a
//! token alignment coloured by operation, or as the character-level DP matrix of the selected
//! pair or the whole line with the backtrace marked, filled cell by cell on request.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use crate::tui::panes::Context;
use crate::tui::panes::{AlignData, AlignPane, MatrixView};
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::analysis::align::Op;
use toklab::core::tokenizer::quote;

/// Draws the alignment pane: the token alignment, or the DP matrix.
pub fn draw(frame: &mut Frame, area: Rect, pane: &AlignPane, cx: &Context, theme: &Theme) {
    if let Some(typed) = &pane.typed {
        match typed.view() {
            Some(Ok(view)) => draw_matrix(frame, area, pane, "typed words".into(), view, theme),
            Some(Err(refused)) => frame.render_widget(
                Paragraph::new(Line::styled(refused.clone(), theme.error))
                    .wrap(ratatui::widgets::Wrap { trim: true }),
                area,
            ),
            None => {}
        }
        return;
    }
    let Some(data) = pane.data(cx) else {
        let a = cx.rows.selected;
        let failed = super::other_row(&pane.choice, a, cx.rows.len())
            .and_then(|b| super::failed_row(cx, a, b));
        let hint = if cx.rows.len() < 2 {
            "an alignment needs two rows: a adds a tokenizer".to_string()
        } else if cx.rows.own_texts() {
            "a conversation: each row tokenizes its own model's prompt, so the rows share no text to align (D still aligns two words you type)".to_string()
        } else if let Some(row) = failed {
            format!(
                "{} failed to load, so it is not aligned (b or another row: choose another pair)",
                cx.rows[row].setup.label
            )
        } else {
            "aligning…".to_string()
        };
        frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim)), area);
        return;
    };
    match (&data.matrix, &data.refused) {
        (Some(matrix), _) => {
            let [a, b] = [data.a, data.b].map(|row| cx.rows[row].setup.label.as_str());
            let who = format!("A {a} rows, B {b} columns");
            draw_matrix(frame, area, pane, who, matrix, theme)
        }
        (None, Some(refused)) => frame.render_widget(
            Paragraph::new(Line::styled(refused.clone(), theme.error))
                .wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        ),
        (None, None) if pane.choice.by_spans => {
            super::draw_spans::draw(frame, area, pane, cx, data, theme)
        }
        (None, None) => draw_tokens(frame, area, pane, cx, data, theme),
    }
}

/// The style of an operation: matches quiet, the edits in colour.
pub fn op_style(op: Op, theme: &Theme) -> Style {
    match op {
        Op::Match => theme.dim,
        Op::Sub => theme.key,
        Op::Ins => theme.label,
        Op::Del => theme.error,
    }
}

fn op_mark(op: Op) -> &'static str {
    match op {
        Op::Match => "=",
        Op::Sub => "s",
        Op::Ins => "i",
        Op::Del => "d",
    }
}

fn draw_tokens(
    frame: &mut Frame,
    area: Rect,
    pane: &AlignPane,
    cx: &Context,
    data: &AlignData,
    theme: &Theme,
) {
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let (a, b) = (&cx.rows[data.a], &cx.rows[data.b]);
    let (m, s, i, d) = data.tokens.counts();
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("A {} ", a.setup.label), theme.selected_label),
            Span::raw(" vs "),
            Span::styled(format!(" B {} ", b.setup.label), theme.selected_tab),
            Span::raw(format!("  distance {} · ", data.tokens.cost)),
            Span::styled(format!("{m} match "), op_style(Op::Match, theme)),
            Span::styled(format!("{s} sub "), op_style(Op::Sub, theme)),
            Span::styled(format!("{i} ins "), op_style(Op::Ins, theme)),
            Span::styled(format!("{d} del"), op_style(Op::Del, theme)),
            Span::styled("   b other row · Enter matrix", theme.dim),
        ])),
        head,
    );
    let pairs = &data.tokens.pairs;
    if pairs.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("no tokens on this line", theme.dim)),
            body,
        );
        return;
    }
    let height = body.height as usize;
    let cursor = pane.cursor.min(pairs.len() - 1);
    let first = window_start(cursor, height, pairs.len());
    let column = (body.width as usize).saturating_sub(4) / 2;
    let lines: Vec<Line> = pairs[first..(first + height).min(pairs.len())]
        .iter()
        .enumerate()
        .map(|(k, pair)| {
            let form = |row: &crate::tui::app::Row, i: Option<usize>| {
                i.and_then(|i| row.tokens.tokens.get(i))
                    .map_or(String::new(), |t| quote(t.form(cx.text())))
            };
            let style = op_style(pair.op, theme);
            let sides = (form(a, pair.a), form(b, pair.b));
            pair_line(
                op_mark(pair.op),
                sides,
                column,
                style,
                first + k == cursor,
                theme,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
}

/// One line of a two-column alignment: its mark, the left side clipped and padded to
/// `column`, the right side clipped; the cursor's line highlighted.
pub fn pair_line(
    mark: &str,
    (left, right): (String, String),
    column: usize,
    style: Style,
    is_cursor: bool,
    theme: &Theme,
) -> Line<'static> {
    let left = crate::tui::view::text::clip(&left, column);
    let right = crate::tui::view::text::clip(&right, column);
    let pad = column.saturating_sub(left.width());
    let line = Line::from(vec![
        Span::styled(format!(" {mark} "), style),
        Span::styled(format!("{left}{}", " ".repeat(pad)), style),
        Span::raw(" "),
        Span::styled(right, style),
    ]);
    if is_cursor {
        line.style(theme.cursor_line)
    } else {
        line
    }
}

/// The matrix with its head; `who` says where its rows and columns come from.
fn draw_matrix(
    frame: &mut Frame,
    area: Rect,
    pane: &AlignPane,
    who: String,
    view: &MatrixView,
    theme: &Theme,
) {
    // In a low pane the key hints give way to the matrix's `#` row (the demo's explanation
    // stays).
    let explain_height = u16::from(view.last.is_some() || area.height >= 5);
    let [head, step_line, grid] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(explain_height),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_matrix_head(frame, [head, step_line], pane, &who, view, theme);

    draw_grid(frame, grid, pane, view, theme);
}

/// The matrix's title (what is aligned, the distance, the demo's progress) and the line that
/// explains the last filled cell or the keys.
fn draw_matrix_head(
    frame: &mut Frame,
    [head, step_line]: [Rect; 2],
    pane: &AlignPane,
    who: &str,
    view: &MatrixView,
    theme: &Theme,
) {
    let what = if pane.choice.whole_line && pane.typed.is_none() {
        "the whole line".to_string()
    } else {
        format!(
            "{} vs {}",
            quote(&view.source.concat()),
            quote(&view.target.concat())
        )
    };
    let progress = match pane.choice.step {
        Some(k) => format!(" · cell {}/{}", k.min(view.cells), view.cells),
        None => String::new(),
    };
    let distance = view.matrix.distance().map_or("…".into(), |d| d.to_string());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("matrix of {what}"), theme.title),
            Span::raw(format!(" ({who}) · distance {distance}{progress}")),
        ])),
        head,
    );
    let explain = match &view.last {
        Some(step) => super::dp_text::explain_cell(
            step,
            |i, j| view.matrix.value(i, j),
            &view.source,
            &view.target,
        ),
        None => ". fills the next cell, , takes one back, p plays, f fills all, J K < > scroll, c whole line / pair, Enter tokens".into(),
    };
    frame.render_widget(Paragraph::new(Line::styled(explain, theme.dim)), step_line);
}

/// The matrix's cells around the demo's cell (or where the user scrolled), with the
/// backtrace marked.
fn draw_grid(frame: &mut Frame, grid: Rect, pane: &AlignPane, view: &MatrixView, theme: &Theme) {
    let (rows, cols) = (view.matrix.rows(), view.matrix.cols());
    // Unit costs: no value exceeds the longer side, so its digits are wide enough (reading
    // every cell of a large matrix on every frame is not needed).
    let value_width = (rows.max(cols) - 1).max(1).to_string().len();
    let cell_width = 3 + 1 + value_width;
    let head_width = view
        .source
        .iter()
        .map(|l| l.width())
        .max()
        .unwrap_or(1)
        .max(1);
    let visible_cols =
        ((grid.width as usize).saturating_sub(head_width + 1) / (cell_width + 1)).max(1);
    let visible_rows = (grid.height as usize).saturating_sub(1).max(1);
    let (row0, col0) = match (pane.choice.scroll, view.last) {
        (Some((row, col)), _) => (
            row.min(rows.saturating_sub(visible_rows)),
            col.min(cols.saturating_sub(visible_cols)),
        ),
        (None, Some(s)) => (
            window_start(s.i, visible_rows, rows),
            window_start(s.j, visible_cols, cols),
        ),
        (None, None) => (0, 0),
    };
    let on_path = |i, j| view.path.contains(&(i, j));

    let mut lines = Vec::with_capacity(visible_rows + 1);
    let mut header = vec![Span::raw(" ".repeat(head_width + 1))];
    for j in col0..(col0 + visible_cols).min(cols) {
        let label = if j == 0 {
            "#"
        } else {
            view.target[j - 1].as_str()
        };
        header.push(Span::styled(format!("{label:>cell_width$} "), theme.title));
    }
    lines.push(Line::from(header));
    for i in row0..(row0 + visible_rows).min(rows) {
        let label = if i == 0 {
            "#"
        } else {
            view.source[i - 1].as_str()
        };
        let mut spans = vec![Span::styled(format!("{label:>head_width$} "), theme.title)];
        for j in col0..(col0 + visible_cols).min(cols) {
            let text = match view.matrix.value(i, j) {
                Some(v) => format!("{}{v:>value_width$}", view.matrix.pointers(i, j).arrows()),
                None => " ".repeat(cell_width),
            };
            let text = format!("{:>cell_width$}", text);
            let style = if view.last.is_some_and(|s| (s.i, s.j) == (i, j)) {
                theme.search
            } else if on_path(i, j) {
                theme.trace_mark
            } else if view.matrix.value(i, j).is_none() {
                theme.dim
            } else {
                Style::new()
            };
            spans.push(Span::styled(text, style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), grid);
}
