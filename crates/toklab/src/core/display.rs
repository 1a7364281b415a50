//! Making untrusted text safe to show on a terminal. Texts, rule files, tokenizer.json
//! component names and file names come from people the user may not trust; written raw they
//! could clear the screen, set the clipboard (OSC 52), retitle the window or reorder what the
//! user reads (bidi overrides). Every place that shows such text on a terminal goes through
//! [`terminal_safe`] (or [`SafeWriter`] for a stream), so there is one definition of what is
//! escaped and how it looks.
//!
//! Escaped: every C0 control (U+0000–U+001F), DEL, every C1 control (U+0080–U+009F; a UTF-8
//! terminal may read U+009B as CSI), the bidi embeddings, overrides and isolates
//! (U+202A–U+202E, U+2066–U+2069) and the invisible direction marks (U+200E, U+200F, U+061C),
//! which move neighbouring punctuation without being seen. C0 controls and DEL become their
//! Unicode control pictures (`␛`, `␡`); the others, which have no picture, become `⟨U+202E⟩`.

use std::borrow::Cow;
use std::io::{self, Write};

/// Which layout characters a piece of text may keep: a single cell or label keeps none, a
/// multi-line report keeps its line breaks and tabs (they move the cursor only in the ways
/// the report's reader expects).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Escape `\n` and `\t` too: the text must stay on one line (a table cell, a label).
    Nothing,
    /// Keep `\n` and `\t`: the text is a block of lines (a report, an error message).
    Lines,
}

/// Whether `c` changes what a terminal does or how it orders text, rather than showing a glyph.
pub fn is_terminal_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
        )
}

/// The visible stand-in of a control character (see the module's list).
pub fn picture(c: char, out: &mut String) {
    match c as u32 {
        n @ 0..=0x1F => out.push(char::from_u32(0x2400 + n).unwrap_or('\u{FFFD}')),
        0x7F => out.push('\u{2421}'),
        n => {
            use std::fmt::Write as _;
            let _ = write!(out, "⟨U+{n:04X}⟩");
        }
    }
}

/// `text` with every terminal control character shown as a picture (keeping line breaks and
/// tabs when `keep` is [`Keep::Lines`]); borrowed when there is nothing to escape.
pub fn terminal_safe(text: &str, keep: Keep) -> Cow<'_, str> {
    let escapes =
        |c: char| is_terminal_control(c) && !(keep == Keep::Lines && matches!(c, '\n' | '\t'));
    let Some(first) = text.find(escapes) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if escapes(c) {
            picture(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes everything written to it through [`terminal_safe`] with
/// [`Keep::Lines`], for commands that stream text to a terminal. Bytes that are not UTF-8
/// become U+FFFD (a lone 0x9B byte is CSI to a terminal that is not in UTF-8 mode); a character
/// split between two writes is held back until its end arrives.
pub struct SafeWriter<W: Write> {
    inner: W,
    /// The start of a character whose remaining bytes have not been written yet.
    pending: Vec<u8>,
}

impl<W: Write> SafeWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> SafeWriter<W> {
        SafeWriter {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_valid(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        loop {
            match std::str::from_utf8(bytes) {
                Ok(text) => {
                    return self
                        .inner
                        .write_all(terminal_safe(text, Keep::Lines).as_bytes());
                }
                Err(e) => {
                    let (good, rest) = bytes.split_at(e.valid_up_to());
                    let good = std::str::from_utf8(good).unwrap_or_default();
                    self.inner
                        .write_all(terminal_safe(good, Keep::Lines).as_bytes())?;
                    match e.error_len() {
                        Some(bad) => {
                            self.inner.write_all("\u{FFFD}".as_bytes())?;
                            bytes = &rest[bad..];
                        }
                        None => {
                            self.pending.extend_from_slice(rest);
                            return Ok(());
                        }
                    }
                }
            }
        }
    }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            self.write_valid(buf)?;
        } else {
            let mut joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(buf);
            self.write_valid(&joined)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for SafeWriter<W> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.inner.write_all("\u{FFFD}".as_bytes());
            let _ = self.inner.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn escape_sequences_become_pictures() {
        let hostile = "a\u{1b}]52;c;aGk=\u{7}b\u{1b}[2J\u{9b}0m\u{202e}cba\u{7f}";
        assert_eq!(
            terminal_safe(hostile, Keep::Nothing),
            "a␛]52;c;aGk=␇b␛[2J⟨U+009B⟩0m⟨U+202E⟩cba␡"
        );
        assert_eq!(terminal_safe("a\tb\nc", Keep::Lines), "a\tb\nc");
        assert_eq!(terminal_safe("a\tb\nc", Keep::Nothing), "a␉b␊c");
        assert!(matches!(
            terminal_safe("plain ✓", Keep::Nothing),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn the_writer_escapes_across_split_writes_and_replaces_bad_bytes() {
        let mut out = SafeWriter::new(Vec::new());
        let rlo = "\u{202e}".as_bytes();
        out.write_all(b"x\x1b").unwrap();
        out.write_all(&rlo[..1]).unwrap();
        out.write_all(&rlo[1..]).unwrap();
        out.write_all(b"\xc2\x9b \x9b\n").unwrap();
        out.flush().unwrap();
        let inner = std::mem::take(&mut out.inner);
        assert_eq!(
            String::from_utf8(inner).unwrap(),
            "x␛⟨U+202E⟩⟨U+009B⟩ \u{FFFD}\n"
        );
    }

    /// Characters from everywhere, with the control and bidi ranges well represented
    /// (`any::<String>()` alone leaves out the control categories).
    fn hostile_char() -> impl Strategy<Value = char> {
        prop_oneof![
            (0u32..0x100).prop_map(|n| char::from_u32(n).unwrap()),
            (0x2000u32..0x2070).prop_map(|n| char::from_u32(n).unwrap()),
            Just('\u{061C}'),
            any::<char>(),
        ]
    }

    proptest! {
        #[test]
        fn no_control_character_survives(chars in prop::collection::vec(hostile_char(), 0..48), lines in any::<bool>()) {
            let text: String = chars.into_iter().collect();
            let keep = if lines { Keep::Lines } else { Keep::Nothing };
            let safe = terminal_safe(&text, keep);
            for c in safe.chars() {
                let layout = keep == Keep::Lines && matches!(c, '\n' | '\t');
                prop_assert!(layout || !is_terminal_control(c), "{:?} in {:?}", c, safe);
            }
            let mut writer = SafeWriter::new(Vec::new());
            for chunk in text.as_bytes().chunks(3) {
                writer.write_all(chunk).unwrap();
            }
            let written = String::from_utf8(std::mem::take(&mut writer.inner)).unwrap();
            prop_assert_eq!(written, terminal_safe(&text, Keep::Lines).into_owned());
        }
    }
}
