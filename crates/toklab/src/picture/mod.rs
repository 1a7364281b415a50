//! Pictures to take away: the side-by-side rows of a text as a standalone SVG image or HTML
//! page (no external assets, no scripts), for slides, papers and bug reports.
//!
//! Each row is a label, the row's token count and characters per token, and its tokens as
//! coloured boxes in text order. A token with an id takes one hue per id, the same in every row
//! and line, so shared vocabulary entries stand out; tokens without ids alternate two shades.
//! Whitespace shows as `␣`, `↵` and `⇥`; bytes that are not a whole character as `<0xNN>`
//! (the form the engines give them). Text a tokenizer drops is written faintly between the
//! boxes. The HTML page shows each token's id, span and kind on hover (`title` attributes);
//! the SVG carries the same in `<title>` elements.
//!
//! ```
//! use toklab::picture::{Picture, PictureLine, PictureRow};
//!
//! let ws = toklab::load("ws").unwrap();
//! let text = "a bb";
//! let tokens = ws.tokenize(text);
//! let picture = Picture {
//!     title: "example".into(),
//!     lines: vec![PictureLine {
//!         number: 1,
//!         text,
//!         rows: vec![PictureRow { label: "ws", tokens: Ok(&tokens) }],
//!     }],
//! };
//! let svg = toklab::picture::svg(&picture);
//! assert!(svg.starts_with("<svg") && svg.contains(">bb<"));
//! assert!(toklab::picture::html(&picture).contains(r#"title="bytes 2–4"#));
//! ```

mod colour;
mod html;
mod svg;

pub use html::html;
pub use svg::svg;

use crate::core::token::{Token, Tokenization};

/// What to draw: some lines of a text, each with one row per tokenizer.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    /// The heading (the input's name, say).
    pub title: String,
    /// The lines, in the order to draw them.
    pub lines: Vec<PictureLine<'a>>,
}

/// One line of the text and its rows.
#[derive(Clone, Debug)]
pub struct PictureLine<'a> {
    /// The line's number in its file (1-based), for the heading.
    pub number: usize,
    /// The line's text.
    pub text: &'a str,
    /// One row per tokenizer.
    pub rows: Vec<PictureRow<'a>>,
}

/// One tokenizer's row: its label and its tokens of the line, or why there are none.
#[derive(Clone, Debug)]
pub struct PictureRow<'a> {
    /// The row's label.
    pub label: &'a str,
    /// The tokens, or the error to show in their place.
    pub tokens: Result<&'a Tokenization, &'a str>,
}

/// What a row is drawn as, in text order: token boxes and the dropped text between them.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    /// A token: its form with whitespace made visible, its fill and border colours and the
    /// hover text.
    Token {
        shown: String,
        fill: String,
        border: String,
        about: String,
    },
    /// Text no token covers, with whitespace made visible.
    Dropped(String),
}

/// The pieces of a row: its tokens and the gaps between them.
fn pieces(text: &str, tokens: &Tokenization) -> Vec<Piece> {
    let mut pieces = Vec::with_capacity(tokens.len() * 2);
    let mut at = 0;
    for (index, token) in tokens.tokens.iter().enumerate() {
        if let Some(gap) = text.get(at..token.span.start).filter(|g| !g.is_empty()) {
            pieces.push(Piece::Dropped(visible(gap)));
        }
        let (fill, border) = colour::of(token.id, index);
        pieces.push(Piece::Token {
            shown: visible(token.form(text)),
            fill,
            border,
            about: about(token),
        });
        at = at.max(token.span.end);
    }
    if let Some(rest) = text.get(at..).filter(|r| !r.is_empty()) {
        pieces.push(Piece::Dropped(visible(rest)));
    }
    pieces
}

/// A form with whitespace and control characters made visible, so every box shows something.
fn visible(form: &str) -> String {
    if form.is_empty() {
        return "∅".to_string();
    }
    let mut shown = String::with_capacity(form.len());
    for c in form.chars() {
        match c {
            ' ' => shown.push('␣'),
            '\n' => shown.push('↵'),
            '\t' => shown.push('⇥'),
            '\r' => shown.push('␍'),
            c if crate::core::display::is_terminal_control(c) => {
                crate::core::display::picture(c, &mut shown)
            }
            c => shown.push(c),
        }
    }
    shown
}

/// A token's hover text: id, byte span and kind.
fn about(token: &Token) -> String {
    let span = format!("bytes {}–{}", token.span.start, token.span.end);
    match token.id {
        Some(id) => format!("id {id} · {span} · {}", token.kind.name()),
        None if token.kind == crate::core::token::TokenKind::Other => span,
        None => format!("{span} · {}", token.kind.name()),
    }
}

/// The row's figures beside its label: tokens and characters of the line per token.
fn figures(text: &str, tokens: &Tokenization) -> String {
    let count = tokens.len();
    let per = crate::analysis::text_chars_per_token(text, tokens);
    format!(
        "{count} token{} · {per:.2} chars/token",
        if count == 1 { "" } else { "s" }
    )
}

/// What the colours and markers mean, one sentence each.
const LEGEND: &[&str] = &[
    "Each box is a token; a token with an id has one hue per id (the same in every row and line), tokens without an id alternate two shades.",
    "␣ space · ↵ newline · ⇥ tab · <0xNN> a byte that is not a whole character · ∅ a token that covers no text.",
    "Faint text between boxes is text the tokenizer drops. Figures: tokens in the line and characters of the line per token.",
];

/// Escapes text for XML and HTML (elements and quoted attributes). Control characters become
/// pictures first: XML 1.0 forbids most C0 controls (the SVG would not parse), and a page or
/// picture should not reorder its text with bidi overrides.
fn escape(text: &str) -> String {
    let text = crate::core::display::terminal_safe(text, crate::core::display::Keep::Lines);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::token::{Span, TokenKind};

    #[test]
    fn pieces_show_tokens_with_visible_whitespace_and_the_dropped_text_between() {
        let text = "a  b\n";
        let tokens = Tokenization::new(vec![
            Token::new(Span::new(0, 1), TokenKind::Word),
            Token::new(Span::new(2, 4), TokenKind::Word).with_id(7),
        ]);
        let shown: Vec<String> = pieces(text, &tokens)
            .into_iter()
            .map(|p| match p {
                Piece::Token { shown, about, .. } => format!("[{shown}|{about}]"),
                Piece::Dropped(d) => d,
            })
            .collect();
        assert_eq!(
            shown,
            [
                "[a|bytes 0–1 · word]",
                "␣",
                "[␣b|id 7 · bytes 2–4 · word]",
                "↵"
            ]
        );
    }

    #[test]
    fn byte_tokens_keep_their_form_and_empty_forms_show_a_mark() {
        let text = "é";
        let tokens = Tokenization::new(vec![
            Token::new(Span::new(0, 0), TokenKind::Subword).with_form("<0xC3>"),
            Token::new(Span::new(0, 2), TokenKind::Subword).with_form("<0xA9>"),
        ]);
        let forms: Vec<String> = pieces(text, &tokens)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Token { shown, .. } => Some(shown),
                Piece::Dropped(_) => None,
            })
            .collect();
        assert_eq!(forms, ["<0xC3>", "<0xA9>"]);
        assert_eq!(visible(""), "∅");
        assert_eq!(visible("\u{1}x"), "␁x");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn figures_count_tokens_and_characters_per_token() {
        let ws = crate::load("ws").unwrap();
        assert_eq!(
            figures("ab cd", &ws.tokenize("ab cd")),
            "2 tokens · 2.50 chars/token"
        );
        assert_eq!(
            figures("", &Tokenization::default()),
            "0 tokens · 0.00 chars/token"
        );
    }
}
