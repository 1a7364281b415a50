//! The loaded rules: entries from the tokenizer files (with their expansions), the mark-up
//! entries of the detokenizer file and the top-level domains, read as utoken reads them, plus
//! a diagnostic for every line utoken would skip or misread.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::context::{Context, ContextKind};
use super::diag::Diagnostic;
use super::expand::expand;
use super::line::{self, FileRole, column, flag, slot_span, slot_value, split_codes, split_list};
use crate::token::SourceLoc;

/// The kind of a tokenizer entry: which step uses it and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    Abbrev,
    /// A `::lexical` entry handled late (step 15).
    Lexical,
    /// A `::lexical` entry handled early (step 10): it has `::priority`, `::sem-class url` or
    /// a digit.
    LexicalPriority,
    Contraction,
    Repair,
    PunctSplit,
    NonSymbol,
}

impl EntryKind {
    pub fn head(self) -> &'static str {
        match self {
            EntryKind::Abbrev => "abbrev",
            EntryKind::Lexical | EntryKind::LexicalPriority => "lexical",
            EntryKind::Contraction => "contraction",
            EntryKind::Repair => "repair",
            EntryKind::PunctSplit => "punct-split",
            EntryKind::NonSymbol => "non-symbol",
        }
    }
}

/// Where a punct-split entry may split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Start,
    End,
    Both,
    /// A side utoken does not know: the entry never splits.
    Other,
}

/// One entry, after expansion.
#[derive(Clone, Debug)]
pub struct Entry {
    pub kind: EntryKind,
    /// The headword as written (compared with the text when `::case-sensitive`).
    pub s: String,
    pub target: Option<String>,
    pub char_splits: Option<Vec<usize>>,
    pub sem_class: Option<Arc<str>>,
    pub tag: Option<Arc<str>>,
    pub case_sensitive: bool,
    pub left: Option<Arc<Context>>,
    pub left_not: Option<Arc<Context>>,
    pub right: Option<Arc<Context>>,
    pub right_not: Option<Arc<Context>>,
    pub lcode_not: Vec<String>,
    pub side: Side,
    pub group: bool,
    /// The file line the entry comes from.
    pub loc: SourceLoc,
    /// Whether the entry is an expansion of that line rather than the line itself.
    pub expanded: bool,
}

impl Entry {
    /// Whether the entry has conditions of its own (case, contexts, excluded languages).
    pub fn is_conditional(&self) -> bool {
        self.case_sensitive
            || self.left.is_some()
            || self.left_not.is_some()
            || self.right.is_some()
            || self.right_not.is_some()
            || !self.lcode_not.is_empty()
    }
}

/// A `::markup-attach` entry of the detokenizer file.
#[derive(Clone, Debug)]
pub struct MarkupEntry {
    pub s: String,
    pub group: bool,
    pub paired: bool,
    pub exceptions: Vec<String>,
    pub case_sensitive: bool,
    pub left: Option<Arc<Context>>,
    pub left_not: Option<Arc<Context>>,
    pub right: Option<Arc<Context>>,
    pub right_not: Option<Arc<Context>>,
    pub lcode_not: Vec<String>,
}

/// Headwords indexed by lower-cased characters, for the longest-first dictionary steps.
#[derive(Clone, Debug, Default)]
pub struct Trie {
    edges: HashMap<(u32, char), u32, FxBuild>,
    /// Entry ids per node, in load order.
    pub entries: Vec<Vec<u32>>,
}

impl Trie {
    fn new() -> Trie {
        Trie {
            edges: HashMap::default(),
            entries: vec![Vec::new()],
        }
    }

    fn insert(&mut self, key: &str, id: u32) {
        let mut node = 0u32;
        for c in key.chars() {
            let next = self.entries.len() as u32;
            node = *self.edges.entry((node, c)).or_insert_with(|| {
                self.entries.push(Vec::new());
                next
            });
        }
        self.entries[node as usize].push(id);
    }

    /// The node reached from `node` by `c`.
    #[inline]
    pub fn step(&self, node: u32, c: char) -> Option<u32> {
        self.edges.get(&(node, c)).copied()
    }

    pub fn root(&self) -> u32 {
        0
    }
}

/// A fast hash for small keys (the trie edges), as in rustc's FxHasher.
#[derive(Clone, Copy, Default, Debug)]
pub struct FxBuild;

impl std::hash::BuildHasher for FxBuild {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher(0)
    }
}

pub struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Top-level domains by reliability, lower case and sorted, as utoken keeps them.
#[derive(Clone, Debug, Default)]
pub struct Tlds {
    pub low: Vec<String>,
    pub normal: Vec<String>,
    pub high: Vec<String>,
}

/// Everything loaded for one tokenizer.
#[derive(Default)]
pub struct Resources {
    pub entries: Vec<Entry>,
    /// Abbreviations, contractions, repairs, priority lexical entries (step 10).
    pub main: Trie,
    /// Other lexical entries (step 15).
    pub lexical: Trie,
    /// Punct-split entries (step 18).
    pub punct: Trie,
    /// Non-symbol entries by headword (step 6).
    pub non_symbol: HashMap<String, Vec<u32>>,
    /// First characters of punct-split headwords, to skip positions quickly.
    pub punct_first: std::collections::HashSet<char>,
    pub markup: HashMap<String, Vec<MarkupEntry>>,
    /// (lower-cased headword, group) of each mark-up entry, plus `/`.
    pub markup_elements: Vec<(String, bool)>,
    pub tlds: Tlds,
    /// Whether a top-level-domain file was loaded (without one, bare domains are not URLs).
    pub has_tlds: bool,
    pub pre_name_titles: HashMap<String, Vec<String>>,
    pub phonetics: HashMap<String, Vec<String>>,
    pub files: Vec<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
    contexts: HashMap<(ContextKind, String), Arc<Context>>,
}

/// Reads a rule file as UTF-8, or says where it is not.
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::error(path, 0, 0, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = &e.as_bytes()[..at];
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&text[line_start..]).chars().count() + 1;
        Diagnostic::error(
            path,
            line,
            column,
            format!("invalid UTF-8 at byte offset {at}"),
        )
    })
}

impl Resources {
    pub fn new() -> Resources {
        Resources {
            main: Trie::new(),
            lexical: Trie::new(),
            punct: Trie::new(),
            ..Default::default()
        }
    }

    /// Compiles a context slot value once per distinct value.
    fn context(
        &mut self,
        kind: ContextKind,
        value: &str,
        path: &Path,
        number: usize,
        col: usize,
    ) -> Option<Arc<Context>> {
        if let Some(found) = self.contexts.get(&(kind, value.to_string())) {
            return Some(found.clone());
        }
        match Context::compile(kind, value) {
            Ok(c) => {
                let c = Arc::new(c);
                self.contexts.insert((kind, value.to_string()), c.clone());
                Some(c)
            }
            Err(e) => {
                let col = match (col, e.at) {
                    (0, _) => 0,
                    (c, Some(at)) => c + at,
                    (c, None) => c,
                };
                self.diagnostics.push(Diagnostic::error(
                    path,
                    number,
                    col,
                    format!(
                        "`::{}` regex: {}; the condition is ignored (as utoken does)",
                        kind.slot(),
                        e.message
                    ),
                ));
                None
            }
        }
    }

    fn contexts_of(
        &mut self,
        line: &str,
        path: &Path,
        number: usize,
        original: &str,
    ) -> [Option<Arc<Context>>; 4] {
        let kinds = [
            ContextKind::Left,
            ContextKind::LeftNot,
            ContextKind::Right,
            ContextKind::RightNot,
        ];
        kinds.map(|kind| {
            let value = slot_value(line, kind.slot()).filter(|v| !v.is_empty())?;
            // Report at the value's column in the file line when it is there.
            let col =
                slot_span(original, kind.slot()).map_or(0, |(start, _)| column(original, start));
            self.context(kind, value, path, number, col)
        })
    }

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
                            || s.chars().any(|c| super::chars::is(c, super::chars::ND));
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

    /// Loads the detokenizer file's mark-up entries for the run's languages.
    pub fn load_detok_text(&mut self, path: &Path, text: &str, langs: &[String]) {
        for (number, raw) in line::lines(text) {
            let cut = line::without_comment(raw);
            if cut.trim_matches(line::is_space).is_empty() {
                continue;
            }
            for (k, expanded) in expand(cut).into_iter().enumerate() {
                if line::is_blank_or_comment(&expanded) {
                    continue;
                }
                if ["::repair", "::punct-split", "::abbrev", "::misspelling"]
                    .iter()
                    .any(|h| {
                        expanded.starts_with(h)
                            && expanded[h.len()..]
                                .chars()
                                .next()
                                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                    })
                {
                    continue;
                }
                let problems = line::validate(&expanded, FileRole::Detok);
                if !problems.is_empty() {
                    if k == 0 {
                        for p in problems {
                            self.diagnostics
                                .push(Diagnostic::error(path, number, p.column, p.message));
                        }
                    }
                    continue;
                }
                if !expanded.starts_with("::markup-attach") {
                    continue;
                }
                let line_langs: Vec<&str> = slot_value(&expanded, "lcode")
                    .filter(|v| !v.is_empty())
                    .map(split_codes)
                    .unwrap_or_default();
                if !langs.is_empty()
                    && !line_langs.is_empty()
                    && !line_langs.iter().any(|l| langs.iter().any(|d| d == l))
                {
                    continue;
                }
                let Some(s) = slot_value(&expanded, "markup-attach") else {
                    continue;
                };
                if !expanded["::markup-attach".len()..]
                    .chars()
                    .next()
                    .is_none_or(line::is_space)
                {
                    continue;
                }
                let lc = s.to_lowercase();
                let quiet = k > 0;
                let before = self.diagnostics.len();
                let [left, left_not, right, right_not] =
                    self.contexts_of(&expanded, path, number, raw);
                if quiet {
                    self.diagnostics.truncate(before);
                }
                let group = flag(&expanded, "group");
                let entry = MarkupEntry {
                    s: s.to_string(),
                    group,
                    paired: flag(&expanded, "paired-delimiter"),
                    exceptions: slot_value(&expanded, "except")
                        .filter(|v| !v.is_empty())
                        .map(|v| v.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default(),
                    case_sensitive: flag(&expanded, "case-sensitive"),
                    left,
                    left_not,
                    right,
                    right_not,
                    lcode_not: slot_value(&expanded, "lcode-not")
                        .filter(|v| !v.is_empty())
                        .map(|v| split_codes(v).into_iter().map(str::to_string).collect())
                        .unwrap_or_default(),
                };
                self.markup.entry(lc.clone()).or_default().push(entry);
                if !self.markup_elements.contains(&(lc.clone(), group)) {
                    self.markup_elements.push((lc, group));
                }
            }
        }
    }

    /// Loads the top-level domains.
    pub fn load_tld_text(&mut self, path: &Path, text: &str) {
        for (number, raw) in line::lines(text) {
            let cut = line::without_comment(raw);
            if cut.trim_matches(line::is_space).is_empty() || line::is_blank_or_comment(cut) {
                continue;
            }
            let problems = line::validate(cut, FileRole::Tld);
            if !problems.is_empty() {
                for p in problems {
                    self.diagnostics
                        .push(Diagnostic::error(path, number, p.column, p.message));
                }
                continue;
            }
            match slot_value(cut, "code").filter(|c| !c.is_empty()) {
                Some(code) => {
                    let code = code.to_lowercase();
                    match slot_value(cut, "reliability") {
                        Some("low") => self.tlds.low.push(code),
                        Some("high") => self.tlds.high.push(code),
                        _ => self.tlds.normal.push(code),
                    }
                }
                None => self.diagnostics.push(Diagnostic::error(
                    path,
                    number,
                    1,
                    "`::code` has no value",
                )),
            }
        }
        self.tlds.low.sort();
        self.tlds.normal.sort();
        self.tlds.high.sort();
        self.has_tlds = true;
    }

    /// Reads and loads a file in the given role; a missing or unreadable file is reported.
    pub fn load_file(&mut self, path: &Path, role: FileRole, langs: &[String]) -> bool {
        match read_text(path) {
            Ok(text) => {
                match role {
                    FileRole::Tok => self.load_tok_text(path, &text),
                    FileRole::Detok => self.load_detok_text(path, &text, langs),
                    FileRole::Tld => self.load_tld_text(path, &text),
                }
                self.files.push(path.to_path_buf());
                true
            }
            Err(d) => {
                self.diagnostics.push(d);
                false
            }
        }
    }

    /// The lower-cased TLD list of one tier followed by its upper-cased copy: the order of
    /// utoken's alternation.
    pub fn tld_alternatives(list: &[String]) -> Vec<String> {
        list.iter()
            .cloned()
            .chain(list.iter().map(|s| s.to_uppercase()))
            .collect()
    }

    /// Entries of a list value helper for the lint (split `;` lists).
    pub fn list_values(line: &str, slot: &str) -> Vec<String> {
        slot_value(line, slot)
            .map(|v| split_list(v).into_iter().map(str::to_string).collect())
            .unwrap_or_default()
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
        assert_eq!(r.main.entries[node.unwrap() as usize], vec![0]);
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

    #[test]
    fn markup_entries_filtered_by_language() {
        let mut r = Resources::new();
        r.load_detok_text(
            Path::new("d.txt"),
            "::attach-tag @\n::markup-attach - ::group True\n::markup-attach -t- ::lcode fra\n::auto-attach . ::side left\n",
            &["eng".to_string()],
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let keys: Vec<&str> = r.markup_elements.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["-", "–", "֊"]);
    }

    #[test]
    fn tlds_by_reliability() {
        let mut r = Resources::new();
        r.load_tld_text(
            Path::new("tld.txt"),
            "::code com ::reliability high\n::code UK ::country-name United Kingdom\n::code IN ::reliability low\n::code de\n",
        );
        assert_eq!(r.tlds.high, ["com"]);
        assert_eq!(r.tlds.normal, ["de", "uk"]);
        assert_eq!(Resources::tld_alternatives(&r.tlds.low), ["in", "IN"]);
    }
}
