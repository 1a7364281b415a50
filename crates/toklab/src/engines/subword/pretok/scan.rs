//! Pieces shared by the hand-written cl100k and o200k matchers: character runs, the
//! case-insensitive English contractions, and the whitespace alternatives
//! `\s*[\r\n]+|\s+(?!\S)|\s+` that both patterns end with.

use super::class::CharClass;
use crate::core::token::Span;

/// Runs a matcher's `next_piece` from the start of the text to its end: every position is the
/// start of some piece, so the pieces cover the text.
#[inline]
pub fn each_piece(
    text: &str,
    found: &mut dyn FnMut(Span, &'static str),
    next_piece: impl Fn(&str, usize) -> (usize, &'static str),
) {
    let mut at = 0;
    while at < text.len() {
        let (end, alternative) = next_piece(text, at);
        found(Span::new(at, end), alternative);
        at = end;
    }
}

/// The character at byte `at`, if any.
#[inline]
pub fn char_at(text: &str, at: usize) -> Option<char> {
    let bytes = text.as_bytes();
    match bytes.get(at) {
        None => None,
        Some(&b) if b < 0x80 => Some(b as char),
        Some(_) => text[at..].chars().next(),
    }
}

/// The end of the run of characters of `class` starting at `from`.
#[inline]
pub fn run_end(text: &str, from: usize, class: &CharClass) -> usize {
    let bytes = text.as_bytes();
    let mut at = from;
    while at < bytes.len() {
        let b = bytes[at];
        if b < 0x80 {
            if !class.contains(b as char) {
                return at;
            }
            at += 1;
        } else {
            let c = text[at..].chars().next().expect("char boundary");
            if !class.contains(c) {
                return at;
            }
            at += c.len_utf8();
        }
    }
    at
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `at`: the end of the match. Case folding is the regex
/// crate's simple folding, under which `s` also matches `ſ` (U+017F).
#[inline]
pub fn contraction_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text.as_bytes()[at..];
    if rest.first() != Some(&b'\'') {
        return None;
    }
    let lower = |i: usize| rest.get(i).map(|b| b.to_ascii_lowercase());
    match lower(1)? {
        b's' | b't' | b'm' | b'd' => Some(at + 2),
        b'r' | b'v' if lower(2) == Some(b'e') => Some(at + 3),
        b'l' if lower(2) == Some(b'l') => Some(at + 3),
        // U+017F LATIN SMALL LETTER LONG S folds to s.
        0xC5 if rest.get(2) == Some(&0xBF) => Some(at + 3),
        _ => None,
    }
}

/// The whitespace alternatives `\s*[\r\n]+|\s+(?!\S)|\s+` at `at` (a whitespace character):
/// the end of the match and the alternative's name.
pub fn whitespace_end(text: &str, at: usize, space: &CharClass) -> (usize, &'static str) {
    let end = run_end(text, at, space);
    debug_assert!(end > at, "whitespace_end called on a non-space");
    // `\s*[\r\n]+`: backtracking from the longest run, the first success ends right after
    // the run's last line break.
    if let Some(last) = text.as_bytes()[at..end]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
    {
        return (at + last + 1, "line breaks");
    }
    space_end(text, at, end)
}

/// `\s+(?!\S)|\s+` for the whitespace run `[at, end)`: a run followed by a non-space gives
/// back its last character, which becomes the leading space of the next piece.
pub fn space_end(text: &str, at: usize, end: usize) -> (usize, &'static str) {
    if end == text.len() {
        return (end, "trailing space");
    }
    let last_len = text[..end].chars().next_back().map_or(1, char::len_utf8);
    if end - last_len > at {
        (end - last_len, "space run")
    } else {
        (end, "space")
    }
}

/// Where the GPT-2, cl100k and o200k patterns may cut a text (their matchers' cut points),
/// the first at or after `from` of two kinds of point:
///
/// - a space with a letter (`\p{L}`) on each side: the letter run before it ends there in
///   every one of the patterns (no alternative takes a space after a letter) and the space
///   starts the next word's piece (` ?\p{L}+`, `[^\r\n\p{L}\p{N}]?…`);
/// - a punctuation character (ASCII punctuation or `\p{P}`, but not `'`) just after a letter,
///   cut before it, as in a text without spaces (`東京は、`): the piece holding the letter
///   is a run of letters (and, in o200k, marks) with at most one character in front, or a
///   contraction, and none of these takes punctuation, so it ends there, as it does at the end
///   of a piece cut there; the punctuation starts the next piece. `'` is left out because it
///   starts a contraction that o200k appends to the word before it.
///
/// None of the patterns looks behind, and the only look-ahead, `\s+(?!\S)`, cannot reach past
/// a letter's match. One scan looks for both, so a line with neither is read once.
pub fn space_between_letters(text: &str, letter: &CharClass, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = crate::core::offsets::ceil_char_boundary(text, from.max(1));
    let mut before = text[..at.min(text.len())].chars().next_back();
    while at < bytes.len() {
        let c = char_at(text, at).expect("at a char boundary");
        let after_letter = before.is_some_and(|b| letter.contains(b));
        if after_letter {
            if c == ' ' && char_at(text, at + 1).is_some_and(|n| letter.contains(n)) {
                return Some(at);
            }
            if c != '\'' && crate::engines::subword::wordpiece::basic::is_punctuation(c) {
                return Some(at);
            }
        }
        before = Some(c);
        at += c.len_utf8();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contractions_fold_case() {
        assert_eq!(contraction_end("'S", 0), Some(2));
        assert_eq!(contraction_end("'Re", 0), Some(3));
        assert_eq!(contraction_end("'lL", 0), Some(3));
        assert_eq!(contraction_end("'ſ", 0), Some(3));
        assert_eq!(contraction_end("'l", 0), None);
        assert_eq!(contraction_end("'x", 0), None);
        assert_eq!(contraction_end("'", 0), None);
    }
}
