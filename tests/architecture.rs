//! The documents stay true to the repository: every path ARCHITECTURE.md names in code style
//! exists, and every relative link in the README, ARCHITECTURE.md, CONTRIBUTING.md and docs/
//! points at a file that exists (and at a heading of it, when the link names one). Code moves;
//! these tests make a document that still describes the old place fail with the list of what
//! it names that is gone.
//!
//! The library's errors stay typed: no `Result<…, String>` (nor an alias of one) in
//! `crates/toklab/src`, so a caller can match on what went wrong and every message keeps the
//! file and place the core's `Error` gives it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The markdown outside fenced code blocks, line by line with 1-based line numbers: what a
/// reader sees as prose, tables and headings.
fn prose_lines(markdown: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (i, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// The inline code spans of one line (`like this`), without their backticks.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The repository path a code span names, if it names one: it holds a `/` or ends in `.rs`,
/// `.md` or `.toml`, and is a single word that is not a command, a URL, a Rust path or a path
/// outside the checkout. A spec's kind is taken off (`fst:samples/x.fst` names `samples/x.fst`).
fn repo_path(span: &str) -> Option<&str> {
    let looks_like_path = span.contains('/')
        || [".rs", ".md", ".toml"]
            .iter()
            .any(|ext| span.ends_with(ext));
    if !looks_like_path || span.chars().any(char::is_whitespace) || span.contains("::") {
        return None;
    }
    if ["http", "$", "~", "../", "/"]
        .iter()
        .any(|p| span.starts_with(p))
    {
        return None;
    }
    let path = match span.split_once(':') {
        Some((kind, rest)) if kind.chars().all(|c| c.is_ascii_lowercase()) => rest,
        Some(_) => return None,
        None => span,
    };
    let punctuation = ['*', '{', '<', '|', '…', '?', '(', '#'];
    (!path.is_empty() && !path.contains(punctuation)).then_some(path)
}

/// The paths named in code style in `markdown` that do not exist under `root`, as
/// `LINE: PATH`.
fn missing_paths(markdown: &str, root: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    for (n, line) in prose_lines(markdown) {
        for span in code_spans(line) {
            if let Some(path) = repo_path(span)
                && !root.join(path).exists()
            {
                missing.push(format!("{n}: {path}"));
            }
        }
    }
    missing
}

#[test]
fn every_path_architecture_names_exists() {
    let root = repo();
    let missing = missing_paths(&read(&root.join("ARCHITECTURE.md")), &root);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn a_path_that_is_gone_is_reported_with_its_line() {
    let text = "The runner is `crates/toklab/src/engines/fst/runner.rs`.\n\
                It was `crates/toklab/src/fst/runner.rs` and reads `fst:samples/fst/gone.fst`.\n\
                ```\nnot/checked/in/a/fence.rs\n```\n\
                Not paths: `toklab::engines::fst`, `../shared/corpora/`, `tests/NAME.rs?`, `a b/c`.\n";
    assert_eq!(
        missing_paths(text, &repo()),
        [
            "2: crates/toklab/src/fst/runner.rs",
            "2: samples/fst/gone.fst"
        ]
    );
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_` kept, spaces
/// made `-`, everything else (backticks, punctuation) dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a markdown file's headings make; a repeated heading gets `-1`, `-2`, ….
fn anchors(markdown: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line) in prose_lines(markdown) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let Some(heading) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    seen
}

/// The targets of the inline links `[text](target)` of one line, outside code spans.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    for (i, prose) in line.split('`').enumerate() {
        if i % 2 == 1 {
            continue;
        }
        let mut rest = prose;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push(&after[..end]);
            rest = &after[end..];
        }
    }
    targets
}

/// The relative links of the markdown file `file` whose file or heading does not exist, as
/// `FILE:LINE: TARGET (why)`.
fn broken_links(file: &Path, root: &Path) -> Vec<String> {
    let text = read(file);
    let shown = file
        .strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string();
    let mut broken = Vec::new();
    for (n, line) in prose_lines(&text) {
        for target in link_targets(line) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if path.is_empty() {
                file.to_path_buf()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                broken.push(format!("{shown}:{n}: {target} (no such file)"));
            } else if !anchor.is_empty()
                && linked.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&linked)).contains(anchor)
            {
                broken.push(format!("{shown}:{n}: {target} (no such heading)"));
            }
        }
    }
    broken
}

/// The documents a newcomer reads: the three at the top and every markdown file in docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
        .iter()
        .map(|f| root.join(f))
        .collect();
    files.extend(crate::common::files_under(&root.join("docs"), "md"));
    files.sort();
    files
}

#[test]
fn every_relative_link_in_the_documents_resolves() {
    let root = repo();
    let files = documents(&root);
    assert!(files.len() > 3, "docs/ holds the user guide: {files:?}");
    let broken: Vec<String> = files.iter().flat_map(|f| broken_links(f, &root)).collect();
    assert!(
        broken.is_empty(),
        "links to files or headings that do not exist:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn a_broken_link_or_heading_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.md"),
        "# A\n\n## `toklab bpe`: merge steps, training\n\n## Jung's segmenter (`lex:`)\n",
    )
    .unwrap();
    let b = dir.path().join("b.md");
    std::fs::write(
        &b,
        "[ok](a.md) [ok](a.md#toklab-bpe-merge-steps-training) [ok](a.md#jungs-segmenter-lex)\n\
         [gone](c.md) [no heading](a.md#training) [here](#b) `[in code](c.md)`\n\
         [web](https://example.org/x.md)\n\n# B\n",
    )
    .unwrap();
    assert_eq!(
        broken_links(&b, dir.path()),
        [
            "b.md:2: c.md (no such file)",
            "b.md:2: a.md#training (no such heading)"
        ]
    );
}

/// The 1-based lines of `source` where a `Result<…>` has `String` as its error type (its last
/// top-level argument), however the type is spelled or broken over lines.
fn string_error_lines(source: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    for (at, _) in source.match_indices("Result<") {
        let before = source[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let args_start = at + "Result<".len();
        let mut depth = 1;
        // The top-level arguments' starts, and where the list closes.
        let mut starts = vec![args_start];
        let mut end = None;
        for (i, c) in source[args_start..].char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(args_start + i);
                        break;
                    }
                }
                ',' if depth == 1 => starts.push(args_start + i + 1),
                _ => {}
            }
        }
        let Some(end) = end else {
            continue;
        };
        // The error type: the last argument, after a trailing comma if there is one.
        let bounds = starts
            .iter()
            .zip(starts.iter().skip(1).map(|s| s - 1).chain([end]));
        let args: Vec<&str> = bounds
            .map(|(&from, to)| source[from..to].trim())
            .filter(|arg| !arg.is_empty())
            .collect();
        if args.len() < 2 {
            continue;
        }
        let error = args[args.len() - 1];
        if ["String", "std::string::String", "alloc::string::String"].contains(&error) {
            lines.push(source[..at].matches('\n').count() + 1);
        }
    }
    lines
}

#[test]
fn the_library_returns_no_string_errors() {
    let root = repo();
    let mut found = Vec::new();
    for file in crate::common::files_under(&root.join("crates/toklab/src"), "rs") {
        let shown = file.strip_prefix(&root).unwrap().display().to_string();
        for line in string_error_lines(&read(&file)) {
            found.push(format!("{shown}:{line}"));
        }
    }
    assert!(
        found.is_empty(),
        "`Result<_, String>` in the library (return a typed error: crate::Error, or a module's \
         own error type the loader turns into one):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn a_string_error_is_found_however_it_is_written() {
    let source = "fn a() -> Result<(), String> {}\n\
                  type Parse<T> = std::result::Result<T, String>;\n\
                  fn b() -> Result<Vec<(u8, String)>, Error> {}\n\
                  fn c() -> io::Result<String> {}\n\
                  fn d() -> Result<\n    HashMap<String, u32>,\n    std::string::String,\n> {}\n\
                  fn e() -> MyResult<u8, String> {}\n";
    assert_eq!(string_error_lines(source), [1, 2, 5]);
}
