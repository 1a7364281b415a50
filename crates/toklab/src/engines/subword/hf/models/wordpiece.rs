//! `WordPiece` in `tokenizer.json`, on toklab's longest-match-first splitter
//! ([`longest_match_first`]) with the file's prefix and word-length limit.

use std::path::Path;

use super::{Piece, Steps, Tokens};
use crate::core::error::{Error, Result};
use crate::core::trace::quote;
use crate::engines::subword::bpe::load::line_of_key;
use crate::engines::subword::hf::json::ModelJson;
use crate::engines::subword::wordpiece::longest_match_first;

/// A WordPiece vocabulary and its options.
pub struct WordPiece {
    /// The vocabulary.
    pub tokens: Tokens,
    /// The unknown token, for words with no split.
    pub unk: Option<u32>,
    /// What marks a piece continuing a word (`##`).
    pub(super) prefix: String,
    /// Longer words (in characters) are the unknown token.
    pub(super) max_chars: usize,
}

impl WordPiece {
    /// Reads the model section of a WordPiece model.
    pub fn from_json(
        path: &Path,
        text: &str,
        json: &ModelJson,
        warnings: &mut Vec<String>,
    ) -> Result<WordPiece> {
        let tokens = Tokens::from_json(path, text, json.vocab.get(), false, warnings)?;
        let unk_token = json.unk_token.as_deref().unwrap_or("[UNK]");
        let unk = tokens.id(unk_token);
        if unk.is_none() {
            return Err(Error::format(
                path,
                line_of_key(text, "unk_token"),
                format!("model WordPiece unk_token {unk_token:?} is not in the vocabulary"),
            ));
        }
        Ok(WordPiece {
            tokens,
            unk,
            prefix: json
                .continuing_subword_prefix
                .clone()
                .unwrap_or_else(|| "##".into()),
            max_chars: json.max_input_chars_per_word.unwrap_or(100),
        })
    }

    /// The tokens of one pre-token: its pieces, or the unknown token for all of it.
    pub fn tokenize(&self, word: &str, out: &mut Vec<Piece>, mut steps: Option<&mut Steps>) {
        let mut attempt = |candidate: &str, id: Option<u32>| {
            if let Some(steps) = steps.as_deref_mut() {
                steps.note(
                    "try",
                    match id {
                        Some(id) => format!("{} is token {id}", quote(candidate)),
                        None => format!("{} is not in the vocabulary", quote(candidate)),
                    },
                );
            }
        };
        let split = longest_match_first(
            &self.tokens.vocab,
            word,
            &self.prefix,
            self.max_chars,
            &mut attempt,
        );
        let unk = self.unk.expect("checked at load");
        match split {
            None => {
                if let Some(steps) = steps {
                    steps.note(
                        "unknown",
                        format!("no split: the whole word is token {unk}"),
                    );
                }
                out.push(Piece {
                    id: unk,
                    start: 0,
                    end: word.len(),
                });
            }
            Some(pieces) => {
                let offsets: Vec<usize> = word
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain(std::iter::once(word.len()))
                    .collect();
                out.extend(pieces.iter().map(|p| Piece {
                    id: p.id,
                    start: offsets[p.chars.0],
                    end: offsets[p.chars.1],
                }));
            }
        }
    }
}
