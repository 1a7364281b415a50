//! The line syntax of utoken's resource files: `::HEAD VALUE ::slot VALUE …`, comments, and the
//! validity rules utoken applies before it uses a line (with the column of each problem, which
//! utoken does not report but a rule author needs).

/// Python's `str.isspace()` for one character (what `\s` means in utoken's `re` patterns).
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Splits a file's text into lines as Python's text-mode reading does (`\n`, `\r\n` and a lone
/// `\r` end a line), with 1-based line numbers.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut number = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        number += 1;
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else if end < rest.len() {
            1
        } else {
            0
        };
        rest = &rest[end + skip..];
        Some((number, line))
    })
}

/// A line without its trailing comment, as utoken cuts it: a line starting with `#` is all
/// comment; otherwise ` #…` is a comment only after the first word of the last slot's value
/// (so `::punct-split # ::side both` keeps its `#` headword).
pub fn without_comment(line: &str) -> &str {
    if !line.contains('#') {
        return line;
    }
    if line.starts_with('#') {
        return "";
    }
    // (.*::\S+(?:\s+\S+)?)(.*)$ : the last `::` followed by a non-space, its name, and the
    // first word after it.
    let Some(cut) = last_slot_first_word_end(line) else {
        return line;
    };
    // (.*?)\s+#.* on the remainder: the first whitespace run followed by `#`.
    let rest = &line[cut..];
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_space(c) {
            let mut j = i + c.len_utf8();
            while let Some(&(k, d)) = chars.peek() {
                if is_space(d) {
                    chars.next();
                    j = k + d.len_utf8();
                } else {
                    break;
                }
            }
            if rest[j..].starts_with('#') {
                return &line[..cut + i];
            }
        }
    }
    line
}

/// The end of `::name` plus the first word after it, for the last `::` followed by a non-space.
fn last_slot_first_word_end(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut at = None;
    let mut i = line.len();
    while i >= 2 {
        i -= 1;
        if bytes[i - 1] == b':' && bytes[i] == b':' {
            let after = &line[i + 1..];
            if after.chars().next().is_some_and(|c| !is_space(c)) {
                at = Some(i + 1);
                break;
            }
        }
    }
    let start = at?;
    let name_end = start + non_space_len(&line[start..]);
    let ws = space_len(&line[name_end..]);
    if ws > 0 {
        let word = non_space_len(&line[name_end + ws..]);
        if word > 0 {
            return Some(name_end + ws + word);
        }
    }
    Some(name_end)
}

fn non_space_len(s: &str) -> usize {
    s.find(is_space).unwrap_or(s.len())
}

fn space_len(s: &str) -> usize {
    s.find(|c| !is_space(c)).unwrap_or(s.len())
}

/// Whether utoken skips the line as blank or comment (`^\uFEFF?\s*(?:#.*)?$`).
pub fn is_blank_or_comment(line: &str) -> bool {
    let rest = line.strip_prefix('\u{feff}').unwrap_or(line);
    let rest = rest.trim_start_matches(is_space);
    rest.is_empty() || rest.starts_with('#')
}

/// The value of `::slot` in a line, as utoken reads it: the last `::slot` that starts the line
/// or follows whitespace and is followed by whitespace or the end; its value runs to the next
/// whitespace + `::` + non-space, stripped. `None` when the slot is absent.
pub fn slot_value<'a>(line: &'a str, slot: &str) -> Option<&'a str> {
    slot_span(line, slot).map(|(start, end)| &line[start..end])
}

/// The byte range of [`slot_value`]'s value (empty at the slot's end when the value is empty).
pub fn slot_span(line: &str, slot: &str) -> Option<(usize, usize)> {
    let mut search_end = line.len();
    loop {
        let found = line[..search_end].rfind("::")?;
        search_end = found;
        let name_start = found + 2;
        if !line[name_start..].starts_with(slot) {
            if found == 0 {
                return None;
            }
            continue;
        }
        let after = name_start + slot.len();
        let preceded_ok = found == 0 || line[..found].chars().next_back().is_some_and(is_space);
        let followed_ok = line[after..].chars().next().is_none_or(is_space);
        if preceded_ok && followed_ok {
            return Some(value_span(line, after));
        }
        if found == 0 {
            return None;
        }
    }
}

/// The value after a slot name ending at `after`: up to the first `\s+::\S`, stripped.
fn value_span(line: &str, after: usize) -> (usize, usize) {
    let rest = &line[after..];
    let mut end = rest.len();
    let mut iter = rest.char_indices().peekable();
    let mut seen_value = false;
    while let Some((i, c)) = iter.next() {
        if is_space(c) {
            if seen_value {
                let ws_end = i + space_len(&rest[i..]);
                let tail = &rest[ws_end..];
                if tail.starts_with("::") && tail[2..].chars().next().is_some_and(|d| !is_space(d))
                {
                    end = i;
                    break;
                }
            } else {
                // Still in the whitespace before the value; a following `::x` means an
                // empty value.
                let ws_end = i + space_len(&rest[i..]);
                let tail = &rest[ws_end..];
                if tail.starts_with("::") && tail[2..].chars().next().is_some_and(|d| !is_space(d))
                {
                    return (after, after);
                }
            }
        } else {
            seen_value = true;
        }
    }
    let value = &rest[..end];
    let lead = space_len(value);
    let trimmed = value[lead..].trim_end_matches(is_space);
    if trimmed.is_empty() {
        return (after, after);
    }
    (after + lead, after + lead + trimmed.len())
}

/// One problem of a line, at a 1-based column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineProblem {
    pub column: usize,
    pub message: String,
}

/// Which kind of resource file a line belongs to: each accepts its own slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
            .is_some_and(|c| crate::rules::chars::Fold::Re.ascii(c).is_some());
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
            let letter = |c: &char| crate::rules::chars::Fold::Re.ascii(*c).is_some();
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

/// A truthy slot: present with a non-empty value (utoken tests `bool(value)`).
pub fn flag(line: &str, slot: &str) -> bool {
    slot_value(line, slot).is_some_and(|v| !v.is_empty())
}

/// Splits a list value on `;` and following whitespace (`re.split(r';\s*', …)`).
pub fn split_list(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = value;
    loop {
        match rest.find(';') {
            Some(i) => {
                out.push(&rest[..i]);
                rest = rest[i + 1..].trim_start_matches(is_space);
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// Splits language codes as utoken does (`re.split(r'[;,\s*]', …)`: each separator splits,
/// so doubled separators give empty codes).
pub fn split_codes(value: &str) -> Vec<&str> {
    value
        .split(|c: char| c == ';' || c == ',' || c == '*' || is_space(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_as_utoken_cuts_them() {
        assert_eq!(without_comment("# all comment"), "");
        assert_eq!(
            without_comment("::abbrev No. ::exp number # a note"),
            "::abbrev No. ::exp number"
        );
        assert_eq!(
            without_comment("::punct-split # ::side both"),
            "::punct-split # ::side both"
        );
        assert_eq!(
            without_comment("::right-context \\d{1,2}[-]\\d # Genesis 1:1,26-28"),
            "::right-context \\d{1,2}[-]\\d"
        );
        assert_eq!(
            without_comment("::lexical C# ::lcode eng"),
            "::lexical C# ::lcode eng"
        );
    }

    #[test]
    fn slot_values() {
        let line =
            "::abbrev No. ::exp number; numero ::case-sensitive True ::right-context \\s*\\d";
        assert_eq!(slot_value(line, "abbrev"), Some("No."));
        assert_eq!(slot_value(line, "exp"), Some("number; numero"));
        assert_eq!(slot_value(line, "right-context"), Some("\\s*\\d"));
        assert_eq!(slot_value(line, "case"), None);
        assert_eq!(slot_value(line, "lcode"), None);
        assert_eq!(
            slot_value("::lexical New York ::empty ::x y", "empty"),
            Some("")
        );
        assert_eq!(slot_value("::a b ::flag", "flag"), Some(""));
        assert!(flag(line, "case-sensitive") && !flag("::a b ::flag", "flag"));
        assert_eq!(split_list("a; b;c"), vec!["a", "b", "c"]);
    }

    #[test]
    fn lines_split_like_python_text_mode() {
        let got: Vec<(usize, &str)> = lines("a\r\nb\rc\n\nd").collect();
        assert_eq!(got, vec![(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d")]);
    }

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
