//! utoken's `@` mark-up for detokenization: a token listed in the detokenizer file
//! (`::markup-attach`) gets `@` on each side where the original text had no space
//! (`peace @-@ loving`); paired delimiters such as quotes become opening or closing
//! (`"@ Hello … world @"`) by which side has a letter or digit.

use super::chars::{self, L, ND};
use super::resources::{MarkupEntry, Resources};
use super::split::Run;

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
        // Most tokens are words: no entry (nor `@`, nor `/`) starts with their first letter.
        let first = token.chars().next().map(chars::lower);
        if !first.is_some_and(|c| c == ATTACH_TAG || c == '/' || self.markup_first.contains(c)) {
            return false;
        }
        let lowered;
        let t: &str = if token.chars().any(char::is_uppercase) {
            lowered = token.to_lowercase();
            &lowered
        } else {
            token
        };
        for (lead, trail) in [(true, true), (true, false), (false, true), (false, false)] {
            let mut middle = t;
            if lead {
                match middle.strip_prefix(ATTACH_TAG) {
                    Some(rest) => middle = rest,
                    None => continue,
                }
            }
            if trail {
                match middle.strip_suffix(ATTACH_TAG) {
                    Some(rest) => middle = rest,
                    None => continue,
                }
            }
            if !middle.is_empty() && self.is_markup_element(middle) {
                return true;
            }
        }
        false
    }

    /// Whether `middle` is a mark-up headword (a grouped one may repeat its last character)
    /// or `/`.
    fn is_markup_element(&self, middle: &str) -> bool {
        if middle == "/" {
            return true;
        }
        self.markup_elements.iter().any(|(element, group)| {
            if !*group {
                return middle == element;
            }
            let Some(last) = element.chars().next_back() else {
                return false;
            };
            let head = &element[..element.len() - last.len_utf8()];
            middle
                .strip_prefix(head)
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c == last))
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
        if token.chars().all(|c| c == first) && token.chars().nth(1).is_some() {
            // A run of one character falls back to shorter runs. (utoken loops forever on
            // `@@`, which has no entry; here it simply gets no mark-up.) No prefix longer than
            // the longest headword can be one, so a long run starts there: each try hashes a
            // string no longer than a headword, and a run costs its length, not its square.
            let longest = res.markup_elements.iter().map(|(e, _)| e.chars().count());
            if let Some((cut, _)) = shortened
                .char_indices()
                .nth(longest.max().unwrap_or(0).max(1))
            {
                shortened.truncate(cut);
            }
            while !res.markup.contains_key(&shortened) {
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
            match self.open_or_close(start, end) {
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
        if entry.exceptions.contains(&out) {
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
        // utoken passes the lower-cased token to the case test.
        (!group_needed || entry.group)
            && self.conditions_hold(&entry.cond, lc_token, &entry.s, left, right)
    }
}

/// Whether a paired delimiter opens (`Some(true)`) or closes a stretch, by where letters
/// and digits are: directly next to it counts 10, in the same word 5.
fn score(close: (bool, bool), open: (bool, bool)) -> Option<bool> {
    let points = |(next_to, in_word): (bool, bool)| {
        if next_to {
            10
        } else if in_word {
            5
        } else {
            0
        }
    };
    match points(open).cmp(&points(close)) {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    }
}

/// Where the words are in a sentence, for the paired-delimiter scores: for each position,
/// whether the word before it and the word from it have a letter or digit (so each score is a
/// lookup, however long the line). Two bits a position, so a long line's index costs a
/// quarter of a byte a character.
pub struct WordIndex {
    /// Bit `p`: the text before position `p`, after its last whitespace, has a letter or digit.
    last_word_has: Vec<u64>,
    /// Bit `p`: the text from position `p`, up to its first whitespace, has a letter or digit.
    first_word_has: Vec<u64>,
}

impl WordIndex {
    pub fn new(bits: chars::Classes<'_>) -> WordIndex {
        let n = bits.len();
        let words = (n + 1).div_ceil(64);
        let mut idx = WordIndex {
            last_word_has: vec![0; words],
            first_word_has: vec![0; words],
        };
        // A whitespace character ends a word (and wins over the letter bits it may also have).
        let step = |has: bool, b: chars::Bits| {
            if b & chars::SPACE != 0 {
                false
            } else {
                has || b & (L | ND) != 0
            }
        };
        let mut has = false;
        let mut word = 0u64;
        for (i, b) in bits.iter().enumerate() {
            has = step(has, b);
            // Bit i + 1, gathered a word at a time.
            let p = i + 1;
            word |= u64::from(has) << (p % 64);
            if p % 64 == 63 || i + 1 == n {
                idx.last_word_has[p / 64] = word;
                word = 0;
            }
        }
        let mut has = false;
        for (i, b) in bits.iter().enumerate().rev() {
            has = step(has, b);
            word |= u64::from(has) << (i % 64);
            if i % 64 == 0 {
                idx.first_word_has[i / 64] = word;
                word = 0;
            }
        }
        idx
    }

    /// `.*(\pL\pM*|\d)\S*$` on the text before `p`: its last word has a letter or digit.
    fn last_word_has(&self, p: usize) -> bool {
        get(&self.last_word_has, p)
    }

    /// `\S*(\pL|\d)` on the text from `p`: its first word has a letter or digit.
    fn first_word_has(&self, p: usize) -> bool {
        get(&self.first_word_has, p)
    }
}

/// Bit `p` of a bit vector.
fn get(vector: &[u64], p: usize) -> bool {
    vector[p / 64] >> (p % 64) & 1 == 1
}

impl Run<'_> {
    /// Opening (`Some(true)`) or closing, for a paired delimiter at `start..end`.
    fn open_or_close(&self, start: usize, end: usize) -> Option<bool> {
        let bits = self.s.bits.view();
        let words = self.words.get_or_init(|| WordIndex::new(bits));
        // `.*(\pL\pM*|\d)$` before the token.
        let mut i = start;
        while i > 0 && bits[i - 1] & chars::M != 0 {
            i -= 1;
        }
        let ends_lnd = i > 0 && (bits[i - 1] & L != 0 || (i == start && bits[i - 1] & ND != 0));
        let starts_lnd = end < bits.len() && bits[end] & (L | ND) != 0;
        score(
            (ends_lnd, words.last_word_has(start)),
            (starts_lnd, words.first_word_has(end)),
        )
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
        let score_of = |left: &str, right: &str| {
            let text = format!("{left}\"{right}");
            let bits: chars::LineClasses = text.chars().collect();
            let words = WordIndex::new(bits.view());
            let p = left.chars().count();
            let ends = left
                .chars()
                .next_back()
                .is_some_and(|c| chars::is(c, L | ND));
            let starts = right.chars().next().is_some_and(|c| chars::is(c, L | ND));
            score(
                (ends, words.last_word_has(p)),
                (starts, words.first_word_has(p + 1)),
            )
        };
        assert_eq!(score_of("said ", "Hello"), Some(true));
        assert_eq!(score_of("world", " and"), Some(false));
        assert_eq!(score_of("a ", " b"), None);
        assert_eq!(score_of("x.", ". y"), Some(false));
        assert_eq!(score_of(". ", " ."), None);
        assert_eq!(score_of("(x.", ")"), Some(false));
    }

    /// The two bits a position say what scanning the text for the nearest whitespace and
    /// letter-or-digit says, at every position of texts mixing letters, digits, marks,
    /// spaces of two kinds and punctuation, across the 64-position words of the bit vectors.
    #[test]
    fn word_index_agrees_with_scanning() {
        let alphabet: Vec<char> = "a1 .\u{301}\u{3000}-Z".chars().collect();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in [0, 1, 2, 5, 63, 64, 65, 130, 200] {
            let text: Vec<char> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            let bits: chars::LineClasses = text.iter().copied().collect();
            let words = WordIndex::new(bits.view());
            let is = |i: usize, mask| bits[i] & mask != 0;
            for p in 0..=len {
                let last_space = (0..p).rev().find(|&i| is(i, chars::SPACE));
                let last_lnd = (0..p).rev().find(|&i| is(i, L | ND));
                let before = last_lnd.is_some_and(|l| last_space.is_none_or(|s| l > s));
                let next_space = (p..len).find(|&i| is(i, chars::SPACE)).unwrap_or(len);
                let next_lnd = (p..len).find(|&i| is(i, L | ND)).unwrap_or(len);
                assert_eq!(words.last_word_has(p), before, "{text:?} at {p}");
                assert_eq!(
                    words.first_word_has(p),
                    next_lnd < next_space,
                    "{text:?} at {p}"
                );
            }
        }
    }
}
