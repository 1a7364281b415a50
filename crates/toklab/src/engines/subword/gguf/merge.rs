//! The bigram loop both of llama.cpp's merging tokenizers run (`llm_tokenizer_spm_session`
//! and `llm_tokenizer_bpe_session`): of the adjacent pairs that can merge, the best (the merged
//! token's score for SentencePiece, the merge's rank for BPE) merges first, ties to the
//! leftmost. That is the rule of toklab's own merge loop
//! ([`crate::engines::subword::bpe::merge_loop`]), which runs it here too: a priority becomes a
//! rank (lower merges first) that orders pairs as the priority does, so one loop serves every
//! BPE kind and a huge piece costs its symbols and little more.

use crate::engines::subword::bpe::merge_loop::{self, PairLookup, Symbol};
use crate::engines::subword::bpe::merge_table::Merge;

/// The id of a symbol that is no token.
pub const NONE: u32 = u32::MAX;

/// The rank that orders a SentencePiece score as llama.cpp's queue does: a higher score is a
/// lower rank, equal scores equal ranks (the order of `f32::total_cmp`, reversed). The one
/// pattern that would be the highest rank of all (a NaN) is taken one lower, since the highest
/// rank means no rule.
pub fn score_rank(score: f32) -> u32 {
    let bits = score.to_bits();
    let ascending = match bits >> 31 {
        1 => !bits,
        _ => bits | 0x8000_0000,
    };
    (!ascending).min(u32::MAX - 1)
}

/// A pair's rule from a function of the two symbols and the bytes they cover together.
struct ByPair<F>(F);

impl<F: Fn(&[u8], Symbol, Symbol) -> Option<(u32, u32)>> PairLookup for ByPair<F> {
    #[inline]
    fn pair(&self, piece: &[u8], left: Symbol, right: Symbol, end: u32) -> Option<Merge> {
        let both = &piece[left.start as usize..end as usize];
        let (rank, merged) = (self.0)(both, left, right)?;
        Some(Merge { rank, merged })
    }
}

/// Merges `symbols` of `text` (adjacent, in order, each starting at its `start` and ending
/// where the next starts) while `pair` finds a rule for two neighbours, given the bytes they
/// cover: its rank (lower first) and what the merged symbol is. The symbols left stay in
/// `symbols`, in order.
pub fn merge(
    symbols: &mut Vec<Symbol>,
    text: &str,
    pair: impl Fn(&[u8], Symbol, Symbol) -> Option<(u32, u32)>,
) {
    merge_loop::merge(symbols, text.as_bytes(), &ByPair(pair), &mut |_| {});
}

/// Where symbol `i` of `symbols` ends in a text of `len` bytes.
pub fn end_of(symbols: &[Symbol], i: usize, len: usize) -> usize {
    symbols.get(i + 1).map_or(len, |next| next.start as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> Vec<Symbol> {
        (0..text.len())
            .map(|i| Symbol {
                start: i as u32,
                id: NONE,
            })
            .collect()
    }

    fn merged(text: &str, ranks: &[(&str, f32)]) -> Vec<String> {
        let mut symbols = chars(text);
        merge(&mut symbols, text, |both, _, _| {
            let both = std::str::from_utf8(both).ok()?;
            let score = ranks.iter().find(|(t, _)| *t == both)?.1;
            Some((score_rank(score), 0))
        });
        (0..symbols.len())
            .map(|i| text[symbols[i].start as usize..end_of(&symbols, i, text.len())].to_string())
            .collect()
    }

    #[test]
    fn best_pair_first_and_ties_to_the_left() {
        // `aa` merges at the left first; then `a`+`b` (score -1) beats `aa`+`a` (-2).
        let ranks = [("aa", 0.0), ("ab", -1.0), ("aaa", -2.0)];
        assert_eq!(merged("aaab", &ranks), ["aa", "ab"]);
        // The same on a piece long enough for the tree rather than the scan.
        let long = "aaab".repeat(100);
        let expected: Vec<&str> = std::iter::repeat_n(["aa", "ab"], 100).flatten().collect();
        assert_eq!(merged(&long, &ranks), expected);
    }

    #[test]
    fn score_ranks_keep_the_scores_order() {
        let scores = [
            f32::NEG_INFINITY,
            -1e9,
            -2.5,
            -0.0,
            0.0,
            1e-30,
            3.0,
            f32::INFINITY,
        ];
        for pair in scores.windows(2) {
            assert!(score_rank(pair[0]) > score_rank(pair[1]), "{pair:?}");
        }
        assert_eq!(score_rank(-2.5), score_rank(-2.5));
        assert!(score_rank(f32::from_bits(u32::MAX)) < u32::MAX);
    }
}
