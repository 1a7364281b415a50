//! A network as a file states it, before it is checked to be a tokenizer: every reader (foma,
//! AT&T, Datok's models, our saved form) produces this, so the checks live in one place.

use std::path::PathBuf;

/// A symbol of a file's alphabet, by what it means to a tokenizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawSymbol {
    /// `@_EPSILON_SYMBOL_@`, `@0@`, `<eps>`: nothing read or nothing written.
    Epsilon,
    /// `@_TOKEN_BOUND_@` (or the older `@_TOKEN_SYMBOL_@`): the token boundary mark.
    Boundary,
    /// `@_IDENTITY_SYMBOL_@`: any character outside the alphabet, kept as it is.
    Identity,
    /// `@_UNKNOWN_SYMBOL_@`: any character outside the alphabet (on the other side: another one).
    Unknown,
    /// One character of text.
    Char(char),
    /// A multi-character symbol (`+Noun`, a flag diacritic): it can never match one character.
    Multi(String),
}

impl RawSymbol {
    /// Classifies a symbol string as foma and hfst spell the special symbols.
    pub fn from_name(name: &str) -> RawSymbol {
        match name {
            "@_EPSILON_SYMBOL_@" | "@0@" | "<eps>" => RawSymbol::Epsilon,
            "@_TOKEN_BOUND_@" | "@_TOKEN_SYMBOL_@" => RawSymbol::Boundary,
            "@_IDENTITY_SYMBOL_@" => RawSymbol::Identity,
            "@_UNKNOWN_SYMBOL_@" => RawSymbol::Unknown,
            _ => {
                let mut chars = name.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => RawSymbol::Char(c),
                    _ => RawSymbol::Multi(name.to_string()),
                }
            }
        }
    }

    /// How the symbol is written in messages: characters quoted, specials by their short names.
    pub fn display(&self) -> String {
        match self {
            RawSymbol::Epsilon => "0".into(),
            RawSymbol::Boundary => "TB".into(),
            RawSymbol::Identity => "?".into(),
            RawSymbol::Unknown => "@_UNKNOWN_SYMBOL_@".into(),
            RawSymbol::Char(c) => crate::core::trace::quote(&c.to_string()),
            RawSymbol::Multi(name) => name.clone(),
        }
    }
}

/// One arc as the file states it, with the place it came from for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawArc {
    /// Source state, in the file's own numbering.
    pub from: u32,
    /// Input and output symbol numbers (indices into [`RawNetwork::symbols`]).
    pub input: u32,
    /// Output symbol number (see `input`).
    pub output: u32,
    /// Target state, in the file's own numbering.
    pub to: u32,
    /// The line of the (decompressed) file, or 0 for binary files.
    pub line: usize,
}

/// A network read from a file: symbols, states and arcs, unchecked.
#[derive(Clone, Debug)]
pub struct RawNetwork {
    /// The file it came from (for messages).
    pub path: PathBuf,
    /// What kind of file it was ("foma", "AT&T", "matok", ...), shown by `toklab fst info`.
    pub format: &'static str,
    /// The network's name as the file gives it (foma's props line), if any.
    pub name: Option<String>,
    /// Symbols by the file's symbol number; `None` for numbers the file leaves unused.
    pub symbols: Vec<Option<RawSymbol>>,
    /// States are numbered `0..state_count` here; toklab's number (the paper's and Datok's,
    /// counting from 1) is one more.
    pub state_count: u32,
    /// The start state, in the file's numbering.
    pub start: u32,
    /// Whether the file itself counts states from 1 (Datok's models), so messages need not
    /// give the file's number beside ours (foma and AT&T files count from 0).
    pub file_counts_from_one: bool,
    /// Every arc, in file order.
    pub arcs: Vec<RawArc>,
    /// The final states, in the file's numbering; `None` where the format does not record
    /// them (Datok's models). Tokenizing never asks; `apply up` / `apply down` do.
    pub finals: Option<Vec<u32>>,
    /// Things the reader noticed (a second network in the file, say).
    pub warnings: Vec<String>,
}
