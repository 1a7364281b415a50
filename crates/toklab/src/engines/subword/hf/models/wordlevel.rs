//! `WordLevel` in `tokenizer.json`: each pre-token is looked up whole.

use std::path::Path;

use super::{Piece, Steps, Tokens};
use crate::core::error::Result;
use crate::engines::subword::bpe::merge_loop::NO_ID;
use crate::engines::subword::hf::json::ModelJson;

/// A word-level vocabulary.
pub struct WordLevel {
    /// The vocabulary.
    pub tokens: Tokens,
    /// The unknown token.
    pub unk: Option<u32>,
}

impl WordLevel {
    /// Reads the model section of a WordLevel model.
    pub fn from_json(
        path: &Path,
        text: &str,
        json: &ModelJson,
        warnings: &mut Vec<String>,
    ) -> Result<WordLevel> {
        let tokens = Tokens::from_json(path, text, json.vocab.get(), false, warnings)?;
        let unk_token = json.unk_token.as_deref().unwrap_or("<unk>");
        let unk = tokens.id(unk_token);
        if unk.is_none() {
            warnings.push(format!(
                "{}: the unknown token {unk_token:?} is not in the vocabulary: a word outside it is a token without id (the reference fails on it)",
                path.display()
            ));
        }
        Ok(WordLevel { tokens, unk })
    }

    /// The token of one pre-token.
    pub fn tokenize(&self, word: &str, out: &mut Vec<Piece>, steps: Option<&mut Steps>) {
        let found = self.tokens.vocab.id(word.as_bytes());
        if let Some(steps) = steps {
            steps.note(
                "lookup",
                match found {
                    Some(id) => format!("the word is token {id}"),
                    None => "the word is not in the vocabulary: unknown".to_string(),
                },
            );
        }
        let id = found.or(self.unk).unwrap_or(NO_ID);
        out.push(Piece {
            id,
            start: 0,
            end: word.len(),
        });
    }
}
