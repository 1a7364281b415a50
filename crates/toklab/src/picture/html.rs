//! The picture as one HTML page: inline CSS, no scripts and no external assets, so it opens
//! anywhere and can be mailed or attached as it is. Rows wrap with the window; hovering a
//! token shows its id, span and kind (a `title` attribute).

use std::fmt::Write;

use super::{LEGEND, Picture, Piece, escape, figures, pieces};

const STYLE: &str = "\
body{font-family:sans-serif;margin:1.5em;color:#111;background:#fff}\
h1{font-size:1.2em}h2{font-size:1em;font-weight:normal;color:#333}\
table{border-collapse:collapse;margin-bottom:1.2em}\
th{text-align:left;vertical-align:top;padding:.3em 1em .3em 0;white-space:nowrap}\
th small{display:block;font-weight:normal;color:#666}\
td{padding:.3em 0}\
.tokens{display:flex;flex-wrap:wrap;gap:3px;font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}\
.t{border:1px solid;border-radius:3px;padding:1px 4px;white-space:pre}\
.d{color:#aaa;white-space:pre}\
.error{color:#b00020}\
.legend{color:#444;font-size:.9em}";

/// The picture as a standalone HTML page.
pub fn html(picture: &Picture) -> String {
    let mut out = String::new();
    let title = escape(&picture.title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    for line in &picture.lines {
        let _ = writeln!(
            out,
            "<section>\n<h2>line {}: {}</h2>\n<table>",
            line.number,
            escape(line.text)
        );
        for row in &line.rows {
            let _ = write!(out, "<tr><th>{}", escape(row.label));
            match row.tokens {
                Err(error) => {
                    let _ = writeln!(out, "</th><td class=\"error\">{}</td></tr>", escape(error));
                }
                Ok(tokens) => {
                    let _ = write!(
                        out,
                        "<small>{}</small></th><td><div class=\"tokens\">",
                        escape(&figures(line.text, tokens))
                    );
                    for piece in pieces(line.text, tokens) {
                        match piece {
                            Piece::Token {
                                shown,
                                fill,
                                border,
                                about,
                            } => {
                                let _ = write!(
                                    out,
                                    "<span class=\"t\" style=\"background:{fill};border-color:{border}\" \
                                     title=\"{}\">{}</span>",
                                    escape(&about),
                                    escape(&shown)
                                );
                            }
                            Piece::Dropped(shown) => {
                                let _ = write!(
                                    out,
                                    "<span class=\"d\" title=\"dropped\">{}</span>",
                                    escape(&shown)
                                );
                            }
                        }
                    }
                    let _ = writeln!(out, "</div></td></tr>");
                }
            }
        }
        let _ = writeln!(out, "</table>\n</section>");
    }
    let _ = writeln!(out, "<div class=\"legend\">");
    for sentence in LEGEND {
        let _ = writeln!(out, "<p>{}</p>", escape(sentence));
    }
    let _ = writeln!(out, "</div>\n</body>\n</html>");
    out
}

#[cfg(test)]
mod tests {
    use super::super::{PictureLine, PictureRow};
    use super::*;

    #[test]
    fn tokens_carry_their_ids_on_hover_and_the_page_needs_nothing_else() {
        let text = "ab c";
        let tokens = crate::core::token::Tokenization::new(vec![
            crate::core::token::Token::new(
                crate::core::token::Span::new(0, 2),
                crate::core::token::TokenKind::Subword,
            )
            .with_id(12),
            crate::core::token::Token::new(
                crate::core::token::Span::new(2, 4),
                crate::core::token::TokenKind::Subword,
            )
            .with_id(99),
        ]);
        let page = html(&Picture {
            title: "x".into(),
            lines: vec![PictureLine {
                number: 1,
                text,
                rows: vec![
                    PictureRow {
                        label: "m<1>",
                        tokens: Ok(&tokens),
                    },
                    PictureRow {
                        label: "n",
                        tokens: Err("no such file"),
                    },
                ],
            }],
        });
        assert!(
            page.contains("title=\"id 12 · bytes 0–2 · subword\">ab</span>"),
            "{page}"
        );
        assert!(page.contains("title=\"id 99 · bytes 2–4 · subword\">␣c</span>"));
        assert!(page.contains("<th>m&lt;1&gt;<small>2 tokens · 2.00 chars/token</small>"));
        assert!(page.contains("<td class=\"error\">no such file</td>"));
        for outside in ["<script", "src=", "href=", "@import", "url("] {
            assert!(!page.contains(outside), "{outside} in {page}");
        }
    }
}
