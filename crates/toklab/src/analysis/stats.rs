//! Per-tokenizer statistics over many texts, gathered one tokenization at a time so a long file
//! can be counted in batches (on other threads) and the partial results merged.

use crate::core::token::Tokenization;

/// How many token-length buckets [`TokenStats::lengths`] has: lengths 1 to `LENGTH_BUCKETS - 1`
/// code points each have their own, the last holds `LENGTH_BUCKETS` and longer, so the
/// histogram keeps a fixed size whatever the tokenizer.
pub const LENGTH_BUCKETS: usize = 16;

/// The figures of one tokenizer over the texts added so far.
///
/// Counts are `u64` because a corpus can hold more tokens than a 32-bit `usize` counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TokenStats {
    /// Tokens over all texts.
    pub tokens: u64,
    /// Code points covered by the tokens (text between tokens is not counted), so that
    /// [`chars_per_token`](Self::chars_per_token) measures the tokens, not the spacing.
    pub chars: u64,
    /// Sentences over all texts, each text's last sentence closed at its end.
    pub sentences: u64,
    /// The number of tokens of every text, in the order the texts were added (saturating at
    /// `u32::MAX`), to show how the count varies over a file.
    pub per_text: Vec<u32>,
    /// `lengths[k]` counts tokens of `k + 1` code points; empty tokens count as length 1 and
    /// the last bucket holds every token of [`LENGTH_BUCKETS`] code points or more.
    pub lengths: [u64; LENGTH_BUCKETS],
}

impl TokenStats {
    /// The figures of a single text.
    pub fn of(text: &str, tokens: &Tokenization) -> TokenStats {
        let mut stats = TokenStats::default();
        stats.add(text, tokens);
        stats
    }

    /// Adds one text and its tokenization. A token whose span is not a slice of `text` (a
    /// broken engine) counts as covering no characters rather than stopping the count.
    pub fn add(&mut self, text: &str, tokens: &Tokenization) {
        self.tokens += tokens.len() as u64;
        self.sentences += (0..tokens.len())
            .filter(|&i| tokens.ends_sentence(i))
            .count() as u64;
        self.per_text
            .push(u32::try_from(tokens.len()).unwrap_or(u32::MAX));
        for token in &tokens.tokens {
            let chars = text
                .get(token.span.start..token.span.end)
                .map_or(0, |form| form.chars().count());
            self.chars += chars as u64;
            self.lengths[chars.clamp(1, LENGTH_BUCKETS) - 1] += 1;
        }
    }

    /// Adds the figures of `later`, gathered over the texts that follow this one's: batches
    /// counted apart (in parallel, or as they arrive) add up to the figures of all their texts,
    /// with [`per_text`](Self::per_text) in order when the batches are merged in order.
    pub fn merge(&mut self, later: TokenStats) {
        self.tokens += later.tokens;
        self.chars += later.chars;
        self.sentences += later.sentences;
        self.per_text.extend(later.per_text);
        for (total, part) in self.lengths.iter_mut().zip(later.lengths) {
            *total += part;
        }
    }

    /// How many texts were added.
    pub fn texts(&self) -> usize {
        self.per_text.len()
    }

    /// Average code points per token; 0 when there are no tokens, so an empty text shows as
    /// a figure rather than as "NaN".
    pub fn chars_per_token(&self) -> f64 {
        if self.tokens == 0 {
            0.0
        } else {
            self.chars as f64 / self.tokens as f64
        }
    }

    /// Average tokens per text; 0 when no text was added.
    pub fn tokens_per_text(&self) -> f64 {
        self.tokens as f64 / self.texts().max(1) as f64
    }
}

/// Characters of a whole text per token (the spacing between tokens counted too): the figure
/// beside a row in the workbench and in pictures, so a reader compares rows of one line by how
/// much text each token carries; 0 for no tokens.
///
/// ```
/// let text = "a bb ccc";
/// let tokens = toklab::load("ws").unwrap().tokenize(text);
/// assert_eq!(toklab::analysis::text_chars_per_token(text, &tokens), 8.0 / 3.0);
/// ```
pub fn text_chars_per_token(text: &str, tokens: &Tokenization) -> f64 {
    match tokens.len() {
        0 => 0.0,
        count => text.chars().count() as f64 / count as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::token::{Span, Token, TokenKind};

    fn ws(text: &str) -> Tokenization {
        crate::load("ws").unwrap().tokenize(text)
    }

    #[test]
    fn text_figure_counts_the_spacing_and_survives_no_tokens() {
        let text = "é  bb";
        assert_eq!(text_chars_per_token(text, &ws(text)), 2.5);
        assert_eq!(text_chars_per_token("   ", &ws("   ")), 0.0);
    }

    #[test]
    fn counts_tokens_chars_and_lengths() {
        let text = "a bb ccc dddd";
        let stats = TokenStats::of(text, &ws(text));
        assert_eq!((stats.tokens, stats.chars, stats.sentences), (4, 10, 1));
        assert_eq!(stats.per_text, [4]);
        assert_eq!(&stats.lengths[..5], [1, 1, 1, 1, 0]);
        assert_eq!(stats.chars_per_token(), 2.5);
        assert_eq!(stats.tokens_per_text(), 4.0);
    }

    #[test]
    fn counts_code_points_not_bytes() {
        let text = "été ße";
        let stats = TokenStats::of(text, &ws(text));
        assert_eq!(stats.chars, 5);
        assert_eq!(&stats.lengths[..3], [0, 1, 1]);
    }

    #[test]
    fn long_tokens_share_the_last_bucket() {
        let text = format!("{} {}", "x".repeat(LENGTH_BUCKETS), "y".repeat(40));
        let stats = TokenStats::of(&text, &ws(&text));
        assert_eq!(stats.lengths[LENGTH_BUCKETS - 1], 2);
        assert_eq!(stats.lengths.iter().sum::<u64>(), 2);
    }

    #[test]
    fn empty_input_has_zero_averages() {
        let stats = TokenStats::default();
        assert_eq!(
            (stats.chars_per_token(), stats.tokens_per_text()),
            (0.0, 0.0)
        );
        let stats = TokenStats::of("", &ws(""));
        assert_eq!((stats.tokens, stats.texts()), (0, 1));
        assert_eq!(stats.chars_per_token(), 0.0);
    }

    #[test]
    fn spans_outside_the_text_do_not_panic() {
        let broken = Tokenization::new(vec![Token::new(Span::new(2, 9), TokenKind::Word)]);
        let stats = TokenStats::of("abc", &broken);
        assert_eq!((stats.tokens, stats.chars, stats.lengths[0]), (1, 0, 1));
    }

    #[test]
    fn merged_batches_equal_one_pass() {
        let texts: Vec<String> = (0..10).map(|i| format!("a bb {i} ccc. Next")).collect();
        let mut whole = TokenStats::default();
        for text in &texts {
            whole.add(text, &ws(text));
        }
        let mut merged = TokenStats::default();
        for batch in texts.chunks(3) {
            let mut part = TokenStats::default();
            for text in batch {
                part.add(text, &ws(text));
            }
            merged.merge(part);
        }
        assert_eq!(merged, whole);
        assert_eq!(merged.texts(), 10);
    }
}
