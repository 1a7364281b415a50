//! What a token is, coarsely ([`TokenKind`]), and how a piece of text is classified as one: kept
//! apart from the span model so the character classes can be read on their own.

use std::fmt;

/// What a token is, coarsely: enough for colouring, statistics and the CLI's `kind` field.
/// Engines that know finer types (utoken's chart types, say) keep them in [`Origin`](super::Origin).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A word (letters, possibly with apostrophes or hyphens).
    Word,
    /// A number, digits first.
    Number,
    /// Punctuation.
    Punct,
    /// A symbol that is not punctuation (`€`, `+`).
    Symbol,
    /// Whitespace kept as a token.
    Space,
    /// A URL.
    Url,
    /// An e-mail address.
    Email,
    /// An abbreviation with its period (`Dr.`).
    Abbreviation,
    /// A piece of a contraction (`n't`, `'re`).
    Contraction,
    /// An XML or HTML tag.
    Xml,
    /// A hashtag.
    Hashtag,
    /// A social-media handle (`@name`).
    Handle,
    /// An emoticon or emoji.
    Emoticon,
    /// A file name.
    Filename,
    /// A piece of a word produced by a subword model.
    Subword,
    /// A token the model treats specially (`<|endoftext|>`, `[CLS]`, …).
    Special,
    /// Text the engine could not place (an `[UNK]`, a character outside an automaton's alphabet).
    Unknown,
    /// None of the above.
    Other,
}

impl TokenKind {
    /// The lowercase name used in JSON output and in the workbench.
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Word => "word",
            TokenKind::Number => "number",
            TokenKind::Punct => "punct",
            TokenKind::Symbol => "symbol",
            TokenKind::Space => "space",
            TokenKind::Url => "url",
            TokenKind::Email => "email",
            TokenKind::Abbreviation => "abbreviation",
            TokenKind::Contraction => "contraction",
            TokenKind::Xml => "xml",
            TokenKind::Hashtag => "hashtag",
            TokenKind::Handle => "handle",
            TokenKind::Emoticon => "emoticon",
            TokenKind::Filename => "filename",
            TokenKind::Subword => "subword",
            TokenKind::Special => "special",
            TokenKind::Unknown => "unknown",
            TokenKind::Other => "other",
        }
    }

    /// A best guess from the characters alone, for engines (whitespace, regex, automata) that
    /// do not type their tokens themselves.
    pub fn classify(surface: &str) -> TokenKind {
        let mut chars = surface.chars().filter(|c| !c.is_whitespace()).peekable();
        if chars.peek().is_none() {
            return if surface.is_empty() {
                TokenKind::Other
            } else {
                TokenKind::Space
            };
        }
        let (mut letters, mut digits, mut others) = (0usize, 0usize, 0usize);
        for c in chars {
            if c.is_alphabetic() || c == '\'' || c == '’' || c == '-' {
                letters += 1;
            } else if c.is_numeric() {
                digits += 1;
            } else {
                others += 1;
            }
        }
        match (letters, digits, others) {
            (0, 0, _) => {
                if surface
                    .chars()
                    .any(|c| c.is_ascii_punctuation() || is_unicode_punct(c))
                {
                    TokenKind::Punct
                } else {
                    TokenKind::Symbol
                }
            }
            (0, _, _) if digits > 0 => TokenKind::Number,
            _ => TokenKind::Word,
        }
    }
}

fn is_unicode_punct(c: char) -> bool {
    matches!(c, '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}' | '\u{3001}'..='\u{3003}' | '\u{3008}'..='\u{3011}' | '¡' | '¿' | '«' | '»' | '§' | '¶' | '·')
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
