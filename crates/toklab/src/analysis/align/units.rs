//! What the sequences being aligned are made of: code points (the default, as the textbook and
//! the reference pairs count), grapheme clusters, bytes, or tokens, each turned into `u32`
//! symbols with a label to print.

use std::collections::HashMap;

use unicode_segmentation::UnicodeSegmentation;

/// The unit an edit distance counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unit {
    /// Unicode scalar values.
    #[default]
    Codepoint,
    /// Extended grapheme clusters (UAX #29): `é` as e + combining accent is one unit.
    Grapheme,
    /// UTF-8 bytes.
    Byte,
    /// Tokens of a tokenizer (or whitespace-separated words).
    Token,
}

impl crate::Choice for Unit {
    const ALL: &'static [Unit] = &[Unit::Codepoint, Unit::Grapheme, Unit::Byte, Unit::Token];

    fn name(self) -> &'static str {
        Unit::name(self)
    }

    fn about(self) -> &'static str {
        match self {
            Unit::Codepoint => "Unicode scalar values",
            Unit::Grapheme => "extended grapheme clusters (UAX #29)",
            Unit::Byte => "UTF-8 bytes",
            Unit::Token => "tokens of a tokenizer (or whitespace-separated words)",
        }
    }
}

impl Unit {
    /// The name `--unit` takes.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Codepoint => "codepoint",
            Unit::Grapheme => "grapheme",
            Unit::Byte => "byte",
            Unit::Token => "token",
        }
    }

    /// What a count of this unit is called, for "distance 5 (…; code points)".
    pub fn plural(self) -> &'static str {
        match self {
            Unit::Codepoint => "code points",
            Unit::Grapheme => "grapheme clusters",
            Unit::Byte => "bytes",
            Unit::Token => "tokens",
        }
    }
}

/// Gives every distinct string one `u32`, shared between the two sequences of a comparison so
/// equal units get equal symbols.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    ids: HashMap<String, u32>,
}

impl Interner {
    /// An interner with no strings yet; symbols are given from 0 up.
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The symbol of `piece`: the same one every time the same string comes.
    pub fn intern(&mut self, piece: &str) -> u32 {
        if let Some(&id) = self.ids.get(piece) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).expect("fewer than 2^32 distinct units");
        self.ids.insert(piece.to_string(), id);
        id
    }
}

/// The symbols and printable labels of `text` in a unit other than [`Unit::Token`] (tokens
/// come from a tokenizer: intern their forms with an [`Interner`]). Graphemes need the
/// interner shared with the other sequence; code points and bytes are their own symbols.
pub fn segment(text: &str, unit: Unit, interner: &mut Interner) -> (Vec<u32>, Vec<String>) {
    match unit {
        Unit::Codepoint => text
            .chars()
            .map(|c| (u32::from(c), display_label(c.encode_utf8(&mut [0; 4]))))
            .unzip(),
        Unit::Byte => text
            .bytes()
            .map(|byte| {
                let label = if byte.is_ascii_graphic() {
                    char::from(byte).to_string()
                } else if byte == b' ' {
                    "␣".to_string()
                } else {
                    format!("<0x{byte:02X}>")
                };
                (u32::from(byte), label)
            })
            .unzip(),
        Unit::Grapheme | Unit::Token => {
            let pieces: Vec<&str> = if unit == Unit::Grapheme {
                text.graphemes(true).collect()
            } else {
                text.split_whitespace().collect()
            };
            pieces
                .into_iter()
                .map(|piece| (interner.intern(piece), display_label(piece)))
                .unzip()
        }
    }
}

/// The symbols of `text` in a unit other than [`Unit::Token`] with a tokenizer, without the
/// labels [`segment`] makes (for output that names positions, never units).
pub fn symbols(text: &str, unit: Unit, interner: &mut Interner) -> Vec<u32> {
    match unit {
        Unit::Codepoint => text.chars().map(u32::from).collect(),
        Unit::Byte => text.bytes().map(u32::from).collect(),
        Unit::Grapheme => text.graphemes(true).map(|g| interner.intern(g)).collect(),
        Unit::Token => text
            .split_whitespace()
            .map(|w| interner.intern(w))
            .collect(),
    }
}

/// A unit as printed in an alignment: spaces as `␣`, control characters escaped, so every
/// column shows something and nothing moves the terminal's cursor.
pub fn display_label(piece: &str) -> String {
    if piece.is_empty() {
        return "ε".to_string();
    }
    let mut out = String::with_capacity(piece.len());
    for c in piece.chars() {
        match c {
            ' ' => out.push('␣'),
            c if crate::core::display::is_terminal_control(c) => {
                crate::core::display::picture(c, &mut out)
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_of_a_combining_accent() {
        let text = "e\u{301}t";
        let mut interner = Interner::new();
        assert_eq!(segment(text, Unit::Codepoint, &mut interner).0.len(), 3);
        assert_eq!(segment(text, Unit::Grapheme, &mut interner).0.len(), 2);
        assert_eq!(segment(text, Unit::Byte, &mut interner).0.len(), 4);
        let (symbols, labels) = segment("a b a", Unit::Token, &mut interner);
        assert_eq!(symbols[0], symbols[2]);
        assert_eq!(labels, ["a", "b", "a"]);
        assert_eq!(
            segment("é", Unit::Byte, &mut interner).1,
            ["<0xC3>", "<0xA9>"]
        );
        assert_eq!(display_label(" \t\u{202e}"), "␣␉⟨U+202E⟩");
    }
}
