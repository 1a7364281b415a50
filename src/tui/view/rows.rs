//! The side-by-side pane: the current line once as a ruler, then one row per tokenizer with
//! its tokens coloured in alternation, columns aligned by offsets, and the selected token's
//! details below. The ruler also carries the marks of the other views: search matches, the
//! selected trace line's span and the spans a trace marks as backtracks.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};
use unicode_width::UnicodeWidthStr;

use super::Regions;
use crate::tui::app::{App, IdsMode, Mode, Row};
use crate::tui::layout::{Cell, LineLayout};
use crate::tui::panes::{Mark, View};
use crate::tui::theme::Theme;
use toklab::core::offsets::CodePoints;
use toklab::core::token::Span as ByteSpan;
use toklab::core::token::TokenKind;
use toklab::core::tokenizer::quote;

/// The label column takes at most a quarter of the pane, and never less than this: labels are
/// short (`toklab::core::label`), and a long one is clipped rather than squeezing the tokens.
const MIN_LABEL_CAP: usize = 12;

/// Draws the pane; returns how many token columns fit.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    theme: &Theme,
    regions: &mut Regions,
) -> usize {
    let editing = matches!(app.mode, Mode::Insert { .. });
    // A right-to-left line is drawn in logical order (its first letter leftmost), which keeps
    // every row's tokens under the same characters; the title says so, and the ruler's label
    // points the way the line reads.
    let rtl = is_right_to_left(&app.doc.text);
    let title = match &app.chat {
        Some(chat) => chat_title(app, chat, editing),
        None => format!(
            " line {}{} · {}{} ",
            app.doc.line + 1,
            if editing { " · INSERT" } else { "" },
            crate::counted::counted(app.rows.len(), "tokenizer"),
            if rtl {
                " · right-to-left, in logical order (read ⇐ from the left edge)"
            } else {
                ""
            }
        ),
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.focused_border)
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let label_width = app
        .rows
        .iter()
        .map(|r| r.setup.label.width() + 1 + usize::from(r.pinned) + template_note(r).width())
        .max()
        .unwrap_or(4)
        .clamp(4, (inner.width as usize / 4).max(MIN_LABEL_CAP));
    // A conversation's rows are compared by their counts: a column of them after the labels.
    let counts = app.chat.is_some().then(|| count_column(app));
    let count_width = counts.as_ref().map_or(0, |(width, _)| width + 1);
    let columns = (inner.width as usize).saturating_sub(label_width + 1 + count_width);
    let window = app.rows.hscroll..app.rows.hscroll + columns;

    let mut lines = Vec::with_capacity(app.rows.len() + 3);
    lines.push(first_line(
        app,
        counts.as_ref(),
        label_width,
        &window,
        theme,
    ));
    let cx = app.context();
    let row_b = app.panes.current().paired_row(&cx);
    for (index, row) in app.rows.iter().enumerate() {
        let style = label_style(row, index == app.rows.selected, row_b == Some(index), theme);
        let label = pad(&format!("{}{}", row.setup.label, marker(row)), label_width);
        let mut body = row_body(app, index, &window, theme);
        if let Some((width, counts)) = &counts {
            body.insert(
                0,
                Span::styled(format!("{:>width$} ", counts[index]), theme.title),
            );
        }
        lines.push(labelled(label, style, body));
    }
    lines.extend(details(app, theme));
    crate::tui::width::render_lines(&lines, inner, frame.buffer_mut());

    regions.labels = Rect {
        width: label_width as u16,
        ..inner
    };
    regions.align_view = app.panes.current == View::Align;
    regions.rows = Rect {
        x: inner.x + (label_width + 1 + count_width) as u16,
        width: columns as u16,
        ..inner
    };
    regions.first_row_y = inner.y + 1;
    regions.hscroll = app.rows.hscroll;
    regions.row_count = app.rows.len();

    if let Mode::Insert { caret } = app.mode {
        // The ruler shows the line being edited (in a conversation too) right after the labels.
        let column = app.doc.layout.column_of_byte(caret);
        if column >= window.start && column <= window.end && inner.height > 0 {
            let x = inner.x + (label_width + 1 + column - window.start) as u16;
            frame.set_cursor_position(Position::new(
                x.min(inner.x + inner.width.saturating_sub(1)),
                inner.y,
            ));
        }
    }
    columns
}

/// The line above the rows: the current line (the one being edited, in a conversation too),
/// or over a conversation's rows the head of their count column.
fn first_line(
    app: &App,
    counts: Option<&(usize, Vec<String>)>,
    label_width: usize,
    window: &std::ops::Range<usize>,
    theme: &Theme,
) -> Line<'static> {
    match counts {
        Some((width, _)) if !matches!(app.mode, Mode::Insert { .. }) => {
            let head = vec![
                Span::styled(format!("{:>width$} ", "tokens"), theme.dim),
                Span::styled(
                    "each row: its model's prompt (specials reversed)",
                    theme.dim,
                ),
            ];
            labelled(pad("", label_width), theme.dim, head)
        }
        _ => {
            let label = if is_right_to_left(&app.doc.text) {
                "text ⇐"
            } else {
                "text"
            };
            labelled(
                pad(label, label_width),
                theme.dim,
                ruler(app, window, theme),
            )
        }
    }
}

/// The text line above the rows, with the pane's marks and search matches.
fn ruler(app: &App, window: &std::ops::Range<usize>, theme: &Theme) -> Vec<Span<'static>> {
    let marks = ruler_marks(app);
    visible_cells(&app.doc.layout, window)
        .map(|cell| {
            let base = if cell.is_space {
                theme.dropped
            } else {
                Style::new()
            };
            let style = match marks.iter().rev().find(|(span, _)| overlaps(*span, cell)) {
                Some((_, Mark::Search)) => theme.search,
                Some((_, Mark::Cursor)) => theme.trace_mark,
                Some((_, Mark::Backtrack)) => theme.backtrack,
                None => base,
            };
            Span::styled(cell.symbol(&app.doc.text).to_string(), style)
        })
        .collect()
}

/// A row label's style: the selected row's, row B's in the alignment view, or the row's colour.
fn label_style(row: &Row, selected: bool, is_b: bool, theme: &Theme) -> Style {
    match (
        selected,
        row.setup
            .colour
            .as_deref()
            .and_then(|c| c.parse::<Color>().ok()),
    ) {
        (true, _) => theme.selected_label,
        _ if is_b => theme.selected_tab,
        (false, Some(colour)) => theme.row_label(colour),
        (false, None) => theme.label,
    }
}

/// After a row's label: `*` when it is pinned for `]d`; `!` when its last reload failed, `…`
/// while its tokens are stale.
fn marker(row: &Row) -> String {
    let pin = if row.pinned { "*" } else { "" };
    format!("{pin}{}{}", state_marker(row), template_note(row))
}

/// After the label of a conversation's row whose model has no chat template.
fn template_note(row: &Row) -> &'static str {
    if row.lacks_template() {
        " (no template)"
    } else {
        ""
    }
}

/// The rows pane's title over a conversation: its size and the generation-prompt choice.
fn chat_title(app: &App, chat: &crate::tui::app::chat::ChatDoc, editing: bool) -> String {
    let messages = chat.messages().map_or("cannot be read".to_string(), |n| {
        crate::counted::counted(n, "message")
    });
    let prompt = if chat.generation_prompt { "on" } else { "off" };
    format!(
        " conversation · {messages} · generation prompt {prompt} (Ctrl-g){} · {} ",
        if editing { " · INSERT" } else { "" },
        crate::counted::counted(app.rows.len(), "tokenizer"),
    )
}

/// Every row's token count as the count column shows it, and the column's width.
fn count_column(app: &App) -> (usize, Vec<String>) {
    let counts: Vec<String> = app
        .rows
        .iter()
        .map(|row| {
            if row.is_loading() || row.stale {
                "…".to_string()
            } else if row.error().is_some() || row.own_error().is_some() {
                "-".to_string()
            } else {
                row.tokens.len().to_string()
            }
        })
        .collect();
    let width = counts
        .iter()
        .map(|c| c.width())
        .fold("tokens".len(), usize::max);
    (width, counts)
}

fn state_marker(row: &Row) -> &'static str {
    if row.reload_error.is_some() {
        "!"
    } else if row.stale {
        "…"
    } else {
        ""
    }
}

/// A row's cells: its tokens (or ids), or why there are none yet.
fn row_body(
    app: &App,
    index: usize,
    window: &std::ops::Range<usize>,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let row = &app.rows[index];
    let selected = index == app.rows.selected;
    let columns = window.len();
    if row.is_loading() {
        vec![Span::styled("loading…", theme.dim)]
    } else if row.stopped && row.stale {
        vec![Span::styled(
            "tokenizing stopped (Esc): edit or move to start again",
            theme.dim,
        )]
    } else if row.stale && row.tokens.is_empty() {
        vec![Span::styled(
            "tokenizing this long line… (Esc stops)",
            theme.dim,
        )]
    } else if let Some(error) = row.error().or(row.own_error()) {
        vec![Span::styled(error.to_string(), theme.error)]
    } else if let Some(error) = row.reload_error.as_deref().filter(|_| !selected) {
        // The selected row shows its last good tokens, with the whole error below the rows.
        let first = error.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        vec![Span::styled(
            format!("reload failed: {first} (select the row for its last good tokens)"),
            theme.error,
        )]
    } else if matches!(app.ids, IdsMode::Ids | IdsMode::FormsAndIds) {
        super::ids::id_cells(
            row,
            app.row_text(index),
            selected.then_some(app.rows.token).flatten(),
            columns,
            app.ids == IdsMode::FormsAndIds,
            theme,
        )
    } else {
        token_cells(
            app,
            index,
            selected.then_some(app.rows.token).flatten(),
            window,
            theme,
        )
    }
}

/// Spans of the current line to mark on the ruler, weakest first: the pane's, then search
/// matches.
fn ruler_marks(app: &App) -> Vec<(ByteSpan, Mark)> {
    let mut marks = app.panes.current().marks(&app.context());
    if let Some(search) = &app.doc.search {
        for (start, end) in crate::tui::app::search::find_in_line(&app.doc.text, &search.query) {
            marks.push((ByteSpan::new(start, end), Mark::Search));
        }
    }
    marks
}

fn overlaps(span: ByteSpan, cell: &Cell) -> bool {
    if span.is_empty() {
        // An empty span (a position) marks the cell that starts there.
        return span.start == cell.start;
    }
    span.start < cell.end && cell.start < span.end
}

fn labelled(label: String, style: Style, mut body: Vec<Span<'static>>) -> Line<'static> {
    body.insert(0, Span::styled(label, style));
    body.insert(1, Span::raw(" "));
    Line::from(body)
}

/// `label` cut or padded to exactly `width` columns.
fn pad(label: &str, width: usize) -> String {
    let clipped = super::text::clip(label, width);
    let fill = width - clipped.width();
    format!("{clipped}{}", " ".repeat(fill))
}

fn visible_cells<'a>(
    layout: &'a LineLayout,
    window: &'a std::ops::Range<usize>,
) -> impl Iterator<Item = &'a Cell> {
    layout
        .cells
        .iter()
        .filter(move |c| c.column >= window.start && c.column + c.width <= window.end)
}

/// The row's token cells in the window. Dropped whitespace right after a sentence end shows
/// `¶` instead of `·`, so sentence ends are visible without moving any column.
fn token_cells(
    app: &App,
    index: usize,
    selected: Option<usize>,
    window: &std::ops::Range<usize>,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let row = &app.rows[index];
    let ends: Vec<usize> = row
        .tokens
        .sentence_ends
        .iter()
        .map(|&t| row.tokens.tokens[t].span.end)
        .collect();
    let layout = app.row_layout(index);
    let text = app.row_text(index);
    let base = |t: usize| match app.ids {
        IdsMode::Off => theme.token[shade(row, t)],
        _ => super::ids::hue(&row.tokens.tokens[t], text, theme, shade(row, t)),
    };
    let first = layout
        .cell_at_column(window.start)
        .unwrap_or(layout.cells.len());
    layout.cells[first..]
        .iter()
        .zip(&row.owners[first.min(row.owners.len())..])
        .take_while(|(c, _)| c.column + c.width <= window.end)
        .map(|(cell, owner)| match owner {
            Some(t) if Some(*t) == selected => {
                Span::styled(cell.symbol(text).to_string(), theme.selected_token)
            }
            // The selected row has a boundary here that this row lacks.
            Some(t) if row.lacking.binary_search(&cell.start).is_ok() => Span::styled(
                cell.symbol(text).to_string(),
                super::marks::lacking(base(*t), theme),
            ),
            // A boundary this row has and the selected row lacks starts here.
            Some(t) if row.disagree.binary_search(&cell.start).is_ok() => Span::styled(
                cell.symbol(text).to_string(),
                base(*t).patch(theme.disagree),
            ),
            // A special token (`<|im_start|>`, `[CLS]`) stands out in its own shade, reversed.
            Some(t) if row.tokens.tokens[*t].kind == TokenKind::Special => Span::styled(
                cell.symbol(text).to_string(),
                base(*t).add_modifier(Modifier::BOLD | Modifier::REVERSED),
            ),
            // A token whose output form differs from its surface (won't → will) is italic.
            Some(t) if row.tokens.tokens[*t].rewritten.is_some() => Span::styled(
                cell.symbol(text).to_string(),
                base(*t).add_modifier(ratatui::style::Modifier::ITALIC),
            ),
            Some(t) => Span::styled(cell.symbol(text).to_string(), base(*t)),
            None if cell.is_space && ends.binary_search(&cell.start).is_ok() => {
                Span::styled(format!("¶{}", "·".repeat(cell.width - 1)), theme.key)
            }
            None if cell.is_space => Span::styled("·".repeat(cell.width), theme.dropped),
            None => Span::styled(cell.symbol(text).to_string(), theme.dropped),
        })
        .collect()
}

/// The colour (0 or 1) token `t` of `row` alternates with.
fn shade(row: &Row, t: usize) -> usize {
    row.shades.get(t).copied().unwrap_or(t % 2)
}

/// Two lines about the selected token (or a hint when none is selected).
fn details(app: &App, theme: &Theme) -> Vec<Line<'static>> {
    let Some(row) = app.rows.selected_row() else {
        return vec![Line::styled("no tokenizer rows: a adds one", theme.dim)];
    };
    if let Some(error) = &row.reload_error {
        return vec![
            Line::styled(
                format!(
                    "{}: reload failed, showing the last good version:",
                    row.setup.label
                ),
                theme.error,
            ),
            Line::styled(error.clone(), theme.error),
        ];
    }
    let Some(index) = app.rows.token.filter(|&t| t < row.tokens.len()) else {
        return vec![Line::from(vec![
            Span::styled(row.setup.label.clone(), theme.label),
            Span::styled(
                format!(
                    " · {} · ",
                    crate::counted::counted(row.tokens.len(), "token")
                ),
                theme.dim,
            ),
            Span::styled("←/→", theme.key),
            Span::styled(" select a token, ", theme.dim),
            Span::styled("Tab", theme.key),
            Span::styled(" another row, ", theme.dim),
            Span::styled("?", theme.key),
            Span::styled(" every key", theme.dim),
        ])];
    };
    let token = &row.tokens.tokens[index];
    let text = app.row_text(app.rows.selected);
    let mut cp = CodePoints::new(text);
    let (cs, ce) = (cp.at(token.span.start), cp.at(token.span.end));
    let mut first = vec![
        Span::styled(row.setup.label.clone(), theme.label),
        Span::styled(
            format!(" · token {}/{} ", index + 1, row.tokens.len()),
            theme.dim,
        ),
        Span::styled(quote(token.form(text)), theme.title),
    ];
    if token.rewritten.is_some() {
        first.push(Span::styled(
            format!(" from {}", quote(token.surface(text))),
            theme.dim,
        ));
    }
    let mut second = format!(
        "{} · chars {}..{} · {}",
        toklab::core::offsets::describe_bytes(text, token.bytes()),
        cs,
        ce,
        token.kind
    );
    if let Some(id) = token.id {
        second.push_str(&format!(" · id {id}"));
    }
    if row.tokens.ends_sentence(index) && !row.tokens.sentence_ends.is_empty() {
        second.push_str(" · ends a sentence");
    }
    // The origin on a line of its own: rule file:line, merge rank or automaton state is what
    // the user selected the token to see, and it is often long.
    let third = Line::from(vec![
        Span::styled("origin ", theme.dim),
        Span::styled(token.origin.to_string(), theme.label),
    ]);
    vec![Line::from(first), Line::styled(second, theme.dim), third]
}

/// Whether `line` reads right to left: its first letter of a strong direction is Hebrew,
/// Arabic, Syriac, Thaana or N'Ko (the scripts of the Unicode blocks below, with their
/// presentation forms).
pub fn is_right_to_left(line: &str) -> bool {
    line.chars().find(|c| c.is_alphabetic()).is_some_and(|c| {
        matches!(c,
                '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
    })
}
