//! Unicode character classes with the exact tables of the `regex` crate (and so of
//! fancy-regex, which tiktoken uses): hand-written pre-tokenizers then agree with the regex
//! engines character for character.

use regex_syntax::hir::{Class, HirKind};

/// A set of characters: an ASCII bitmap for the common case, sorted ranges for the rest.
#[derive(Clone, Debug)]
pub struct CharClass {
    ascii: u128,
    ranges: Vec<(char, char)>,
}

impl CharClass {
    /// Builds the class a regex class expression denotes (`\p{L}`, `[^\s\p{L}\p{N}]`, …).
    /// The expressions are fixed in the code; a failure is a programming error.
    pub fn from_regex(expr: &str) -> CharClass {
        let hir = regex_syntax::parse(expr).unwrap_or_else(|e| panic!("class {expr}: {e}"));
        let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
            panic!("{expr} is not a Unicode class")
        };
        let ranges: Vec<(char, char)> = class
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect();
        let mut ascii = 0u128;
        for &(start, end) in &ranges {
            for c in (start as u32)..=(end as u32).min(127) {
                ascii |= 1 << c;
            }
        }
        CharClass { ascii, ranges }
    }

    /// Whether `c` is in the class; one bit test for ASCII.
    #[inline]
    pub fn contains(&self, c: char) -> bool {
        let code = c as u32;
        if code < 128 {
            return self.ascii >> code & 1 == 1;
        }
        self.ranges
            .binary_search_by(|&(start, end)| {
                if end < c {
                    std::cmp::Ordering::Less
                } else if start > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_numbers_spaces() {
        let letters = CharClass::from_regex(r"\p{L}");
        assert!(letters.contains('a') && letters.contains('é') && letters.contains('語'));
        assert!(!letters.contains('1') && !letters.contains(' ') && !letters.contains('\u{301}'));
        let numbers = CharClass::from_regex(r"\p{N}");
        assert!(numbers.contains('7') && numbers.contains('Ⅻ') && numbers.contains('½'));
        let space = CharClass::from_regex(r"\s");
        assert!(space.contains('\u{3000}') && space.contains('\n') && !space.contains('\u{1c}'));
    }
}
