//! utoken's first step, character normalization, as operations on a [`NormalizedString`], so
//! every character keeps the byte range of the original text it came from: tokens of the
//! normalized sentence map back to spans of the text as given, whatever was deleted or
//! replaced.
//!
//! In order, as utoken does it: `&nbsp;`-style entities become U+00A0; `µ` becomes `μ` and
//! U+2024 a period; a few mis-encodings are repaired (`Ã±` → `ñ`); C1 controls are read as
//! Windows-1252; deletable controls go and non-standard spaces become spaces (an Ethiopic
//! wordspace only when not doubled); zero-width (non-)joiners are trimmed at word edges;
//! variation selectors after ordinary characters go. Each step runs only when the line has a
//! character of its kind (utoken's line vector).
//!
//! For the chart, utoken's own offsets are reproduced too: `snt` (the line after the
//! replacements that change its length) and its vertex map, which knows about deleted control
//! characters but not about the later zero-width and variation-selector deletions.

use super::chars::{self, Bits, LineClasses};
use crate::core::normalized::NormalizedString;

/// A normalized line, as the tokenization steps see it: the normalized text (aligned to the
/// line) and, by character index, what the steps look at.
#[derive(Clone, Debug)]
pub struct Sentence<'t> {
    /// The characters (utoken's `current_s`).
    pub chars: Vec<char>,
    /// The classes of each character.
    pub bits: LineClasses,
    /// The normalized line and where each of its characters came from in the line.
    pub normalized: NormalizedString<'t>,
    /// Byte offset in the normalized text of each character index ([`Sentence::byte_at`]).
    offsets: ByteOffsets,
    /// utoken's line vector: the class bits of all characters of the original line (and of
    /// those normalization introduced, where utoken adds them).
    pub lv: Bits,
    /// Whether a capital sigma occurs (its lower case depends on the segment).
    pub has_sigma: bool,
}

impl<'t> Sentence<'t> {
    /// The byte offset in the normalized text of character `i` (the text's length for the
    /// end, `i` = the number of characters).
    #[inline]
    pub fn byte_at(&self, i: usize) -> usize {
        self.offsets.at(i)
    }

    /// The normalized line, for the context regexes.
    pub fn text(&self) -> &str {
        self.normalized.normalized()
    }

    /// The byte span in the line of characters `a..b`; an empty range gives the empty span
    /// where character `a` came from (the end of the line past the last character).
    pub fn span(&self, a: usize, b: usize) -> (usize, usize) {
        if b > a {
            let span = self
                .normalized
                .original_span(self.byte_at(a)..self.byte_at(b));
            return (span.start, span.end);
        }
        let at = if a < self.chars.len() {
            self.normalized.original_offset(self.byte_at(a))
        } else {
            self.normalized.original().len()
        };
        (at, at)
    }

    /// The byte range in the line of each character (for the trace and the chart).
    pub fn char_origins(&self) -> Vec<(u32, u32)> {
        self.normalized
            .char_origins()
            .map(|(_, _, span)| (span.start as u32, span.end as u32))
            .collect()
    }

    /// The per-character view of a normalized line.
    fn new(normalized: NormalizedString<'t>, lv: Bits) -> Sentence<'t> {
        let text = normalized.normalized();
        let mut sentence = Sentence {
            chars: Vec::with_capacity(text.len()),
            bits: LineClasses::with_capacity(text.len()),
            normalized: NormalizedString::new(""),
            offsets: ByteOffsets::default(),
            lv,
            has_sigma: false,
        };
        for c in text.chars() {
            sentence.chars.push(c);
            sentence.bits.push(c);
            sentence.offsets.push(c);
            sentence.has_sigma |= c == 'Σ';
        }
        sentence.normalized = normalized;
        sentence
    }
}

/// The byte offset of each character of a text by its index, in a third of a byte a
/// character rather than four (a long line's characters are many): for each 64 characters the
/// offset of the first, and two bit masks of how many bytes past one each character takes.
#[derive(Clone, Debug, Default)]
struct ByteOffsets {
    /// The byte offset of characters 0, 64, 128, …
    base: Vec<u32>,
    /// Bit `k` of word `w`: character `64 w + k` takes 2 or 4 bytes.
    low: Vec<u64>,
    /// Bit `k` of word `w`: character `64 w + k` takes 3 or 4 bytes.
    high: Vec<u64>,
    /// How many characters there are.
    len: usize,
    /// The text's length in bytes.
    end: u32,
}

impl ByteOffsets {
    /// Adds the text's next character.
    fn push(&mut self, c: char) {
        let k = self.len % 64;
        if k == 0 {
            self.base.push(self.end);
            self.low.push(0);
            self.high.push(0);
        }
        let extra = c.len_utf8() as u64 - 1;
        if let (Some(low), Some(high)) = (self.low.last_mut(), self.high.last_mut()) {
            *low |= (extra & 1) << k;
            *high |= (extra >> 1) << k;
        }
        self.len += 1;
        self.end += c.len_utf8() as u32;
    }

    /// The byte offset of character `i`; the text's length for `i` = its number of characters.
    #[inline]
    fn at(&self, i: usize) -> usize {
        assert!(i <= self.len, "character {i} of {}", self.len);
        if i == self.len || self.end as usize == self.len {
            // The end, or a text of one-byte characters (its offsets are the indices).
            return if i == self.len { self.end as usize } else { i };
        }
        let (w, k) = (i / 64, i % 64);
        let before = (1u64 << k) - 1;
        self.base[w] as usize
            + k
            + (self.low[w] & before).count_ones() as usize
            + 2 * (self.high[w] & before).count_ones() as usize
    }
}

/// utoken's chart offsets for a line: its `snt` and the map from positions of the sentence
/// after control-character deletion to `snt` indices.
#[derive(Clone, Debug, Default)]
pub struct ChartMap {
    pub snt: String,
    /// `snt` index of each character of the post-deletion sentence.
    pub vm: Vec<u32>,
}

impl ChartMap {
    /// utoken's chart span for a token at positions `from..to` of the final sentence (which
    /// utoken maps through `vm` as if no later deletion had happened).
    pub fn span(&self, from: usize, to: usize) -> (u32, u32) {
        let start = self.vm.get(from).copied().unwrap_or(self.vm.len() as u32);
        let end = if to == 0 {
            0
        } else {
            self.vm.get(to - 1).map_or(self.vm.len() as u32, |&i| i + 1)
        };
        (start, end)
    }
}

/// The classes that make a normalization step run.
const TO_NORMALIZE: Bits = chars::AMPERSAND
    | chars::MICRO_SIGN
    | chars::NON_STD_PUNCT
    | chars::MISCODE
    | chars::DELETABLE
    | chars::NON_STD_SPACE
    | chars::ZWNJ
    | chars::ZWJ
    | chars::VARIATION_SELECTOR;

/// Normalizes one line. `chart` also computes utoken's chart offsets.
pub fn normalize(line: &str, chart: bool) -> (Sentence<'_>, Option<ChartMap>) {
    // Most lines have nothing to normalize: one pass builds the sentence, and the normalized
    // text is the line itself (nothing is copied).
    let mut sentence = Sentence {
        chars: Vec::with_capacity(line.len()),
        bits: LineClasses::with_capacity(line.len()),
        normalized: NormalizedString::new(line),
        offsets: ByteOffsets::default(),
        lv: 0,
        has_sigma: false,
    };
    for c in line.chars() {
        sentence.lv |= sentence.bits.push(c);
        sentence.chars.push(c);
        sentence.offsets.push(c);
        sentence.has_sigma |= c == 'Σ';
    }
    if sentence.lv & TO_NORMALIZE == 0 {
        let map = chart.then(|| ChartMap {
            snt: line.to_string(),
            vm: (0..sentence.chars.len() as u32).collect(),
        });
        return (sentence, map);
    }
    // The slow path builds its own sentence: this one goes first, so a long line does not hold
    // both.
    let lv = sentence.lv;
    drop(sentence);
    normalize_slow(line, lv, chart)
}

/// The general case, each step an operation on the normalized line.
fn normalize_slow(line: &str, mut lv: Bits, chart: bool) -> (Sentence<'_>, Option<ChartMap>) {
    let mut text = NormalizedString::new(line);
    // utoken's `snt`: the line after the last replacement that changed its length.
    let mut snt: Option<NormalizedString> = None;

    if lv & chars::AMPERSAND != 0 {
        replace_entities(&mut text);
        lv |= chars::NON_STD_SPACE;
        if chart {
            snt = Some(text.clone());
        }
    }
    if lv & chars::MICRO_SIGN != 0 {
        text.map(|c| if c == 'µ' { 'μ' } else { c });
    }
    if lv & chars::NON_STD_PUNCT != 0 {
        text.map(|c| if c == '\u{2024}' { '.' } else { c });
    }
    if lv & chars::MISCODE != 0 {
        for (a, b, to) in [
            ('¡', '¦', '’'),
            ('¡', '§', '“'),
            ('¡', '¨', '”'),
            ('Â', 'º', 'º'),
            ('Ã', '±', 'ñ'),
            ('Ã', 'º', 'ú'),
            ('Ä', '±', 'ı'),
        ] {
            merge_pairs(&mut text, a, b, to);
        }
        if chart {
            snt = Some(text.clone());
        }
    }
    if lv & (chars::DELETABLE | chars::NON_STD_SPACE) != 0 {
        // One pass, character by character with its neighbours, so a long line needs no
        // list of its characters (nothing is allocated when nothing changes).
        let mut previous = None;
        text.rewrite(|rest, out| {
            let mut rest = rest.chars();
            let original = rest.next().unwrap_or_default();
            let next = rest.next();
            let mut c = original;
            if ('\u{80}'..='\u{9f}').contains(&c)
                && let Some(to) = windows_1252(c)
            {
                c = to;
            }
            // Ethiopic wordspace → space unless next to another or before a hyphen.
            if c == '፡' && previous != Some('፡') && next.is_none_or(|n| n != '-' && n != '፡')
            {
                c = ' ';
            }
            previous = Some(original);
            let b = chars::bits(c);
            lv |= b;
            if b & chars::DELETABLE == 0 {
                out.push(if c != '፡' && b & chars::NON_STD_SPACE != 0 {
                    ' '
                } else {
                    c
                });
            }
            original.len_utf8()
        });
    }
    let map = chart.then(|| chart_map(snt.as_ref().unwrap_or(&NormalizedString::new(line)), &text));
    // U+200B was turned into a space above (it is one of the non-standard spaces).
    if lv & chars::ZWNJ != 0 {
        let zw = |c| c == '\u{200C}' || c == '\u{200D}';
        delete_around(&mut text, zw, |cs, first, last| {
            trim_joiners(cs, '\u{200C}', true, first, last)
        });
    }
    if lv & chars::ZWJ != 0 {
        delete_around(
            &mut text,
            |c| c == '\u{200D}',
            |cs, first, last| trim_joiners(cs, '\u{200D}', false, first, last),
        );
    }
    if lv & chars::VARIATION_SELECTOR != 0 {
        let selector = |c| chars::is(c, chars::VARIATION_SELECTOR);
        delete_around(&mut text, selector, |cs, _, _| drop_selectors(cs));
    }
    (Sentence::new(text, lv), map)
}

/// utoken's chart offsets: `snt` and, for each character of `now` (which only 1→1
/// replacements and deletions separate from `snt`), its index in `snt`.
fn chart_map(snt: &NormalizedString, now: &NormalizedString) -> ChartMap {
    let mut snt_chars = snt.char_origins().enumerate().peekable();
    let mut vm = Vec::with_capacity(now.len());
    for (_, _, origin) in now.char_origins() {
        while snt_chars
            .peek()
            .is_some_and(|(_, (_, _, o))| o.start < origin.start)
        {
            snt_chars.next();
        }
        vm.push(snt_chars.peek().map_or(0, |(i, _)| *i as u32));
    }
    ChartMap {
        snt: snt.normalized().to_string(),
        vm,
    }
}

/// A deleting edit that looks at neighbours (utoken's rules for joiners and selectors), run
/// only over the stretches of the line around the characters `special` picks: `edit` gets each
/// stretch (each character with its index in the line; every special character with both its
/// neighbours) and whether it starts and whether it ends the line, and removes entries. The
/// rules delete only special characters and look no further than a neighbour, so each stretch
/// decides alone; a long line needs no list of all its characters. Kept characters keep their
/// origins.
fn delete_around(
    text: &mut NormalizedString,
    special: impl Fn(char) -> bool,
    mut edit: impl FnMut(&mut Vec<(usize, char)>, bool, bool),
) {
    let mut deleted = Vec::new();
    let mut stretch: Vec<(usize, char)> = Vec::new();
    let mut flush = |stretch: &mut Vec<(usize, char)>, ends_line: bool| {
        if stretch.is_empty() {
            return;
        }
        let before: Vec<usize> = stretch.iter().map(|&(i, _)| i).collect();
        edit(stretch, before[0] == 0, ends_line);
        let mut kept = stretch.iter().map(|&(i, _)| i).peekable();
        for i in before {
            if kept.next_if_eq(&i).is_none() {
                deleted.push(i);
            }
        }
        stretch.clear();
    };
    let mut chars = text.normalized().chars().enumerate().peekable();
    let mut previous_special = false;
    while let Some((i, c)) = chars.next() {
        let this_special = special(c);
        let next_special = chars.peek().is_some_and(|&(_, n)| special(n));
        if this_special || previous_special || next_special {
            stretch.push((i, c));
        } else {
            flush(&mut stretch, false);
        }
        previous_special = this_special;
    }
    flush(&mut stretch, true);
    if deleted.is_empty() {
        return;
    }
    let mut deleted = deleted.into_iter().peekable();
    let mut index = 0;
    text.map_chars(|c, out| {
        if deleted.next_if_eq(&index).is_none() {
            out.push(c);
        }
        index += 1;
    });
}

/// The first character of `rest`, unchanged.
fn keep_one(rest: &str, out: &mut String) -> usize {
    let len = rest.chars().next().map_or(1, char::len_utf8);
    out.push_str(&rest[..len]);
    len
}

/// `&#160;`, `&#xA0;`, `&nbsp;` (any case) → U+00A0.
fn replace_entities(text: &mut NormalizedString) {
    const ENTITIES: [&str; 3] = ["&#160;", "&#xa0;", "&nbsp;"];
    text.rewrite(|rest, out| {
        if rest.starts_with('&') {
            for entity in ENTITIES {
                let mut input = rest.char_indices();
                let matched = entity.chars().try_fold(0, |_, p| match input.next() {
                    Some((i, c)) if chars::Fold::Re.eq(p, c) => Some(i + c.len_utf8()),
                    _ => None,
                });
                if let Some(len) = matched {
                    out.push('\u{a0}');
                    return len;
                }
            }
        }
        keep_one(rest, out)
    });
}

/// Replaces every `a b` pair by `to`, left to right.
fn merge_pairs(text: &mut NormalizedString, a: char, b: char, to: char) {
    let pair: String = [a, b].into_iter().collect();
    let mut to_text = [0u8; 4];
    text.replace(&pair, to.encode_utf8(&mut to_text));
}

/// utoken's removal of variation selectors after characters below U+2190 (the arrows):
/// text that takes no emoji presentation.
fn drop_selectors(cs: &mut Vec<(usize, char)>) {
    let mut keep = vec![true; cs.len()];
    let mut i = 0;
    while i < cs.len() {
        if chars::is(cs[i].1, chars::VARIATION_SELECTOR) {
            let run_start = i;
            while i < cs.len() && chars::is(cs[i].1, chars::VARIATION_SELECTOR) {
                i += 1;
            }
            if run_start > 0 && cs[run_start - 1].1 < '\u{2190}' {
                keep[run_start..i].iter_mut().for_each(|k| *k = false);
            }
        } else {
            i += 1;
        }
    }
    let mut k = keep.iter();
    cs.retain(|_| *k.next().unwrap_or(&true));
}

/// utoken's trimming of zero-width (non-)joiners: mixed runs go (only for the non-joiner
/// pass), repeats collapse, and a joiner at the line's ends or next to whitespace or
/// punctuation goes.
fn trim_joiners(
    cs: &mut Vec<(usize, char)>,
    zw: char,
    mixed_runs: bool,
    starts_line: bool,
    ends_line: bool,
) {
    let is_zw = |c: char| c == '\u{200C}' || c == '\u{200D}';
    if mixed_runs {
        for (first, second) in [('\u{200D}', '\u{200C}'), ('\u{200C}', '\u{200D}')] {
            let mut out = Vec::with_capacity(cs.len());
            let mut i = 0;
            while i < cs.len() {
                if is_zw(cs[i].1) {
                    let start = i;
                    while i < cs.len() && is_zw(cs[i].1) {
                        i += 1;
                    }
                    let run = &cs[start..i];
                    let mixed = run.windows(2).any(|w| w[0].1 == first && w[1].1 == second);
                    if !mixed {
                        out.extend_from_slice(run);
                    }
                } else {
                    out.push(cs[i]);
                    i += 1;
                }
            }
            *cs = out;
        }
    }
    // (zw)zw+ → zw
    cs.dedup_by(|b, a| a.1 == zw && b.1 == zw);
    if starts_line && cs.first().is_some_and(|n| n.1 == zw) {
        cs.remove(0);
    }
    if ends_line && cs.last().is_some_and(|n| n.1 == zw) {
        cs.pop();
    }
    let space_or_punct = |c: char| chars::is(c, chars::SPACE | chars::P);
    // zw(\s|\pP) → \1, scanning left to right without overlap.
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        if cs[i].1 == zw && cs.get(i + 1).is_some_and(|n| space_or_punct(n.1)) {
            out.push(cs[i + 1]);
            i += 2;
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    *cs = out;
    // (\s|\pP)zw → \1
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        if space_or_punct(cs[i].1) && cs.get(i + 1).is_some_and(|n| n.1 == zw) {
            out.push(cs[i]);
            i += 2;
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    *cs = out;
}

/// The Windows-1252 reading of a C1 control character (unassigned ones stay).
fn windows_1252(c: char) -> Option<char> {
    Some(match c as u32 {
        0x80 => '\u{20AC}',
        0x82 => '\u{201A}',
        0x83 => '\u{0192}',
        0x84 => '\u{201E}',
        0x85 => '\u{2026}',
        0x86 => '\u{2020}',
        0x87 => '\u{2021}',
        0x88 => '\u{02C6}',
        0x89 => '\u{2030}',
        0x8A => '\u{0160}',
        0x8B => '\u{2039}',
        0x8C => '\u{0152}',
        0x8E => '\u{017D}',
        0x91 => '\u{2018}',
        0x92 => '\u{2019}',
        0x93 => '\u{201C}',
        0x94 => '\u{201D}',
        0x95 => '\u{2022}',
        0x96 => '\u{2013}',
        0x97 => '\u{2014}',
        0x98 => '\u{02DC}',
        0x99 => '\u{2122}',
        0x9A => '\u{0161}',
        0x9B => '\u{203A}',
        0x9C => '\u{0153}',
        0x9E => '\u{017E}',
        0x9F => '\u{0178}',
        _ => return None,
    })
}

#[cfg(test)]
#[path = "normalize_tests.rs"]
mod tests;
