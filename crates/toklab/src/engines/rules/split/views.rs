//! Views of a segment's characters that a rule step reads: its lower case, and the runs of
//! equal characters (so a long run of one character is skipped in one step).

use super::super::chars;

/// The lower-case characters of a segment ([`super::Run::lower_of`]).
pub enum Lower<'a> {
    /// Each character lowered on its own (`İ` as `i`), when read: a long line keeps no
    /// lower-cased copy.
    Each(&'a [char]),
    /// The segment lowered as a whole (a capital sigma's lower case depends on what follows).
    Whole(Vec<char>),
}

impl Lower<'_> {
    /// The lower-case character at `i`.
    #[inline]
    pub fn at(&self, i: usize) -> char {
        match self {
            Lower::Each(chars) => chars::lower(chars[i]),
            Lower::Whole(chars) => chars[i],
        }
    }

    /// The segment's length in characters.
    pub fn length(&self) -> usize {
        match self {
            Lower::Each(chars) => chars.len(),
            Lower::Whole(chars) => chars.len(),
        }
    }
}

/// The runs of two or more equal characters in `chars`, as (start, end), in order.
pub(super) fn equal_runs(chars: &[char]) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for k in 1..=chars.len() {
        if k == chars.len() || chars[k] != chars[start] {
            if k - start > 1 {
                runs.push((start as u32, k as u32));
            }
            start = k;
        }
    }
    runs
}

/// The end of the run of equal characters position `i` is in, given the runs of
/// [`equal_runs`] (a position in none is a run of one).
pub(super) fn run_end_in(runs: &[(u32, u32)], i: usize) -> usize {
    let next = runs.partition_point(|&(_, end)| end as usize <= i);
    match runs.get(next) {
        Some(&(start, end)) if start as usize <= i => end as usize,
        _ => i + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs answer what scanning for the next different character answers, at every
    /// position, with runs at either end, in the middle and nowhere.
    #[test]
    fn run_ends_agree_with_scanning() {
        for text in [
            "",
            "a",
            "ab",
            "aa",
            "aab",
            "abb",
            "--x--y---",
            "a---b-c--",
            "....",
            "ab-ba",
        ] {
            let chars: Vec<char> = text.chars().collect();
            let runs = equal_runs(&chars);
            for i in 0..chars.len() {
                let scanned = (i..chars.len())
                    .find(|&k| chars[k] != chars[i])
                    .unwrap_or(chars.len());
                assert_eq!(run_end_in(&runs, i), scanned, "{text:?} at {i}");
            }
        }
    }
}
