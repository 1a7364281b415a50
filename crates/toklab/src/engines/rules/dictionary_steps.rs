//! The dictionary steps (10, 15, 18): at each start position, the longest headword first,
//! checked against the entry's own conditions and utoken's general ones.

use std::sync::Arc;

use super::chars::{self, Bits, Classes};
use super::conditions::Failed;
use super::contraction::map_contraction;
use super::origin::ChartType;
use super::resources::{Entry, EntryKind, SplitSide, Trie};
use super::split::{Found, Lower, Run};

/// Why a punct-split entry with a `::side` did not apply.
const SIDE: &str = "its ::side is not at a word's edge";
/// Where a dictionary token may start, as utoken's scan decides: not at a mark, not at a
/// letter after a letter and (for step 10, `digits`) not at a digit after a digit — "after"
/// meaning after the last position not skipped itself.
fn token_starts(bits: Classes<'_>, digits: bool) -> impl Iterator<Item = usize> + '_ {
    let mut last: Bits = 0;
    bits.iter().enumerate().filter_map(move |(st, cur)| {
        let skip = cur & chars::MODIFIER != 0
            || (last & chars::ALPHA != 0 && cur & chars::ALPHA != 0)
            || (digits && last & chars::PY_DIGIT != 0 && cur & chars::PY_DIGIT != 0);
        if skip {
            None
        } else {
            last = cur;
            Some(st)
        }
    })
}

impl Run<'_> {
    /// The nodes of `trie` reached by the lower-cased text from `st`, deepest first: the
    /// candidate ends, longest first.
    fn walk(&self, trie: &Trie, lower: &Lower, st: usize, ends: &mut Vec<(usize, u32)>) {
        ends.clear();
        let mut node = trie.root();
        for k in st..lower.length() {
            match trie.step(node, lower.at(k)) {
                Some(next) => {
                    node = next;
                    if !trie.entries(node).is_empty() {
                        ends.push((k + 1, node));
                    }
                }
                None => break,
            }
        }
        ends.reverse();
    }

    /// Step 10: abbreviations, contractions, repairs, priority lexical entries.
    pub(super) fn resource_entries(&self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b);
        let mut ends = Vec::new();
        for st in token_starts(self.s.bits.range(a..b), true) {
            self.walk(&res.main, &lower, st, &mut ends);
            for &(end, node) in &ends {
                if let Some(failed) = self.general_fails(a, b, st, end) {
                    let first = res.main.entries(node).first().copied();
                    self.near_miss(a + st, a + end, first, failed);
                    continue;
                }
                for &id in res.main.entries(node) {
                    let entry = &res.entries[id as usize];
                    if let Some(failed) = self.entry_fails(entry, a + st, a + end) {
                        self.near_miss(a + st, a + end, Some(id), failed);
                        continue;
                    }
                    let text = self.text(a + st, a + end);
                    let found = match entry.kind {
                        EntryKind::Abbrev => match self.abbrev_fails(a, b, st, end, entry) {
                            None => self.entry_found(st, end, ChartType::Abbrev, entry, id),
                            Some(failed) => {
                                self.near_miss(a + st, a + end, Some(id), failed);
                                continue;
                            }
                        },
                        EntryKind::LexicalPriority => {
                            let t = if entry.sem_class.as_deref() == Some("url") {
                                ChartType::UrlL
                            } else {
                                ChartType::LexicalP
                            };
                            self.entry_found(st, end, t, entry, id)
                        }
                        EntryKind::Contraction | EntryKind::Repair => {
                            let (t, splits) = if entry.kind == EntryKind::Contraction {
                                (ChartType::Decontraction, entry.char_splits.as_deref())
                            } else {
                                (ChartType::Repair, None)
                            };
                            let target = entry.target.as_deref().unwrap_or("");
                            let pieces: Vec<_> =
                                map_contraction(text, &entry.s, target, st, splits)
                                    .into_iter()
                                    .map(|(s, l, form)| (s, l, Some(form)))
                                    .collect();
                            if pieces.is_empty() {
                                continue;
                            }
                            Found {
                                first: pieces[0].clone(),
                                rest: pieces[1..].to_vec(),
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
        }
        None
    }

    fn entry_found(
        &self,
        st: usize,
        end: usize,
        chart_type: ChartType,
        entry: &Entry,
        id: u32,
    ) -> Found {
        Found {
            first: (st as u32, (end - st) as u32, None),
            rest: Vec::new(),
            chart_type,
            sem_class: entry.sem_class.clone(),
            entry: Some(id),
            left_done: true,
        }
    }

    /// Step 15: ordinary lexical entries.
    pub(super) fn lexical_entries(&self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b);
        let mut ends = Vec::new();
        for st in token_starts(self.s.bits.range(a..b), false) {
            self.walk(&res.lexical, &lower, st, &mut ends);
            for &(end, node) in &ends {
                if let Some(failed) = self.general_fails(a, b, st, end) {
                    let first = res.lexical.entries(node).first().copied();
                    self.near_miss(a + st, a + end, first, failed);
                    continue;
                }
                for &id in res.lexical.entries(node) {
                    let entry = &res.entries[id as usize];
                    let failed = self
                        .entry_fails(entry, a + st, a + end)
                        .or_else(|| self.lexical_fails(a, b, st, end, entry));
                    match failed {
                        Some(failed) => self.near_miss(a + st, a + end, Some(id), failed),
                        None => {
                            let t = match &entry.tag {
                                Some(tag) => ChartType::Tag(Arc::clone(tag)),
                                None => ChartType::Lexical,
                            };
                            return Some(self.entry_found(st, end, t, entry, id));
                        }
                    }
                }
            }
        }
        None
    }

    /// Step 18: punct-split entries (side and grouping).
    pub(super) fn punct_entries(&self, a: usize, b: usize) -> Option<Found> {
        let res = self.entries();
        let lower = self.lower_of(a, b);
        let mut ends = Vec::new();
        let chars_ = &self.s.chars[a..b];
        let n = b - a;
        for st in 0..n {
            if !res.punct_first.contains(lower.at(st)) {
                continue;
            }
            self.walk(&res.punct, &lower, st, &mut ends);
            for &(end, node) in &ends {
                // utoken looks the candidate up without lower-casing it.
                if (st..end).any(|k| chars_[k] != lower.at(k)) {
                    continue;
                }
                if let Some(failed) = self.general_fails(a, b, st, end) {
                    let first = res.punct.entries(node).first().copied();
                    self.near_miss(a + st, a + end, first, failed);
                    continue;
                }
                for &id in res.punct.entries(node) {
                    let entry = &res.entries[id as usize];
                    // A group takes the run of its last character (utoken extends one
                    // character at a time; the run's end is looked up instead).
                    let end2 = if entry.group {
                        (self.run_end(a + end - 1) - a).clamp(end, n)
                    } else {
                        end
                    };
                    if let Some(failed) = self.entry_fails(entry, a + st, a + end2) {
                        self.near_miss(a + st, a + end2, Some(id), failed);
                        continue;
                    }
                    let chart_type = match entry.side {
                        SplitSide::Both => ChartType::Punct,
                        SplitSide::Start
                            if st == 0 || self.s.bits.at(a + st - 1) & chars::PY_SPACE != 0 =>
                        {
                            ChartType::PunctS
                        }
                        SplitSide::End
                            if end2 == n || self.s.bits.at(a + end2) & chars::PY_SPACE != 0 =>
                        {
                            ChartType::PunctE
                        }
                        _ => {
                            self.near_miss(a + st, a + end2, Some(id), Failed::Rule(SIDE));
                            continue;
                        }
                    };
                    let mut found = self.entry_found(st, end2, chart_type, entry, id);
                    found.left_done = false;
                    return Some(found);
                }
            }
        }
        None
    }
}
