//! The models of `tokenizer.json` (HuggingFace's `models/`): each turns one pre-token into
//! tokens, ranges of the pre-token's normalized text. BPE runs on toklab's merge engine,
//! WordPiece on its longest-match-first splitter; Unigram has its own lattice because the
//! reference scores paths differently from SentencePiece (see `unigram.rs`).

mod bpe;
mod flat;
mod unigram;
mod wordlevel;
mod wordpiece;

use std::collections::HashMap;
use std::path::Path;

use super::json::ModelJson;
use crate::core::error::{Error, Result};
use crate::core::token::Span;
use crate::core::trace::{Role, TraceLine, quote};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::load::{JsonVocab, MAX_ID, line_of_key, vocab_conflict};
use crate::engines::subword::bpe::vocab::Vocab;

pub use bpe::Bpe;
pub use unigram::Unigram;
pub use wordlevel::WordLevel;
pub use wordpiece::WordPiece;

/// One token of a pre-token: its id and its byte range in the pre-token's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The token id.
    pub id: u32,
    /// First byte in the pre-token.
    pub start: usize,
    /// End byte in the pre-token.
    pub end: usize,
}

/// What a model did to one pre-token, for `explain`: lines under the pre-token's line.
pub struct Steps<'a> {
    /// The lines so far.
    pub lines: &'a mut Vec<TraceLine>,
    /// The pre-token's span in the original text (each step line gets it).
    pub span: Span,
}

impl Steps<'_> {
    /// Adds a step line: a label and what happened.
    pub fn note(&mut self, label: &str, text: String) {
        self.lines.push(
            TraceLine::new(2, Some(self.span))
                .part(Role::Label, format!("{label} "))
                .part(Role::Plain, text),
        );
    }
}

/// The model of a pipeline.
pub enum Model {
    /// Byte-pair encoding.
    Bpe(Bpe),
    /// Greedy longest-match-first (BERT).
    WordPiece(WordPiece),
    /// Best segmentation by total score.
    Unigram(Unigram),
    /// Whole pre-tokens looked up.
    WordLevel(WordLevel),
}

impl Model {
    /// Reads the model section. `byte_level`: the pipeline maps text to GPT-2's byte alphabet,
    /// so the vocabulary is read in it.
    pub fn from_json(
        path: &Path,
        text: &str,
        json: &ModelJson,
        byte_level: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Model> {
        let kind = json.kind.as_deref().unwrap_or("BPE");
        Ok(match kind {
            "BPE" => Model::Bpe(Bpe::from_json(path, text, json, byte_level, warnings)?),
            "WordPiece" => Model::WordPiece(WordPiece::from_json(path, text, json, warnings)?),
            "Unigram" => Model::Unigram(Unigram::from_json(path, text, json, warnings)?),
            "WordLevel" => Model::WordLevel(WordLevel::from_json(path, text, json, warnings)?),
            other => {
                return Err(Error::format(
                    path,
                    line_of_key(text, other),
                    format!("model {other} is not supported"),
                ));
            }
        })
    }

    /// The type name, as the file writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Model::Bpe(_) => "BPE",
            Model::WordPiece(_) => "WordPiece",
            Model::Unigram(_) => "Unigram",
            Model::WordLevel(_) => "WordLevel",
        }
    }

    /// The tokens of one pre-token, appended to `out`; `steps` receives what the model did.
    pub fn tokenize(&self, piece: &str, out: &mut Vec<Piece>, steps: Option<&mut Steps>) {
        if piece.is_empty() {
            return;
        }
        match self {
            Model::Bpe(m) => m.tokenize(piece, out, steps),
            Model::WordPiece(m) => m.tokenize(piece, out, steps),
            Model::Unigram(m) => m.tokenize(piece, out, steps),
            Model::WordLevel(m) => m.tokenize(piece, out, steps),
        }
    }

    /// The vocabulary's ids and texts.
    pub fn vocab(&self) -> &Tokens {
        match self {
            Model::Bpe(m) => &m.tokens,
            Model::WordPiece(m) => &m.tokens,
            Model::Unigram(m) => &m.tokens,
            Model::WordLevel(m) => &m.tokens,
        }
    }

    /// The unknown token's id.
    pub fn unk(&self) -> Option<u32> {
        match self {
            Model::Bpe(m) => m.unk,
            Model::WordPiece(m) => m.unk,
            Model::Unigram(m) => m.unk,
            Model::WordLevel(m) => m.unk,
        }
    }

    /// The rank of the merge that makes token `id` (BPE only).
    pub fn rank_of_token(&self, id: u32) -> Option<u32> {
        match self {
            Model::Bpe(m) => m.merges.rank_of_token(id),
            _ => None,
        }
    }
}

/// A vocabulary with its tokens as the file writes them: bytes for lookup (decoded from the
/// byte alphabet when the model is byte-level), and the file's text for decoders. Entries of a
/// byte-level vocabulary outside the byte alphabet can never be produced from text; they are
/// kept only for decoding.
pub struct Tokens {
    /// Bytes → id.
    pub vocab: Vocab,
    /// Whether `vocab` holds bytes decoded from GPT-2's byte alphabet.
    pub byte_level: bool,
    /// Entries outside the byte alphabet of a byte-level vocabulary, by id.
    unreachable: HashMap<u32, String>,
}

impl Tokens {
    /// Reads `{token: id, …}`.
    pub fn from_json(
        path: &Path,
        text: &str,
        raw: &str,
        byte_level: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Tokens> {
        let entries: JsonVocab = serde_json::from_str(raw).map_err(|e| {
            Error::format(
                path,
                line_of_key(text, "vocab"),
                format!("model vocab: {e}"),
            )
        })?;
        Tokens::from_entries(path, text, entries.0.into_iter(), byte_level, warnings)
    }

    /// A vocabulary from `(token, id)` entries.
    pub fn from_entries(
        path: &Path,
        text: &str,
        entries: impl ExactSizeIterator<Item = (String, u64)>,
        byte_level: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Tokens> {
        let mut vocab = Vocab::with_capacity(entries.len(), entries.len() * 8);
        let mut unreachable = HashMap::new();
        for (piece, id) in entries {
            if id >= MAX_ID {
                return Err(Error::format(
                    path,
                    line_of_key(text, &piece),
                    format!("id {id} of {piece:?} is too large (at most {MAX_ID})"),
                ));
            }
            let decoded;
            let bytes = match byte_level {
                true => match bytelevel::decode(&piece) {
                    Some(bytes) => {
                        decoded = bytes;
                        &decoded[..]
                    }
                    None => {
                        unreachable.insert(id as u32, piece);
                        continue;
                    }
                },
                false => piece.as_bytes(),
            };
            if bytes.is_empty() {
                warnings.push(format!(
                    "{}: the empty token (id {id}) never matches",
                    path.display()
                ));
                unreachable.insert(id as u32, piece);
                continue;
            }
            vocab.insert(id as u32, bytes).map_err(|conflict| {
                vocab_conflict(path, line_of_key(text, &piece), &piece, id, conflict)
            })?;
        }
        if !unreachable.is_empty() && byte_level {
            let mut some: Vec<&String> = unreachable.values().collect();
            some.sort();
            some.truncate(3);
            warnings.push(format!(
                "{}: {} vocabulary entries are outside the byte alphabet (e.g. {}): no text encodes to them; they decode as written",
                path.display(),
                unreachable.len(),
                some.iter().map(|s| quote(s)).collect::<Vec<_>>().join(", ")
            ));
        }
        Ok(Tokens {
            vocab,
            byte_level,
            unreachable,
        })
    }

    /// The id of a token as the file writes it.
    pub fn id(&self, token: &str) -> Option<u32> {
        let found = match self.byte_level {
            true => bytelevel::decode(token).and_then(|bytes| self.vocab.id(&bytes)),
            false => self.vocab.id(token.as_bytes()),
        };
        found.or_else(|| {
            self.unreachable
                .iter()
                .find(|(_, t)| t.as_str() == token)
                .map(|(id, _)| *id)
        })
    }

    /// The token `id` as the file writes it (what decoders work on).
    pub fn text(&self, id: u32) -> Option<String> {
        if let Some(bytes) = self.vocab.bytes(id) {
            return Some(match self.byte_level {
                true => bytelevel::encode(bytes),
                false => String::from_utf8_lossy(bytes).into_owned(),
            });
        }
        self.unreachable.get(&id).cloned()
    }

    /// The bytes token `id` stands for (decoded from the byte alphabet when byte-level).
    pub fn bytes(&self, id: u32) -> Option<&[u8]> {
        self.vocab
            .bytes(id)
            .or_else(|| self.unreachable.get(&id).map(|s| s.as_bytes()))
    }

    /// Ids are below this.
    pub fn id_bound(&self) -> u32 {
        let most = self.unreachable.keys().max().map_or(0, |id| id + 1);
        self.vocab.id_bound().max(most)
    }
}
