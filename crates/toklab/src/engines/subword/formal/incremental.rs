//! Re-tokenizing after an edit without re-tokenizing everything: the paper's Remark 3 (keep the
//! old tokens wholly before and wholly after the edit, tokenize what is between) and
//! Algorithm 1 (glue two correct tokenizations by re-tokenizing a window around the seam that
//! grows until its outer tokens agree with the old ones). Correct for both semantics (Corollary
//! 2), for any encoder: it is written against a callback that encodes one pre-token, so the
//! fast encoder plugs in as well as the reference one.

/// Encodes one pre-token, appending the end offsets of its tokens (relative to the piece).
pub type EncodeFn<'a> = dyn FnMut(&[u8], &mut Vec<usize>) + 'a;

/// The result of a re-tokenization, with how much work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retokenized {
    /// End offsets of the tokens of the new text.
    pub ends: Vec<usize>,
    /// Bytes handed to the encoder in all (the middle piece and every window).
    pub encoded_bytes: usize,
    /// Rounds of Algorithm 1's steps 2–6, over both seams.
    pub rounds: usize,
    /// Whether the window grew past the limit and the whole text was encoded instead.
    pub fell_back: bool,
}

/// How many rounds a seam may take before the whole text is encoded instead (the paper's
/// "experimental bound" for dictionaries with long ripples, Example 2).
pub const MAX_ROUNDS: usize = 64;

/// What an edit left alone: the bytes two texts share at the start and at the end (the two
/// never overlap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    /// Bytes shared at the start.
    pub prefix: usize,
    /// Bytes shared at the end.
    pub suffix: usize,
}

impl Edit {
    /// The common prefix and suffix of `old` and `new`; the suffix is counted only in what
    /// the prefix leaves, so the two never overlap in either text.
    pub fn between(old: &[u8], new: &[u8]) -> Edit {
        let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let room = old.len().min(new.len()) - prefix;
        let suffix = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        Edit { prefix, suffix }
    }
}

/// Tokenizes `new`, an edit of `old` whose tokens end at `old_ends`. The result always equals
/// encoding `new` whole.
pub fn retokenize(
    old: &[u8],
    old_ends: &[usize],
    new: &[u8],
    encode: &mut EncodeFn<'_>,
) -> Retokenized {
    let Edit { prefix, suffix } = Edit::between(old, new);
    // τ1: old tokens wholly inside the common prefix; τ2: wholly inside the common suffix.
    let kept_left = old_ends.partition_point(|&e| e <= prefix);
    let left_end = if kept_left == 0 {
        0
    } else {
        old_ends[kept_left - 1]
    };
    // The first old token starting inside the common suffix: every token ending before the
    // suffix starts lies left of it, and so does the one after them, which reaches into it.
    let suffix_start_old = old.len() - suffix;
    let first_right = if suffix_start_old == 0 {
        0
    } else {
        old_ends.partition_point(|&e| e < suffix_start_old) + 1
    };
    let shift = |e: usize| e + new.len() - old.len();
    let right_start_new = if first_right == old_ends.len() {
        new.len()
    } else if first_right == 0 {
        shift(0)
    } else {
        shift(old_ends[first_right - 1])
    };
    let right: Vec<usize> = old_ends[first_right..].iter().map(|&e| shift(e)).collect();
    let left = &old_ends[..kept_left];

    let mut work = Work {
        text: new,
        encode,
        encoded_bytes: 0,
        rounds: 0,
    };
    let mut middle = Vec::new();
    work.encode_at(left_end, right_start_new, &mut middle);

    let glued = work.glue(left, 0, &middle, left_end);
    let glued = glued.and_then(|tokens| work.glue(&tokens, 0, &right, right_start_new));
    match glued {
        Some(ends) => Retokenized {
            ends,
            encoded_bytes: work.encoded_bytes,
            rounds: work.rounds,
            fell_back: false,
        },
        None => {
            let mut ends = Vec::new();
            work.encode_at(0, new.len(), &mut ends);
            Retokenized {
                ends,
                encoded_bytes: work.encoded_bytes,
                rounds: work.rounds,
                fell_back: true,
            }
        }
    }
}

struct Work<'t, 'e, 'f> {
    text: &'t [u8],
    encode: &'e mut EncodeFn<'f>,
    encoded_bytes: usize,
    rounds: usize,
}

impl Work<'_, '_, '_> {
    /// Encodes `text[start..end]`, appending absolute end offsets.
    fn encode_at(&mut self, start: usize, end: usize, out: &mut Vec<usize>) {
        if start == end {
            return;
        }
        let from = out.len();
        (self.encode)(&self.text[start..end], out);
        for e in &mut out[from..] {
            *e += start;
        }
        self.encoded_bytes += end - start;
    }

    /// Algorithm 1: `left` (ends, starting at `left_start`) and `right` (ends, starting where
    /// `left` ends, at `right_start`) are correct tokenizations of adjacent texts; returns the
    /// correct tokenization of both together, or `None` past [`MAX_ROUNDS`].
    fn glue(
        &mut self,
        left: &[usize],
        left_start: usize,
        right: &[usize],
        right_start: usize,
    ) -> Option<Vec<usize>> {
        if left.is_empty() {
            return Some(right.to_vec());
        }
        if right.is_empty() {
            return Some(left.to_vec());
        }
        let start_of = |tokens: &[usize], k: usize, first: usize| {
            if k == 0 { first } else { tokens[k - 1] }
        };
        let (n, m) = (left.len(), right.len());
        let (mut i, mut j) = (n - 1, 0);
        let mut window = Vec::new();
        loop {
            self.rounds += 1;
            if self.rounds > MAX_ROUNDS {
                return None;
            }
            let a = start_of(left, i, left_start);
            let b = right[j];
            window.clear();
            self.encode_at(a, b, &mut window);
            let left_ok = i == 0 || window[0] == left[i];
            let last_start = if window.len() >= 2 {
                window[window.len() - 2]
            } else {
                a
            };
            let right_ok = j == m - 1 || last_start == start_of(right, j, right_start);
            if left_ok && right_ok {
                let mut out = Vec::with_capacity(i + window.len() + m - j);
                out.extend_from_slice(&left[..i]);
                out.extend_from_slice(&window);
                out.extend_from_slice(&right[j + 1..]);
                return Some(out);
            }
            if !left_ok {
                i -= 1;
            }
            if !right_ok {
                j += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::formal::{Dictionary, Semantics, encode_ends};

    fn check(dict: &Dictionary, old: &str, new: &str) -> Retokenized {
        let mut old_ends = Vec::new();
        encode_ends(
            dict,
            old.as_bytes(),
            Semantics::SentencePiece,
            &mut old_ends,
        );
        let mut full = Vec::new();
        encode_ends(dict, new.as_bytes(), Semantics::SentencePiece, &mut full);
        let mut enc = |piece: &[u8], out: &mut Vec<usize>| {
            encode_ends(dict, piece, Semantics::SentencePiece, out)
        };
        let r = retokenize(old.as_bytes(), &old_ends, new.as_bytes(), &mut enc);
        assert_eq!(r.ends, full, "{old:?} → {new:?}");
        r
    }

    #[test]
    fn local_edit_touches_little() {
        let d = Dictionary::parse_paper("a b, ab c, c d").unwrap();
        let old = "abcd".repeat(200);
        let mut new = old.clone();
        new.replace_range(401..402, "d");
        let r = check(&d, &old, &new);
        assert!(r.encoded_bytes < 40, "{r:?}");
    }

    #[test]
    fn example_2_ripples_to_the_right() {
        // Deleting the initial a changes every token after it.
        let d = Dictionary::parse_paper("c ab, ab c, a b").unwrap();
        check(&d, "abcabcabcabc", "bcabcabcabc");
        check(&d, "abcabcabcabc", "cabcabcabcabc");
        let long_old = "abc".repeat(100);
        let r = check(&d, &long_old, &long_old[1..]);
        assert!(r.fell_back || r.encoded_bytes > 100);
    }

    #[test]
    fn edges() {
        let d = Dictionary::parse_paper("a b, b a").unwrap();
        check(&d, "", "ab");
        check(&d, "ab", "");
        check(&d, "abab", "abab");
        check(&d, "abab", "ababx");
        check(&d, "xabab", "abab");
        check(&d, "ab", "ba");
    }
}
