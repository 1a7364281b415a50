//! Fertility and compression, as tokenizer leaderboards report them: tokens per word,
//! characters and bytes per token, and the share of words split into more than one token.
//!
//! Words are whitespace-separated runs, so the figures mean the same for every tokenizer
//! whatever it calls a word. Characters and bytes are those of the whole text (whitespace
//! included), unlike [`TokenStats`](super::TokenStats), which counts what the tokens cover:
//! compression is how much text one token carries, spaces and all.
//!
//! ```
//! use toklab::analysis::Fertility;
//!
//! let bpe = toklab::load("bpe:../../samples/bpe/gpt2").unwrap();
//! let text = "lower newer";
//! let fertility = Fertility::of(text, &bpe.tokenize(text));
//! assert_eq!((fertility.words, fertility.tokens, fertility.split_words), (2, 5, 2));
//! assert_eq!(fertility.tokens_per_word(), 2.5);
//! ```

use crate::core::token::{Span, Tokenization};

/// The fertility counts of one tokenizer over the texts added so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fertility {
    /// Whitespace-separated words.
    pub words: u64,
    /// Tokens (every token, including those of whitespace).
    pub tokens: u64,
    /// Code points of the texts.
    pub chars: u64,
    /// UTF-8 bytes of the texts.
    pub bytes: u64,
    /// Words that two or more tokens overlap.
    pub split_words: u64,
}

impl Fertility {
    /// The counts of a single text.
    pub fn of(text: &str, tokens: &Tokenization) -> Fertility {
        let mut fertility = Fertility::default();
        fertility.add(text, tokens);
        fertility
    }

    /// Adds one text and its tokenization.
    pub fn add(&mut self, text: &str, tokens: &Tokenization) {
        self.tokens += tokens.len() as u64;
        self.chars += text.chars().count() as u64;
        self.bytes += text.len() as u64;
        // Tokens are in text order and never overlap, so one pass over words and tokens
        // together counts the tokens each word meets.
        let mut next = 0;
        for word in words(text) {
            while next < tokens.tokens.len() && ends_before(tokens.tokens[next].span, word) {
                next += 1;
            }
            let mut meeting = 0;
            let mut at = next;
            while at < tokens.tokens.len() && starts_before_end(tokens.tokens[at].span, word) {
                meeting += 1;
                at += 1;
            }
            self.words += 1;
            if meeting > 1 {
                self.split_words += 1;
            }
        }
    }

    /// Adds the counts of other texts.
    pub fn merge(&mut self, other: &Fertility) {
        self.words += other.words;
        self.tokens += other.tokens;
        self.chars += other.chars;
        self.bytes += other.bytes;
        self.split_words += other.split_words;
    }

    /// Tokens per word (fertility); 0 without words.
    pub fn tokens_per_word(&self) -> f64 {
        ratio(self.tokens, self.words)
    }

    /// Characters per token; 0 without tokens.
    pub fn chars_per_token(&self) -> f64 {
        ratio(self.chars, self.tokens)
    }

    /// Bytes per token; 0 without tokens.
    pub fn bytes_per_token(&self) -> f64 {
        ratio(self.bytes, self.tokens)
    }

    /// The share of words split into more than one token, 0 to 1; 0 without words.
    pub fn split_share(&self) -> f64 {
        ratio(self.split_words, self.words)
    }
}

/// Fertility per tokenizer over a whole corpus and per group of its texts (a language tag, a
/// file), groups in the order they first appear.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FertilityTable {
    /// Every text, one entry per tokenizer.
    pub total: Vec<Fertility>,
    /// Each group's texts, one entry per tokenizer.
    pub groups: Vec<(String, Vec<Fertility>)>,
}

impl FertilityTable {
    /// An empty table for `tokenizers` tokenizers.
    pub fn new(tokenizers: usize) -> FertilityTable {
        FertilityTable {
            total: vec![Fertility::default(); tokenizers],
            groups: Vec::new(),
        }
    }

    /// Adds a text as every tokenizer cut it (`tokenizations` in the table's order), to the
    /// total and to `group` when it has one.
    pub fn add(&mut self, group: Option<&str>, text: &str, tokenizations: &[Tokenization]) {
        let counts: Vec<Fertility> = tokenizations
            .iter()
            .map(|tokens| Fertility::of(text, tokens))
            .collect();
        for (total, count) in self.total.iter_mut().zip(&counts) {
            total.merge(count);
        }
        let Some(group) = group else { return };
        let index = match self.groups.iter().position(|(name, _)| name == group) {
            Some(index) => index,
            None => {
                let empty = vec![Fertility::default(); self.total.len()];
                self.groups.push((group.to_string(), empty));
                self.groups.len() - 1
            }
        };
        for (sum, count) in self.groups[index].1.iter_mut().zip(&counts) {
            sum.merge(count);
        }
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The byte spans of the whitespace-separated words of `text`.
fn words(text: &str) -> impl Iterator<Item = Span> + '_ {
    text.split_whitespace().map(move |word| {
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        Span::new(start, start + word.len())
    })
}

/// Whether `token` lies wholly before `word`. An empty token (part of a character's bytes)
/// belongs to the character where it sits.
fn ends_before(token: Span, word: Span) -> bool {
    if token.is_empty() {
        token.start < word.start
    } else {
        token.end <= word.start
    }
}

/// Whether `token`, not wholly before `word`, starts inside it.
fn starts_before_end(token: Span, word: Span) -> bool {
    token.start < word.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::token::{Token, TokenKind};

    fn tokens(spans: &[(usize, usize)]) -> Tokenization {
        Tokenization::new(
            spans
                .iter()
                .map(|&(s, e)| Token::new(Span::new(s, e), TokenKind::Word))
                .collect(),
        )
    }

    #[test]
    fn hand_computed_figures() {
        // "the unhappy cat" as `the` ` un` `happy` ` cat`: 3 words, 4 tokens, 15 characters
        // and bytes; only `unhappy` is split.
        let text = "the unhappy cat";
        let f = Fertility::of(text, &tokens(&[(0, 3), (3, 6), (6, 11), (11, 15)]));
        assert_eq!(
            (f.words, f.tokens, f.chars, f.bytes, f.split_words),
            (3, 4, 15, 15, 1)
        );
        assert!((f.tokens_per_word() - 4.0 / 3.0).abs() < 1e-12);
        assert_eq!(f.chars_per_token(), 3.75);
        assert_eq!(f.bytes_per_token(), 3.75);
        assert!((f.split_share() - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn bytes_and_characters_differ_and_byte_pieces_count_for_their_character() {
        // "日本 語": 4 characters, 10 bytes. `日` as two tokens (an empty byte piece, then the
        // token owning the character), `本`, then ` 語`: `日本` is split, `語` is not.
        let text = "日本 語";
        let f = Fertility::of(text, &tokens(&[(0, 0), (0, 3), (3, 6), (6, 10)]));
        assert_eq!((f.words, f.tokens, f.split_words), (2, 4, 1));
        assert_eq!((f.chars, f.bytes), (4, 10));
        assert_eq!(f.chars_per_token(), 1.0);
        assert_eq!(f.bytes_per_token(), 2.5);
        assert_eq!(f.tokens_per_word(), 2.0);
        assert_eq!(f.split_share(), 0.5);
    }

    #[test]
    fn whitespace_tokens_count_as_tokens_but_split_no_word() {
        let text = "a  b\n";
        let f = Fertility::of(text, &tokens(&[(0, 1), (1, 3), (3, 4), (4, 5)]));
        assert_eq!((f.words, f.tokens, f.split_words), (2, 4, 0));
    }

    #[test]
    fn merged_texts_equal_their_sum_and_empty_input_is_zero() {
        let mut all = Fertility::default();
        assert_eq!((all.tokens_per_word(), all.chars_per_token()), (0.0, 0.0));
        let ws = crate::load("ws").unwrap();
        let mut one = Fertility::default();
        for text in ["a bb", "ccc dddd e"] {
            all.merge(&Fertility::of(text, &ws.tokenize(text)));
            one.add(text, &ws.tokenize(text));
        }
        assert_eq!(all, one);
        assert_eq!((all.words, all.tokens, all.split_words), (5, 5, 0));
    }

    #[test]
    fn a_table_sums_groups_in_order_of_first_appearance() {
        let ws = crate::load("ws").unwrap();
        let chars = crate::load(r"regex:\S").unwrap();
        let mut table = FertilityTable::new(2);
        for (group, text) in [("de", "ab c"), ("en", "d"), ("de", "ef")] {
            table.add(
                Some(group),
                text,
                &[ws.tokenize(text), chars.tokenize(text)],
            );
        }
        let names: Vec<&str> = table.groups.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["de", "en"]);
        let de = &table.groups[0].1;
        assert_eq!((de[0].words, de[0].tokens, de[0].split_words), (3, 3, 0));
        assert_eq!((de[1].words, de[1].tokens, de[1].split_words), (3, 5, 2));
        assert_eq!(table.total[1].tokens, 6);
        assert_eq!(table.total[0].chars, 7);
    }
}
