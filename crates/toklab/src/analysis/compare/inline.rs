//! A boundary diff written into the text itself, one line per compared tokenizer, so a
//! disagreement reads in place:
//!
//! - `|` a boundary only the compared tokenizer has (it splits where the reference does not),
//! - `‿` a boundary only the reference has (the compared tokenizer joins there),
//! - `[-…-]` text only the reference's tokens cover, `{+…+}` text only the compared one's,
//! - `⟨form⟩` after a token: the compared tokenizer's rewritten form, `⟦form⟧` the reference's.
//!
//! With colour (a terminal, `NO_COLOR` unset) the marks are green for the compared side and
//! red for the reference side, rewritten forms yellow.

use super::boundary::{BoundaryDiff, Presence};

/// The legend for [`render_inline`]'s marks, naming the two sides.
pub fn legend(reference: &str) -> String {
    format!(
        "| boundary only in the tokenizer shown, ‿ boundary only in {reference}, \
         [-…-] text only {reference} covers, {{+…+}} text only the tokenizer shown covers, \
         ⟨form⟩ its rewritten form, ⟦form⟧ the rewritten form of {reference}"
    )
}

/// `text` with the marks of `diff` inserted (side A the reference, side B the tokenizer shown).
pub fn render_inline(text: &str, diff: &BoundaryDiff, colour: bool) -> String {
    // (byte, order at that byte, mark): closing marks before boundaries before opening marks.
    let mut marks: Vec<(usize, u8, String)> = Vec::new();
    let paint = |mark: String, side: Presence| -> String {
        if !colour {
            return mark;
        }
        let code = match side {
            Presence::OnlyB => "32",
            Presence::OnlyA => "31",
            Presence::Both => "33",
        };
        format!("\x1b[{code}m{mark}\x1b[0m")
    };
    for boundary in &diff.boundaries {
        let mark = match boundary.side {
            Presence::Both => continue,
            Presence::OnlyB => "|",
            Presence::OnlyA => "‿",
        };
        marks.push((boundary.at, 1, paint(mark.to_string(), boundary.side)));
    }
    for coverage in &diff.coverage {
        let (open, close) = match coverage.side {
            Presence::OnlyA => ("[-", "-]"),
            _ => ("{+", "+}"),
        };
        marks.push((
            coverage.span.start,
            2,
            paint(open.to_string(), coverage.side),
        ));
        marks.push((
            coverage.span.end,
            0,
            paint(close.to_string(), coverage.side),
        ));
    }
    for rewrite in &diff.rewrites {
        let form = crate::analysis::align::display_label(&rewrite.rewrite.form);
        let mark = match rewrite.side {
            Presence::OnlyA => format!("⟦{form}⟧"),
            _ => format!("⟨{form}⟩"),
        };
        marks.push((rewrite.rewrite.span.end, 0, paint(mark, Presence::Both)));
    }
    marks.sort_by_key(|&(byte, order, _)| (byte, order));
    let mut out = String::with_capacity(text.len() + marks.len() * 4);
    let mut at = 0;
    for (byte, _, mark) in marks {
        out.push_str(&text[at..byte]);
        out.push_str(&mark);
        at = byte;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::word_tokens as tokens;

    #[test]
    fn marks_in_place() {
        let text = "dogs! New York";
        let reference = tokens(&[(0, 5), (6, 9), (10, 14)]);
        let shown = tokens(&[(0, 4), (4, 5), (6, 14)]);
        let diff = BoundaryDiff::new(text, &reference, &shown);
        assert_eq!(render_inline(text, &diff, false), "dogs|! New ‿York");
        let coloured = render_inline(text, &diff, true);
        assert!(coloured.contains("\x1b[32m|\x1b[0m") && coloured.contains("\x1b[31m‿"));
    }

    #[test]
    fn dropped_text_and_rewrites() {
        let text = "I won't!";
        let reference = tokens(&[(0, 1), (2, 7), (7, 8)]);
        let mut shown = tokens(&[(0, 1), (2, 4), (4, 7)]);
        shown.tokens[1] = shown.tokens[1].clone().with_form("will");
        let diff = BoundaryDiff::new(text, &reference, &shown);
        assert_eq!(render_inline(text, &diff, false), "I wo⟨will⟩|n't[-!-]");
        let diff = BoundaryDiff::new(text, &shown, &reference);
        assert_eq!(render_inline(text, &diff, false), "I wo⟦will⟧‿n't{+!+}");
    }
}
