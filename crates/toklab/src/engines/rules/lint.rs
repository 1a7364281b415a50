//! Checks of rule files beyond what utoken itself reports: duplicate entries, and entries that
//! can never fire because an earlier entry for the same text always wins. Together with the
//! loader's diagnostics (malformed lines, unknown or missing slots, regexes that do not
//! compile) this is `toklab rules check` and the workbench's diagnostics pane.

use std::collections::HashMap;
use std::path::PathBuf;

use super::diag::Diagnostic;
use super::line::FileRole;
use super::resources::{Entry, EntryKind, Resources, SplitSide};

/// The start of every "can never fire" message.
pub const SHADOWED_PREFIX: &str = "can never fire";
/// The start of every duplicate message.
pub const DUPLICATE_PREFIX: &str = "duplicate entry";

/// Whether a diagnostic is about a redundant entry (a duplicate or one that never fires):
/// the tokenizer's warnings summarize those in one line.
pub fn is_redundancy(d: &Diagnostic) -> bool {
    d.message.starts_with(SHADOWED_PREFIX) || d.message.starts_with(DUPLICATE_PREFIX)
}

/// Checks rule files: each file is read in the role its name gives it (`tok-resource*`,
/// `detok-resource*`, `top-level-domain*`), all in one rule set in the order given, so an
/// entry of a later file can be found shadowed by one of an earlier file. Returns every
/// finding, errors and warnings, in file order.
pub fn check_files(paths: &[PathBuf]) -> Vec<Diagnostic> {
    let mut res = Resources::new();
    for path in paths {
        res.load_file(path, FileRole::of(path), &[]);
    }
    add_shadowing(&mut res);
    let order = |d: &Diagnostic| {
        paths
            .iter()
            .position(|p| *p == d.path)
            .unwrap_or(usize::MAX)
    };
    let mut diags = res.diagnostics;
    diags.sort_by_key(|d| (order(d), d.line, d.column));
    diags
}

/// What makes two entries the same for tokenization (documentation slots aside).
fn signature(e: &Entry) -> String {
    let ctx = |c: &Option<std::sync::Arc<super::context::Context>>| {
        c.as_ref().map(|c| c.source.clone()).unwrap_or_default()
    };
    format!(
        "{:?}\u{1}{}\u{1}{:?}\u{1}{:?}\u{1}{:?}\u{1}{:?}\u{1}{}\u{1}{}\u{1}{}\u{1}{}\u{1}{}\u{1}{:?}\u{1}{:?}\u{1}{}",
        e.kind,
        e.s,
        e.target,
        e.char_splits,
        e.sem_class,
        e.tag,
        e.cond.case_sensitive,
        ctx(&e.cond.left),
        ctx(&e.cond.left_not),
        ctx(&e.cond.right),
        ctx(&e.cond.right_not),
        e.cond.lcode_not,
        e.side,
        e.group
    )
}

/// Whether `a`, earlier in the same key's list, always fires where `b` would.
fn shadows(a: &Entry, b: &Entry) -> bool {
    if a.cond.any() {
        return false;
    }
    use EntryKind::*;
    let sem = |e: &Entry, s: &str| e.sem_class.as_deref() == Some(s);
    match (a.kind, b.kind) {
        (
            Contraction | Repair | LexicalPriority,
            Abbrev | Contraction | Repair | LexicalPriority,
        ) => true,
        (Abbrev, Abbrev) => {
            sem(a, "currency-unit") || (!sem(b, "currency-unit") && b.cond.right.is_none())
        }
        (Lexical, Lexical) => {
            b.cond.left.is_none()
                && b.cond.right.is_none()
                && (sem(a, "unit-of-measurement") || !sem(b, "unit-of-measurement"))
        }
        (PunctSplit, PunctSplit) => match (a.side, b.side) {
            (SplitSide::Both, _) => true,
            (SplitSide::Start, SplitSide::Start) => true,
            (SplitSide::End, SplitSide::End) => a.group == b.group,
            _ => false,
        },
        _ => false,
    }
}

/// Adds warnings for duplicate entries and for entries an earlier one always beats.
pub fn add_shadowing(res: &mut Resources) {
    let mut found: Vec<Diagnostic> = Vec::new();
    let mut reported: std::collections::HashSet<(String, usize)> = Default::default();
    // Exact duplicates among the lines as written.
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    for (i, e) in res.entries.iter().enumerate() {
        if e.expanded {
            continue;
        }
        let sig = signature(e);
        match first_seen.get(&sig) {
            Some(&j) => {
                let first = &res.entries[j];
                if reported.insert((e.loc.file.to_string(), e.loc.line)) {
                    found.push(Diagnostic::warning(
                        PathBuf::from(&*e.loc.file),
                        e.loc.line,
                        1,
                        format!(
                            "{DUPLICATE_PREFIX}: `::{} {}` is already at {}",
                            e.kind.head(),
                            e.s,
                            first.loc
                        ),
                    ));
                }
            }
            None => {
                first_seen.insert(sig, i);
            }
        }
    }
    // Shadowing, per headword and step.
    let mut by_key: HashMap<(u8, String), Vec<usize>> = HashMap::new();
    for (i, e) in res.entries.iter().enumerate() {
        let step = match e.kind {
            EntryKind::Abbrev
            | EntryKind::Contraction
            | EntryKind::Repair
            | EntryKind::LexicalPriority => 10,
            EntryKind::Lexical => 15,
            EntryKind::PunctSplit => 18,
            EntryKind::NonSymbol => continue,
        };
        by_key
            .entry((step, e.s.to_lowercase()))
            .or_default()
            .push(i);
    }
    let mut keys: Vec<_> = by_key.into_iter().collect();
    keys.sort_by_key(|(_, ids)| ids[0]);
    for (_, ids) in keys {
        for (k, &j) in ids.iter().enumerate() {
            let b = &res.entries[j];
            let key = (b.loc.file.to_string(), b.loc.line);
            if reported.contains(&key) {
                continue;
            }
            let winner = ids[..k]
                .iter()
                .map(|&i| &res.entries[i])
                .find(|a| (a.loc.file != b.loc.file || a.loc.line != b.loc.line) && shadows(a, b));
            if let Some(a) = winner {
                reported.insert(key);
                found.push(Diagnostic::warning(
                    PathBuf::from(&*b.loc.file),
                    b.loc.line,
                    1,
                    format!(
                        "{SHADOWED_PREFIX}: `::{} {}`{} always loses to `::{} {}` at {}",
                        b.kind.head(),
                        b.s,
                        if b.expanded {
                            " (an expansion of this line)"
                        } else {
                            ""
                        },
                        a.kind.head(),
                        a.s,
                        a.loc
                    ),
                ));
            }
        }
    }
    res.diagnostics.extend(found);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn lint(text: &str) -> Vec<String> {
        let mut r = Resources::new();
        r.load_tok_text(Path::new("t.txt"), text);
        add_shadowing(&mut r);
        r.diagnostics.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn duplicates_and_shadowed_entries() {
        let found = lint(
            "::abbrev Dr. ::exp doctor\n::abbrev Dr. ::exp drive\n::abbrev dr. ::right-context \\s*\\d\n::contraction gonna ::target gon na\n::repair gonna ::target going to\n::punct-split , ::side both\n::punct-split , ::side end\n",
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(
            found[0].starts_with(
                "t.txt:2:1: warning: duplicate entry: `::abbrev Dr.` is already at t.txt:1"
            ),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|f| f.starts_with("t.txt:5:1: warning: can never fire: `::repair gonna`")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|f| f.starts_with("t.txt:7:1")),
            "{found:?}"
        );
    }

    #[test]
    fn conditional_entries_do_not_shadow() {
        assert!(lint("::abbrev No. ::case-sensitive True\n::abbrev no.\n").is_empty());
        assert!(lint("::punct-split - ::side start\n::punct-split - ::side end\n").is_empty());
    }
}
