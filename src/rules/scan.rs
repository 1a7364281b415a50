//! The dictionary steps (10, 15, 18): at each start position, the longest headword first,
//! checked against the entry's own conditions and utoken's general ones.

use std::sync::Arc;

use super::chars::{self, Bits, L, M, ND};
use super::engine::{Found, Run};
use super::origin::ChartType;
use super::pattern::Seg;
use super::resources::{Entry, EntryKind, Side, Trie};

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

impl Run<'_> {
    /// The entry's own conditions: case, contexts on the whole sentence, excluded languages.
    pub(super) fn entry_conditions(&self, entry: &Entry, start: usize, end: usize) -> bool {
        if entry.case_sensitive && entry.s != self.text(start, end) {
            return false;
        }
        if let Some(c) = &entry.left
            && !c.holds(self.left_of(start))
        {
            return false;
        }
        if let Some(c) = &entry.left_not
            && !c.holds(self.left_of(start))
        {
            return false;
        }
        if let Some(c) = &entry.right
            && !c.holds(self.right_of(end))
        {
            return false;
        }
        if let Some(c) = &entry.right_not
            && !c.holds(self.right_of(end))
        {
            return false;
        }
        if let Some(lang) = &self.rules.lang
            && entry.lcode_not.iter().any(|l| l == lang)
        {
            return false;
        }
        true
    }

    /// utoken's general conditions for a candidate `seg[st..end]` of a segment.
    fn general_ok(&self, a: usize, b: usize, st: usize, end: usize) -> bool {
        let seg = self.seg(a, b);
        let n = seg.len();
        let lc0: Bits = if st > 0 { seg.bits[st - 1] } else { 0 };
        let rc0: Bits = if end < n { seg.bits[end] } else { 0 };
        // A token ending in a letter is not followed by a letter.
        if rc0 & chars::ALPHA != 0 && ends_letter(&seg, st, end) {
            return false;
        }
        // Nor by an orphan mark, unless it ends in punctuation.
        if rc0 & chars::MODIFIER != 0 && !seg.is(end - 1, chars::P) {
            return false;
        }
        let lv = self.lv();
        if lv & chars::QUOTE != 0 {
            let starts_letter = seg.is(st, L);
            let ends_apos = APOSTROPHE_PLUS.contains(seg.chars[end - 1]);
            // don't split off c' from 'c'
            if starts_letter && ends_apos && st > 0 && APOSTROPHE_PLUS.contains(seg.chars[st - 1]) {
                return false;
            }
            // don't split off 'd from 'd'
            if APOSTROPHE_PLUS.contains(seg.chars[st])
                && ends_letter(&seg, st, end)
                && end < n
                && APOSTROPHE_PLUS.contains(seg.chars[end])
            {
                return false;
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
                return false;
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
                return false;
            }
            if lc0 & chars::ATTACH_TAG != 0 && is_markup() && second_blank((st >= 2).then_some(1)) {
                return false;
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
                    return false;
                }
            }
            if token == ['\''] && lc0 & chars::HEBREW_BLOCK != 0 {
                return false;
            }
        }
        true
    }

    fn abbrev_ok(&self, a: usize, b: usize, st: usize, end: usize, entry: &Entry) -> bool {
        if entry.sem_class.as_deref() == Some("currency-unit") {
            return true;
        }
        let seg = self.seg(a, b);
        if ends_letter_or_digit(&seg, st, end)
            && seg.is(end, chars::DASH | chars::PY_DIGIT)
            && starts_dashed_digit(&seg, end)
        {
            let allowed = ends_letter(&seg, st, end)
                && entry
                    .right
                    .as_ref()
                    .is_some_and(|c| c.holds(self.text(a + end, b)));
            if !allowed {
                return false;
            }
        }
        if seg.chars[end - 1] == '.' && seg.is(end, L) {
            // `\pL\pM*(?!\pL|\pM)`: a single letter (with its marks) follows.
            let mut j = end + 1;
            while seg.is(j, M) {
                j += 1;
            }
            if !seg.is(j, L) && seg.bits[end] & (chars::HANGUL | chars::INDIC) == 0 {
                return false;
            }
        }
        if st > 0
            && seg.chars[st - 1] == '.'
            && seg.chars[st..end].contains(&'.')
            && st >= 2
            && ends_letter(&seg, 0, st - 1)
        {
            return false;
        }
        true
    }

    fn lexical_ok(&self, a: usize, b: usize, st: usize, end: usize, entry: &Entry) -> bool {
        let seg = self.seg(a, b);
        let right_holds = || {
            entry
                .right
                .as_ref()
                .is_some_and(|c| c.holds(self.text(a + end, b)))
        };
        let left_holds = || {
            entry
                .left
                .as_ref()
                .is_some_and(|c| c.holds(self.text(a, a + st)))
        };
        if ends_letter_or_digit(&seg, st, end) && seg.is(end, L | ND) {
            let ok =
                (ends_letter(&seg, st, end) && starts_dashed_digit(&seg, end) && right_holds())
                    || (ends_digit(&seg, st, end) && seg.is(end, L) && right_holds());
            if !ok {
                return false;
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
                    && seg.bits[st] & (chars::INDIC | chars::HANGUL) != 0);
            if !ok {
                return false;
            }
        }
        // don't split off d' from d's
        if APOSTROPHE_PLUS.contains(seg.chars[end - 1])
            && end < seg.len()
            && matches!(seg.chars[end], 's' | 'S' | 'ſ')
            && !seg.is(end + 1, L | ND)
        {
            return false;
        }
        true
    }

    /// The nodes of `trie` reached by the lower-cased text from `st`, deepest first: the
    /// candidate ends, longest first.
    fn walk(&self, trie: &Trie, lower: &[char], st: usize) -> Vec<(usize, u32)> {
        let mut ends = Vec::new();
        let mut node = trie.root();
        for (i, &c) in lower[st..].iter().enumerate() {
            match trie.step(node, c) {
                Some(next) => {
                    node = next;
                    if !trie.entries[node as usize].is_empty() {
                        ends.push((st + i + 1, node));
                    }
                }
                None => break,
            }
        }
        ends.reverse();
        ends
    }

    /// Step 10: abbreviations, contractions, repairs, priority lexical entries.
    pub(super) fn resource_entries(&mut self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b).into_owned();
        let bits = &self.s.bits[a..b];
        let mut last: Bits = 0;
        for st in 0..b - a {
            let cur = bits[st];
            if cur & chars::MODIFIER != 0
                || (last & chars::ALPHA != 0 && cur & chars::ALPHA != 0)
                || (last & chars::PY_DIGIT != 0 && cur & chars::PY_DIGIT != 0)
            {
                continue;
            }
            for (end, node) in self.walk(&res.main, &lower, st) {
                if !self.general_ok(a, b, st, end) {
                    continue;
                }
                for &id in &res.main.entries[node as usize] {
                    let entry = &res.entries[id as usize];
                    if !self.entry_conditions(entry, a + st, a + end) {
                        continue;
                    }
                    let text = self.text(a + st, a + end);
                    let found = match entry.kind {
                        EntryKind::Abbrev if self.abbrev_ok(a, b, st, end, entry) => {
                            self.entry_found(st, end, text, ChartType::Abbrev, entry, id)
                        }
                        EntryKind::LexicalPriority => {
                            let t = if entry.sem_class.as_deref() == Some("url") {
                                ChartType::UrlL
                            } else {
                                ChartType::LexicalP
                            };
                            self.entry_found(st, end, text, t, entry, id)
                        }
                        EntryKind::Contraction | EntryKind::Repair => {
                            let (t, splits) = if entry.kind == EntryKind::Contraction {
                                (ChartType::Decontraction, entry.char_splits.as_deref())
                            } else {
                                (ChartType::Repair, None)
                            };
                            let target = entry.target.as_deref().unwrap_or("");
                            let pieces = map_contraction(text, &entry.s, target, st, splits);
                            Found {
                                tokens: pieces,
                                chart_type: t,
                                sem_class: entry.sem_class.clone(),
                                entry: Some(id),
                                left_done: true,
                            }
                        }
                        _ => continue,
                    };
                    return Some(found);
                }
            }
            last = cur;
        }
        None
    }

    fn entry_found(
        &self,
        st: usize,
        end: usize,
        text: &str,
        chart_type: ChartType,
        entry: &Entry,
        id: u32,
    ) -> Found {
        Found {
            tokens: vec![(st as u32, (end - st) as u32, text.to_string())],
            chart_type,
            sem_class: entry.sem_class.clone(),
            entry: Some(id),
            left_done: true,
        }
    }

    /// Step 15: ordinary lexical entries.
    pub(super) fn lexical_entries(&mut self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b).into_owned();
        let bits = &self.s.bits[a..b];
        let mut last: Bits = 0;
        for st in 0..b - a {
            let cur = bits[st];
            if cur & chars::MODIFIER != 0 || (last & chars::ALPHA != 0 && cur & chars::ALPHA != 0) {
                continue;
            }
            for (end, node) in self.walk(&res.lexical, &lower, st) {
                if !self.general_ok(a, b, st, end) {
                    continue;
                }
                for &id in &res.lexical.entries[node as usize] {
                    let entry = &res.entries[id as usize];
                    if self.entry_conditions(entry, a + st, a + end)
                        && self.lexical_ok(a, b, st, end, entry)
                    {
                        let t = match &entry.tag {
                            Some(tag) => ChartType::Tag(Arc::clone(tag)),
                            None => ChartType::Lexical,
                        };
                        let text = self.text(a + st, a + end);
                        return Some(self.entry_found(st, end, text, t, entry, id));
                    }
                }
            }
            last = cur;
        }
        None
    }

    /// Step 18: punct-split entries (side and grouping).
    pub(super) fn punct_entries(&mut self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b).into_owned();
        let chars_ = &self.s.chars[a..b];
        let n = b - a;
        for st in 0..n {
            if !res.punct_first.contains(&lower[st]) {
                continue;
            }
            for (end, node) in self.walk(&res.punct, &lower, st) {
                // utoken looks the candidate up without lower-casing it.
                if chars_[st..end] != lower[st..end] {
                    continue;
                }
                if !self.general_ok(a, b, st, end) {
                    continue;
                }
                for &id in &res.punct.entries[node as usize] {
                    let entry = &res.entries[id as usize];
                    // A group takes the run of its last character (utoken extends one
                    // character at a time; the run's end is looked up instead).
                    let end2 = if entry.group {
                        (self.run_end(a + end - 1) - a).clamp(end, n)
                    } else {
                        end
                    };
                    if !self.entry_conditions(entry, a + st, a + end2) {
                        continue;
                    }
                    let chart_type = match entry.side {
                        Side::Both => ChartType::Punct,
                        Side::Start
                            if st == 0 || self.s.bits[a + st - 1] & chars::PY_SPACE != 0 =>
                        {
                            ChartType::PunctS
                        }
                        Side::End if end2 == n || self.s.bits[a + end2] & chars::PY_SPACE != 0 => {
                            ChartType::PunctE
                        }
                        _ => continue,
                    };
                    let text = self.text(a + st, a + end2);
                    let mut found = self.entry_found(st, end2, text, chart_type, entry, id);
                    found.left_done = false;
                    return Some(found);
                }
            }
        }
        None
    }
}

/// utoken's `map_contraction`: splits the matched text into the target's tokens, each with
/// the characters it covers and the case of the text (`WON'T` → `WILL N'T`).
pub fn map_contraction(
    text: &str,
    source: &str,
    target: &str,
    start: usize,
    char_splits: Option<&[usize]>,
) -> Vec<(u32, u32, String)> {
    let chars: Vec<char> = text.chars().collect();
    if let Some(splits) = char_splits {
        let targets: Vec<&str> = target
            .split(super::line::is_space)
            .filter(|t| !t.is_empty())
            .collect();
        let mut out = Vec::new();
        let mut pos = 0;
        for (i, &n) in splits.iter().enumerate() {
            let n = n.min(chars.len().saturating_sub(pos));
            let piece: String = chars[pos..pos + n].iter().collect();
            let t = targets.get(i).copied().unwrap_or("");
            out.push(((start + pos) as u32, n as u32, adjust_case(t, &piece)));
            pos += n;
        }
        return out;
    }
    if !source.contains(' ') && !target.contains(' ') {
        return vec![(start as u32, chars.len() as u32, adjust_case(target, text))];
    }
    let mut token: Vec<char> = chars;
    let mut source: Vec<char> = source.chars().collect();
    let mut target: String = target.to_string();
    let mut start_position = start;
    let mut end_position = start + token.len();
    let mut front: Vec<(u32, u32, String)> = Vec::new();
    let mut back: Vec<(u32, u32, String)> = Vec::new();
    let is_space = super::line::is_space;
    while !token.is_empty() {
        let elements: Vec<String> = target
            .split(is_space)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        let ends_with = |src: &[char], el: &str| {
            let el: Vec<char> = el.chars().collect();
            src.len() >= el.len() && src[src.len() - el.len()..] == el[..]
        };
        let starts_with = |src: &[char], el: &str| {
            let el: Vec<char> = el.chars().collect();
            src.len() >= el.len() && src[..el.len()] == el[..]
        };
        if let Some(last) = elements.last().filter(|el| ends_with(&source, el)) {
            let len = last.chars().count();
            let len_tok = len.min(token.len());
            let piece: String = token[token.len() - len_tok..].iter().collect();
            back.insert(
                0,
                (
                    (end_position - len_tok) as u32,
                    len_tok as u32,
                    adjust_case(last, &piece),
                ),
            );
            end_position -= len_tok;
            token.truncate(token.len() - len_tok);
            source.truncate(source.len().saturating_sub(len));
            let keep = target.chars().count().saturating_sub(len);
            target = target
                .chars()
                .take(keep)
                .collect::<String>()
                .trim_end_matches(is_space)
                .to_string();
            while token.last() == Some(&' ') {
                end_position -= 1;
                token.pop();
                if target.ends_with(' ') {
                    target.pop();
                }
            }
        } else if let Some(first) = elements.first().filter(|el| starts_with(&source, el)) {
            let len = first.chars().count();
            let len_tok = len.min(token.len());
            let piece: String = token[..len_tok].iter().collect();
            front.push((
                start_position as u32,
                len_tok as u32,
                adjust_case(first, &piece),
            ));
            start_position += len_tok;
            token.drain(..len_tok);
            source.drain(..len.min(source.len()));
            target = target
                .chars()
                .skip(len)
                .collect::<String>()
                .trim_start_matches(is_space)
                .to_string();
            while token.first() == Some(&' ') {
                start_position += 1;
                token.remove(0);
                if target.starts_with(' ') {
                    target.remove(0);
                }
            }
        } else if !elements.is_empty() {
            let piece: String = token.iter().collect();
            front.push((
                start_position as u32,
                token.len() as u32,
                adjust_case(&target, &piece),
            ));
            token.clear();
        } else {
            break;
        }
    }
    front.extend(back);
    front
}

/// utoken's `adjust_capitalization`: `will` for `Wo` gives `Will`, for `WO` gives `WILL`.
pub fn adjust_case(s: &str, orig: &str) -> String {
    if s == orig {
        return s.to_string();
    }
    let letters = |x: &str| -> String { x.chars().filter(|&c| chars::is(c, L)).collect() };
    let orig_letters: Vec<char> = letters(orig).chars().collect();
    if letters(s) == letters(orig) {
        return s.to_string();
    }
    match orig_letters.as_slice() {
        [first, rest @ ..] if chars::is(*first, chars::UPPER) => {
            if rest.first().is_some_and(|c| chars::is(*c, chars::UPPER)) {
                s.to_uppercase()
            } else {
                // (\P{L}+)(\p{L}.*): keep leading non-letters, capitalize from the first letter.
                let split = s
                    .char_indices()
                    .find(|&(_, c)| chars::is(c, L))
                    .map(|(i, _)| i);
                match split {
                    Some(i) if i > 0 && !s[..i].contains('\n') => {
                        format!("{}{}", &s[..i], chars::capitalize(&s[i..]))
                    }
                    _ => chars::capitalize(s),
                }
            }
        }
        _ => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(
        text: &str,
        source: &str,
        target: &str,
        splits: Option<&[usize]>,
    ) -> Vec<(u32, u32, String)> {
        map_contraction(text, source, target, 0, splits)
    }

    #[test]
    fn contractions_keep_case_and_positions() {
        assert_eq!(
            forms("Can't", "can't", "can n't", None),
            vec![(0, 2, "Can".to_string()), (2, 3, "n't".to_string())]
        );
        assert_eq!(
            forms("WON'T", "won't", "will n't", None),
            vec![(0, 2, "WILL".to_string()), (2, 3, "N'T".to_string())]
        );
        assert_eq!(
            forms("wont", "wont", "will n't", Some(&[2, 2])),
            vec![(0, 2, "will".to_string()), (2, 2, "n't".to_string())]
        );
        assert_eq!(
            forms("Cannot", "cannot", "can not", None),
            vec![(0, 3, "Can".to_string()), (3, 3, "not".to_string())]
        );
        assert_eq!(
            forms("recieve", "recieve", "receive", None),
            vec![(0, 7, "receive".to_string())]
        );
        assert_eq!(
            forms("ca n't", "ca n't", "can n't", None),
            vec![(0, 2, "can".to_string()), (3, 3, "n't".to_string())]
        );
    }

    #[test]
    fn adjust_case_like_utoken() {
        assert_eq!(adjust_case("will", "Wo"), "Will");
        assert_eq!(adjust_case("will", "WO"), "WILL");
        assert_eq!(adjust_case("'tis", "'Tis"), "'Tis");
        assert_eq!(adjust_case("it", "'T"), "It");
        assert_eq!(adjust_case("e.g.", "E.g"), "E.g.");
        assert_eq!(adjust_case("n't", "n't"), "n't");
    }
}
