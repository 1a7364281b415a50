//! Load-time expansion: one line of a resource file becomes several entry lines, exactly as
//! utoken expands them (apostrophe and hyphen variants, `::plural`, `::inflections`,
//! `::alt-spelling`, spaced abbreviations as repairs, `::last-char-repeatable`,
//! `::misspelling` as repairs), so the same file gives the same entries here as there.
//!
//! The phases run in utoken's order; each phase sees the lines of the phases before it. The
//! line surgery uses utoken's own patterns (on the `regex` crate, whose leftmost-first groups
//! are those of a backtracking engine), including their quirks: removing `::plural +s` also
//! removes every slot after it unless the value is one character long.

use std::sync::LazyLock;

use regex::Regex;

use super::line::{slot_value, split_list};

/// `\s` of Python's `re` module (its `str.isspace()`).
const RE_S: &str = r"[\s\x1C-\x1F]";
/// `\S` of Python's `re` module.
const RE_NS: &str = r"[^\s\x1C-\x1F]";

struct Patterns {
    with_target: Regex,
    head_rest: Regex,
    head_slots: Regex,
    abbrev_lexical: Regex,
    has_period: Regex,
    spaced: Regex,
    suffix_lemma: Regex,
    misspelled_head: Regex,
}

static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| {
    let re = |p: &str| Regex::new(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    Patterns {
        with_target: re(r"^(::\S+\s+)(\S|\S.*?\S)(\s+::target\s+)(\S|\S.*?\S)(\s+::\S.*|\s*)$"),
        head_rest: re(r"^(::\S+\s+)(\S|\S.*?\S)(\s+::\S.*|\s*)$"),
        head_slots: re(r"^(::\S+\s+)(\S|\S.*?\S)(\s+::\S.*)$"),
        abbrev_lexical: re(r"^::(abbrev|lexical)\s+(\S|\S.*?\S)(\s+::\S.*)$"),
        has_period: re(r"^.*[.·] ?\S"),
        spaced: re(r"^((?:\pL\pM*|\d|[-_])+) ?([.·]) ?((?:\pL|\d).*)$"),
        suffix_lemma: re(r"^((?:\pL\pM*)+)/(.*)$"),
        misspelled_head: re(r"^(::(?:abbrev|lexical)\s+)(\S|\S.*?\S)(\s+::\S.*)$"),
    }
});

/// Removes `::slot VALUE` and, unless VALUE is a single character, everything after it
/// (utoken's `re.sub(r'::slot\s+(?:\S|\S.*\S)\s*(::\S.*|)$', r'\1', line)`).
fn remove_slot(line: &str, slot: &str) -> String {
    static CACHE: LazyLock<std::sync::Mutex<std::collections::HashMap<String, Regex>>> =
        LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let re = cache.entry(slot.to_string()).or_insert_with(|| {
        Regex::new(&format!(
            r"::{}{RE_S}+(?:{RE_NS}|{RE_NS}.*{RE_NS}){RE_S}*(::{RE_NS}.*|)$",
            regex::escape(slot)
        ))
        .expect("slot removal pattern")
    });
    re.replace_all(line, "${1}").into_owned()
}

/// The expansions of one line (comment already removed), the line itself first: each step
/// adds variants of every line so far, in utoken's order.
pub fn expand(line: &str) -> Vec<String> {
    let mut lines = vec![line.to_string()];
    apostrophes(line, &mut lines);
    hyphens(&mut lines);
    new_headwords(&mut lines);
    spaced_abbreviations(&mut lines);
    repeated_last_chars(&mut lines);
    misspellings(&mut lines);
    lines
}

/// Step 1, apostrophe: copies with ’ and ‘ (the target too), except for punct-split.
fn apostrophes(line: &str, lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    if line.contains('\'') && !line.contains("::punct-split") {
        if let Some(m) = p.with_target.captures(line) {
            if m[2].contains('\'') {
                for repl in ["’", "‘"] {
                    lines.push(format!(
                        "{}{}{}{}{}",
                        &m[1],
                        m[2].replace('\'', repl),
                        &m[3],
                        m[4].replace('\'', repl),
                        &m[5]
                    ));
                }
            }
        } else if let Some(m) = p.head_rest.captures(line)
            && m[2].contains('\'')
        {
            for repl in ["’", "‘"] {
                lines.push(format!("{}{}{}", &m[1], m[2].replace('\'', repl), &m[3]));
            }
        }
    }
}

/// Step 2, hyphen: copies with en dash and Armenian hyphen.
fn hyphens(lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    for i in 0..lines.len() {
        let current = lines[i].clone();
        if current.contains('-')
            && let Some(m) = p.head_rest.captures(&current)
            && m[2].contains('-')
        {
            for repl in ["–", "֊"] {
                lines.push(format!("{}{}{}", &m[1], m[2].replace('-', repl), &m[3]));
            }
        }
    }
}

/// Steps 3–5, `::plural`, `::inflections`, `::alt-spelling`: new headwords.
fn new_headwords(lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    for slot in ["plural", "inflections", "alt-spelling"] {
        for i in 0..lines.len() {
            let current = lines[i].clone();
            let Some(values) = slot_value(&current, slot).filter(|v| !v.is_empty()) else {
                continue;
            };
            for value in split_list(values) {
                let Some(m) = p.head_slots.captures(&current) else {
                    continue;
                };
                let head = match (slot, value) {
                    ("plural", "+s") => format!("{}s", &m[2]),
                    ("alt-spelling", "+hyphen") => m[2].replace(' ', "-"),
                    _ => value.to_string(),
                };
                let new = format!("{}{}{}", &m[1], head, &m[3]);
                lines.push(remove_slot(&new, slot));
            }
        }
    }
}

/// Step 6, abbreviations and lexical items with periods: spaced variants repair to the entry.
fn spaced_abbreviations(lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    for i in 0..lines.len() {
        let current = lines[i].clone();
        let Some(m) = p.abbrev_lexical.captures(&current) else {
            continue;
        };
        let word = &m[2];
        if p.has_period.is_match(word)
            && slot_value(&current, "sem-class") != Some("url")
            && (current.starts_with("::abbrev ") || current.starts_with("::lexical "))
        {
            for spaced in spaced_variants(word) {
                if spaced != word {
                    lines.push(format!("::repair {spaced} ::target {word}{}", &m[3]));
                }
            }
        }
    }
}

/// Step 7, `::last-char-repeatable`: 127 copies with the last character repeated.
fn repeated_last_chars(lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    for i in 0..lines.len() {
        let current = lines[i].clone();
        if slot_value(&current, "last-char-repeatable").is_none_or(|v| v.is_empty()) {
            continue;
        }
        let Some(m) = p.head_slots.captures(&current) else {
            continue;
        };
        let mut word = m[2].to_string();
        let Some(last) = word.chars().last() else {
            continue;
        };
        for _ in 0..127 {
            word.push(last);
            let new = format!("{}{}{}", &m[1], word, &m[3]);
            lines.push(remove_slot(&new, "last-char-repeatable"));
        }
    }
}

/// Step 8, `::misspelling`: repairs to the target (with suffix variations), or to the headword.
fn misspellings(lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    for i in 0..lines.len() {
        let current = lines[i].clone();
        if current.starts_with("::misspelling") {
            misspelling_entry(&current, lines);
        } else if let Some(values) = slot_value(&current, "misspelling").filter(|v| !v.is_empty()) {
            for value in split_list(values) {
                if let Some(m) = p.misspelled_head.captures(&current) {
                    let new = format!("::repair {value} ::target {}{}", &m[2], &m[3]);
                    lines.push(remove_slot(&new, "misspelling"));
                }
            }
        }
    }
}

/// A `::misspelling` entry: repairs of the misspelling to the target, and of each suffix
/// variation of the one to the same variation of the other.
fn misspelling_entry(current: &str, lines: &mut Vec<String>) {
    let p = &*PATTERNS;
    let misspelling = slot_value(current, "misspelling").unwrap_or("");
    let target = slot_value(current, "target").unwrap_or("");
    if misspelling.is_empty() || target.is_empty() {
        return;
    }
    let mut rest = current.trim_end_matches(super::line::is_space).to_string();
    for slot in ["misspelling", "target", "suffix-variations"] {
        rest = remove_slot(&rest, slot);
    }
    let raw = slot_value(current, "suffix-variations").unwrap_or("");
    let (lemma_suffix, variations): (&str, Vec<&str>) =
        match p.suffix_lemma.captures(raw).filter(|_| !raw.is_empty()) {
            Some(m) => {
                let (suffix, list) = (m.get(1).map_or("", |g| g.as_str()), m.get(2));
                (suffix, split_list(list.map_or("", |g| g.as_str())))
            }
            None if raw.is_empty() => ("", Vec::new()),
            None => ("", split_list(raw)),
        };
    let strip = |w: &str| -> String {
        if !lemma_suffix.is_empty() && w.ends_with(lemma_suffix) {
            w[..w.len() - lemma_suffix.len()].to_string()
        } else {
            w.to_string()
        }
    };
    let (m_stem, t_stem) = (strip(misspelling), strip(target));
    let mut pairs = vec![(misspelling.to_string(), target.to_string())];
    for v in variations {
        pairs.push((format!("{m_stem}{v}"), format!("{t_stem}{v}")));
    }
    for (m, t) in pairs {
        lines.push(format!("::repair {m} ::target {t} {rest}"));
    }
}

/// `e.g.` → `e.g.`, `e. g.` (utoken's `abbrev_space_expansions`; `·` gets spaces on both sides).
fn spaced_variants(word: &str) -> Vec<String> {
    let Some(m) = PATTERNS.spaced.captures(word) else {
        return vec![word.to_string()];
    };
    let (first, punct) = (&m[1], &m[2]);
    let mut out = Vec::new();
    for sub in spaced_variants(&m[3]) {
        out.push(format!("{first}{punct}{sub}"));
        if punct == "·" {
            out.push(format!("{first} {punct} {sub}"));
        } else {
            out.push(format!("{first}{punct} {sub}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apostrophe_and_hyphen_variants() {
        let got = expand("::contraction can't ::target can n't ::lcode eng");
        assert_eq!(
            got,
            vec![
                "::contraction can't ::target can n't ::lcode eng",
                "::contraction can’t ::target can n’t ::lcode eng",
                "::contraction can‘t ::target can n‘t ::lcode eng",
            ]
        );
        let got = expand("::lexical T-shirt ::lcode eng");
        assert_eq!(got.len(), 3);
        assert_eq!(got[1], "::lexical T–shirt ::lcode eng");
        assert_eq!(expand("::punct-split ' ::side both").len(), 1);
    }

    #[test]
    fn plural_removal_keeps_utokens_quirk() {
        let got = expand("::abbrev km ::plural +s ::sem-class unit");
        assert_eq!(got[1], "::abbrev kms ");
        let got = expand("::abbrev x ::plural y ::sem-class unit");
        assert_eq!(got[1], "::abbrev y ::sem-class unit");
    }

    #[test]
    fn periods_become_spaced_repairs() {
        let got = expand("::abbrev e.g. ::exp for example");
        assert_eq!(
            got,
            vec![
                "::abbrev e.g. ::exp for example".to_string(),
                "::repair e. g. ::target e.g. ::exp for example".to_string(),
            ]
        );
        assert_eq!(
            spaced_variants("a.b.c."),
            vec!["a.b.c.", "a. b.c.", "a.b. c.", "a. b. c."]
        );
    }

    #[test]
    fn misspellings_with_suffix_variations() {
        let got =
            expand("::misspelling accomodate ::target accommodate ::suffix-variations e/ed;es");
        assert_eq!(
            &got[1..],
            [
                "::repair accomodate ::target accommodate ",
                "::repair accomodated ::target accommodated ",
                "::repair accomodates ::target accommodates ",
            ]
        );
        let got = expand("::lexical Mississippi ::misspelling Missisippi ::lcode eng");
        assert_eq!(got[1], "::repair Missisippi ::target Mississippi ");
    }

    #[test]
    fn last_char_repeatable() {
        let got = expand("::lexical :) ::last-char-repeatable True ::sem-class emoticon");
        assert_eq!(got.len(), 128);
        assert_eq!(got[1], "::lexical :)) ");
    }
}
