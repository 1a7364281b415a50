//! The conditions a dictionary candidate must meet: the entry's own (case, contexts,
//! excluded languages) and utoken's general ones (a token ending in a letter is not followed
//! by one, …), with the extra rules for abbreviations and lexical entries.

use crate::engines::rules::chars::{self, Bits, L, M, ND};
use crate::engines::rules::context::Context;
use crate::engines::rules::matcher::Seg;
use crate::engines::rules::resources::{Conditions, Entry};
use crate::engines::rules::split::Run;

/// `.*\pL\pM*$` within `s[a..b]`.
fn ends_letter(seg: &Seg, a: usize, b: usize) -> bool {
    let mut i = b;
    while i > a && seg.is(i - 1, M) {
        i -= 1;
    }
    i > a && seg.is(i - 1, L)
}

/// `.*(\pL\pM*|\d)$` within `s[a..b]`.
fn ends_letter_or_digit(seg: &Seg, a: usize, b: usize) -> bool {
    (b > a && seg.is(b - 1, ND)) || ends_letter(seg, a, b)
}

/// `.*\d$` within `s[a..b]`.
fn ends_digit(seg: &Seg, a: usize, b: usize) -> bool {
    b > a && seg.is(b - 1, ND)
}

/// `[-−–]?\d` at `p`.
fn starts_dashed_digit(seg: &Seg, p: usize) -> bool {
    seg.is(p, ND) || (seg.in_set(p, "-−–") && seg.is(p + 1, ND))
}

const APOSTROPHE_PLUS: &str = "'‘’`";

/// The general condition that rejects every prefix of a longer word (`fig` in `figure`): not
/// worth showing as a near miss.
pub(super) const LETTER_FOLLOWS: &str = "a letter follows it";

/// Which condition rejected a dictionary candidate, for the trace's near misses.
#[derive(Debug)]
pub(super) enum Failed<'c> {
    /// `::case-sensitive` and the case differs.
    Case,
    /// `::lcode-not` names the loaded language.
    Language,
    /// A context condition does not hold.
    Context(&'c Context),
    /// One of utoken's general, abbreviation or lexical conditions.
    Rule(&'static str),
}

impl Failed<'_> {
    /// What failed, as the trace says it.
    pub(super) fn describe(&self) -> String {
        match self {
            Failed::Case => "::case-sensitive and the case differs".into(),
            Failed::Language => "::lcode-not names this language".into(),
            Failed::Context(c) => format!("::{} {} does not hold", c.kind.slot(), c.source),
            Failed::Rule(why) => (*why).into(),
        }
    }
}

impl Run<'_> {
    /// The entry's own conditions: case, contexts on the whole sentence, excluded languages.
    pub(super) fn entry_conditions(&self, entry: &Entry, start: usize, end: usize) -> bool {
        self.entry_fails(entry, start, end).is_none()
    }

    /// The first of the entry's own conditions that fails, if any.
    pub(super) fn entry_fails<'e>(
        &self,
        entry: &'e Entry,
        start: usize,
        end: usize,
    ) -> Option<Failed<'e>> {
        self.first_failed(
            &entry.cond,
            &entry.s,
            self.text(start, end),
            self.left_of(start),
            self.right_of(end),
        )
    }

    /// Whether conditions hold for a candidate (`surface`, for an entry headed `s`) with the
    /// sentence `left` and `right` of it. They are pure and all must hold, so they are tested
    /// cheapest first (utoken tests them in slot order; the answer is the same): a
    /// look-around context, which may read the whole sentence, comes last.
    pub(super) fn conditions_hold(
        &self,
        cond: &Conditions,
        s: &str,
        surface: &str,
        left: &str,
        right: &str,
    ) -> bool {
        self.first_failed(cond, s, surface, left, right).is_none()
    }

    /// The first condition (in [`Self::conditions_hold`]'s order) that fails.
    fn first_failed<'c>(
        &self,
        cond: &'c Conditions,
        s: &str,
        surface: &str,
        left: &str,
        right: &str,
    ) -> Option<Failed<'c>> {
        if cond.case_sensitive && s != surface {
            return Some(Failed::Case);
        }
        if let Some(lang) = &self.rules.lang
            && cond.lcode_not.iter().any(|l| l == lang)
        {
            return Some(Failed::Language);
        }
        let contexts = [
            (&cond.right, right),
            (&cond.right_not, right),
            (&cond.left, left),
            (&cond.left_not, left),
        ];
        for slow in [false, true] {
            for (context, text) in contexts {
                if let Some(c) = context
                    && c.uses_look_around() == slow
                    && !c.holds(text)
                {
                    return Some(Failed::Context(c));
                }
            }
        }
        None
    }

    /// Which of utoken's general conditions rejects a candidate `seg[st..end]` of a segment
    /// (None when all hold).
    pub(super) fn general_fails(
        &self,
        a: usize,
        b: usize,
        st: usize,
        end: usize,
    ) -> Option<Failed<'static>> {
        let seg = self.seg(a, b);
        let n = seg.len();
        let lc0: Bits = if st > 0 { seg.bits.at(st - 1) } else { 0 };
        let rc0: Bits = if end < n { seg.bits.at(end) } else { 0 };
        // A token ending in a letter is not followed by a letter.
        if rc0 & chars::ALPHA != 0 && ends_letter(&seg, st, end) {
            return Some(Failed::Rule(LETTER_FOLLOWS));
        }
        // Nor by an orphan mark, unless it ends in punctuation.
        if rc0 & chars::MODIFIER != 0 && !seg.is(end - 1, chars::P) {
            return Some(Failed::Rule("a combining mark follows it"));
        }
        let lv = self.lv();
        if lv & chars::QUOTE != 0 {
            let starts_letter = seg.is(st, L);
            let ends_apos = APOSTROPHE_PLUS.contains(seg.chars[end - 1]);
            // don't split off c' from 'c'
            if starts_letter && ends_apos && st > 0 && APOSTROPHE_PLUS.contains(seg.chars[st - 1]) {
                return Some(Failed::Rule("it would split c' off 'c'"));
            }
            // don't split off 'd from 'd'
            if APOSTROPHE_PLUS.contains(seg.chars[st])
                && ends_letter(&seg, st, end)
                && end < n
                && APOSTROPHE_PLUS.contains(seg.chars[end])
            {
                return Some(Failed::Rule("it would split 'd off 'd'"));
            }
        }
        if lv & chars::AMPERSAND != 0 {
            // don't split AD off IA&AD
            let short = {
                let mut units = 0;
                let mut i = st;
                let mut ok = true;
                while i < end {
                    if !seg.is(i, L) {
                        ok = false;
                        break;
                    }
                    i += 1;
                    while i < end && seg.is(i, M) {
                        i += 1;
                    }
                    units += 1;
                }
                ok && (1..=2).contains(&units)
            };
            if short && ((end < n && seg.chars[end] == '&') || (st > 0 && seg.chars[st - 1] == '&'))
            {
                return Some(Failed::Rule("one or two letters next to &"));
            }
        }
        if lv & chars::ATTACH_TAG != 0 {
            let is_markup = || self.is_markup_token(self.text(a + st, a + end));
            // utoken looks at the second character of each context (not the one next to the
            // `@`); that is kept.
            let second_blank = |p: Option<usize>| p.is_none_or(|i| seg.is(i, chars::SPACE));
            if rc0 & chars::ATTACH_TAG != 0
                && is_markup()
                && second_blank((end + 1 < n).then_some(end + 1))
            {
                return Some(Failed::Rule("a mark-up @ follows it"));
            }
            if lc0 & chars::ATTACH_TAG != 0 && is_markup() && second_blank((st >= 2).then_some(1)) {
                return Some(Failed::Rule("a mark-up @ precedes it"));
            }
        }
        if lv & chars::HEBREW_BLOCK != 0 {
            let token = &seg.chars[st..end];
            if token == ['"']
                && lc0 & chars::HEBREW_BLOCK != 0
                && rc0 & chars::HEBREW_BLOCK != 0
                && seg.is(end, chars::HEBREW_LETTER)
            {
                // [\p{Hebrew}&&\p{Letter}]\pM*(?!'?\pL): with marks, backtracking always
                // finds a place where no letter follows.
                let mut i = end + 1;
                while seg.is(i, M) {
                    i += 1;
                }
                let letter_next = seg.is(i, L) || (seg.in_set(i, "'") && seg.is(i + 1, L));
                if i > end + 1 || !letter_next {
                    return Some(Failed::Rule("a gershayim inside a Hebrew word"));
                }
            }
            if token == ['\''] && lc0 & chars::HEBREW_BLOCK != 0 {
                return Some(Failed::Rule("a geresh after a Hebrew letter"));
            }
        }
        None
    }

    /// Which of utoken's abbreviation conditions rejects a candidate (None when all hold).
    pub(super) fn abbrev_fails(
        &self,
        a: usize,
        b: usize,
        st: usize,
        end: usize,
        entry: &Entry,
    ) -> Option<Failed<'static>> {
        if entry.sem_class.as_deref() == Some("currency-unit") {
            return None;
        }
        let seg = self.seg(a, b);
        if ends_letter_or_digit(&seg, st, end)
            && seg.is(end, chars::DASH | chars::PY_DIGIT)
            && starts_dashed_digit(&seg, end)
        {
            let allowed = ends_letter(&seg, st, end)
                && entry
                    .cond
                    .right
                    .as_ref()
                    .is_some_and(|c| c.holds(self.text(a + end, b)));
            if !allowed {
                return Some(Failed::Rule(
                    "a number follows and no ::right-context allows it",
                ));
            }
        }
        if seg.chars[end - 1] == '.' && seg.is(end, L) {
            // `\pL\pM*(?!\pL|\pM)`: a single letter (with its marks) follows.
            let mut j = end + 1;
            while seg.is(j, M) {
                j += 1;
            }
            if !seg.is(j, L) && seg.bits.at(end) & (chars::HANGUL | chars::INDIC) == 0 {
                return Some(Failed::Rule("a word continues after its period"));
            }
        }
        if st > 0
            && seg.chars[st - 1] == '.'
            && seg.chars[st..end].contains(&'.')
            && st >= 2
            && ends_letter(&seg, 0, st - 1)
        {
            return Some(Failed::Rule("a period after a letter precedes it"));
        }
        None
    }

    /// Which of utoken's lexical-entry conditions rejects a candidate (None when all hold).
    pub(super) fn lexical_fails(
        &self,
        a: usize,
        b: usize,
        st: usize,
        end: usize,
        entry: &Entry,
    ) -> Option<Failed<'static>> {
        let seg = self.seg(a, b);
        let right_holds = || {
            entry
                .cond
                .right
                .as_ref()
                .is_some_and(|c| c.holds(self.text(a + end, b)))
        };
        let left_holds = || {
            entry
                .cond
                .left
                .as_ref()
                .is_some_and(|c| c.holds(self.text(a, a + st)))
        };
        if ends_letter_or_digit(&seg, st, end) && seg.is(end, L | ND) {
            let ok =
                (ends_letter(&seg, st, end) && starts_dashed_digit(&seg, end) && right_holds())
                    || (ends_digit(&seg, st, end) && seg.is(end, L) && right_holds());
            if !ok {
                return Some(Failed::Rule(
                    "a letter or digit follows and no ::right-context allows it",
                ));
            }
        }
        if ends_letter_or_digit(&seg, 0, st) && seg.is(st, L | ND) {
            let lv = self.lv();
            let ok = (ends_digit(&seg, 0, st)
                && entry.sem_class.as_deref() == Some("unit-of-measurement"))
                || (ends_letter(&seg, 0, st) && starts_dashed_digit(&seg, st) && left_holds())
                || (ends_digit(&seg, 0, st) && seg.is(st, L) && left_holds())
                || (lv & (chars::INDIC | chars::HANGUL) != 0
                    && seg.is(st - 1, chars::LATIN_LETTER)
                    && seg.bits.at(st) & (chars::INDIC | chars::HANGUL) != 0);
            if !ok {
                return Some(Failed::Rule(
                    "a letter or digit precedes it and no ::left-context allows it",
                ));
            }
        }
        // don't split off d' from d's
        if APOSTROPHE_PLUS.contains(seg.chars[end - 1])
            && end < seg.len()
            && matches!(seg.chars[end], 's' | 'S' | 'ſ')
            && !seg.is(end + 1, L | ND)
        {
            return Some(Failed::Rule("it would split d' off d's"));
        }
        None
    }
}
