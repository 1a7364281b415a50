//! The line syntax of utoken's resource files: `::HEAD VALUE ::slot VALUE …`, comments, and the
//! validity rules utoken applies before it uses a line (with the column of each problem, which
//! utoken does not report but a rule author needs).

mod validate;

pub use validate::{FileRole, column, validate};

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
    let mut seen_value = false;
    for (i, c) in rest.char_indices() {
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
}
