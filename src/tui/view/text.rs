//! The text pane: the document's visible lines with line numbers, the cursor line marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};
use unicode_segmentation::UnicodeSegmentation;

use super::Regions;
use crate::tui::app::App;
use crate::tui::layout::LineLayout;
use crate::tui::theme::Theme;

/// Draws the pane; returns how many text lines fit.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    theme: &Theme,
    regions: &mut Regions,
) -> usize {
    let count = app.doc.lines.line_count();
    let title = if app.doc.lines.is_indexed() {
        format!(
            " {} · {} line{} ",
            app.doc.lines.name(),
            count,
            if count == 1 { "" } else { "s" }
        )
    } else {
        format!(
            " {} · indexing {:.0}% ",
            app.doc.lines.name(),
            app.doc.lines.progress() * 100.0
        )
    };
    // Scrolled sideways with the rows (the caret of a long line, < and >): say from where.
    let skip = app.rows.hscroll;
    let title = if skip > 0 {
        format!("{title}· from column {} ", skip + 1)
    } else {
        title
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let height = inner.height as usize;
    // Keep the cursor visible even if the pane shrank since the last key.
    let top = if app.doc.line >= app.doc.top + height.max(1) {
        app.doc.line + 1 - height.max(1)
    } else {
        app.doc.top
    };
    let number_width = (count.max(1)).to_string().len();
    let text_width = (inner.width as usize).saturating_sub(number_width + 1);
    let lines: Vec<Line> = (top..(top + height).min(count))
        .map(|n| {
            let content = app.doc.lines.line(n).unwrap_or_default();
            let number = Span::styled(format!("{:>number_width$} ", n + 1), theme.line_number);
            // The cursor line is laid out already: clip it from its cells (a long line is
            // not segmented again on every frame).
            let body = if n == app.doc.line && *content == *app.rows.line() {
                Span::raw(clip_cells(&app.doc.layout, &content, skip, text_width))
            } else {
                Span::raw(clip_from(&content, skip, text_width))
            };
            let line = Line::from(vec![number, body]);
            if n == app.doc.line {
                line.style(theme.cursor_line)
            } else {
                line
            }
        })
        .collect();
    crate::tui::width::render_lines(&lines, inner, frame.buffer_mut());
    regions.text = inner;
    regions.text_top = top;
    height
}

/// The start of `text` that fits in `width` columns, with tabs and control characters made
/// visible the same way the rows show them.
pub fn clip(text: &str, width: usize) -> String {
    clip_from(text, 0, width)
}

/// The part of `text` from display column `skip` that fits in `width` columns (a wide
/// character cut by the left edge shows as a space).
pub fn clip_from(text: &str, skip: usize, width: usize) -> String {
    let mut out = String::new();
    let (mut column, mut used) = (0, 0);
    for grapheme in text.graphemes(true) {
        let stand_in = crate::tui::layout::stand_in(grapheme);
        let shown = stand_in.as_deref().unwrap_or(grapheme);
        let w = crate::tui::width::of(shown);
        let start = column;
        column += w;
        if column <= skip {
            continue;
        }
        let (shown, w) = if start < skip {
            (" ".repeat(column - skip), column - skip)
        } else {
            (shown.to_string(), w)
        };
        if used + w > width {
            break;
        }
        out.push_str(&shown);
        used += w;
    }
    out
}

/// What `clip_from` makes of `text`, from its layout: only the cells from column `skip` on are
/// looked at.
pub fn clip_cells(layout: &LineLayout, text: &str, skip: usize, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    let first = layout.cells.partition_point(|c| c.column + c.width <= skip);
    for cell in &layout.cells[first..] {
        let (shown, w) = if cell.column < skip {
            let w = cell.column + cell.width - skip;
            (" ".repeat(w), w)
        } else {
            (cell.symbol(text).to_string(), cell.width)
        };
        if used + w > width {
            break;
        }
        out.push_str(&shown);
        used += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{clip_cells, clip_from};
    use crate::tui::layout::LineLayout;

    #[test]
    fn clipping_the_laid_out_line_matches_clipping_its_text() {
        let text = "a語b\te\u{301}\r\0c\u{85}\u{1F1E9}\u{1F1EA}x\u{200B}y";
        let layout = LineLayout::new(text);
        for skip in 0..layout.width + 2 {
            for width in 0..layout.width + 2 {
                assert_eq!(
                    clip_cells(&layout, text, skip, width),
                    clip_from(text, skip, width),
                    "from column {skip}, {width} wide"
                );
            }
        }
    }

    #[test]
    fn clipping_from_a_column_cuts_wide_characters_into_spaces() {
        assert_eq!(clip_from("abcdef", 2, 3), "cde");
        assert_eq!(clip_from("a語b", 2, 5), " b");
        assert_eq!(clip_from("a\tb", 1, 5), "→b");
    }

    #[test]
    fn control_characters_show_as_the_rows_show_them() {
        assert_eq!(clip_from("a\rb\0c\u{85}", 0, 20), "a␍b␀c⟨U+0085⟩");
        assert_eq!(clip_from("e\u{301}", 0, 5), "e\u{301}");
    }
}
