//! Reading `tok-resource*.txt` files: each line (after utoken's expansions) becomes entries
//! of the dictionary steps, or diagnostics where utoken would skip or misread it.

use std::path::Path;
use std::sync::Arc;

use super::{Entry, EntryKind, EntryLine, Resources, SplitSide};
use crate::core::token::SourceLoc;
use crate::engines::rules::chars;
use crate::engines::rules::diag::Diagnostic;
use crate::engines::rules::line::{self, FileRole, column, flag, slot_span, slot_value};

impl Resources {
    /// Loads a tokenizer resource file (`tok-resource*.txt`).
    pub fn load_tok_text(&mut self, path: &Path, text: &str) {
        let file: Arc<str> = Arc::from(path.display().to_string());
        self.read_entry_lines(
            path,
            text,
            FileRole::Tok,
            |_| false,
            |res, line| {
                res.tok_entry(path, &file, &line);
            },
        );
    }

    /// The entry of one (expanded) line of a tokenizer file, if it makes one.
    fn tok_entry(&mut self, path: &Path, file: &Arc<str>, line: &EntryLine) {
        let (number, raw, text) = (line.number, line.raw, line.text.as_str());
        let first = line.expansion == 0;
        if !text.starts_with("::") {
            if first {
                self.diagnostics.push(Diagnostic::error(
                    path,
                    number,
                    1,
                    "the line does not start with `::`; utoken ignores it",
                ));
            }
            return;
        }
        let head_len = text[2..].find(line::is_space).map_or(text.len(), |i| i + 2);
        let head = &text[2..head_len];
        let s = slot_value(text, head).unwrap_or("").to_string();
        let Some(kind) = entry_kind(head, text, &s) else {
            return;
        };
        // utoken loads such an entry (and counts it), so it is loaded too; it is reported
        // because it can never match.
        if s.is_empty() && first {
            self.diagnostics.push(Diagnostic::warning(
                path,
                number,
                1,
                format!(
                    "`::{head}` has no text (the headword is empty): the entry can never match"
                ),
            ));
        }
        let target = match kind {
            EntryKind::Contraction | EntryKind::Repair => {
                slot_value(text, "target").map(str::to_string)
            }
            _ => None,
        };
        if target.as_deref() == Some("") {
            self.slot_error(
                path,
                line,
                "target",
                "`::target` is empty: the entry's text would vanish from the output".into(),
            );
        }
        let char_splits = if kind == EntryKind::Contraction {
            self.char_splits(text, &s, target.as_deref(), path, number, raw)
        } else {
            None
        };
        let side = if kind == EntryKind::PunctSplit {
            self.split_side(path, line)
        } else {
            SplitSide::Both
        };
        let entry = Entry {
            kind,
            s,
            target,
            char_splits,
            sem_class: slot_value(text, "sem-class")
                .filter(|v| !v.is_empty())
                .map(Arc::from),
            tag: slot_value(text, "tag")
                .filter(|v| !v.is_empty())
                .map(Arc::from),
            cond: self.conditions_of(text, path, number, raw, !first),
            side,
            group: flag(text, "group"),
            loc: SourceLoc {
                file: file.clone(),
                line: number,
            },
            expanded: !first,
        };
        self.add_entry(entry, text);
    }

    /// Reports an error in a slot of the line as written, once for the line rather than for
    /// each of its expansions.
    fn slot_error(&mut self, path: &Path, line: &EntryLine, slot: &str, message: String) {
        if line.expansion == 0 {
            let raw = line.raw;
            let col = slot_span(raw, slot).map_or(0, |(st, _)| column(raw, st));
            self.diagnostics
                .push(Diagnostic::error(path, line.number, col, message));
        }
    }

    /// The side a `::punct-split` entry splits on; an unknown side is reported and never splits.
    fn split_side(&mut self, path: &Path, line: &EntryLine) -> SplitSide {
        match slot_value(&line.text, "side").unwrap_or("") {
            "start" => SplitSide::Start,
            "end" => SplitSide::End,
            "both" => SplitSide::Both,
            other => {
                self.slot_error(
                    path,
                    line,
                    "side",
                    format!("`::side {other}` is not start, end or both; the entry never splits"),
                );
                SplitSide::Other
            }
        }
    }

    fn char_splits(
        &mut self,
        line: &str,
        s: &str,
        target: Option<&str>,
        path: &Path,
        number: usize,
        raw: &str,
    ) -> Option<Vec<usize>> {
        let value = slot_value(line, "char-split").filter(|v| !v.is_empty())?;
        let col = slot_span(raw, "char-split").map_or(0, |(st, _)| column(raw, st));
        let parsed: Option<Vec<usize>> = value
            .split(',')
            .map(|p| p.trim_matches(line::is_space).parse().ok())
            .collect();
        let Some(splits) = parsed else {
            self.diagnostics.push(Diagnostic::error(
                path,
                number,
                col,
                format!("`::char-split {value}` is not a list of comma-separated integers (utoken stops on it); ignored"),
            ));
            return None;
        };
        let targets = target.map_or(0, |t| t.split_whitespace().count());
        if targets != splits.len() {
            self.diagnostics.push(Diagnostic::error(
                path,
                number,
                col,
                format!("`::char-split` has {} numbers for {targets} target tokens (utoken stops on it); ignored", splits.len()),
            ));
            return None;
        }
        if splits.contains(&0) {
            self.diagnostics.push(Diagnostic::error(
                path,
                number,
                col,
                format!("`::char-split {value}` has a part of 0 characters, which would be an empty token; ignored"),
            ));
            return None;
        }
        // Summed with a check: numbers near usize::MAX must not wrap around to a total
        // that looks right.
        let total = splits.iter().try_fold(0usize, |sum, &n| sum.checked_add(n));
        if total != Some(s.chars().count()) {
            let total =
                total.map_or_else(|| "more than any text has".to_string(), |t| t.to_string());
            self.diagnostics.push(Diagnostic::error(
                path,
                number,
                col,
                format!("`::char-split` adds up to {total}, but `{s}` has {} characters (utoken stops on it); ignored", s.chars().count()),
            ));
            return None;
        }
        Some(splits)
    }

    fn add_entry(&mut self, entry: Entry, line: &str) {
        let id = self.entries.len() as u32;
        let key = entry.s.to_lowercase();
        match entry.kind {
            EntryKind::PunctSplit => {
                self.punct.insert(&key, id);
                if let Some(c) = key.chars().next() {
                    self.punct_first.insert(c);
                }
            }
            EntryKind::Lexical => self.lexical.insert(&key, id),
            EntryKind::NonSymbol => {
                self.main.insert(&key, id);
                self.non_symbol.entry(key.clone()).or_default().push(id);
            }
            _ => self.main.insert(&key, id),
        }
        if let Some(lcode) = slot_value(line, "lcode").filter(|v| !v.is_empty()) {
            if entry.sem_class.as_deref() == Some("pre-name-title") {
                self.pre_name_titles
                    .entry(lcode.to_string())
                    .or_default()
                    .push(key.clone());
            }
            if slot_value(line, "token-category") == Some("phonetics") {
                self.phonetics
                    .entry(lcode.to_string())
                    .or_default()
                    .push(key);
            }
        }
        self.entries.push(entry);
    }
}

/// The kind of entry a line's head (`::abbrev`, `::lexical`, …) makes, `None` for a head the
/// tokenizer steps do not use. A lexical entry goes first when it is marked so, is a URL, or
/// holds a digit (utoken's rule).
fn entry_kind(head: &str, text: &str, s: &str) -> Option<EntryKind> {
    Some(match head {
        "abbrev" => EntryKind::Abbrev,
        "contraction" => EntryKind::Contraction,
        "lexical" => {
            let priority = flag(text, "priority")
                || slot_value(text, "sem-class") == Some("url")
                || s.chars().any(|c| chars::is(c, chars::ND));
            if priority {
                EntryKind::LexicalPriority
            } else {
                EntryKind::Lexical
            }
        }
        "punct-split" => EntryKind::PunctSplit,
        "repair" => EntryKind::Repair,
        "non-symbol" => EntryKind::NonSymbol,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Resources {
        let mut r = Resources::new();
        r.load_tok_text(Path::new("t.txt"), text);
        r
    }

    #[test]
    fn entries_and_expansions() {
        let r = load(
            "# comment\n::contraction can't ::target can n't ::lcode eng\n::abbrev Dr. ::exp doctor ::sem-class pre-name-title ::lcode eng\n::punct-split , ::side both\n::lexical New York ::sem-class city\n::lexical 3D ::sem-class x\n",
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let kinds: Vec<EntryKind> = r.entries.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                EntryKind::Contraction,
                EntryKind::Contraction,
                EntryKind::Contraction,
                EntryKind::Abbrev,
                EntryKind::PunctSplit,
                EntryKind::Lexical,
                EntryKind::LexicalPriority,
            ]
        );
        assert_eq!(r.entries[1].s, "can’t");
        assert_eq!(r.entries[3].loc.line, 3);
        assert_eq!(r.pre_name_titles["eng"], vec!["dr."]);
        let node = "can't"
            .chars()
            .try_fold(r.main.root(), |n, c| r.main.step(n, c));
        assert_eq!(r.main.entries(node.unwrap()), [0]);
    }

    #[test]
    fn bad_lines_are_diagnosed_not_loaded() {
        let r = load(
            "::abbrev x ::expansion y\n::contraction wont\n::punct-split - ::side middle\n::abbrev No. ::right-context (\\d\n",
        );
        let msgs: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(msgs.len(), 4, "{msgs:?}");
        assert!(
            msgs[0].starts_with("t.txt:1:12: error: unknown slot"),
            "{msgs:?}"
        );
        assert!(msgs[1].starts_with("t.txt:2:"), "{msgs:?}");
        assert!(msgs[2].contains("::side middle"), "{msgs:?}");
        assert!(
            msgs[3].starts_with("t.txt:4:33: error: `::right-context` regex:"),
            "{msgs:?}"
        );
        // The last two still load (as utoken does; the dash with its two variants), the
        // abbreviation without its broken condition.
        assert_eq!(r.entries.len(), 4);
        assert!(r.entries[3].cond.right.is_none() && r.entries[3].s == "No.");
    }

    #[test]
    fn char_split_never_wraps_around() {
        let r = load("::contraction dont ::target do n't ::char-split 18446744073709551615,5\n");
        let msgs: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert!(
            msgs[0].contains("adds up to more than any text has"),
            "{msgs:?}"
        );
        assert!(r.entries.iter().all(|e| e.char_splits.is_none()));
        let r = load("::contraction dont ::target do n't ::char-split 4,0\n");
        assert!(
            r.diagnostics[0]
                .to_string()
                .contains("part of 0 characters")
        );
    }

    #[test]
    fn empty_headwords_are_reported() {
        let r = load("::punct-split  ::side both\n::abbrev ::exp nothing\n");
        let msgs: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(
            msgs[0].starts_with("t.txt:1:1: warning: `::punct-split` has no text"),
            "{msgs:?}"
        );
        assert!(
            msgs[1].starts_with("t.txt:2:1: warning: `::abbrev` has no text"),
            "{msgs:?}"
        );
        // Loaded all the same, as utoken does (its entry counts include them).
        assert_eq!(r.entries.len(), 2);
    }
}
