//! The loaded rules: entries from the tokenizer files (with their expansions), the mark-up
//! entries of the detokenizer file and the top-level domains, read as utoken reads them, plus
//! a diagnostic for every line utoken would skip or misread.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::context::{Context, ContextKind};
use super::diag::Diagnostic;
use super::line::{FileRole, column, flag, slot_span, slot_value, split_codes};
use crate::core::token::SourceLoc;

mod detok;

pub(super) use detok::is_tokenizer_only;
mod tok;

/// The kind of a tokenizer entry: which step uses it and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EntryKind {
    /// An `::abbrev` entry (step 10).
    Abbrev,
    /// A `::lexical` entry handled late (step 15).
    Lexical,
    /// A `::lexical` entry handled early (step 10): it has `::priority`, `::sem-class url` or
    /// a digit.
    LexicalPriority,
    /// A `::contraction` entry, split into its parts (step 10).
    Contraction,
    /// A `::repair` entry, written out as its target (step 10).
    Repair,
    /// A `::punct-split` entry (step 18).
    PunctSplit,
    /// A `::non-symbol` entry, exempt from symbol grouping (step 6).
    NonSymbol,
}

impl EntryKind {
    /// The head slot that makes such entries (for messages).
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
pub enum SplitSide {
    /// Only at the start of a word.
    Start,
    /// Only at the end of a word.
    End,
    /// Anywhere it stands alone.
    Both,
    /// A side utoken does not know: the entry never splits.
    Other,
}

/// One entry, after expansion.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Which step uses the entry.
    pub kind: EntryKind,
    /// The headword as written (compared with the text when `::case-sensitive`).
    pub s: String,
    /// `::target`: the text a contraction or repair stands for.
    pub target: Option<String>,
    /// `::char-split`: where a contraction's parts begin, in characters.
    pub char_splits: Option<Vec<usize>>,
    /// `::sem-class`, shown in the origin.
    pub sem_class: Option<Arc<str>>,
    /// `::tag`, which becomes the chart type (see [`super::origin::ChartType::Tag`]).
    pub tag: Option<Arc<str>>,
    /// Where the entry applies.
    pub cond: Conditions,
    /// `::side` of a punct-split entry.
    pub side: SplitSide,
    /// `::group`: a punct-split entry takes the run of its last character.
    pub group: bool,
    /// The file line the entry comes from.
    pub loc: SourceLoc,
    /// Whether the entry is an expansion of that line rather than the line itself.
    pub expanded: bool,
}

/// The conditions an entry (or a mark-up entry) puts on where it applies.
#[derive(Clone, Debug, Default)]
pub struct Conditions {
    /// Match only the headword's exact case.
    pub case_sensitive: bool,
    /// `::left-context`: must match just before the headword.
    pub left: Option<Arc<Context>>,
    /// `::left-context-not`: must not match just before it.
    pub left_not: Option<Arc<Context>>,
    /// `::right-context`: must match just after it.
    pub right: Option<Arc<Context>>,
    /// `::right-context-not`: must not match just after it.
    pub right_not: Option<Arc<Context>>,
    /// Languages (`--lc` values) for which the entry is ignored.
    pub lcode_not: Vec<String>,
}

impl Conditions {
    /// Whether there are any (an entry without conditions always applies where it matches).
    pub fn any(&self) -> bool {
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
    /// The mark-up headword as written.
    pub s: String,
    /// `::group`: the entry also attaches to a group of mark-up.
    pub group: bool,
    /// `::paired-delimiter`: it opens or closes a pair.
    pub paired: bool,
    /// `::except`: words it does not attach to.
    pub exceptions: Vec<String>,
    /// Where the entry applies.
    pub cond: Conditions,
}

/// Headwords indexed by lower-cased characters, for the longest-first dictionary steps. Built
/// with a hash map of edges, then [`Trie::freeze`]s into sorted child arrays per node (and a
/// table for the root's ASCII children), which the steps walk at every word start.
#[derive(Clone, Debug, Default)]
pub struct Trie {
    edges: HashMap<(u32, char), u32, FxBuild>,
    /// Entry ids per node while loading, in load order.
    building: Vec<Vec<u32>>,
    /// Per node, the range of its children in `child_chars`/`child_nodes` (after freezing).
    child_start: Vec<u32>,
    child_chars: Vec<char>,
    child_nodes: Vec<u32>,
    /// Per node, a bit for each ASCII character it has a child for (characters 0–63, 64–127):
    /// the child's index among the node's sorted children is the number of lower bits set.
    ascii_mask: Vec<[u64; 2]>,
    /// Per node, the range of its entry ids in `entry_ids` (after freezing).
    entry_start: Vec<u32>,
    entry_ids: Vec<u32>,
}

impl Trie {
    pub(super) fn new() -> Trie {
        Trie {
            building: vec![Vec::new()],
            ..Trie::default()
        }
    }

    pub(super) fn insert(&mut self, key: &str, id: u32) {
        let mut node = 0u32;
        for c in key.chars() {
            let next = self.building.len() as u32;
            node = *self.edges.entry((node, c)).or_insert_with(|| {
                self.building.push(Vec::new());
                next
            });
        }
        self.building[node as usize].push(id);
    }

    /// Turns the edges and entry lists into the flat arrays the walk uses.
    pub fn freeze(&mut self) {
        let mut edges: Vec<(u32, char, u32)> =
            self.edges.iter().map(|(&(n, c), &to)| (n, c, to)).collect();
        edges.sort_unstable();
        let nodes = self.building.len();
        self.child_start = vec![0; nodes + 1];
        for &(n, _, _) in &edges {
            self.child_start[n as usize + 1] += 1;
        }
        for i in 0..nodes {
            self.child_start[i + 1] += self.child_start[i];
        }
        self.child_chars = edges.iter().map(|e| e.1).collect();
        self.child_nodes = edges.iter().map(|e| e.2).collect();
        self.ascii_mask = vec![[0; 2]; nodes];
        for &(n, c, _) in &edges {
            if c.is_ascii() {
                self.ascii_mask[n as usize][c as usize / 64] |= 1 << (c as u32 % 64);
            }
        }
        self.entry_start = Vec::with_capacity(nodes + 1);
        self.entry_ids.clear();
        for ids in &self.building {
            self.entry_start.push(self.entry_ids.len() as u32);
            self.entry_ids.extend(ids);
        }
        self.entry_start.push(self.entry_ids.len() as u32);
    }

    /// The entry ids of a node, in load order.
    #[inline]
    pub fn entries(&self, node: u32) -> &[u32] {
        if self.entry_start.is_empty() {
            return &self.building[node as usize];
        }
        let n = node as usize;
        &self.entry_ids[self.entry_start[n] as usize..self.entry_start[n + 1] as usize]
    }

    /// The node reached from `node` by `c`.
    #[inline]
    pub fn step(&self, node: u32, c: char) -> Option<u32> {
        if self.child_start.is_empty() {
            return self.edges.get(&(node, c)).copied();
        }
        let start = self.child_start[node as usize] as usize;
        let [lo, hi] = self.ascii_mask[node as usize];
        let code = c as u32;
        if code < 128 {
            let rank = if code < 64 {
                if lo >> code & 1 == 0 {
                    return None;
                }
                (lo & ((1u64 << code) - 1)).count_ones()
            } else {
                let bit = code - 64;
                if hi >> bit & 1 == 0 {
                    return None;
                }
                lo.count_ones() + (hi & ((1u64 << bit) - 1)).count_ones()
            };
            return Some(self.child_nodes[start + rank as usize]);
        }
        let end = self.child_start[node as usize + 1] as usize;
        let first_other = start + (lo.count_ones() + hi.count_ones()) as usize;
        self.child_chars[first_other..end]
            .binary_search(&c)
            .ok()
            .map(|i| self.child_nodes[first_other + i])
    }

    /// The node of the empty prefix, where every walk starts.
    pub fn root(&self) -> u32 {
        0
    }
}

/// A set of characters with a bitmap for ASCII (the first characters of headwords).
#[derive(Clone, Debug, Default)]
pub struct CharSet {
    ascii: u128,
    other: std::collections::HashSet<char, FxBuild>,
}

impl CharSet {
    /// Adds a character.
    pub fn insert(&mut self, c: char) {
        if c.is_ascii() {
            self.ascii |= 1 << c as u32;
        } else {
            self.other.insert(c);
        }
    }

    /// Whether the character is in the set.
    #[inline]
    pub fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii >> c as u32 & 1 == 1
        } else {
            self.other.contains(&c)
        }
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

/// The hasher of [`FxBuild`].
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
    /// Rarely seen in URLs: a bare domain needs a longer name to count.
    pub low: Vec<String>,
    /// Ordinary domains: a bare domain needs a name of three or more.
    pub normal: Vec<String>,
    /// Common enough that any bare `name.tld` is a URL.
    pub high: Vec<String>,
}

/// Everything loaded for one tokenizer.
#[derive(Default)]
pub struct Resources {
    /// Every tokenizer entry; the tries hold indices into it.
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
    pub punct_first: CharSet,
    /// Mark-up entries by lower-cased headword.
    pub markup: HashMap<String, Vec<MarkupEntry>>,
    /// (lower-cased headword, group) of each mark-up entry, plus `/`.
    pub markup_elements: Vec<(String, bool)>,
    /// First characters of the mark-up headwords, to reject most tokens at once.
    pub markup_first: CharSet,
    /// The top-level domains, by reliability.
    pub tlds: Tlds,
    /// Whether a top-level-domain file was loaded (without one, bare domains are not URLs).
    pub has_tlds: bool,
    /// Titles per language code, which the phonetic abbreviation patterns allow in front.
    pub pre_name_titles: HashMap<String, Vec<String>>,
    /// Phonetic abbreviation patterns per language code (the `ABBREV-IP` tokens).
    pub phonetics: HashMap<String, Vec<String>>,
    /// The files read, for reloading when one changes.
    pub files: Vec<PathBuf>,
    /// What utoken would skip or misread, per line.
    pub diagnostics: Vec<Diagnostic>,
    contexts: HashMap<(ContextKind, String), Arc<Context>>,
}

/// One line of a resource file as utoken uses it: without its comment, expanded, each
/// expansion in turn (the line itself first).
pub struct EntryLine<'a> {
    /// 1-based line number in the file.
    pub number: usize,
    /// The file line as written (for columns).
    pub raw: &'a str,
    /// 0 for the line itself, then its expansions.
    pub expansion: usize,
    /// The line (or expansion) without its comment.
    pub text: String,
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
    /// Empty resources, to load files into.
    pub fn new() -> Resources {
        Resources {
            main: Trie::new(),
            lexical: Trie::new(),
            punct: Trie::new(),
            ..Default::default()
        }
    }

    /// utoken's reading of a resource file: each line without its comment and expanded;
    /// blank and comment lines left out, and lines `skip` says utoken passes over; lines that
    /// fail utoken's checks are reported (an expansion only when its line itself is valid)
    /// and left out. The rest go to `each`.
    pub(super) fn read_entry_lines<'a>(
        &mut self,
        path: &Path,
        text: &'a str,
        role: FileRole,
        skip: impl Fn(&str) -> bool,
        mut each: impl FnMut(&mut Self, EntryLine<'a>),
    ) {
        for (number, raw) in super::line::lines(text) {
            let cut = super::line::without_comment(raw);
            if cut.trim_matches(super::line::is_space).is_empty() {
                continue;
            }
            let mut line_valid = true;
            for (expansion, expanded) in super::expand::expand(cut).into_iter().enumerate() {
                if super::line::is_blank_or_comment(&expanded) || skip(&expanded) {
                    continue;
                }
                let problems = super::line::validate(&expanded, role);
                if !problems.is_empty() {
                    if expansion == 0 {
                        line_valid = false;
                        for p in problems {
                            self.diagnostics
                                .push(Diagnostic::error(path, number, p.column, p.message));
                        }
                    } else if line_valid {
                        self.diagnostics.push(Diagnostic::warning(
                            path,
                            number,
                            0,
                            format!(
                                "an expansion of this line, `{expanded}`, is invalid ({}); utoken skips it",
                                problems[0].message
                            ),
                        ));
                    }
                    continue;
                }
                each(
                    self,
                    EntryLine {
                        number,
                        raw,
                        expansion,
                        text: expanded,
                    },
                );
            }
        }
    }

    /// Compiles a context slot value once per distinct value.
    pub(super) fn context(
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
                        "`::{}` regex: {}; utoken would ignore the condition (`strict=false` does the same)",
                        kind.slot(),
                        e.message
                    ),
                ));
                None
            }
        }
    }

    /// The conditions of an entry line (`line`, maybe an expansion of the file line `raw`);
    /// a context that does not compile is reported unless `quiet` (an expansion repeats
    /// its line's values).
    pub(super) fn conditions_of(
        &mut self,
        line: &str,
        path: &Path,
        number: usize,
        raw: &str,
        quiet: bool,
    ) -> Conditions {
        let before = self.diagnostics.len();
        let [left, left_not, right, right_not] = [
            ContextKind::Left,
            ContextKind::LeftNot,
            ContextKind::Right,
            ContextKind::RightNot,
        ]
        .map(|kind| {
            let value = slot_value(line, kind.slot()).filter(|v| !v.is_empty())?;
            // Report at the value's column in the file line when it is there.
            let col = slot_span(raw, kind.slot()).map_or(0, |(start, _)| column(raw, start));
            self.context(kind, value, path, number, col)
        });
        if quiet {
            self.diagnostics.truncate(before);
        }
        Conditions {
            case_sensitive: flag(line, "case-sensitive"),
            left,
            left_not,
            right,
            right_not,
            lcode_not: slot_value(line, "lcode-not")
                .filter(|v| !v.is_empty())
                .map(|v| split_codes(v).into_iter().map(str::to_string).collect())
                .unwrap_or_default(),
        }
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
}
