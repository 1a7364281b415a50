//! Reading `tok-resource*.txt` files: each line (after utoken's expansions) becomes entries
//! of the dictionary steps, or diagnostics where utoken would skip or misread it.

use std::path::Path;
use std::sync::Arc;

use super::{Entry, EntryKind, Resources, Side};
use crate::rules::diag::Diagnostic;
use crate::rules::expand::expand;
use crate::rules::line::{self, FileRole, column, flag, slot_span, slot_value, split_codes};
use crate::token::SourceLoc;

impl Resources {
    /// Loads a tokenizer resource file (`tok-resource*.txt`). `lang` is the run's language
    /// code (for `::lcode-not`).
    pub fn load_tok_text(&mut self, path: &Path, text: &str) {
        let file: Arc<str> = Arc::from(path.display().to_string());
        for (number, raw) in line::lines(text) {
            let cut = line::without_comment(raw);
            if cut.trim_matches(line::is_space).is_empty() {
                continue;
            }
            for (k, expanded) in expand(cut).into_iter().enumerate() {
                if line::is_blank_or_comment(&expanded) {
                    continue;
                }
                let problems = line::validate(&expanded, FileRole::Tok);
                if !problems.is_empty() {
                    // Problems of expanded lines repeat those of the line itself.
                    if k == 0 {
                        for p in problems {
                            self.diagnostics
                                .push(Diagnostic::error(path, number, p.column, p.message));
                        }
                    }
                    continue;
                }
                if !expanded.starts_with("::") {
                    self.diagnostics.push(Diagnostic::error(
                        path,
                        number,
                        1,
                        "the line does not start with `::`; utoken ignores it",
                    ));
                    continue;
                }
                let head_len = expanded[2..]
                    .find(line::is_space)
                    .map_or(expanded.len(), |i| i + 2);
                let head = &expanded[2..head_len];
                let s = slot_value(&expanded, head).unwrap_or("").to_string();
                let loc = SourceLoc {
                    file: file.clone(),
                    line: number,
                };
                let kind = match head {
                    "abbrev" => EntryKind::Abbrev,
                    "contraction" => EntryKind::Contraction,
                    "lexical" => {
                        let priority = flag(&expanded, "priority")
                            || slot_value(&expanded, "sem-class") == Some("url")
                            || s.chars()
                                .any(|c| crate::rules::chars::is(c, crate::rules::chars::ND));
                        if priority {
                            EntryKind::LexicalPriority
                        } else {
                            EntryKind::Lexical
                        }
                    }
                    "punct-split" => EntryKind::PunctSplit,
                    "repair" => EntryKind::Repair,
                    "non-symbol" => EntryKind::NonSymbol,
                    _ => continue,
                };
                let target = match kind {
                    EntryKind::Contraction | EntryKind::Repair => {
                        slot_value(&expanded, "target").map(str::to_string)
                    }
                    _ => None,
                };
                if target.as_deref() == Some("") && k == 0 {
                    let col = slot_span(raw, "target").map_or(0, |(st, _)| column(raw, st));
                    self.diagnostics.push(Diagnostic::error(
                        path,
                        number,
                        col,
                        "`::target` is empty: the entry's text would vanish from the output",
                    ));
                }
                let char_splits = if kind == EntryKind::Contraction {
                    self.char_splits(&expanded, &s, target.as_deref(), path, number, raw)
                } else {
                    None
                };
                let side = if kind == EntryKind::PunctSplit {
                    match slot_value(&expanded, "side").unwrap_or("") {
                        "start" => Side::Start,
                        "end" => Side::End,
                        "both" => Side::Both,
                        other => {
                            if k == 0 {
                                let col =
                                    slot_span(raw, "side").map_or(0, |(st, _)| column(raw, st));
                                self.diagnostics.push(Diagnostic::error(
                                    path,
                                    number,
                                    col,
                                    format!("`::side {other}` is not start, end or both; the entry never splits"),
                                ));
                            }
                            Side::Other
                        }
                    }
                } else {
                    Side::Both
                };
                let [left, left_not, right, right_not] = if k == 0 {
                    self.contexts_of(&expanded, path, number, raw)
                } else {
                    // Expanded lines carry the same context values: compile quietly (a
                    // broken one was reported for the line itself).
                    let before = self.diagnostics.len();
                    let got = self.contexts_of(&expanded, path, number, raw);
                    self.diagnostics.truncate(before);
                    got
                };
                let entry = Entry {
                    kind,
                    s: s.clone(),
                    target,
                    char_splits,
                    sem_class: slot_value(&expanded, "sem-class")
                        .filter(|v| !v.is_empty())
                        .map(Arc::from),
                    tag: slot_value(&expanded, "tag")
                        .filter(|v| !v.is_empty())
                        .map(Arc::from),
                    case_sensitive: flag(&expanded, "case-sensitive"),
                    left,
                    left_not,
                    right,
                    right_not,
                    lcode_not: slot_value(&expanded, "lcode-not")
                        .filter(|v| !v.is_empty())
                        .map(|v| split_codes(v).into_iter().map(str::to_string).collect())
                        .unwrap_or_default(),
                    side,
                    group: flag(&expanded, "group"),
                    loc,
                    expanded: k > 0,
                };
                self.add_entry(entry, &expanded);
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
        let total: usize = splits.iter().sum();
        if total != s.chars().count() {
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
        assert!(r.entries[3].right.is_none() && r.entries[3].s == "No.");
    }
}
