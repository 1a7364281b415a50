//! The validity rules utoken applies to a line before using it (known head and slots, no
//! slot twice, required slots present, no text glued to a slot, no `:slot` with a colon
//! missing), reported with the column of each problem.

use super::{is_space, non_space_len, space_len};

/// One problem of a line, at a 1-based column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineProblem {
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Which kind of resource file a line belongs to: each accepts its own slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileRole {
    /// `tok-resource*.txt`: entries for the tokenizer.
    Tok,
    /// `detok-resource.txt`: mark-up and attachment entries.
    Detok,
    /// `top-level-domain-codes.txt`.
    Tld,
}

impl FileRole {
    /// The role utoken gives a file, by its name.
    pub fn of(path: &std::path::Path) -> FileRole {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if name.starts_with("detok") {
            FileRole::Detok
        } else if name.starts_with("top-level-domain") {
            FileRole::Tld
        } else {
            FileRole::Tok
        }
    }

    /// The slot names utoken accepts in such a file.
    pub fn valid_slots(self) -> &'static [&'static str] {
        match self {
            FileRole::Tok => TOK_SLOTS,
            FileRole::Detok => DETOK_SLOTS,
            FileRole::Tld => TLD_SLOTS,
        }
    }

    /// The head slots utoken accepts and the slots each requires; `None` for an unknown head.
    pub fn required(self, head: &str) -> Option<&'static [&'static str]> {
        let table: &[(&str, &[&str])] = match self {
            FileRole::Tok => &[
                ("abbrev", &[]),
                ("contraction", &["target"]),
                ("lexical", &[]),
                ("misspelling", &["target"]),
                ("non-symbol", &[]),
                ("punct-split", &["side"]),
                ("repair", &["target"]),
            ],
            FileRole::Detok => &[
                ("attach-tag", &[]),
                ("auto-attach", &["side"]),
                ("contraction", &["target"]),
                ("lexical", &[]),
                ("markup-attach", &[]),
                ("non-symbol", &[]),
            ],
            FileRole::Tld => &[("code", &[])],
        };
        table.iter().find(|(h, _)| *h == head).map(|(_, r)| *r)
    }
}

const TOK_SLOTS: &[&str] = &[
    "abbrev",
    "alt-spelling",
    "case-sensitive",
    "char-split",
    "comment",
    "contraction",
    "country",
    "eng",
    "etym-lcode",
    "example",
    "exp",
    "group",
    "inflections",
    "last-char-repeatable",
    "lcode",
    "lcode-not",
    "left-context",
    "left-context-not",
    "lexical",
    "misspelling",
    "non-symbol",
    "nonstandard",
    "plural",
    "problem",
    "priority",
    "punct-split",
    "repair",
    "right-context",
    "right-context-not",
    "sem-class",
    "side",
    "substandard",
    "suffix-variations",
    "syntax-checked",
    "tag",
    "target",
    "taxon",
    "token-category",
];

const DETOK_SLOTS: &[&str] = &[
    "alt-spelling",
    "attach-tag",
    "auto-attach",
    "char-split",
    "case-sensitive",
    "comment",
    "contraction",
    "country",
    "eng",
    "etym-lcode",
    "example",
    "except",
    "group",
    "last-char-repeatable",
    "lcode",
    "lcode-not",
    "left-context",
    "left-context-not",
    "lexical",
    "markup-attach",
    "misspelling",
    "non-symbol",
    "nonstandard",
    "paired-delimiter",
    "plural",
    "priority",
    "right-context",
    "right-context-not",
    "sem-class",
    "side",
    "substandard",
    "syntax-checked",
    "tag",
    "target",
    "taxon",
    "token-category",
];

const TLD_SLOTS: &[&str] = &["code", "comment", "country-name", "example", "reliability"];

/// The slot names of a line in order (`::` + ASCII letter + non-spaces, as utoken finds them),
/// with their byte offsets.
pub fn slot_names(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(found) = line[i..].find("::") {
        let at = i + found;
        let name_start = at + 2;
        let starts_letter = line[name_start..]
            .chars()
            .next()
            .is_some_and(|c| crate::engines::rules::chars::Fold::Re.ascii(c).is_some());
        if starts_letter {
            let len = non_space_len(&line[name_start..]);
            out.push((at, &line[name_start..name_start + len]));
            i = name_start + len;
        } else {
            i = at + 1;
        }
    }
    out
}

/// The 1-based character column of byte offset `at`.
pub fn column(line: &str, at: usize) -> usize {
    line[..at].chars().count() + 1
}

/// Checks a line as utoken does before using it; an empty result means utoken accepts it.
pub fn validate(line: &str, role: FileRole) -> Vec<LineProblem> {
    let mut problems = Vec::new();
    let slots = slot_names(line);
    let Some(&(head_at, head)) = slots.first() else {
        return vec![LineProblem {
            column: 1,
            message: "no `::slot` on this line".into(),
        }];
    };
    let required = match role.required(head) {
        Some(r) => r,
        None => {
            problems.push(LineProblem {
                column: column(line, head_at),
                message: format!(
                    "unknown entry kind `::{head}` (expected one of {})",
                    known_heads(role)
                ),
            });
            &[]
        }
    };
    let valid = role.valid_slots();
    let mut seen: Vec<&str> = Vec::new();
    for &(at, name) in &slots {
        if valid.contains(&name) {
            if seen.contains(&name) {
                problems.push(LineProblem {
                    column: column(line, at),
                    message: format!("slot `::{name}` appears twice"),
                });
            } else {
                seen.push(name);
            }
        } else if at != head_at || role.required(head).is_some() {
            problems.push(LineProblem {
                column: column(line, at),
                message: format!("unknown slot `::{name}`"),
            });
        }
    }
    for slot in required {
        if !seen.contains(slot) {
            problems.push(LineProblem {
                column: column(line, line.trim_end_matches(is_space).len()),
                message: format!("`::{head}` needs a `::{slot}` slot"),
            });
        }
    }
    if let Some((at, text)) = glued_slot(line) {
        let message = if text.contains(":::") {
            format!("spurious colon in `{text}`")
        } else {
            format!("missing space before `::` in `{text}`")
        };
        problems.push(LineProblem {
            column: column(line, at),
            message,
        });
    }
    if let Some((at, text)) = single_colon_word(line)
        && !single_colon_allowed(line, text)
    {
        problems.push(LineProblem {
            column: column(line, at),
            message: format!(
                "`{text}` looks like a slot with a missing colon (write `::syntax-checked True` if it is meant)"
            ),
        });
    }
    problems.sort_by_key(|p| p.column);
    problems
}

fn known_heads(role: FileRole) -> String {
    let heads: &[&str] = match role {
        FileRole::Tok => &[
            "abbrev",
            "contraction",
            "lexical",
            "misspelling",
            "non-symbol",
            "punct-split",
            "repair",
        ],
        FileRole::Detok => &[
            "attach-tag",
            "auto-attach",
            "contraction",
            "lexical",
            "markup-attach",
            "non-symbol",
        ],
        FileRole::Tld => &["code"],
    };
    heads
        .iter()
        .map(|h| format!("::{h}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first whitespace-free run with text glued to a slot (`x::slot`): utoken's
/// `.*?(\S+::[a-z]\S*)`.
fn glued_slot(line: &str) -> Option<(usize, &str)> {
    let mut at = 0;
    while at < line.len() {
        let skip = space_len(&line[at..]);
        at += skip;
        let len = non_space_len(&line[at..]);
        if len == 0 {
            break;
        }
        let run = &line[at..at + len];
        let bytes = run.as_bytes();
        let glued = (1..bytes.len().saturating_sub(2))
            .any(|i| bytes[i] == b':' && bytes[i + 1] == b':' && bytes[i + 2].is_ascii_lowercase());
        if glued {
            return Some((at, run));
        }
        at += len;
    }
    None
}

/// The last word starting with a single `:` and a lower-case letter: utoken's
/// `(?:.*\s)?(:[a-z]\S*)`.
fn single_colon_word(line: &str) -> Option<(usize, &str)> {
    let bytes = line.as_bytes();
    let mut found = None;
    for i in 0..bytes.len() {
        if bytes[i] == b':'
            && bytes.get(i + 1).is_some_and(|b| b.is_ascii_lowercase())
            && (i == 0 || line[..i].chars().next_back().is_some_and(is_space))
        {
            let len = non_space_len(&line[i..]);
            found = Some((i, &line[i..i + len]));
        }
    }
    found
}

fn single_colon_allowed(line: &str, word: &str) -> bool {
    let emoji_like = {
        let inner = word.strip_prefix(':').and_then(|w| w.strip_suffix(':'));
        inner.is_some_and(|w| {
            let chars: Vec<char> = w.chars().collect();
            let letter = |c: &char| crate::engines::rules::chars::Fold::Re.ascii(*c).is_some();
            chars.len() >= 2
                && chars.first().is_some_and(letter)
                && chars.last().is_some_and(letter)
                && chars.iter().all(|c| letter(c) || *c == '-' || *c == '_')
        })
    };
    let mentions_symbol = word_in(line, "symbol") || word_in(line, "emoji");
    (emoji_like && mentions_symbol) || syntax_checked(line)
}

/// `.*::syntax-checked True\b`.
fn syntax_checked(line: &str) -> bool {
    line.match_indices("::syntax-checked True").any(|(i, m)| {
        line[i + m.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

/// Whether `word` occurs as a whole word, case-insensitively (`\bword\b`).
fn word_in(line: &str, word: &str) -> bool {
    let lower = line.to_lowercase();
    lower.match_indices(word).any(|(i, m)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + m.len()..].chars().next();
        let is_word = |c: char| c.is_alphanumeric() || c == '_';
        before.is_none_or(|c| !is_word(c)) && after.is_none_or(|c| !is_word(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_finds_each_problem_with_its_column() {
        assert!(validate("::abbrev No. ::exp number", FileRole::Tok).is_empty());
        let p = validate("::abbrev No. ::expansion number", FileRole::Tok);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].column, 14);
        assert!(p[0].message.contains("unknown slot `::expansion`"));
        let p = validate("::contraction can't", FileRole::Tok);
        assert!(p[0].message.contains("needs a `::target`"), "{p:?}");
        let p = validate("::abbrev x ::lcode eng ::lcode fra", FileRole::Tok);
        assert!(p[0].message.contains("twice") && p[0].column == 24, "{p:?}");
        let p = validate("::abbrev x::lcode eng", FileRole::Tok);
        assert!(p[0].message.contains("missing space"), "{p:?}");
        let p = validate("::abbrev x :lcode eng", FileRole::Tok);
        assert!(
            p[0].message.contains("missing colon") && p[0].column == 12,
            "{p:?}"
        );
        assert!(validate("::lexical :smile: ::sem-class emoji", FileRole::Tok).is_empty());
        let p = validate("::frobnicate x", FileRole::Tok);
        assert!(p[0].message.contains("unknown entry kind"), "{p:?}");
        assert!(
            validate("abbrev x", FileRole::Tok)[0]
                .message
                .contains("no `::slot`")
        );
        assert!(validate("::markup-attach - ::group True", FileRole::Detok).is_empty());
        assert!(validate("::code com ::reliability high", FileRole::Tld).is_empty());
    }
}
