//! Tokens over bytes of a text, for the byte-level formats that are not BPE models
//! ([`super::rwkv`]), and what their decoders share: an id outside the vocabulary and bytes that
//! are not UTF-8 are errors that say which.
//!
//! Spans follow the convention of [`crate::engines::subword::bpe::BpeTokenizer`]: a token can hold part
//! of a UTF-8 character; the token holding a character's last byte owns the whole character,
//! a token holding none gets an empty span where the character starts.

use std::fmt;

use crate::core::error::Error;
use crate::core::token::{Span, Token, TokenKind};
use crate::core::tokenizer::Tokenizer;

/// The span of bytes `start..end` of `text` under the convention above.
pub fn char_span(text: &str, start: usize, end: usize) -> Span {
    Span::new(floor(text, start), floor(text, end))
}

/// A token of `kind` over bytes `start..end` of `text`: its span under the convention above,
/// its exact bytes ([`Token::bytes`]) the bytes themselves.
pub fn byte_token(text: &str, start: usize, end: usize, kind: TokenKind) -> Token {
    Token::new(char_span(text, start, end), kind).with_bytes(Span::new(start, end))
}

fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Bytes for display: UTF-8 as text, anything else as `<0xNN>`.
pub fn render(bytes: &[u8]) -> String {
    crate::core::trace::render_bytes(bytes)
}

/// Why ids could not be decoded.
#[derive(Debug)]
pub struct DecodeError(String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

/// The error for id `id`, the `index`th (0-based) of the input, that `tokenizer` lacks.
pub fn unknown_id(tokenizer: &str, id: u32, index: usize) -> Error {
    Error::invalid(DecodeError(format!(
        "{tokenizer}: id {id} (number {} of the input) is not in the vocabulary",
        index + 1
    )))
}

/// The error for token string `token`, the `index`th (0-based) of the input, that
/// `tokenizer`'s vocabulary lacks: detokenizing names it rather than dropping it.
pub fn unknown_token(tokenizer: &str, token: &str, index: usize) -> Error {
    Error::invalid(DecodeError(format!(
        "{tokenizer}: token {} (number {} of the input) is not in the vocabulary",
        crate::core::trace::quote(token),
        index + 1
    )))
}

/// Detokenization for kinds with a vocabulary: each token string becomes its id by `id_of`,
/// then the model's own decoder (`Tokenizer::decode`) makes the text, so detokenizing the
/// strings of some ids always equals decoding those ids.
pub fn detokenize_by_ids(
    tokenizer: &dyn Tokenizer,
    tokens: &[&str],
    id_of: impl Fn(&str) -> Option<u32>,
) -> crate::core::error::Result<String> {
    let ids = tokens
        .iter()
        .enumerate()
        .map(|(index, token)| {
            id_of(token).ok_or_else(|| unknown_token(tokenizer.name(), token, index))
        })
        .collect::<crate::core::error::Result<Vec<u32>>>()?;
    tokenizer.decode(&ids)
}

/// Byte-level decoding, the one loop every vocabulary of byte strings shares: `write` appends
/// the bytes of each id (and whatever the format puts after them) and says whether it knows
/// the id; an unknown id is an error naming it and its place, and the bytes must be UTF-8.
pub fn decode_ids(
    tokenizer: &str,
    ids: &[u32],
    mut write: impl FnMut(u32, &mut Vec<u8>) -> bool,
) -> crate::core::error::Result<String> {
    let mut out = Vec::with_capacity(ids.len() * 4);
    for (index, &id) in ids.iter().enumerate() {
        if !write(id, &mut out) {
            return Err(unknown_id(tokenizer, id, index));
        }
    }
    utf8(tokenizer, out)
}

/// Decoded bytes as text; bytes that are not UTF-8 (ids that cut a character) are an error
/// naming the offset.
pub fn utf8(tokenizer: &str, bytes: Vec<u8>) -> crate::core::error::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        Error::invalid(DecodeError(format!(
            "{tokenizer}: the ids decode to bytes that are not UTF-8 (at byte {}): they cut a character",
            e.utf8_error().valid_up_to()
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_byte_owns_the_character() {
        // `é` is two bytes: the first alone owns nothing, the second owns it.
        assert_eq!(char_span("é", 0, 1), Span::new(0, 0));
        assert_eq!(char_span("é", 1, 2), Span::new(0, 2));
        assert!(
            utf8("t", vec![0xC3])
                .unwrap_err()
                .to_string()
                .contains("at byte 0")
        );
    }
}
