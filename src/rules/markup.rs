//! utoken's `@` mark-up for detokenization: a token listed in the detokenizer file
//! (`::markup-attach`) gets `@` on each side where the original text had no space
//! (`peace @-@ loving`); paired delimiters such as quotes become opening or closing
//! (`"@ Hello … world @"`) by which side has a letter or digit.

use super::chars::{self, L, ND};
use super::engine::Run;
use super::resources::{MarkupEntry, Resources};

/// The mark-up character. utoken reads `::attach-tag` but stores it under a misspelt name,
/// so its tag is always `@`; so is ours.
pub const ATTACH_TAG: char = '@';

impl Resources {
    /// utoken's `markup_attach_re`: `@?` + a mark-up entry (a grouped one may repeat its last
    /// character) + `@?`, or `@@`, ignoring case.
    pub fn is_markup_token(&self, token: &str) -> bool {
        if token == "@@" {
            return true;
        }
        let lower: Vec<char> = token.chars().flat_map(char::to_lowercase).collect();
        let lead = [0, 1];
        for &l in &lead {
            if l == 1 && lower.first() != Some(&ATTACH_TAG) {
                continue;
            }
            for t in [0, 1] {
                if t == 1 && (lower.len() < l + 1 || lower.last() != Some(&ATTACH_TAG)) {
                    continue;
                }
                if lower.len() < l + t {
                    continue;
                }
                let middle = &lower[l..lower.len() - t];
                if !middle.is_empty() && self.is_markup_element(middle) {
                    return true;
                }
            }
        }
        false
    }

    fn is_markup_element(&self, middle: &[char]) -> bool {
        if middle == ['/'] {
            return true;
        }
        self.markup_elements.iter().any(|(element, group)| {
            let e: Vec<char> = element.chars().collect();
            if e.is_empty() {
                return false;
            }
            if *group {
                let (head, last) = (&e[..e.len() - 1], e[e.len() - 1]);
                middle.len() >= e.len()
                    && &middle[..head.len()] == head
                    && middle[head.len()..].iter().all(|&c| c == last)
            } else {
                middle == &e[..]
            }
        })
    }
}

impl Run<'_> {
    pub(super) fn is_markup_token(&self, token: &str) -> bool {
        self.entries().is_markup_token(token)
    }

    /// The marked-up form of `token` at sentence positions `start..end`, if it changes
    /// (utoken's `add_any_mt_tok_delimiter`).
    pub(super) fn markup(&self, token: &str, start: usize, end: usize) -> Option<String> {
        let res = self.entries();
        if !res.is_markup_token(token) || self.s.chars.is_empty() {
            return None;
        }
        let left = self.left_of(start);
        let right = self.right_of(end);
        let lc_token = token.to_lowercase();
        let mut shortened = lc_token.clone();
        let first = token.chars().next()?;
        if token.chars().all(|c| c == first) {
            // A run of one character falls back to shorter runs. (utoken loops forever on
            // `@@`, which has no entry; here it simply gets no mark-up.)
            while token.chars().count() >= 2 && !res.markup.contains_key(&shortened) {
                shortened.pop();
                if shortened.is_empty() {
                    return None;
                }
            }
        }
        let group_needed = lc_token != shortened;
        let mut valid: Option<&MarkupEntry> = None;
        let mut paired = false;
        for entry in res.markup.get(&shortened).into_iter().flatten() {
            if self.markup_conditions(entry, &lc_token, left, right, group_needed) {
                valid = Some(entry);
                if entry.paired {
                    paired = true;
                    break;
                }
            }
        }
        let entry = valid?;
        let mut out = token.to_string();
        if paired {
            match open_or_close(left, right) {
                Some(true) => out.push(ATTACH_TAG),
                Some(false) => out.insert(0, ATTACH_TAG),
                None => paired = false,
            }
        }
        if !paired {
            if left
                .chars()
                .next_back()
                .is_some_and(|c| !chars::is(c, chars::SPACE))
            {
                out.insert(0, ATTACH_TAG);
            }
            if right
                .chars()
                .next()
                .is_some_and(|c| !chars::is(c, chars::SPACE))
            {
                out.push(ATTACH_TAG);
            }
        }
        if entry.exceptions.iter().any(|e| *e == out) {
            return None;
        }
        (out != token).then_some(out)
    }

    fn markup_conditions(
        &self,
        entry: &MarkupEntry,
        lc_token: &str,
        left: &str,
        right: &str,
        group_needed: bool,
    ) -> bool {
        let lang = self.rules.lang.as_deref();
        (lang.is_none()
            || entry.lcode_not.is_empty()
            || !entry.lcode_not.iter().any(|l| Some(l.as_str()) == lang))
            && (!entry.case_sensitive || lc_token == entry.s)
            && (!group_needed || entry.group)
            && entry.left.as_ref().is_none_or(|c| c.holds(left))
            && entry.left_not.as_ref().is_none_or(|c| c.holds(left))
            && entry.right.as_ref().is_none_or(|c| c.holds(right))
            && entry.right_not.as_ref().is_none_or(|c| c.holds(right))
    }
}

/// Whether a paired delimiter opens (`Some(true)`) or closes a stretch, by where letters
/// and digits are: directly next to it counts 10, in the same word 5.
fn open_or_close(left: &str, right: &str) -> Option<bool> {
    let close = if ends_letter_or_digit(left) {
        10
    } else if last_word(left).chars().any(|c| chars::is(c, L | ND)) {
        5
    } else {
        0
    };
    let open = if right.chars().next().is_some_and(|c| chars::is(c, L | ND)) {
        10
    } else if first_word(right).chars().any(|c| chars::is(c, L | ND)) {
        5
    } else {
        0
    };
    match open.cmp(&close) {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    }
}

/// `.*(\pL\pM*|\d)$`
fn ends_letter_or_digit(s: &str) -> bool {
    let mut rev = s.chars().rev().skip_while(|&c| chars::is(c, chars::M));
    let skipped_marks = s
        .chars()
        .next_back()
        .is_some_and(|c| chars::is(c, chars::M));
    match rev.next() {
        Some(c) if chars::is(c, L) => true,
        Some(c) if !skipped_marks && chars::is(c, ND) => true,
        _ => false,
    }
}

/// The text after the last whitespace (`\S*$`).
fn last_word(s: &str) -> &str {
    match s.rfind(|c| chars::is(c, chars::SPACE)) {
        Some(i) => &s[i + s[i..].chars().next().map_or(1, char::len_utf8)..],
        None => s,
    }
}

/// The text before the first whitespace (`^\S*`).
fn first_word(s: &str) -> &str {
    match s.find(|c| chars::is(c, chars::SPACE)) {
        Some(i) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn markup_tokens() {
        let mut r = Resources::new();
        r.load_detok_text(
            Path::new("d.txt"),
            "::markup-attach - ::group True\n::markup-attach .. ::group True\n::markup-attach \" ::paired-delimiter True ::group True\n",
            &[],
        );
        assert!(r.is_markup_token("-") && r.is_markup_token("---") && r.is_markup_token("@-@"));
        assert!(r.is_markup_token("...") && !r.is_markup_token("."));
        assert!(r.is_markup_token("/") && r.is_markup_token("@@") && !r.is_markup_token("@"));
        assert!(!r.is_markup_token("-x"));
    }

    #[test]
    fn open_close_scores() {
        assert_eq!(open_or_close("said ", "Hello"), Some(true));
        assert_eq!(open_or_close("world", " and"), Some(false));
        assert_eq!(open_or_close("a ", " b"), None);
        assert_eq!(open_or_close("x.", ". y"), Some(false));
        assert_eq!(open_or_close(". ", " ."), None);
        assert_eq!(open_or_close("(x.", ")"), Some(false));
    }
}
