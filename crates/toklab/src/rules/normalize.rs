//! utoken's first step, character normalization, with every character keeping the byte range
//! of the original text it came from: tokens of the normalized sentence map back to spans of
//! the text as given, whatever was deleted or replaced.
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

use super::chars::{self, Bits};

/// A character of the normalized sentence and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NChar {
    c: char,
    /// Byte range in the original line.
    start: u32,
    end: u32,
    /// Index in utoken's `snt` (the chart's sentence).
    s0: u32,
}

/// A normalized line, as the tokenization steps see it.
#[derive(Clone, Debug, Default)]
pub struct Sentence {
    /// The characters (utoken's `current_s`).
    pub chars: Vec<char>,
    pub bits: Vec<Bits>,
    /// The byte range of each character in the original line.
    pub orig: Vec<(u32, u32)>,
    /// The characters as a string, for the context regexes.
    pub text: String,
    /// Byte offset in `text` of each character index (one more entry for the end).
    pub byte_at: Vec<u32>,
    /// utoken's line vector: the class bits of all characters of the original line (and of
    /// those normalization introduced, where utoken adds them).
    pub lv: Bits,
    /// Whether a capital sigma occurs (its lower case depends on the segment).
    pub has_sigma: bool,
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
pub fn normalize(line: &str, chart: bool) -> (Sentence, Option<ChartMap>) {
    // Most lines have nothing to normalize: one pass builds the sentence.
    let mut sentence = Sentence {
        chars: Vec::with_capacity(line.len()),
        bits: Vec::with_capacity(line.len()),
        orig: Vec::with_capacity(line.len()),
        text: String::new(),
        byte_at: Vec::with_capacity(line.len() + 1),
        lv: 0,
        has_sigma: false,
    };
    for (i, c) in line.char_indices() {
        let b = chars::bits(c);
        sentence.lv |= b;
        sentence.chars.push(c);
        sentence.bits.push(b);
        sentence.orig.push((i as u32, (i + c.len_utf8()) as u32));
        sentence.byte_at.push(i as u32);
        sentence.has_sigma |= c == 'Σ';
    }
    if sentence.lv & TO_NORMALIZE == 0 {
        sentence.byte_at.push(line.len() as u32);
        sentence.text = line.to_string();
        let map = chart.then(|| ChartMap {
            snt: line.to_string(),
            vm: (0..sentence.chars.len() as u32).collect(),
        });
        return (sentence, map);
    }
    normalize_slow(line, chart)
}

/// The general case, each step with its offset bookkeeping.
fn normalize_slow(line: &str, chart: bool) -> (Sentence, Option<ChartMap>) {
    let mut lv: Bits = 0;
    let mut cs: Vec<NChar> = Vec::with_capacity(line.len());
    for (i, c) in line.char_indices() {
        let b = chars::bits(c);
        lv |= b;
        cs.push(NChar {
            c,
            start: i as u32,
            end: (i + c.len_utf8()) as u32,
            s0: 0,
        });
    }
    let mut s0: Option<String> = None;
    let renumber = |cs: &mut Vec<NChar>| {
        for (i, n) in cs.iter_mut().enumerate() {
            n.s0 = i as u32;
        }
    };
    renumber(&mut cs);

    if lv & chars::AMPERSAND != 0 {
        replace_entities(&mut cs);
        lv |= chars::NON_STD_SPACE;
        renumber(&mut cs);
        if chart {
            s0 = Some(cs.iter().map(|n| n.c).collect());
        }
    }
    if lv & chars::MICRO_SIGN != 0 {
        cs.iter_mut().filter(|n| n.c == 'µ').for_each(|n| n.c = 'μ');
    }
    if lv & chars::NON_STD_PUNCT != 0 {
        cs.iter_mut()
            .filter(|n| n.c == '\u{2024}')
            .for_each(|n| n.c = '.');
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
            merge_pairs(&mut cs, a, b, to);
        }
        renumber(&mut cs);
        if chart {
            s0 = Some(cs.iter().map(|n| n.c).collect());
        }
    }
    if lv & (chars::DELETABLE | chars::NON_STD_SPACE) != 0 {
        for n in cs.iter_mut() {
            if ('\u{80}'..='\u{9f}').contains(&n.c)
                && let Some(to) = windows_1252(n.c)
            {
                n.c = to;
            }
        }
        // Ethiopic wordspace → space unless next to another or before a hyphen.
        let ethiopic: Vec<usize> = (0..cs.len())
            .filter(|&i| {
                cs[i].c == '፡'
                    && (i == 0 || cs[i - 1].c != '፡')
                    && cs.get(i + 1).is_none_or(|n| n.c != '-' && n.c != '፡')
            })
            .collect();
        for i in ethiopic {
            cs[i].c = ' ';
        }
        for n in &cs {
            lv |= chars::bits(n.c);
        }
        cs.retain_mut(|n| {
            let b = chars::bits(n.c);
            if b & chars::DELETABLE != 0 {
                return false;
            }
            if n.c != '፡' && b & chars::NON_STD_SPACE != 0 {
                n.c = ' ';
            }
            true
        });
    }
    let map = chart.then(|| ChartMap {
        snt: s0.unwrap_or_else(|| line.to_string()),
        vm: cs.iter().map(|n| n.s0).collect(),
    });
    // U+200B was turned into a space above (it is one of the non-standard spaces).
    if lv & chars::ZWNJ != 0 {
        trim_joiners(&mut cs, '\u{200C}', true);
    }
    if lv & chars::ZWJ != 0 {
        trim_joiners(&mut cs, '\u{200D}', false);
    }
    if lv & chars::VARIATION_SELECTOR != 0 {
        let mut keep = vec![true; cs.len()];
        let mut i = 0;
        while i < cs.len() {
            if chars::is(cs[i].c, chars::VARIATION_SELECTOR) {
                let run_start = i;
                while i < cs.len() && chars::is(cs[i].c, chars::VARIATION_SELECTOR) {
                    i += 1;
                }
                if run_start > 0 && cs[run_start - 1].c < '\u{2190}' {
                    keep[run_start..i].iter_mut().for_each(|k| *k = false);
                }
            } else {
                i += 1;
            }
        }
        let mut k = keep.iter();
        cs.retain(|_| *k.next().unwrap_or(&true));
    }

    let mut sentence = Sentence {
        chars: Vec::with_capacity(cs.len()),
        bits: Vec::with_capacity(cs.len()),
        orig: Vec::with_capacity(cs.len()),
        text: String::with_capacity(line.len()),
        byte_at: Vec::with_capacity(cs.len() + 1),
        lv,
        has_sigma: false,
    };
    for n in &cs {
        sentence.byte_at.push(sentence.text.len() as u32);
        sentence.text.push(n.c);
        sentence.chars.push(n.c);
        sentence.bits.push(chars::bits(n.c));
        sentence.orig.push((n.start, n.end));
        sentence.has_sigma |= n.c == 'Σ';
    }
    sentence.byte_at.push(sentence.text.len() as u32);
    (sentence, map)
}

/// `&#160;`, `&#xA0;`, `&nbsp;` (any case) → U+00A0.
fn replace_entities(cs: &mut Vec<NChar>) {
    const ENTITIES: [&str; 3] = ["&#160;", "&#xa0;", "&nbsp;"];
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        if cs[i].c == '&'
            && let Some(len) = ENTITIES.iter().find_map(|e| {
                let n = e.chars().count();
                (i + n <= cs.len()
                    && e.chars()
                        .zip(&cs[i..i + n])
                        .all(|(p, x)| chars::Fold::Re.eq(p, x.c)))
                .then_some(n)
            })
        {
            out.push(NChar {
                c: '\u{a0}',
                start: cs[i].start,
                end: cs[i + len - 1].end,
                s0: 0,
            });
            i += len;
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    *cs = out;
}

/// Replaces every `a b` pair by `to`, left to right.
fn merge_pairs(cs: &mut Vec<NChar>, a: char, b: char, to: char) {
    if !cs.windows(2).any(|w| w[0].c == a && w[1].c == b) {
        return;
    }
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        if cs[i].c == a && cs.get(i + 1).is_some_and(|n| n.c == b) {
            out.push(NChar {
                c: to,
                start: cs[i].start,
                end: cs[i + 1].end,
                s0: 0,
            });
            i += 2;
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    *cs = out;
}

/// utoken's trimming of zero-width (non-)joiners: mixed runs go (only for the non-joiner
/// pass), repeats collapse, and a joiner at the line's ends or next to whitespace or
/// punctuation goes.
fn trim_joiners(cs: &mut Vec<NChar>, zw: char, mixed_runs: bool) {
    let is_zw = |c: char| c == '\u{200C}' || c == '\u{200D}';
    if mixed_runs {
        for (first, second) in [('\u{200D}', '\u{200C}'), ('\u{200C}', '\u{200D}')] {
            let mut out = Vec::with_capacity(cs.len());
            let mut i = 0;
            while i < cs.len() {
                if is_zw(cs[i].c) {
                    let start = i;
                    while i < cs.len() && is_zw(cs[i].c) {
                        i += 1;
                    }
                    let run = &cs[start..i];
                    let mixed = run.windows(2).any(|w| w[0].c == first && w[1].c == second);
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
    cs.dedup_by(|b, a| a.c == zw && b.c == zw);
    if cs.first().is_some_and(|n| n.c == zw) {
        cs.remove(0);
    }
    if cs.last().is_some_and(|n| n.c == zw) {
        cs.pop();
    }
    let space_or_punct = |c: char| chars::is(c, chars::SPACE | chars::P);
    // zw(\s|\pP) → \1, scanning left to right without overlap.
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        if cs[i].c == zw && cs.get(i + 1).is_some_and(|n| space_or_punct(n.c)) {
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
        if space_or_punct(cs[i].c) && cs.get(i + 1).is_some_and(|n| n.c == zw) {
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
mod tests {
    use super::*;

    fn norm(line: &str) -> Sentence {
        normalize(line, false).0
    }

    #[test]
    fn plain_text_is_unchanged() {
        let s = norm("Hé said.");
        assert_eq!(s.text, "Hé said.");
        assert_eq!(s.orig[1], (1, 3));
        assert_eq!(s.byte_at, vec![0, 1, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn entities_controls_and_spaces() {
        let s = norm("a&NBSP;b\u{ad}c\u{a0}d\u{92}s");
        assert_eq!(s.text, "a bc d’s");
        assert_eq!(s.orig[1], (1, 7));
        assert_eq!(
            s.orig[3],
            (10, 11),
            "c keeps its own bytes after the soft hyphen"
        );
        assert!(
            s.lv & chars::APOSTROPHE != 0,
            "mapped C1 characters join the line vector"
        );
    }

    #[test]
    fn miscodes_and_joiners() {
        assert_eq!(norm("Espa\u{c3}\u{b1}a").text, "España");
        assert_eq!(
            norm("\u{200c}ab\u{200c}\u{200c}c\u{200c} d").text,
            "ab\u{200c}c d"
        );
        assert_eq!(norm("x\u{fe0f}→\u{fe0f}").text, "x→\u{fe0f}");
    }

    #[test]
    fn chart_map_keeps_utokens_offsets() {
        let (s, map) = normalize("e&nbsp;f\u{1}g", true);
        let map = map.unwrap();
        assert_eq!(map.snt, "e\u{a0}f\u{1}g");
        assert_eq!(s.text, "e f g".replace(' ', "").replacen("ef", "e f", 1));
        // g is at position 3 of the sentence and index 4 of snt.
        assert_eq!(map.span(3, 4), (4, 5));
    }
}
