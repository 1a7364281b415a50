//! The decoders of `tokenizer.json` (HuggingFace's `decoders/`): token texts back to text.
//! Each works on the list of token texts (`decode_chain`), the result is their concatenation.

use serde_json::Value;

use super::json::{ComponentError, flag, kind, list, number, required, single_char, string};
use super::normalizers::replace;
use super::pattern::Pattern;
use crate::core::normalized::NormalizedString;
use crate::engines::subword::bpe::bytelevel;

/// One decoder.
#[derive(Debug)]
pub enum Decoder {
    /// Each in turn.
    Sequence(Vec<Decoder>),
    /// Tokens in GPT-2's byte alphabet back to bytes, then to text (invalid UTF-8 as U+FFFD).
    ByteLevel,
    /// The replacement character back to a space; none at the very start unless `Never`.
    Metaspace {
        /// The character that stands for a space.
        replacement: char,
        /// Whether a leading replacement was added by the pre-tokenizer.
        prepended: bool,
    },
    /// Continuations lose their prefix, other tokens get a space before them.
    WordPiece {
        /// The continuation prefix (`##`).
        prefix: String,
        /// Undo BERT's spaces before punctuation and contractions.
        cleanup: bool,
    },
    /// The end-of-word suffix becomes a space (nothing after the last token).
    Bpe {
        /// The suffix (`</w>`).
        suffix: String,
    },
    /// Runs of `<0xNN>` tokens back to the text they spell (U+FFFD per byte when invalid).
    ByteFallback,
    /// All tokens into one.
    Fuse,
    /// Up to `start` leading and `stop` trailing `content` characters removed from each token.
    Strip {
        /// The character removed.
        content: char,
        /// At most this many at the start.
        start: usize,
        /// At most this many at the end.
        stop: usize,
    },
    /// A pattern replaced in each token.
    Replace {
        /// What is replaced.
        pattern: Pattern,
        /// What replaces it.
        content: String,
    },
    /// Connectionist temporal classification: repeats collapsed, padding dropped.
    Ctc {
        /// The padding token.
        pad: String,
        /// The token between words.
        word_delimiter: String,
        /// WordPiece's clean-up, and the delimiter becomes a space.
        cleanup: bool,
    },
}

impl Decoder {
    /// Reads a decoder; an unknown type is an error naming it.
    pub fn from_json(value: &Value) -> Result<Decoder, ComponentError> {
        Ok(match kind(value) {
            "Sequence" => Decoder::Sequence(
                list(value, "decoders")?
                    .iter()
                    .map(Decoder::from_json)
                    .collect::<Result<_, ComponentError>>()?,
            ),
            "ByteLevel" => Decoder::ByteLevel,
            "Metaspace" => Decoder::Metaspace {
                replacement: single_char(value, "replacement")?,
                prepended: match string(value, "prepend_scheme")? {
                    Some(scheme) => scheme != "never",
                    None => flag(value, "add_prefix_space", true)?,
                },
            },
            "WordPiece" => Decoder::WordPiece {
                prefix: string(value, "prefix")?.unwrap_or("##").to_string(),
                cleanup: flag(value, "cleanup", true)?,
            },
            "BPEDecoder" => Decoder::Bpe {
                suffix: string(value, "suffix")?.unwrap_or("</w>").to_string(),
            },
            "ByteFallback" => Decoder::ByteFallback,
            "Fuse" => Decoder::Fuse,
            "Strip" => Decoder::Strip {
                content: single_char(value, "content")?,
                start: number(value, "start", 0)?,
                stop: number(value, "stop", 0)?,
            },
            "Replace" => Decoder::Replace {
                pattern: Pattern::from_json(value)?,
                content: required(value, "content")?.to_string(),
            },
            "CTC" => Decoder::Ctc {
                pad: string(value, "pad_token")?.unwrap_or("<pad>").to_string(),
                word_delimiter: string(value, "word_delimiter_token")?
                    .unwrap_or("|")
                    .to_string(),
                cleanup: flag(value, "cleanup", true)?,
            },
            other => {
                return Err(ComponentError::unsupported(format!(
                    "decoder {other} is not supported"
                )));
            }
        })
    }

    /// The text of `tokens`.
    pub fn decode(&self, tokens: Vec<String>) -> String {
        self.chain(tokens).concat()
    }

    /// The tokens after this decoder.
    pub fn chain(&self, tokens: Vec<String>) -> Vec<String> {
        match self {
            Decoder::Sequence(all) => all.iter().fold(tokens, |tokens, d| d.chain(tokens)),
            Decoder::ByteLevel => byte_level(&tokens),
            Decoder::Metaspace {
                replacement,
                prepended,
            } => metaspace(&tokens, *replacement, *prepended),
            Decoder::WordPiece { prefix, cleanup } => wordpiece(tokens, prefix, *cleanup),
            Decoder::Bpe { suffix } => {
                let last = tokens.len().saturating_sub(1);
                tokens
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| t.replace(suffix.as_str(), if i == last { "" } else { " " }))
                    .collect()
            }
            Decoder::ByteFallback => byte_fallback(tokens),
            Decoder::Fuse => vec![tokens.concat()],
            Decoder::Strip {
                content,
                start,
                stop,
            } => tokens
                .iter()
                .map(|token| strip(token, *content, *start, *stop))
                .collect(),
            Decoder::Replace { pattern, content } => tokens
                .into_iter()
                .map(|token| {
                    let mut text = NormalizedString::new(&token);
                    replace(&mut text, pattern, content);
                    text.normalized().to_string()
                })
                .collect(),
            Decoder::Ctc {
                pad,
                word_delimiter,
                cleanup,
            } => ctc(tokens, pad, word_delimiter, *cleanup),
        }
    }
}

/// GPT-2's byte alphabet back to bytes, all tokens at once (a character may span tokens); a
/// token outside the alphabet is taken as its own UTF-8.
fn byte_level(tokens: &[String]) -> Vec<String> {
    let mut bytes = Vec::new();
    for token in tokens {
        match bytelevel::decode(token) {
            Some(decoded) => bytes.extend(decoded),
            None => bytes.extend_from_slice(token.as_bytes()),
        }
    }
    vec![String::from_utf8_lossy(&bytes).into_owned()]
}

/// The replacement character back to a space, except the one the pre-tokenizer put before
/// the first token.
fn metaspace(tokens: &[String], replacement: char, prepended: bool) -> Vec<String> {
    tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            token
                .chars()
                .filter_map(|c| match c == replacement {
                    true if i == 0 && prepended => None,
                    true => Some(' '),
                    false => Some(c),
                })
                .collect()
        })
        .collect()
}

/// Continuations lose their prefix, every other token but the first gets a space before it.
fn wordpiece(tokens: Vec<String>, prefix: &str, cleanup: bool) -> Vec<String> {
    tokens
        .into_iter()
        .enumerate()
        .map(|(i, token)| {
            let token = match (i, token.strip_prefix(prefix)) {
                (0, _) => token,
                (_, Some(rest)) => rest.to_string(),
                (_, None) => format!(" {token}"),
            };
            match cleanup {
                true => wordpiece_cleanup(&token),
                false => token,
            }
        })
        .collect()
}

/// `token` without up to `start` leading and `stop` trailing `content` characters.
fn strip(token: &str, content: char, start: usize, stop: usize) -> String {
    let chars: Vec<char> = token.chars().collect();
    let from = chars
        .iter()
        .take(start)
        .take_while(|c| **c == content)
        .count();
    let cut = chars[from..]
        .iter()
        .rev()
        .take(stop)
        .take_while(|c| **c == content)
        .count();
    chars[from..chars.len() - cut].iter().collect()
}

/// CTC's output: a token repeating the one before is dropped, padding removed, and with
/// `cleanup` the word delimiter becomes a space.
fn ctc(tokens: Vec<String>, pad: &str, word_delimiter: &str, cleanup: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut previous: Option<String> = None;
    for token in tokens {
        if previous.as_ref() == Some(&token) {
            continue;
        }
        previous = Some(token.clone());
        let mut text = token.replace(pad, "");
        if cleanup {
            text = wordpiece_cleanup(&text).replace(word_delimiter, " ");
        }
        if !text.is_empty() {
            out.push(text);
        }
    }
    out
}

/// BERT's clean-up of decoded text: no space before punctuation and in contractions.
fn wordpiece_cleanup(text: &str) -> String {
    text.replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!")
        .replace(" ,", ",")
        .replace(" ' ", "'")
        .replace(" n't", "n't")
        .replace(" 'm", "'m")
        .replace(" do not", " don't")
        .replace(" 's", "'s")
        .replace(" 've", "'ve")
        .replace(" 're", "'re")
}

/// Runs of `<0xNN>` tokens become the text they spell, or one U+FFFD per byte when it is not
/// UTF-8.
fn byte_fallback(tokens: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut bytes: Vec<u8> = Vec::new();
    let flush = |bytes: &mut Vec<u8>, out: &mut Vec<String>| {
        if bytes.is_empty() {
            return;
        }
        match String::from_utf8(std::mem::take(bytes)) {
            Ok(text) => out.push(text),
            Err(e) => out.extend(std::iter::repeat_n(
                "\u{FFFD}".to_string(),
                e.as_bytes().len(),
            )),
        }
    };
    for token in tokens {
        let byte = (token.len() == 6 && token.starts_with("<0x") && token.ends_with('>'))
            .then(|| u8::from_str_radix(&token[3..5], 16).ok())
            .flatten();
        match byte {
            Some(b) => bytes.push(b),
            None => {
                flush(&mut bytes, &mut out);
                out.push(token);
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(json: &str, tokens: &[&str]) -> String {
        let d = Decoder::from_json(&serde_json::from_str(json).unwrap()).unwrap();
        d.decode(tokens.iter().map(|t| t.to_string()).collect())
    }

    #[test]
    fn each_decoder() {
        assert_eq!(
            decode(r#"{"type":"ByteLevel"}"#, &["Hello", "Ġwor", "ld", "Ã©"]),
            "Hello worldé"
        );
        assert_eq!(
            decode(
                r#"{"type":"Metaspace","replacement":"▁","prepend_scheme":"always"}"#,
                &["▁Hi", "▁you"]
            ),
            "Hi you"
        );
        assert_eq!(
            decode(
                r###"{"type":"WordPiece","prefix":"##","cleanup":true}"###,
                &["un", "##able", "do", "n't", "."]
            ),
            "unable don't."
        );
        assert_eq!(
            decode(
                r#"{"type":"BPEDecoder","suffix":"</w>"}"#,
                &["hel", "lo</w>", "you</w>"]
            ),
            "hello you"
        );
        assert_eq!(
            decode(
                r#"{"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]}"#,
                &["▁a", "<0xE5>", "<0x80>", "<0x9A>", "▁b", "<0xE5>", "<0xFF>"]
            ),
            "a倚 b\u{FFFD}\u{FFFD}",
            "a run of byte tokens that is not UTF-8 is one U+FFFD per byte, as in the reference"
        );
        assert_eq!(
            decode(
                r#"{"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true}"#,
                &["h", "h", "<pad>", "i", "|", "y", "o"]
            ),
            "hi yo"
        );
    }

    #[test]
    fn unknown_decoder_is_named() {
        assert_eq!(
            Decoder::from_json(&serde_json::json!({"type": "Mystery"})).unwrap_err(),
            ComponentError::unsupported("decoder Mystery is not supported")
        );
    }
}
