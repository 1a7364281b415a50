//! Row labels: `LABEL=SPEC` wherever a spec is taken, and short labels derived from a spec's
//! file name when none is given, so two `tiktoken:/long/path/…` rows can be told apart in a
//! narrow label column, a status bar or a report header.
//!
//! The rule for a label: the text before the first `=` is a label when it is non-empty and
//! contains none of `:`, `?` and `/`. A spec always names its kind before any `=` it holds
//! (`KIND:ARG?key=value`, `KIND?key=value`), so `ws?x=1` and `tiktoken:/a/b?pattern=x=y` keep
//! their `=` signs, and a label can never be mistaken for a kind.

use std::path::Path;

/// A spec as written, split into its label (when one is given) and the spec proper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled<'a> {
    /// The label before the first `=`, trimmed; `None` without one.
    pub label: Option<&'a str>,
    /// The spec after the label (the whole text without one), trimmed.
    pub spec: &'a str,
}

/// Splits `LABEL=SPEC` into its parts; a text without a label is all spec.
pub fn split(text: &str) -> Labelled<'_> {
    let text = text.trim();
    if let Some((before, after)) = text.split_once('=') {
        let label = before.trim();
        if !label.is_empty() && !label.contains([':', '?', '/']) {
            return Labelled {
                label: Some(label),
                spec: after.trim(),
            };
        }
    }
    Labelled {
        label: None,
        spec: text,
    }
}

/// Labels this long or shorter are the spec itself (`ws`, `pretok:gpt2`).
const SHORT: usize = 24;

/// File stems that say nothing about the model (`…/gpt2/tokenizer.json`): the folder is used
/// instead.
const GENERIC_STEMS: &[&str] = &[
    "tokenizer",
    "vocab",
    "merges",
    "model",
    "spm",
    "sentencepiece",
    "encoder",
    "tokenizer_config",
];

/// The spec's argument (between `KIND:` and any `?options`), when it reads as a file path.
fn path_of(spec: &str) -> Option<&Path> {
    let (_, rest) = spec.split_once(':')?;
    let arg = rest.split('?').next().unwrap_or(rest);
    let looks_like_a_path = !arg.is_empty()
        && !arg.contains(char::is_whitespace)
        && (arg.contains('/') || Path::new(arg).extension().is_some());
    looks_like_a_path.then(|| Path::new(arg))
}

/// The name of the file or folder at `path` without its extension, or the folder's name when
/// the stem is generic.
fn stem_of(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str());
    match folder {
        Some(folder) if GENERIC_STEMS.contains(&stem.to_ascii_lowercase().as_str()) => {
            Some(folder.to_string())
        }
        _ => Some(stem.to_string()),
    }
}

/// A short label for a spec without one: short specs as they are, specs naming a file by that
/// file's stem (`tiktoken:/long/path/cl100k_base.tiktoken` → `cl100k_base`), anything else
/// cut to a few characters with `…`.
pub fn derive(spec: &str) -> String {
    let spec = spec.trim();
    if spec.chars().count() <= SHORT {
        return spec.to_string();
    }
    if let Some(stem) = path_of(spec).and_then(stem_of) {
        return stem;
    }
    let mut cut: String = spec.chars().take(SHORT - 1).collect();
    cut.push('…');
    cut
}

/// The derived label with the file's folder before it (`b/cl100k_base`), to tell apart two
/// files of the same name.
fn with_folder(spec: &str) -> Option<String> {
    let path = path_of(spec.trim())?;
    let folder = path.parent()?.file_name()?.to_str()?;
    let label = derive(spec);
    (label != folder).then(|| format!("{folder}/{label}"))
}

/// `label` itself when no label in `taken` is equal to it, else `label#2`, `label#3`, … (the
/// first free one).
pub fn unique(taken: &[&str], label: &str) -> String {
    let mut claimed = Claimed::default();
    for name in taken {
        claimed.taken.insert((*name).to_string());
    }
    claimed.claim(label)
}

/// The labels given out so far, and for each base label the number to try next, so giving
/// out n labels takes time linear in n even when they are all alike (a set of names searched
/// from `#2` up for every row took 25 s for a workspace of 4,000 rows).
#[derive(Default)]
struct Claimed {
    taken: std::collections::HashSet<String>,
    next: std::collections::HashMap<String, usize>,
}

impl Claimed {
    /// `label`, or the first free `label#N`, now taken.
    fn claim(&mut self, label: &str) -> String {
        let chosen = if self.taken.contains(label) {
            let next = self.next.entry(label.to_string()).or_insert(2);
            loop {
                let candidate = format!("{label}#{next}");
                *next += 1;
                if !self.taken.contains(&candidate) {
                    break candidate;
                }
            }
        } else {
            label.to_string()
        };
        self.taken.insert(chosen.clone());
        chosen
    }
}

/// Distinct labels for a list of specs as written (`LABEL=SPEC` or `SPEC`): given labels are
/// kept, the others derived; derived labels that come out equal get their folder first
/// (`a/cl100k_base`, `b/cl100k_base`), and any that are still equal a `#2`, `#3`, … suffix.
pub fn labels<S: AsRef<str>>(texts: &[S]) -> Vec<String> {
    let parts: Vec<Labelled> = texts.iter().map(|t| split(t.as_ref())).collect();
    let derived: Vec<String> = parts
        .iter()
        .map(|p| p.label.map_or_else(|| derive(p.spec), str::to_string))
        .collect();
    let mut times: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for label in &derived {
        *times.entry(label.as_str()).or_default() += 1;
    }
    let mut claimed = Claimed::default();
    parts
        .iter()
        .zip(&derived)
        .map(|(part, derived)| {
            let clashes = times[derived.as_str()] > 1;
            let base = match (part.label, clashes) {
                (None, true) => with_folder(part.spec).unwrap_or_else(|| derived.clone()),
                _ => derived.clone(),
            };
            claimed.claim(&base)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> (Option<&str>, &str) {
        let l = split(text);
        (l.label, l.spec)
    }

    #[test]
    fn a_label_is_what_comes_before_the_first_equals_sign_without_colon_question_mark_or_slash() {
        assert_eq!(
            parts("cl100k=tiktoken:/a/cl100k_base.tiktoken"),
            (Some("cl100k"), "tiktoken:/a/cl100k_base.tiktoken")
        );
        assert_eq!(
            parts(" my rules = rules:x.txt "),
            (Some("my rules"), "rules:x.txt")
        );
        // The `=` belongs to the spec's options or argument.
        assert_eq!(parts("ws?x=1"), (None, "ws?x=1"));
        assert_eq!(
            parts("tiktoken:/a/b?pattern=x=y"),
            (None, "tiktoken:/a/b?pattern=x=y")
        );
        assert_eq!(parts("regex:a=b"), (None, "regex:a=b"));
        assert_eq!(parts("path/x=y"), (None, "path/x=y"));
        // A label may name a spec whose own options hold `=`.
        assert_eq!(
            parts("hf=bpe:m.txt?semantics=hf"),
            (Some("hf"), "bpe:m.txt?semantics=hf")
        );
        // An empty label is no label.
        assert_eq!(parts("=ws"), (None, "=ws"));
        assert_eq!(parts("ws"), (None, "ws"));
    }

    #[test]
    fn labels_are_derived_from_file_names() {
        assert_eq!(
            derive("tiktoken:/long/path/cl100k_base.tiktoken"),
            "cl100k_base"
        );
        assert_eq!(derive("hf:/cache/models/gpt2/tokenizer.json"), "gpt2");
        assert_eq!(derive("ws"), "ws");
        assert_eq!(derive("pretok:gpt2"), "pretok:gpt2");
        assert_eq!(
            derive("rules:samples/rules/english.txt?trace=true"),
            "english"
        );
        // Not a path: cut with an ellipsis.
        assert_eq!(derive("rules:rules?lang=eng"), "rules:rules?lang=eng");
        assert_eq!(
            derive("regex:[[:alpha:]]+|[0-9]+|[^\\s]"),
            "regex:[[:alpha:]]+|[0-9…"
        );
    }

    #[test]
    fn equal_derived_labels_get_their_folder_then_a_number() {
        assert_eq!(
            labels(&[
                "tiktoken:/m/a/cl100k_base.tiktoken",
                "tiktoken:/m/b/cl100k_base.tiktoken",
                "ws",
            ]),
            ["a/cl100k_base", "b/cl100k_base", "ws"]
        );
        assert_eq!(
            labels(&[
                "bpe:/m/gpt2.txt?semantics=hf",
                "bpe:/m/gpt2.txt?semantics=spm"
            ]),
            ["m/gpt2", "m/gpt2#2"]
        );
        assert_eq!(labels(&["x=ws", "x=words", "ws"]), ["x", "x#2", "ws"]);
        assert_eq!(unique(&["a", "a#2"], "a"), "a#3");
        assert_eq!(unique(&["b"], "a"), "a");
    }
}
