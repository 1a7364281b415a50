//! The look-arounds of utoken's step patterns, as conditions on a position of the segment.

use crate::engines::rules::chars::{self, Fold, L, M, ND};
use crate::engines::rules::matcher::Seg;

/// `(?<!\pL\pM*|\d|[.])`
pub(super) fn not_after_word_or_period(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p) || (p > 0 && (s.is(p - 1, ND) || s.chars[p - 1] == '.')))
}

/// `(?<!\pL\pM*|\d|[-_.@])`
pub(super) fn not_after_file_char(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p) || (p > 0 && (s.is(p - 1, ND) || "-_.@".contains(s.chars[p - 1]))))
}

/// `(?!\pL|\d)`
pub(super) fn not_before_letter_or_digit(s: &Seg, p: usize) -> bool {
    !s.is(p, L | ND)
}

/// `(?!\pL|\pM|\d|[.])`
pub(super) fn not_before_word_or_period(s: &Seg, p: usize) -> bool {
    !(s.is(p, L | M | ND) || s.in_set(p, "."))
}

/// `(?<![\p{Latin}&&\p{Letter}]\.?|\@)`
pub(super) fn url2_behind(s: &Seg, p: usize) -> bool {
    let latin = |i: usize| s.is(i, chars::LATIN_LETTER);
    !(p > 0
        && (latin(p - 1)
            || s.chars[p - 1] == '@'
            || (s.chars[p - 1] == '.' && p > 1 && latin(p - 2))))
}

/// `(?!\.?[\p{Latin}&&\p{Letter}])`
pub(super) fn url2_ahead(s: &Seg, p: usize) -> bool {
    !(s.is(p, chars::LATIN_LETTER) || (s.in_set(p, ".") && s.is(p + 1, chars::LATIN_LETTER)))
}

/// `(?![.]?(?:\pL|\d))`
pub(super) fn hashtag_ahead(s: &Seg, p: usize) -> bool {
    !(s.is(p, L | ND) || (s.in_set(p, ".") && s.is(p + 1, L | ND)))
}

/// `(|.*?[ .,;()\[\]{}'])`: the start of the segment or after one of these.
pub fn hashtag_start(s: &Seg, p: usize) -> bool {
    p == 0 || " .,;()[]{}'".contains(s.chars[p - 1])
}

/// `(?<!\pL\pM*|\d|[-−–]+)`
pub(super) fn not_after_word_or_dash(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p) || (p > 0 && (s.is(p - 1, ND) || "-−–".contains(s.chars[p - 1]))))
}

/// `(?!\pL|\d|[-−–])`
pub(super) fn not_before_word_or_dash(s: &Seg, p: usize) -> bool {
    !(s.is(p, L | ND) || s.in_set(p, "-−–"))
}

/// `(?<!\pL\pM*|\d|[-−–.]+)`
pub(super) fn not_after_word_dash_period(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p) || (p > 0 && (s.is(p - 1, ND) || "-−–.".contains(s.chars[p - 1]))))
}

/// `(?!\pL|\d|[.])`
pub(super) fn not_before_word_or_dot(s: &Seg, p: usize) -> bool {
    !(s.is(p, L | ND) || s.in_set(p, "."))
}

/// `\PL\.` ending at `p`.
pub(super) fn after_nonletter_period(s: &Seg, p: usize) -> bool {
    p >= 2 && s.chars[p - 1] == '.' && !s.is(p - 2, L)
}

/// `\d[…]?` ending at `p`, with the optional characters given.
pub(super) fn after_digit_opt(s: &Seg, p: usize, opt: &str) -> bool {
    p >= 1 && (s.is(p - 1, ND) || (p >= 2 && opt.contains(s.chars[p - 1]) && s.is(p - 2, ND)))
}

/// `(?<![-−–+,]|\PL\.|\d[%\']?|[כבהלשומ])`
pub(super) fn number_behind(s: &Seg, p: usize) -> bool {
    !((p > 0 && "-−–+,".contains(s.chars[p - 1]))
        || after_nonletter_period(s, p)
        || after_digit_opt(s, p, "%'")
        || (p > 0 && "כבהלשומ".contains(s.chars[p - 1])))
}

/// `(?<![-−–+,:]|\PL\.|\d[%\']?|[כבהלשומ])`
pub(super) fn number2_behind(s: &Seg, p: usize) -> bool {
    number_behind(s, p) && !(p > 0 && s.chars[p - 1] == ':')
}

/// `(?<![-−–+]|\PL\.|\d[,.%\']?|\pL\pM*)`
pub(super) fn integer_behind(s: &Seg, p: usize) -> bool {
    !((p > 0 && "-−–+".contains(s.chars[p - 1]))
        || after_nonletter_period(s, p)
        || after_digit_opt(s, p, ",.%'")
        || s.letter_marks_before(p))
}

/// `(?![.,]?\d)`
pub(super) fn number_ahead(s: &Seg, p: usize) -> bool {
    !(s.is(p, ND) || (s.in_set(p, ".,") && s.is(p + 1, ND)))
}

/// `(?![-−–.,]?\d)`
pub(super) fn integer_ahead(s: &Seg, p: usize) -> bool {
    !(s.is(p, ND) || (s.in_set(p, "-−–.,") && s.is(p + 1, ND)))
}

/// `(?<!\pL\pM*|\d|[-−–—+.]|\pL\pM*['‘’`‛])`
pub(super) fn name_behind(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p)
        || (p > 0
            && (s.is(p - 1, ND)
                || "-−–—+.".contains(s.chars[p - 1])
                || ("'‘’`‛".contains(s.chars[p - 1]) && s.letter_marks_before(p - 1)))))
}

/// `(?!(?:\pL|\pM|\d|[-−–—+.]|['‘’`‛]\pL))`
pub(super) fn name_ahead(s: &Seg, p: usize) -> bool {
    !(s.is(p, L | M | ND) || s.in_set(p, "-−–—+.") || (s.in_set(p, "'‘’`‛") && s.is(p + 1, L)))
}

/// `(?<!\pL\pM*|\d|[-−–+.])`
pub(super) fn integer2_behind(s: &Seg, p: usize) -> bool {
    !(s.letter_marks_before(p) || (p > 0 && (s.is(p - 1, ND) || "-−–+.".contains(s.chars[p - 1]))))
}

/// `(?<!\pL|['‘’`‛])`
pub(super) fn greek_behind(s: &Seg, p: usize) -> bool {
    !(p > 0 && (s.is(p - 1, L) || "'‘’`‛".contains(s.chars[p - 1])))
}

/// `[a-z]` (any case, `re` folding) just before `p`: the end of utoken's `(.*?[a-z])`.
pub fn after_ascii_letter(s: &Seg, p: usize) -> bool {
    p > 0 && Fold::Re.ascii(s.chars[p - 1]).is_some()
}

/// `\b` of Python's `re` module, after a word character.
pub(super) fn re_word_end(s: &Seg, p: usize) -> bool {
    !s.is(p, chars::RE_WORD)
}
