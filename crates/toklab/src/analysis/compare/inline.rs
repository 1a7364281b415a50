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
use crate::core::display::{Keep, terminal_safe};

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
    for (end, side, form) in shown_rewrites(&diff.rewrites) {
        let form = crate::analysis::align::display_label(&form);
        let mark = match side {
            Presence::OnlyA => format!("⟦{form}⟧"),
            _ => format!("⟨{form}⟩"),
        };
        marks.push((end, 0, paint(mark, Presence::Both)));
    }
    marks.sort_by_key(|&(byte, order, _)| (byte, order));
    let mut out = String::with_capacity(text.len() + marks.len() * 4);
    let mut at = 0;
    // The text is the user's input, shown on a terminal: its control characters become
    // pictures (one line per text, so line breaks too), piece by piece between the marks.
    for (byte, _, mark) in marks {
        out.push_str(&terminal_safe(&text[at..byte], Keep::Nothing));
        out.push_str(&mark);
        at = byte;
    }
    out.push_str(&terminal_safe(&text[at..], Keep::Nothing));
    out
}

/// The rewritten forms as the inline diff shows them, as (byte the mark follows, side, form).
/// Byte-level models spell a character they have no piece for in pieces of its bytes, which
/// toklab writes `<0xE8>` (`<0xE8><0x8B>` for two; GPT-2 and byte-fallback vocabularies
/// alike). A piece whose bytes spell whole characters shows them; a run of one side's pieces
/// that starts inside a character is shown once, after its last piece, as the characters it
/// completes, with the bytes of any it does not complete written together.
fn shown_rewrites(rewrites: &[super::boundary::RewriteDiff]) -> Vec<(usize, Presence, String)> {
    use crate::core::trace::render_bytes;
    let mut sorted: Vec<_> = rewrites.iter().collect();
    sorted.sort_by_key(|r| {
        (
            r.side != Presence::OnlyA,
            r.rewrite.span.start,
            r.rewrite.span.end,
        )
    });
    let mut out = Vec::new();
    // The open run: its side, the byte its mark follows, its bytes so far.
    let mut run: Option<(Presence, usize, Vec<u8>)> = None;
    for r in sorted {
        let bytes = bytes_of_piece(&r.rewrite.form);
        let span = r.rewrite.span;
        if let (Some((side, end, so_far)), Some(bytes)) = (&mut run, &bytes)
            && *side == r.side
            && span.start <= *end
        {
            so_far.extend(bytes);
            *end = (*end).max(span.end);
            if std::str::from_utf8(so_far).is_ok() {
                out.push((*end, r.side, render_bytes(so_far)));
                run = None;
            }
            continue;
        }
        if let Some((side, end, so_far)) = run.take() {
            out.push((end, side, render_bytes(&so_far)));
        }
        match bytes {
            Some(bytes) if std::str::from_utf8(&bytes).is_err() => {
                run = Some((r.side, span.end, bytes));
            }
            Some(bytes) => out.push((span.end, r.side, render_bytes(&bytes))),
            None => out.push((span.end, r.side, r.rewrite.form.clone())),
        }
    }
    if let Some((side, end, so_far)) = run {
        out.push((end, side, render_bytes(&so_far)));
    }
    out
}

/// The bytes a form written with byte escapes stands for (`<0xB9>果` is b9 e6 9e 9c); `None`
/// for a form without any.
fn bytes_of_piece(form: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(form.len());
    let mut escaped = false;
    let mut rest = form;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("<0x")
            && let Some(hex) = after.get(..2)
            && hex.bytes().all(|b| b.is_ascii_hexdigit())
            && after[2..].starts_with('>')
        {
            bytes.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
            escaped = true;
            rest = &after[3..];
            continue;
        }
        bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        rest = &rest[c.len_utf8()..];
    }
    escaped.then_some(bytes)
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

    #[test]
    fn byte_pieces_show_as_the_characters_they_complete() {
        // 苹 is e8 8b b9: a byte-fallback model spells it in three pieces, the first over the
        // character and the others empty at its end; 果 is a piece of its own.
        let text = "苹果";
        let reference = tokens(&[(0, 6)]);
        let mut shown = tokens(&[(0, 3), (3, 3), (3, 3), (3, 6)]);
        for (i, form) in ["<0xE8>", "<0x8B>", "<0xB9>"].into_iter().enumerate() {
            shown.tokens[i] = shown.tokens[i].clone().with_form(form);
        }
        let diff = BoundaryDiff::new(text, &reference, &shown);
        assert_eq!(render_inline(text, &diff, false), "苹⟨苹⟩|果");
        // Pieces holding several bytes, and one that ends a character and holds the next.
        let mut gpt2 = tokens(&[(0, 3), (3, 6)]);
        gpt2.tokens[0] = gpt2.tokens[0].clone().with_form("<0xE8><0x8B>");
        gpt2.tokens[1] = gpt2.tokens[1].clone().with_form("<0xB9>果");
        let diff = BoundaryDiff::new(text, &reference, &gpt2);
        assert_eq!(render_inline(text, &diff, false), "苹|果⟨苹果⟩");
        // Whole characters in escapes read as the characters; other forms stay as they are.
        assert_eq!(
            bytes_of_piece("<0xE6><0x9E><0x9C>"),
            Some("果".as_bytes().to_vec())
        );
        assert_eq!(bytes_of_piece("will"), None);
        assert_eq!(bytes_of_piece("<0xZZ>"), None);
        // A run cut off inside the character keeps its bytes together.
        let mut cut = tokens(&[(0, 3), (3, 3), (3, 6)]);
        cut.tokens[0] = cut.tokens[0].clone().with_form("<0xE8>");
        cut.tokens[1] = cut.tokens[1].clone().with_form("<0x8B>");
        let diff = BoundaryDiff::new(text, &reference, &cut);
        assert_eq!(render_inline(text, &diff, false), "苹⟨<0xE8><0x8B>⟩|果");
    }
}
