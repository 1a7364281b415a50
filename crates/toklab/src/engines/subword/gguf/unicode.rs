//! The character properties llama.cpp's tokenizers look at (its `unicode_cpt_flags`): one
//! general category per character, White_Space, lowercase by UnicodeData's one-character
//! mapping, and "NFD" as llama.cpp does it — the first character of a character's canonical
//! decomposition, so a precomposed `é` becomes `e` and its accent is dropped.

use std::sync::LazyLock;

use crate::engines::subword::pretok::CharClass;

/// llama.cpp's category of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// `\p{L}`.
    Letter,
    /// `\p{N}`.
    Number,
    /// `\p{P}`.
    Punctuation,
    /// `\p{M}`.
    Mark,
    /// `\p{S}`.
    Symbol,
    /// `Cc`, `Cf`, `Co`: control, format and private-use characters.
    Control,
    /// Separators and unassigned characters.
    Other,
}

struct Classes {
    letter: CharClass,
    number: CharClass,
    punctuation: CharClass,
    mark: CharClass,
    symbol: CharClass,
    control: CharClass,
}

static CLASSES: LazyLock<Classes> = LazyLock::new(|| Classes {
    letter: CharClass::from_regex(r"\p{L}"),
    number: CharClass::from_regex(r"\p{N}"),
    punctuation: CharClass::from_regex(r"\p{P}"),
    mark: CharClass::from_regex(r"\p{M}"),
    symbol: CharClass::from_regex(r"\p{S}"),
    control: CharClass::from_regex(r"[\p{Cc}\p{Cf}\p{Co}]"),
});

/// The category of `c`.
pub fn category(c: char) -> Category {
    let k = &*CLASSES;
    if k.letter.contains(c) {
        Category::Letter
    } else if k.number.contains(c) {
        Category::Number
    } else if k.punctuation.contains(c) {
        Category::Punctuation
    } else if k.mark.contains(c) {
        Category::Mark
    } else if k.symbol.contains(c) {
        Category::Symbol
    } else if k.control.contains(c) {
        Category::Control
    } else {
        Category::Other
    }
}

/// UnicodeData's simple lowercase mapping: one character (`İ` gives `i`, not `i̇`).
pub fn to_lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// The first character of the canonical decomposition of `c` (`c` itself when it has none).
pub fn nfd_first(c: char) -> char {
    let mut first = None;
    unicode_normalization::char::decompose_canonical(c, |d| {
        first.get_or_insert(d);
    });
    first.unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_lowercase_and_first_of_nfd() {
        assert_eq!(category('ß'), Category::Letter);
        assert_eq!(category('٣'), Category::Number);
        assert_eq!(category('«'), Category::Punctuation);
        assert_eq!(category('\u{301}'), Category::Mark);
        assert_eq!(category('€'), Category::Symbol);
        assert_eq!(category('\u{200B}'), Category::Control);
        assert_eq!(category('\u{2028}'), Category::Other);
        assert_eq!(to_lower('İ'), 'i');
        assert_eq!(to_lower('Ä'), 'ä');
        assert_eq!(nfd_first('é'), 'e');
        assert_eq!(nfd_first('가'), '\u{1100}');
        assert_eq!(nfd_first('x'), 'x');
    }
}
