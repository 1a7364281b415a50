//! Characters to symbol numbers: the one translation every representation shares, so the
//! matrix and the double array see the same symbols and can be compared cell for cell.

/// A symbol number. Both representations index by it (matrix column, double-array code).
pub type Sym = u16;

/// "Not in the alphabet": no representation has transitions on it.
pub const NO_SYMBOL: Sym = 0;
/// The ε:boundary column: the token boundary edge is stored under this symbol.
pub const BOUNDARY: Sym = 1;
/// `@_IDENTITY_SYMBOL_@`: read by characters outside the alphabet, which are kept.
pub const IDENTITY: Sym = 2;
/// `@_UNKNOWN_SYMBOL_@`: tried for characters outside the alphabet when the identity fails.
pub const UNKNOWN: Sym = 3;
/// The first symbol number of a character; characters are numbered in code point order.
pub const FIRST_CHAR: Sym = 4;

/// The characters a network names, each with its symbol number. Characters outside it read the
/// identity symbol (then the unknown symbol), as in foma and Datok.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// Sorted; the symbol of `chars[i]` is `FIRST_CHAR + i`.
    chars: Vec<char>,
    /// Symbols of the ASCII characters, so the common case is one table read.
    ascii: [Sym; 128],
}

impl Alphabet {
    /// An alphabet of `chars` (duplicates are the caller's error to report; they are merged).
    pub fn new(mut chars: Vec<char>) -> Alphabet {
        chars.sort_unstable();
        chars.dedup();
        let mut ascii = [NO_SYMBOL; 128];
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() {
                ascii[c as usize] = FIRST_CHAR + i as Sym;
            }
        }
        Alphabet { chars, ascii }
    }

    /// The largest alphabet a symbol number can hold.
    pub const MAX_CHARS: usize = (Sym::MAX - FIRST_CHAR) as usize;

    /// The symbol of `c`, or [`NO_SYMBOL`] if `c` is outside the alphabet.
    #[inline]
    pub fn symbol(&self, c: char) -> Sym {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            match self.chars.binary_search(&c) {
                Ok(i) => FIRST_CHAR + i as Sym,
                Err(_) => NO_SYMBOL,
            }
        }
    }

    /// The symbol of the ASCII byte `b` (`b < 128`).
    #[inline]
    pub fn ascii_symbol(&self, b: u8) -> Sym {
        self.ascii[b as usize & 127]
    }

    /// The character of a character symbol.
    pub fn char_of(&self, sym: Sym) -> Option<char> {
        sym.checked_sub(FIRST_CHAR)
            .and_then(|i| self.chars.get(i as usize).copied())
    }

    /// The characters, in symbol order.
    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    /// How many symbol numbers are in use (the matrix's width): the specials and the characters.
    pub fn symbol_count(&self) -> usize {
        FIRST_CHAR as usize + self.chars.len()
    }

    /// A symbol for messages and traces.
    pub fn describe(&self, sym: Sym) -> String {
        match sym {
            BOUNDARY => "ε:TB".into(),
            IDENTITY => "?".into(),
            UNKNOWN => "@_UNKNOWN_SYMBOL_@".into(),
            _ => match self.char_of(sym) {
                Some(c) => crate::core::trace::quote(&c.to_string()),
                None => format!("#{sym}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_in_code_point_order() {
        let a = Alphabet::new(vec!['b', 'é', ' ', 'a', 'b']);
        assert_eq!(a.chars(), &[' ', 'a', 'b', 'é']);
        assert_eq!(a.symbol(' '), FIRST_CHAR);
        assert_eq!(a.symbol('b'), FIRST_CHAR + 2);
        assert_eq!(a.symbol('é'), FIRST_CHAR + 3);
        assert_eq!(a.symbol('z'), NO_SYMBOL);
        assert_eq!(a.symbol('😀'), NO_SYMBOL);
        assert_eq!(a.char_of(FIRST_CHAR + 3), Some('é'));
        assert_eq!(a.char_of(IDENTITY), None);
        assert_eq!(a.symbol_count(), 8);
        assert_eq!(a.ascii_symbol(b'a'), FIRST_CHAR + 1);
    }
}
