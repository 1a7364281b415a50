//! The merges learned so far as a tokenizer, so a training run in progress can tokenize text
//! the way its finished model would (the workbench shows it as a row that changes with every
//! merge), with the same pre-tokenization the trainer used.

use super::{Pretok, Trainer};
use crate::core::token::{Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::Trace;
use crate::engines::simple::Matcher;
use crate::engines::subword::formal::MergeTrace;
use crate::engines::subword::formal::{Comparison, Dictionary, Semantics, WordSteps, encode_ends};
use crate::engines::subword::pretok::Gpt2Matcher;

/// The end-of-word marker of [`Pretok::Textbook`]: `low` is trained and encoded as `low_`.
pub const END_OF_WORD: &str = "_";

/// The words of `text` as `pretok` cuts them: each word's span in `text` and the bytes it is
/// trained and encoded as (the span's text, plus [`END_OF_WORD`] for the textbook's words).
pub fn pre_tokens(pretok: Pretok, text: &str) -> Vec<(Span, Vec<u8>)> {
    let mut words = Vec::new();
    match pretok {
        Pretok::Gpt2 => Gpt2Matcher.find(text, &mut |span, _| {
            words.push((span, span.slice(text).as_bytes().to_vec()));
        }),
        Pretok::None => {
            let mut at = 0;
            for line in text.split_inclusive('\n') {
                let body = line.trim_end_matches(['\n', '\r']);
                if !body.is_empty() {
                    words.push((Span::new(at, at + body.len()), body.as_bytes().to_vec()));
                }
                at += line.len();
            }
        }
        Pretok::Textbook => {
            let mut start = None;
            for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
                match (c.is_whitespace(), start) {
                    (true, Some(s)) => {
                        let word = [&text.as_bytes()[s..i], END_OF_WORD.as_bytes()].concat();
                        words.push((Span::new(s, i), word));
                        start = None;
                    }
                    (false, None) => start = Some(i),
                    _ => {}
                }
            }
        }
    }
    words
}

/// A tokenizer of the merges a [`Trainer`] has learned so far (SentencePiece semantics, the
/// one every library follows), cutting text into words as the trainer did.
pub struct TrainedTokenizer {
    name: String,
    dictionary: Dictionary,
    pretok: Pretok,
}

impl TrainedTokenizer {
    /// A snapshot of `trainer`'s merges under `name`.
    pub fn new(name: impl Into<String>, trainer: &Trainer) -> TrainedTokenizer {
        TrainedTokenizer {
            name: name.into(),
            dictionary: trainer.dictionary(),
            pretok: trainer.pretok(),
        }
    }

    /// The merges as a dictionary.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }
}

impl Tokenizer for TrainedTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    /// Each word's tokens; a token's span is the part of the word's text it covers (a token
    /// that is only the end-of-word marker gets an empty span at the word's end) and its form
    /// is the token as learned, marker included.
    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = Vec::new();
        let mut ends = Vec::new();
        for (span, word) in pre_tokens(self.pretok, text) {
            ends.clear();
            encode_ends(&self.dictionary, &word, Semantics::SentencePiece, &mut ends);
            let mut at = 0;
            for &end in &ends {
                let piece = Span::new(
                    span.start + at.min(span.len()),
                    span.start + end.min(span.len()),
                );
                let form = Dictionary::show(&word[at..end]);
                let mut token = Token::new(piece, TokenKind::Subword);
                if form != piece.slice(text) {
                    token = token.with_form(form);
                }
                tokens.push(token);
                at = end;
            }
        }
        Tokenization::new(tokens)
    }

    /// The merge steps of every word under both semantics, for the trace and merges views.
    fn explain(&self, text: &str) -> Trace {
        let words = pre_tokens(self.pretok, text)
            .into_iter()
            .map(|(span, word)| {
                let comparison = Comparison::new(&self.dictionary, &word);
                let mut steps = WordSteps::compared(&self.dictionary, span, comparison, false);
                if word.len() != span.len() {
                    // The marker has no text of its own: it maps to the word's end.
                    steps.to_text = Some(
                        (0..=word.len())
                            .map(|i| span.start + i.min(span.len()))
                            .collect(),
                    );
                }
                steps
            })
            .collect();
        MergeTrace { words }.into_trace(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::formal::SymbolUnit;

    fn forms(t: &TrainedTokenizer, text: &str) -> Vec<String> {
        t.tokenize(text)
            .tokens
            .iter()
            .map(|tok| tok.form(text).to_string())
            .collect()
    }

    #[test]
    fn textbook_words_carry_the_marker() {
        let words = pre_tokens(Pretok::Textbook, " low  lower\tnew");
        let shown: Vec<(Span, String)> = words
            .into_iter()
            .map(|(s, w)| (s, String::from_utf8(w).unwrap()))
            .collect();
        assert_eq!(
            shown,
            [
                (Span::new(1, 4), "low_".to_string()),
                (Span::new(6, 11), "lower_".to_string()),
                (Span::new(12, 15), "new_".to_string()),
            ]
        );
    }

    #[test]
    fn textbook_training_learns_word_final_merges() {
        let mut t = Trainer::new(
            "set new new renew reset renew",
            SymbolUnit::Char,
            Pretok::Textbook,
        );
        t.train(3, &mut |_| {});
        let made: Vec<String> = t
            .merges()
            .iter()
            .map(|m| String::from_utf8_lossy(t.token(m.new)).into_owned())
            .collect();
        // e+w and w+_ both follow n+e; ne+w comes after n+e is made.
        assert_eq!(made[0], "ne");
        let tok = TrainedTokenizer::new("trained", &t);
        let text = "renew new";
        let tokens = tok.tokenize(text);
        tokens.check(text).unwrap();
        let last = forms(&tok, text).last().cloned().unwrap();
        assert!(last.ends_with('_'), "{last}");
    }

    #[test]
    fn gpt2_words_tokenize_like_the_dictionary() {
        let mut t = Trainer::new(
            "set new new renew reset renew",
            SymbolUnit::Char,
            Pretok::Gpt2,
        );
        t.train(8, &mut |_| {});
        let tok = TrainedTokenizer::new("trained", &t);
        assert_eq!(forms(&tok, "set renew"), ["set", " renew"]);
        assert_eq!(tok.explain("set renew").merge_words().len(), 2);
    }
}
