//! Token ids in the rows (Tiktokenizer's view): a hue per id, the same in every row and on
//! every line, over the forms or with the ids listed instead of them, and each row's token
//! count and characters per token.

use ratatui::style::{Color, Style};
use ratatui::text::Span;
use unicode_width::UnicodeWidthStr;

use crate::tui::app::Row;
use crate::tui::theme::Theme;
use toklab::core::token::Token;

/// Background colours (xterm-256) far enough apart to tell neighbours apart, dark enough for
/// white text.
const HUES: [u8; 16] = [
    24, 28, 52, 54, 58, 88, 90, 94, 130, 124, 22, 25, 53, 57, 95, 31,
];

/// Which hue a token takes: by its id, or by its form when the tokenizer gives no ids (rule
/// and regex rows), so equal tokens look equal across rows.
pub fn hue_index(token: &Token, text: &str) -> usize {
    let key = match token.id {
        Some(id) => u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        None => token
            .form(text)
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            }),
    };
    ((key >> 32) % HUES.len() as u64) as usize
}

/// The style of a token in hue mode; the plain theme (no colours) keeps its shades.
pub fn hue(token: &Token, text: &str, theme: &Theme, shade: usize) -> Style {
    if theme.token[0].bg.is_none() {
        return theme.token[shade];
    }
    Style::new()
        .fg(Color::White)
        .bg(Color::Indexed(HUES[hue_index(token, text)]))
}

/// "12 tokens · 3.4 ch/token": the row's count and characters per token on this line.
pub fn row_figures(row: &Row, text: &str) -> String {
    let tokens = row.tokens.len();
    let per = toklab::analysis::text_chars_per_token(text, &row.tokens);
    format!(
        "{} · {per:.1} ch/token",
        crate::counted::counted(tokens, "token")
    )
}

/// The row as its ids (or `·form·` for a token without one), each in its hue, after the row's
/// figures, cut to `columns` wide; `with_forms` puts each token's form (spaces as `␣`) before
/// its id, so a form and its id are read together.
pub fn id_cells(
    row: &Row,
    text: &str,
    selected: Option<usize>,
    columns: usize,
    with_forms: bool,
    theme: &Theme,
) -> Vec<Span<'static>> {
    // The figures take the width of the largest a line this long can have (a token per byte,
    // every character in one token), so the ids start in the same column in every row and do
    // not move when a count gains a digit.
    let reserved = format!(
        "{} tokens · {:.1} ch/token",
        text.len().max(1),
        text.chars().count().max(1) as f64
    )
    .width();
    let figures = row_figures(row, text);
    let mut spans = vec![Span::styled(format!("{figures:>reserved$} │"), theme.dim)];
    let mut used = spans[0].width();
    for (i, token) in row.tokens.tokens.iter().enumerate() {
        let (form, id) = match token.id {
            Some(id) if with_forms => (Some(visible_form(token.form(text))), id.to_string()),
            Some(id) => (None, id.to_string()),
            None => (None, toklab::core::tokenizer::quote(token.form(text))),
        };
        let form_width = form.as_deref().map_or(0, crate::tui::width::of_str);
        let width = form_width + usize::from(form.is_some()) + id.width() + 1;
        if used + width > columns {
            spans.push(Span::styled("…", theme.dim));
            break;
        }
        used += width;
        spans.push(Span::raw(" "));
        let style = if Some(i) == selected {
            theme.selected_token
        } else {
            hue(token, text, theme, i % 2)
        };
        match form {
            Some(form) => spans.push(Span::styled(format!("{form}·{id}"), style)),
            None => spans.push(Span::styled(id, style)),
        }
    }
    spans
}

/// A token's form as the forms-and-ids rows show it: spaces as `␣`, line breaks as `␤`, and
/// anything a terminal would act on escaped.
fn visible_form(form: &str) -> String {
    let shown = form.replace(' ', "␣").replace('\n', "␤");
    toklab::core::display::terminal_safe(&shown, toklab::core::display::Keep::Nothing).into_owned()
}
