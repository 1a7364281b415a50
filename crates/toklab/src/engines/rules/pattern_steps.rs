//! The pattern steps (2–9, 11–14, 16, 17, 19): each looks for the leftmost token of its kind
//! in a segment, gated by utoken's line vector as utoken gates it.

use super::chars::{self, Bits, Fold, L, ND};
use super::matcher::{Prog, Seg};
use super::origin::ChartType;
use super::split::{Found, Run};
use super::step_patterns::{self, FIXED};

/// utoken's `re_dot_ab`: a period followed by two ASCII letters (any case), a cheap test for
/// whether a URL or file name can be there.
fn dot_ab(seg: &Seg) -> bool {
    seg.chars.windows(3).any(|w| {
        w[0] == '.' && Fold::Regex.ascii(w[1]).is_some() && Fold::Regex.ascii(w[2]).is_some()
    })
}

impl Run<'_> {
    /// Finds `prog` in segment `a..b` from the left; `start_ok` filters start positions.
    fn find(
        &mut self,
        prog: &Prog,
        a: usize,
        b: usize,
        start_ok: impl Fn(&Seg, usize) -> bool,
    ) -> Option<(usize, usize)> {
        let seg = self.seg(a, b);
        prog.find(&seg, 0, start_ok, &mut self.scratch)
    }

    fn found(&self, _a: usize, (s, e): (usize, usize), chart_type: ChartType) -> Found {
        Found::one(s, e - s, chart_type)
    }

    pub(super) fn xml(&mut self, a: usize, b: usize) -> Option<Found> {
        let f = &*FIXED;
        if self.lv() & self.seg_lv & chars::LESS_THAN != 0
            && let Some(m) = self.find(&f.xml, a, b, |s, p| s.in_set(p, "<"))
        {
            return Some(self.found(a, m, ChartType::Xml));
        }
        if self.lv() & self.seg_lv & chars::LEFT_BRACKET != 0
            && let Some(m) = self.find(&f.bbcode, a, b, |s, p| s.in_set(p, "["))
        {
            return Some(self.found(a, m, ChartType::BbCode));
        }
        None
    }

    pub(super) fn url(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.seg_lv & chars::PERIOD == 0 || !dot_ab(&self.seg(a, b)) {
            return None;
        }
        let scheme = |s: &Seg, p: usize| {
            p < s.len() && matches!(Fold::Regex.ascii(s.chars[p]), Some('h' | 'f'))
        };
        if let Some(m) = self.find(&FIXED.url1, a, b, scheme) {
            return Some(self.found(a, m, ChartType::Url));
        }
        let rules = self.rules;
        let url2 = rules.url2.as_ref()?;
        let m = self.find(url2, a, b, |s, p| {
            s.is(p, L | ND | chars::M) || s.in_set(p, "-_")
        })?;
        Some(self.found(a, m, ChartType::Url))
    }

    pub(super) fn email(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & self.seg_lv & chars::AT_SIGN == 0 {
            return None;
        }
        let m = self.find(&FIXED.email, a, b, |s, p| s.is(p, L))?;
        Some(self.found(a, m, ChartType::Email))
    }

    pub(super) fn filename(&mut self, a: usize, b: usize) -> Option<Found> {
        let f = &*FIXED;
        if self.seg_lv & chars::PERIOD != 0
            && dot_ab(&self.seg(a, b))
            && let Some(m) = self.find(&f.filename, a, b, |s, p| {
                s.is(p, L | ND) || s.in_set(p, "/")
            })
        {
            return Some(self.found(a, m, ChartType::Filename));
        }
        if self.lv() & self.seg_lv & chars::SLASH != 0
            && let Some(m) = self.find(&f.abs_filename, a, b, |s, p| s.in_set(p, "/"))
        {
            return Some(self.found(a, m, ChartType::Filename));
        }
        None
    }

    /// Step 6: a run of miscellaneous symbols (variation selectors inside it), unless a
    /// `::non-symbol` entry vetoes it.
    pub(super) fn find_symbol(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & chars::MISC_SYMBOL == 0 {
            return None;
        }
        let bits = self.s.bits.range(a..b);
        let mut start: Option<usize> = None;
        for i in 0..=bits.len() {
            let b_i = bits.get(i).unwrap_or(0);
            if i < bits.len() && b_i & chars::MISC_SYMBOL != 0 {
                start.get_or_insert(i);
            } else if i < bits.len() && b_i & chars::VARIATION_SELECTOR != 0 {
                continue;
            } else if let Some(st) = start.take()
                && self.valid_symbol(a, st, i)
            {
                let mut found = self.found(a, (st, i), ChartType::Symbol);
                found.left_done = true;
                return Some(found);
            }
        }
        None
    }

    /// Whether no `::non-symbol` entry (looked up by the exact text) vetoes the group.
    fn valid_symbol(&self, a: usize, st: usize, end: usize) -> bool {
        let text = self.text(a + st, a + end);
        let Some(ids) = self.entries().non_symbol.get(text) else {
            return true;
        };
        !ids.iter().any(|&id| {
            let entry = &self.entries().entries[id as usize];
            self.entry_conditions(entry, a + st, a + end)
        })
    }

    pub(super) fn hashtag(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & self.seg_lv & (chars::NUMBER_SIGN | chars::AT_SIGN) == 0 {
            return None;
        }
        let m = self.find(&FIXED.hashtag, a, b, |s, p| {
            s.in_set(p, "#@") && step_patterns::hashtag_start(s, p)
        })?;
        let chart_type = if self.s.chars[a + m.0] == '#' {
            ChartType::Hashtag
        } else {
            ChartType::Handle
        };
        Some(self.found(a, m, chart_type))
    }

    pub(super) fn abbrev_patterns(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & self.seg_lv & chars::DASH != 0
            && let Some(m) = self.find(&FIXED.acronym_product, a, b, |s, p| s.is(p, chars::LU))
        {
            return Some(self.found(a, m, ChartType::AbbrevP));
        }
        let rules = self.rules;
        for prog in &rules.phonetics {
            // utoken's pattern starts with a greedy `.*`: the rightmost start wins.
            let seg = self.seg(a, b);
            if let Some(m) = prog.find_from_right(&seg, &mut self.scratch) {
                return Some(self.found(a, m, ChartType::AbbrevIp));
            }
        }
        None
    }

    /// Step 11: a capital and a period before a capitalized name (`J.S.Bach`).
    pub(super) fn initials(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.seg_lv & chars::PERIOD == 0 || self.seg_lv & chars::LU == 0 {
            return None;
        }
        let c = &self.s.chars[a..b];
        let bits = self.s.bits.range(a..b);
        let gate = (1..c.len()).any(|i| c[i] == '.' && bits[i - 1] & chars::LU != 0);
        if !gate {
            return None;
        }
        // The right context is matched after each candidate in turn; one search with a start
        // filter shares what it learns between candidates (the pattern looks at nothing
        // before its start).
        let candidate = |s: &Seg, p: usize| {
            p >= 2 && {
                let st = p - 2;
                s.is(st, chars::ALPHA)
                    && s.is(st, chars::UPPER)
                    && s.chars[st + 1] == '.'
                    && (st == 0 || !s.is(st - 1, chars::ALPHA))
            }
        };
        let seg = self.seg(a, b);
        let (p, _) = FIXED
            .initial_right
            .find(&seg, 2, candidate, &mut self.scratch)?;
        Some(self.found(a, (p - 2, p), ChartType::AbbrevI))
    }

    pub(super) fn abbrev_periods(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.seg_lv & chars::PERIOD == 0 || self.seg_lv & L == 0 {
            return None;
        }
        // Only starts where the pattern can begin: its look-behind holds and one or two
        // letters (with their marks) are followed by a period.
        let m = self.find(&FIXED.abbrev_periods, a, b, |s, p| {
            s.is(p, L)
                && !s.letter_marks_before(p)
                && !(p > 0 && (s.is(p - 1, ND) || "-−–.".contains(s.chars[p - 1])))
                && {
                    let unit_end = |mut i: usize| {
                        i += 1;
                        while s.is(i, chars::M) {
                            i += 1;
                        }
                        i
                    };
                    let one = unit_end(p);
                    s.in_set(one, ".") || (s.is(one, L) && s.in_set(unit_end(one), "."))
                }
        })?;
        Some(self.found(a, m, ChartType::AbbrevPp))
    }

    pub(super) fn contractions(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & self.seg_lv & chars::APOSTROPHE == 0 {
            return None;
        }
        if matches!(self.rules.lang.as_deref(), Some("ell" | "grc" | "ecg"))
            && let Some(m) = self.find(&FIXED.greek_contraction, a, b, |s, p| {
                s.is(p, chars::GREEK_LETTER)
            })
        {
            return Some(self.found(a, m, ChartType::Decontraction));
        }
        let m = self.find(&FIXED.eng_contraction, a, b, |s, p| {
            s.in_set(p, "'’") && step_patterns::after_ascii_letter(s, p)
        })?;
        Some(self.found(a, m, ChartType::Decontraction))
    }

    /// Step 14's search: Ethiopic numerals, then formatted numbers, then integers.
    pub(super) fn find_number(&mut self, a: usize, b: usize) -> Option<Found> {
        let f = &*FIXED;
        if self.lv() & self.seg_lv & chars::ETHIOPIC_NUMBER != 0
            && let Some(m) = self.find(&f.ethiopic, a, b, |s, p| s.is(p, chars::ETHIOPIC_NUMBER))
        {
            return Some(self.found(a, m, ChartType::NumberE));
        }
        if self.lv() & chars::PY_DIGIT == 0 || self.seg_lv & ND == 0 {
            return None;
        }
        let start = |s: &Seg, p: usize| s.is(p, ND) || s.in_set(p, "-−–+");
        let european = !matches!(
            self.rules.lang.as_deref(),
            Some("asm" | "ben" | "hin" | "kan" | "mal" | "tam" | "tel")
        );
        let m = self
            .find(&f.number, a, b, start)
            .or_else(|| {
                if european {
                    self.find(&f.number2, a, b, start)
                } else {
                    None
                }
            })
            .or_else(|| self.find(&f.integer, a, b, start))?;
        // A sign after a letter, digit, % or period is a range or an operator (3.5%-5.5%).
        let (mut s, e) = m;
        if "-−–+".contains(self.s.chars[a + s]) && self.sign_is_operator(a + s) {
            s += 1;
        }
        Some(self.found(a, (s, e), ChartType::Number))
    }

    /// utoken's `.*(?:\d[%']?|\pL\pM*|[.])$` on the whole sentence before position `g`.
    fn sign_is_operator(&self, g: usize) -> bool {
        let whole = Seg {
            chars: &self.s.chars,
            bits: self.s.bits.view(),
        };
        g > 0
            && (whole.is(g - 1, ND)
                || (g > 1 && "%'".contains(self.s.chars[g - 1]) && whole.is(g - 2, ND))
                || whole.letter_marks_before(g)
                || self.s.chars[g - 1] == '.')
    }

    pub(super) fn complex_names(&mut self, a: usize, b: usize) -> Option<Found> {
        let f = &*FIXED;
        if self.lv() & self.seg_lv & chars::DASH == 0 {
            return None;
        }
        self.find(&f.dash_letters_dash, a, b, |s, p| s.in_set(p, "-−–"))?;
        let m = self.find(&f.multi_dash_name, a, b, |s, p| s.is(p, chars::LU))?;
        Some(self.found(a, m, ChartType::LexicalN))
    }

    /// Step 17: existing `@…@` mark-up tokens, then dashes between words (`peace-loving`).
    pub(super) fn mt_punct(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.lv() & chars::ATTACH_TAG != 0 {
            let bits = self.s.bits.range(a..b);
            let mut i = 0;
            while i < bits.len() {
                if bits[i] & chars::SPACE != 0 {
                    i += 1;
                    continue;
                }
                let st = i;
                while i < bits.len() && bits[i] & chars::SPACE == 0 {
                    i += 1;
                }
                if self.is_markup_token(self.text(a + st, a + i)) {
                    return Some(self.found(a, (st, i), ChartType::PunctMt));
                }
            }
        }
        if self.seg_lv & chars::DASH == 0 {
            return None;
        }
        // Only starts followed by a dash where the pattern needs one: after two letters
        // (with marks), a digit, or one of !?’.
        let m = self.find(&FIXED.mt_punct, a, b, |s, p| {
            let after = if s.is(p, ND) || s.in_set(p, "!?’") {
                p + 1
            } else if s.is(p, L) {
                let mut i = p + 1;
                while s.is(i, chars::M) {
                    i += 1;
                }
                if !s.is(i, L) {
                    return false;
                }
                i += 1;
                while s.is(i, chars::M) {
                    i += 1;
                }
                i
            } else {
                return false;
            };
            s.is(after, chars::DASH)
        })?;
        Some(self.found(a, m, ChartType::Dash))
    }

    pub(super) fn post_punct(&mut self, a: usize, b: usize) -> Option<Found> {
        if self.seg_lv & ND == 0 {
            return None;
        }
        let m = self.find(&FIXED.integer2, a, b, |s, p| s.is(p, ND))?;
        Some(self.found(a, m, ChartType::Number2))
    }
}

/// utoken's `basic_token_type` for whitespace-split tokens.
pub fn basic_type(surf: &str) -> ChartType {
    basic_type_of(surf.chars().map(|c| (c, chars::bits(c))))
}

/// [`basic_type`] of characters whose class bits are known.
pub fn basic_type_of(chars_bits: impl Iterator<Item = (char, Bits)>) -> ChartType {
    let mut all: Bits = 0;
    let mut symbol = false;
    let mut punct = false;
    for (c, b) in chars_bits {
        all |= b;
        let listed = matches!(c, '-' | '=' | '*' | '+' | '<' | '>' | '^' | '|' | '`');
        symbol |= b & chars::S != 0 && !listed;
        punct |= b & chars::P != 0 || listed;
    }
    if all & chars::L != 0 {
        ChartType::WordB
    } else if all & chars::N != 0 {
        ChartType::NumberB
    } else if symbol {
        ChartType::SymbolB
    } else if punct {
        ChartType::PunctB
    } else {
        ChartType::MiscB
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rules::origin::ChartType;

    #[test]
    fn basic_types() {
        assert_eq!(basic_type("dog"), ChartType::WordB);
        assert_eq!(basic_type("42"), ChartType::NumberB);
        assert_eq!(basic_type("€"), ChartType::SymbolB);
        assert_eq!(basic_type("+"), ChartType::PunctB);
        assert_eq!(basic_type("@-@"), ChartType::PunctB);
        assert_eq!(basic_type("\u{200d}"), ChartType::MiscB);
    }
}
