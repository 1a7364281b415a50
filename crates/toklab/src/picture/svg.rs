//! The picture as one SVG image. Text widths are estimated from a monospaced font's cell
//! (display width from `unicode-width`: CJK characters take two cells), so boxes fit their
//! forms without measuring fonts; rows wrap at a fixed width.

use std::fmt::Write;

use unicode_width::UnicodeWidthStr;

use super::{LEGEND, Picture, PictureRow, Piece, escape, figures, pieces};

const MARGIN: f64 = 16.0;
/// Width of one monospaced cell at [`FONT`] pixels, and at [`SMALL`] pixels.
const CELL: f64 = 8.4;
const SMALL_CELL: f64 = 6.6;
const FONT: u32 = 14;
const SMALL: u32 = 11;
/// Room for the token boxes of a row before it wraps.
const CONTENT: f64 = 900.0;
const BOX_HEIGHT: f64 = 22.0;
const BOX_PAD: f64 = 4.0;
const GAP: f64 = 3.0;
/// Height of one wrapped line of boxes.
const LINE: f64 = 28.0;
/// A row is at least this tall: its label and its figures below.
const ROW_MIN: f64 = 38.0;
const FONTS: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";

/// The picture as a standalone SVG document.
pub fn svg(picture: &Picture) -> String {
    let label_column = label_column(picture);
    let left = MARGIN + label_column;
    let mut body = String::new();
    let mut y = MARGIN;
    let mut widest = 0.0f64;
    heading(&mut body, MARGIN, y + 16.0, 16, "bold", &picture.title);
    y += 30.0;
    for line in &picture.lines {
        let preview: String = line.text.chars().take(110).collect();
        let more = if preview.len() < line.text.len() {
            "…"
        } else {
            ""
        };
        heading(
            &mut body,
            MARGIN,
            y + 14.0,
            13,
            "normal",
            &format!("line {}: {preview}{more}", line.number),
        );
        y += 24.0;
        for row in &line.rows {
            let (height, used) = draw_row(&mut body, line.text, row, left, y);
            widest = widest.max(used);
            y += height + 6.0;
        }
        y += 10.0;
    }
    for sentence in LEGEND {
        text(
            &mut body,
            MARGIN,
            y + 12.0,
            12,
            "#444444",
            sentence,
            "normal",
        );
        widest = widest.max(sentence.width() as f64 * 7.2 - label_column);
        y += 18.0;
    }
    let width = (left + widest.max(200.0) + MARGIN).ceil();
    let height = (y + MARGIN).ceil();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"{FONTS}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{body}</svg>\n"
    )
}

/// The width of the labels' column: the widest row label or figures line, and room after it.
fn label_column(picture: &Picture) -> f64 {
    picture
        .lines
        .iter()
        .flat_map(|line| {
            line.rows.iter().map(|row| {
                let figures = row
                    .tokens
                    .map(|t| figures(line.text, t))
                    .unwrap_or_default();
                (row.label.width() as f64 * CELL).max(figures.width() as f64 * SMALL_CELL)
            })
        })
        .fold(40.0, f64::max)
        + 16.0
}

/// Draws one row of a line from `top`: its label (and figures) in the margin, its tokens'
/// boxes or its error from `left`; returns the height taken and the width used after `left`.
fn draw_row(body: &mut String, line: &str, row: &PictureRow, left: f64, top: f64) -> (f64, f64) {
    text(body, MARGIN, top + 16.0, FONT, "#222222", row.label, "bold");
    match row.tokens {
        Err(error) => {
            text(body, left, top + 16.0, FONT, "#b00020", error, "normal");
            (ROW_MIN, error.width() as f64 * CELL)
        }
        Ok(tokens) => {
            let figures = figures(line, tokens);
            text(
                body,
                MARGIN,
                top + 31.0,
                SMALL,
                "#666666",
                &figures,
                "normal",
            );
            let (height, used) = boxes(body, left, top, &pieces(line, tokens));
            (height.max(ROW_MIN), used)
        }
    }
}

/// Draws a row's pieces from (`left`, `top`), wrapping at [`CONTENT`]; returns the height
/// taken and the widest line's width.
fn boxes(out: &mut String, left: f64, top: f64, pieces: &[Piece]) -> (f64, f64) {
    let mut x = 0.0;
    let mut y = top + 3.0;
    let mut widest = 0.0f64;
    for piece in pieces {
        let (shown, boxed) = match piece {
            Piece::Token { shown, .. } => (shown, true),
            Piece::Dropped(shown) => (shown, false),
        };
        let width = shown.width() as f64 * CELL + if boxed { 2.0 * BOX_PAD } else { 2.0 };
        if x > 0.0 && x + width > CONTENT {
            x = 0.0;
            y += LINE;
        }
        let baseline = y + 16.0;
        match piece {
            Piece::Token {
                shown,
                fill,
                border,
                about,
            } => {
                let _ = writeln!(
                    out,
                    "<g><title>{}</title><rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{width:.1}\" \
                     height=\"{BOX_HEIGHT}\" rx=\"3\" fill=\"{fill}\" stroke=\"{border}\"/>\
                     <text x=\"{:.1}\" y=\"{baseline:.1}\" font-size=\"{FONT}\" fill=\"#111111\">{}</text></g>",
                    escape(about),
                    left + x,
                    left + x + BOX_PAD,
                    escape(shown)
                );
            }
            Piece::Dropped(shown) => text(
                out,
                left + x + 1.0,
                baseline,
                FONT,
                "#aaaaaa",
                shown,
                "normal",
            ),
        }
        x += width + GAP;
        widest = widest.max(x);
    }
    (y + LINE - top, widest)
}

fn text(out: &mut String, x: f64, y: f64, size: u32, colour: &str, content: &str, weight: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" font-weight=\"{weight}\" \
         fill=\"{colour}\">{}</text>",
        escape(content)
    );
}

fn heading(out: &mut String, x: f64, y: f64, size: u32, weight: &str, content: &str) {
    text(out, x, y, size, "#000000", content, weight);
}

#[cfg(test)]
mod tests {
    use super::super::{PictureLine, PictureRow};
    use super::*;

    fn picture_of<'a>(text: &'a str, rows: Vec<PictureRow<'a>>) -> Picture<'a> {
        Picture {
            title: "t <&>".into(),
            lines: vec![PictureLine {
                number: 3,
                text,
                rows,
            }],
        }
    }

    #[test]
    fn one_box_per_token_with_its_hover_text_and_escaped_forms() {
        let ws = crate::load("ws").unwrap();
        let text = "a <b> c";
        let tokens = ws.tokenize(text);
        let svg = svg(&picture_of(
            text,
            vec![
                PictureRow {
                    label: "ws",
                    tokens: Ok(&tokens),
                },
                PictureRow {
                    label: "broken",
                    tokens: Err("cannot open x"),
                },
            ],
        ));
        assert_eq!(
            svg.matches("<rect ").count(),
            1 + 3,
            "background and 3 boxes"
        );
        assert!(svg.contains(">&lt;b&gt;</text>"), "{svg}");
        assert!(svg.contains("<title>bytes 2–5 · word</title>"), "{svg}");
        assert!(svg.contains(">line 3: a &lt;b&gt; c</text>"));
        assert!(svg.contains(">cannot open x</text>"));
        assert!(svg.contains(">t &lt;&amp;&gt;</text>"));
        assert!(svg.contains("3 tokens · 2.33 chars/token"));
    }

    #[test]
    fn long_rows_wrap_and_the_image_grows_downwards() {
        let ws = crate::load("ws").unwrap();
        let short = "word ".repeat(3);
        let long = "word ".repeat(300);
        let height = |text: &str| {
            let tokens = ws.tokenize(text);
            let svg = svg(&picture_of(
                text,
                vec![PictureRow {
                    label: "ws",
                    tokens: Ok(&tokens),
                }],
            ));
            let at = svg.find("height=\"").unwrap() + 8;
            svg[at..at + svg[at..].find('"').unwrap()]
                .parse::<f64>()
                .unwrap()
        };
        assert!(height(&long) > height(&short) + 10.0 * LINE);
    }
}
