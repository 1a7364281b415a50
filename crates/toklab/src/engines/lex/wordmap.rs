//! Algorithm 1 of Jung, *Lexicalizing a BERT Tokenizer* (seeds/jung-lexicalizing-bert-tokenizer.md):
//! the wordmap of a target against every word of a one-part-of-speech set, the cleaning that
//! keeps only leading and trailing runs of matches, the positional sums and the z-score
//! selection of segments that make the POS vocabulary.

/// Which ends of the pair matched, so which alignment a wordmap was made with (Table 1's
/// "Case" column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchCase {
    /// First characters equal: the strings are compared from the left.
    Left,
    /// Last characters equal: the shorter string is compared against the longer one's end.
    Right,
    /// Equal lengths: one comparison, which is both the left and the right alignment.
    Both,
}

/// One wordmap: for every character of the target, whether the other word has the same
/// character in the aligned position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wordmap {
    /// The alignment used.
    pub case: MatchCase,
    /// Whether the lengths differ, so the comparison was offset or padded (Table 1's
    /// "Padding" column).
    pub padded: bool,
    /// One entry per character of the target.
    pub bits: Vec<bool>,
}

impl Wordmap {
    /// The map as `0`/`1` digits, as Table 1 writes it.
    pub fn digits(&self) -> String {
        digits(&self.bits)
    }
}

/// Booleans as `0`/`1` digits.
pub fn digits(bits: &[bool]) -> String {
    bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

/// The wordmaps of `target` against `word` (lines 8–28 of Algorithm 1). None when neither
/// end matches; two when both ends match and the lengths differ (the left and the right
/// alignment, as Table 1 lists for `verarbeiten`); one when the lengths are equal.
///
/// A map always has the target's length: when the target is the longer string the
/// comparison covers the shorter one and is padded with zeros (on the right after a left
/// alignment, on the left after a right one); when the target is the shorter one the
/// comparison already covers every character of it.
pub fn wordmaps(target: &[char], word: &[char]) -> Vec<Wordmap> {
    let (Some(tf), Some(wf)) = (target.first(), word.first()) else {
        return Vec::new();
    };
    let left = tf == wf;
    let right = target.last() == word.last();
    let target_longer = target.len() >= word.len();
    let (long, short) = if target_longer {
        (target, word)
    } else {
        (word, target)
    };
    let delta = long.len() - short.len();
    // WORDMAP(l, s, d): l[i + d] == s[i] for every i of s.
    let compare =
        |d: usize| -> Vec<bool> { (0..short.len()).map(|i| long[i + d] == short[i]).collect() };
    let pad = |bits: Vec<bool>, on_left: bool| -> Vec<bool> {
        if !target_longer || delta == 0 {
            return bits;
        }
        let zeros = std::iter::repeat_n(false, delta);
        if on_left {
            zeros.chain(bits).collect()
        } else {
            bits.into_iter().chain(zeros).collect()
        }
    };
    let padded = delta > 0;
    if delta == 0 {
        if !(left || right) {
            return Vec::new();
        }
        return vec![Wordmap {
            case: MatchCase::Both,
            padded,
            bits: compare(0),
        }];
    }
    let mut maps = Vec::new();
    if left {
        maps.push(Wordmap {
            case: MatchCase::Left,
            padded,
            bits: pad(compare(0), false),
        });
    }
    if right {
        maps.push(Wordmap {
            case: MatchCase::Right,
            padded,
            bits: pad(compare(delta), true),
        });
    }
    maps
}

/// How a wordmap is cleaned of matches inside the word. The thesis describes the cleaning
/// ("continuous concatenations of leading or trailing matches stay, while every match
/// enclosed by 0 will be replaced by 0") but does not give its regular expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cleaning {
    /// Only the run of matches at the start and the run at the end survive (the description
    /// taken literally; toklab's default).
    #[default]
    Runs,
    /// One left-to-right pass of the regex `01+0` → zeros, as `re.sub` would do it: matches
    /// do not overlap, so a run whose left zero closed the previous match survives
    /// (`0110110` → `0000110`).
    Regex,
}

impl Cleaning {
    /// The name used in `?clean=` and `--clean`.
    pub fn name(self) -> &'static str {
        match self {
            Cleaning::Runs => "runs",
            Cleaning::Regex => "regex",
        }
    }

    /// The cleaning called `name`.
    pub fn from_name(name: &str) -> Option<Cleaning> {
        match name {
            "runs" => Some(Cleaning::Runs),
            "regex" => Some(Cleaning::Regex),
            _ => None,
        }
    }

    /// The cleaned map.
    pub fn clean(self, bits: &[bool]) -> Vec<bool> {
        match self {
            Cleaning::Runs => {
                let lead = bits.iter().take_while(|&&b| b).count();
                let trail = bits.iter().rev().take_while(|&&b| b).count();
                (0..bits.len())
                    .map(|i| i < lead || i >= bits.len() - trail)
                    .collect()
            }
            Cleaning::Regex => {
                let mut out = bits.to_vec();
                let mut i = 0;
                while i < bits.len() {
                    // `0 1+ 0` starting at i?
                    if !bits[i] {
                        let ones = bits[i + 1..].iter().take_while(|&&b| b).count();
                        let close = i + 1 + ones;
                        if ones > 0 && close < bits.len() {
                            out[i + 1..close].fill(false);
                            i = close + 1;
                            continue;
                        }
                    }
                    i += 1;
                }
                out
            }
        }
    }
}

/// The positional sums of a target's cleaned wordmaps against every word of the set.
pub fn position_counts(target: &[char], words: &[Vec<char>], cleaning: Cleaning) -> Vec<u32> {
    let mut counts = vec![0u32; target.len()];
    for word in words {
        for map in wordmaps(target, word) {
            for (count, bit) in counts.iter_mut().zip(cleaning.clean(&map.bits)) {
                *count += u32::from(bit);
            }
        }
    }
    counts
}

/// The z-score of every position, `(x - mean) / S` with the sample standard deviation; all
/// zero when S is zero or undefined (fewer than two positions), so such a word is one
/// segment.
pub fn z_scores(counts: &[u32]) -> Vec<f64> {
    let n = counts.len();
    if n < 2 {
        return vec![0.0; n];
    }
    let mean = counts.iter().map(|&c| f64::from(c)).sum::<f64>() / n as f64;
    let var = counts
        .iter()
        .map(|&c| (f64::from(c) - mean).powi(2))
        .sum::<f64>()
        / (n - 1) as f64;
    let s = var.sqrt();
    if s == 0.0 {
        return vec![0.0; n];
    }
    counts.iter().map(|&c| (f64::from(c) - mean) / s).collect()
}

/// The segments of a target: maximal runs of positions on the same side of the threshold
/// (z ≥ threshold: the frequent, functional part; below: the rare, lexical part), as
/// (start, end) character ranges.
pub fn segments(z: &[f64], threshold: f64) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=z.len() {
        if i == z.len() || (z[i] >= threshold) != (z[start] >= threshold) {
            out.push((start, i));
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn table(word: &str) -> Vec<(MatchCase, bool, String)> {
        wordmaps(&chars("verstehen"), &chars(word))
            .into_iter()
            .map(|m| (m.case, m.padded, m.digits()))
            .collect()
    }

    #[test]
    fn table_1_wordmaps_for_verstehen() {
        use MatchCase::*;
        assert_eq!(
            table("verarbeiten"),
            [
                (Left, true, "111000000".to_string()),
                (Right, true, "001000011".to_string())
            ]
        );
        assert_eq!(table("variiert"), [(Left, true, "101001000".to_string())]);
        // Table 1 lists vormachen under both cases with the same map: one comparison.
        assert_eq!(table("vormachen"), [(Both, false, "101000111".to_string())]);
        assert_eq!(table("anstrebttest"), []);
    }

    #[test]
    fn a_right_match_against_a_shorter_word_is_padded_on_the_left() {
        let maps = wordmaps(&chars("verstehen"), &chars("gehen"));
        assert_eq!(maps.len(), 1);
        assert_eq!(maps[0].case, MatchCase::Right);
        // «tehen» against «gehen»: t≠g, then four matches; four zeros in front.
        assert_eq!(maps[0].digits(), "000001111");
    }

    fn bits(s: &str) -> Vec<bool> {
        s.chars().map(|c| c == '1').collect()
    }

    #[test]
    fn cleaning_keeps_leading_and_trailing_runs() {
        for cleaning in [Cleaning::Runs, Cleaning::Regex] {
            assert_eq!(digits(&cleaning.clean(&bits("11101100101"))), "11100000001");
            assert_eq!(digits(&cleaning.clean(&bits("001000011"))), "000000011");
            assert_eq!(digits(&cleaning.clean(&bits("111"))), "111");
        }
        assert_eq!(digits(&Cleaning::Runs.clean(&bits("0110110"))), "0000000");
        assert_eq!(digits(&Cleaning::Regex.clean(&bits("0110110"))), "0000110");
    }

    #[test]
    fn segments_are_runs_on_one_side_of_the_threshold() {
        let z = z_scores(&[5, 5, 5, 1, 1, 1, 1, 4, 4]);
        assert_eq!(segments(&z, 0.0), [(0, 3), (3, 7), (7, 9)]);
        assert_eq!(segments(&z_scores(&[2, 2, 2]), 0.0), [(0, 3)]);
        assert!(segments(&[], 0.0).is_empty());
    }
}
