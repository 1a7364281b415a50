//! Byte offsets to code point offsets: utoken and Datok count code points, our spans count
//! bytes, and the conversion must stay linear over a whole text.

/// Converts ascending byte offsets of one text to code point offsets in a single pass.
/// Asking for an offset before the previous one restarts from the beginning (still correct,
/// only slower), so callers need not guarantee order.
pub struct CodePoints<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl<'a> CodePoints<'a> {
    /// A counter at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        CodePoints {
            text,
            byte: 0,
            chars: 0,
        }
    }

    /// The code point index of byte offset `byte` (a char boundary of the text).
    pub fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.chars = 0;
        }
        self.chars += count_chars(&self.text.as_bytes()[self.byte..byte]);
        self.byte = byte;
        self.chars
    }
}

/// Counts code points in UTF-8 bytes: every byte that is not a continuation byte starts one.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The first char boundary of `text` at or after `at` (the text's length past its end): where
/// a search that starts at any byte may begin.
pub fn ceil_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// The byte offset of code point index `index` in `text` (the text's length if past the end).
pub fn byte_of_codepoint(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(b, _)| b)
}

/// Which bytes of `text` a token encodes, for views that draw by character and so cannot show
/// a piece holding part of one: `bytes 16..18 (F0 9F) — part of 👨`. Bytes on character
/// boundaries are just `bytes 16..20`. Characters are made terminal-safe.
pub fn describe_bytes(text: &str, bytes: crate::core::token::Span) -> String {
    let (start, end) = (bytes.start.min(text.len()), bytes.end.min(text.len()));
    let mut out = format!("bytes {start}..{end}");
    let cut = |at: usize| (!text.is_char_boundary(at)).then(|| char_around(text, at));
    let (first, last) = (cut(start), cut(end));
    let safe = |c: char| {
        crate::core::display::terminal_safe(&c.to_string(), crate::core::display::Keep::Nothing)
            .into_owned()
    };
    // A range inside one character: it holds neither the character's start nor its end.
    let within = |(at, c): (usize, char)| start >= at && end <= at + c.len_utf8();
    let note = match (first, last) {
        (None, None) => return out,
        (Some(a), _) | (_, Some(a)) if within(a) => format!("part of {}", safe(a.1)),
        (Some(a), Some(b)) => format!("the end of {} and the start of {}", safe(a.1), safe(b.1)),
        (Some(a), None) => format!("the end of {}", safe(a.1)),
        (None, Some(b)) => format!("the start of {}", safe(b.1)),
    };
    let hex: Vec<String> = text.as_bytes()[start..end]
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    out.push_str(&format!(" ({}) — ", hex.join(" ")));
    out.push_str(&note);
    out
}

/// The start and the character of the one holding byte `at` (inside it, not at its start).
fn char_around(text: &str, at: usize) -> (usize, char) {
    let mut start = at;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    (start, text[start..].chars().next().unwrap_or('\u{FFFD}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_code_points_not_bytes() {
        let text = "aé😀b";
        let mut cp = CodePoints::new(text);
        assert_eq!(cp.at(0), 0);
        assert_eq!(cp.at(1), 1);
        assert_eq!(cp.at(3), 2);
        assert_eq!(cp.at(7), 3);
        assert_eq!(cp.at(8), 4);
        assert_eq!(cp.at(3), 2, "going back restarts");
        assert_eq!(byte_of_codepoint(text, 3), 7);
        assert_eq!(byte_of_codepoint(text, 9), 8);
    }

    #[test]
    fn bytes_inside_a_character_say_which() {
        use crate::core::token::Span;
        let text = "I 👨x";
        assert_eq!(
            describe_bytes(text, Span::new(2, 4)),
            "bytes 2..4 (F0 9F) — part of 👨"
        );
        assert_eq!(
            describe_bytes(text, Span::new(1, 4)),
            "bytes 1..4 (20 F0 9F) — the start of 👨"
        );
        assert_eq!(
            describe_bytes(text, Span::new(4, 7)),
            "bytes 4..7 (91 A8 78) — the end of 👨"
        );
        assert_eq!(describe_bytes(text, Span::new(2, 6)), "bytes 2..6");
        assert_eq!(
            describe_bytes(text, Span::new(2, 3)),
            "bytes 2..3 (F0) — part of 👨"
        );
        assert_eq!(
            describe_bytes(text, Span::new(5, 6)),
            "bytes 5..6 (A8) — part of 👨"
        );
    }
}
