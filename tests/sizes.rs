//! Code stays small enough to read: no function over [`FUNCTION_BAR`] lines and no file over
//! [`FILE_BAR`] lines in the library and the program (tests inside them included). What is
//! still over the bar is listed in [`KNOWN`] with its length, so the list can only shrink: a
//! new long function fails, and so does a listed one that grew or got short (take it off the
//! list).
//!
//! Functions are found as rustfmt lays them out: a line starting with `fn` (after `pub`,
//! `const`, `async`, `unsafe`), the signature running to the line that ends in `{`, the body
//! to the first line that is the closing brace at the `fn` line's indentation.

use std::path::Path;

/// The most lines a function may have, signature and closing brace included.
const FUNCTION_BAR: usize = 100;

/// The most lines a source file may have.
const FILE_BAR: usize = 600;

/// Folders measured, everything under them.
const MEASURED: &[&str] = &["crates/toklab/src", "src"];

/// What is over the bar today: `path::function` (or the path, for a file) and its length.
const KNOWN: &[(&str, usize)] = &[];

/// The name of the function a line starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')')?.1,
            None => after,
        }
        .trim_start();
    }
    for qualifier in ["const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// Every function of `source` longer than `bar` lines: its name and length.
fn long_functions(source: &str, bar: usize) -> Vec<(String, usize)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut long = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        // The signature ends at `{` (a body), `;` (a declaration) or `}` (a one-line body).
        let Some(open) = (start..lines.len()).find(|&i| {
            let t = lines[i].trim_end();
            t.ends_with('{') || t.ends_with(';') || t.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        let end = (open + 1..lines.len())
            .find(|&i| lines[i].trim_end() == close)
            .unwrap_or(lines.len() - 1);
        let length = end - start + 1;
        if length > bar {
            long.push((name.to_string(), length));
        }
    }
    long
}

/// Everything over the bars in the measured folders: `path::function` or `path`, and length.
fn over_the_bars(root: &Path) -> Vec<(String, usize)> {
    let mut over = Vec::new();
    for folder in MEASURED {
        for file in crate::common::files_under(&root.join(folder), "rs") {
            let source = std::fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(root).unwrap().display().to_string();
            for (name, length) in long_functions(&source, FUNCTION_BAR) {
                over.push((format!("{shown}::{name}"), length));
            }
            let lines = source.lines().count();
            if lines > FILE_BAR {
                over.push((shown, lines));
            }
        }
    }
    over
}

#[test]
fn no_function_or_file_is_over_the_bar_beyond_the_known_list() {
    let over = over_the_bars(Path::new(env!("CARGO_MANIFEST_DIR")));
    let mut wrong = Vec::new();
    for (what, length) in &over {
        match KNOWN.iter().find(|(k, _)| k == what) {
            None => wrong.push(format!(
                "{what}: {length} lines (split it into named steps)"
            )),
            Some((_, known)) if length > known => {
                wrong.push(format!("{what}: grew from {known} to {length} lines"))
            }
            Some(_) => {}
        }
    }
    for (what, known) in KNOWN {
        if !over.iter().any(|(o, _)| o == what) {
            wrong.push(format!(
                "{what}: listed at {known} lines but no longer over the bar: take it off KNOWN"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n  {}", wrong.join("\n  "));
}

#[test]
fn long_functions_are_found_and_declarations_are_not() {
    let body: String = (0..5)
        .map(|i| format!("        let x{i} = {i};\n"))
        .collect();
    let source = format!(
        "trait T {{\n    fn declared(&self);\n    fn short(&self) {{}}\n}}\n\
         impl S {{\n    pub(crate) fn long(\n        &self,\n    ) -> u8 {{\n{body}        if true {{\n        }}\n    }}\n\
         \n    const fn other() {{\n    }}\n}}\n"
    );
    // `long` runs from its `fn` line to its closing brace: 3 signature lines, 5 + 2 body lines
    // and the brace.
    assert_eq!(long_functions(&source, 4), [("long".to_string(), 11)]);
    assert_eq!(long_functions(&source, 11), []);
    assert_eq!(
        function_name("    pub(super) async fn go<T>(x: T) {"),
        Some("go")
    );
    assert_eq!(function_name("    let f = fn_ptr;"), None);
}
