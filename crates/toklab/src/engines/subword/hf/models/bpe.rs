//! `BPE` in `tokenizer.json`, on toklab's merge engine ([`BpeModel::merge_fast`]): the
//! initial symbols are built as the reference builds them (continuing-subword prefix and
//! end-of-word suffix, byte fallback where every `<0xNN>` piece of a character exists, else the
//! unknown token, fused per run when `fuse_unk`), then the merge loop runs on them.

use std::path::Path;

use serde::Deserialize;

use super::{Piece, Steps, Tokens};
use crate::core::error::{Error, Result};
use crate::core::trace::quote;
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::load::line_of_key;
use crate::engines::subword::bpe::merge_loop::{self, MergeStep, Symbol};
use crate::engines::subword::bpe::merge_table::{Merge, MergeTable};
use crate::engines::subword::bpe::render_bytes;
use crate::engines::subword::bpe::vocab::Vocab;
use crate::engines::subword::bpe::{Alphabet, BpeModel, Rules};
use crate::engines::subword::hf::json::{ComponentError, ModelJson};

/// A BPE model and the options of the reference's BPE.
pub struct Bpe {
    /// The merge rules, for toklab's merge loop.
    pub merges: MergeTable,
    /// The vocabulary as the file writes it.
    pub tokens: Tokens,
    /// The unknown token.
    pub unk: Option<u32>,
    /// One unknown token per run of unknown characters.
    pub(super) fuse_unk: bool,
    /// The id of `<0xNN>` for each byte, when `byte_fallback` is set and the piece exists.
    pub(super) byte_ids: Option<Box<[Option<u32>; 256]>>,
    /// Take a pre-token that is a token whole.
    pub(super) ignore_merges: bool,
    /// Marks symbols after the first (bytes, as the vocabulary stores them).
    pub(super) prefix: Vec<u8>,
    /// Marks the last symbol.
    pub(super) suffix: Vec<u8>,
}

/// A merge is `"left right"` in older files and `["left", "right"]` in newer ones.
#[derive(Deserialize)]
#[serde(untagged)]
enum MergeJson {
    Joined(String),
    Pair(String, String),
}

impl Bpe {
    /// Reads the model section of a BPE model.
    pub fn from_json(
        path: &Path,
        text: &str,
        json: &ModelJson,
        byte_level: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Bpe> {
        let tokens = Tokens::from_json(path, text, json.vocab.get(), byte_level, warnings)?;
        let to_bytes = |s: &str| -> Option<Vec<u8>> {
            match byte_level {
                true => bytelevel::decode(s),
                false => Some(s.as_bytes().to_vec()),
            }
        };
        let prefix = json.continuing_subword_prefix.as_deref().unwrap_or("");
        let suffix = json.end_of_word_suffix.as_deref().unwrap_or("");
        let bad_option = |name: &str, value: &str| {
            Error::format(
                path,
                line_of_key(text, name),
                format!("model BPE {name} {value:?} is not in the byte alphabet"),
            )
        };
        let prefix_bytes =
            to_bytes(prefix).ok_or_else(|| bad_option("continuing_subword_prefix", prefix))?;
        let suffix_bytes =
            to_bytes(suffix).ok_or_else(|| bad_option("end_of_word_suffix", suffix))?;
        let merges_line = line_of_key(text, "merges");
        let merges: Vec<MergeJson> = match json.merges {
            Some(raw) => serde_json::from_str(raw.get())
                .map_err(|e| Error::format(path, merges_line, format!("model merges: {e}")))?,
            None => Vec::new(),
        };
        let table = merge_table(&tokens.vocab, &merges, prefix_bytes.len(), &to_bytes)
            .map_err(|error| Error::format(path, merges_line, error.to_string()))?;
        if json.dropout.is_some_and(|d| d > 0.0) {
            warnings.push(format!(
                "{}: BPE dropout is ignored: toklab encodes deterministically, as the reference does outside training",
                path.display()
            ));
        }
        let unk = match &json.unk_token {
            None => None,
            Some(unk) => Some(tokens.id(unk).ok_or_else(|| {
                Error::format(
                    path,
                    line_of_key(text, "unk_token"),
                    format!("model BPE unk_token {unk:?} is not in the vocabulary"),
                )
            })?),
        };
        let byte_ids = json.byte_fallback.then(|| {
            let mut ids = Box::new([None; 256]);
            for (byte, id) in ids.iter_mut().enumerate() {
                *id = tokens.vocab.id(format!("<0x{byte:02X}>").as_bytes());
            }
            ids
        });
        Ok(Bpe {
            merges: table,
            tokens,
            unk,
            fuse_unk: json.fuse_unk,
            byte_ids,
            ignore_merges: json.ignore_merges,
            prefix: prefix_bytes,
            suffix: suffix_bytes,
        })
    }

    /// This model as the merge model of [`crate::engines::subword::bpe`], which has the
    /// `pattern` and `semantics` options: the same vocabulary, merges, unknown token and byte
    /// fallback. Subword prefixes and suffixes have no place there, so they are an error.
    pub fn into_merge_model(self) -> Result<BpeModel, ComponentError> {
        for (name, value) in [
            ("continuing_subword_prefix", &self.prefix),
            ("end_of_word_suffix", &self.suffix),
        ] {
            if !value.is_empty() {
                return Err(ComponentError::unsupported(format!(
                    "model option {name} is not supported with `pattern` or `semantics`"
                )));
            }
        }
        let byte_fallback = match self.byte_ids {
            None => None,
            Some(ids) => {
                let mut all = Box::new([0u32; 256]);
                for (byte, (to, from)) in all.iter_mut().zip(ids.iter()).enumerate() {
                    *to = from.ok_or_else(|| {
                        ComponentError::invalid(format!(
                            "byte_fallback is set but <0x{byte:02X}> is not in the vocabulary"
                        ))
                    })?;
                }
                Some(all)
            }
        };
        let vocab = self.tokens.vocab;
        let alphabet = match self.tokens.byte_level {
            true => Alphabet::bytes_of(&vocab),
            false => Alphabet::Chars,
        };
        let mut model = BpeModel::new(vocab, Rules::Table(self.merges));
        model.alphabet = alphabet;
        model.unk = self.unk;
        model.byte_fallback = byte_fallback;
        model.whole_piece_first = self.ignore_merges;
        Ok(model)
    }

    /// The tokens of one pre-token.
    pub fn tokenize(&self, piece: &str, out: &mut Vec<Piece>, steps: Option<&mut Steps>) {
        self.pieces_of(self.merged(piece, steps), piece.len(), &mut |p| out.push(p));
    }

    /// [`Bpe::tokenize`]'s tokens handed to `each` in order, none kept.
    pub fn each_piece(&self, piece: &str, each: &mut dyn FnMut(Piece)) {
        self.pieces_of(self.merged(piece, None), piece.len(), each);
    }

    /// The tokens of merged `symbols` of a pre-token `len` bytes long.
    fn pieces_of(&self, symbols: Vec<Symbol>, len: usize, each: &mut dyn FnMut(Piece)) {
        for (i, symbol) in symbols.iter().enumerate() {
            let end = symbols.get(i + 1).map_or(len, |next| next.start as usize);
            each(Piece {
                id: symbol.id,
                start: symbol.start as usize,
                end,
            });
        }
    }

    /// The ids of [`Bpe::tokenize`]'s tokens, appended to `ids` without making the tokens.
    pub fn ids(&self, piece: &str, ids: &mut Vec<u32>) {
        ids.extend(self.merged(piece, None).iter().map(|s| s.id));
    }

    /// The symbols one pre-token merges into (the whole pre-token when it is a token and the
    /// model looks it up first).
    fn merged(&self, piece: &str, mut steps: Option<&mut Steps>) -> Vec<Symbol> {
        let bytes = piece.as_bytes();
        let vocab = &self.tokens.vocab;
        if self.ignore_merges
            && let Some(id) = vocab.id(bytes)
        {
            if let Some(steps) = steps.as_deref_mut() {
                steps.note(
                    "lookup",
                    format!("the whole pre-token is token {id} (ignore_merges): no merging"),
                );
            }
            return vec![Symbol { id, start: 0 }];
        }
        let mut symbols = Vec::with_capacity(bytes.len());
        self.initial_symbols(piece, &mut symbols);
        if let Some(steps) = steps.as_deref_mut() {
            let shown: Vec<String> = symbols.iter().map(|s| self.shown(s.id)).collect();
            steps.note("symbols", shown.join(" "));
        }
        let mut observe = |step: MergeStep| {
            if let Some(steps) = steps.as_deref_mut() {
                steps.note(
                    "merge",
                    format!(
                        "{} + {} → {}  rank {}",
                        self.shown(step.left),
                        self.shown(step.right),
                        self.shown(step.merged),
                        step.rank
                    ),
                );
            }
        };
        merge_loop::merge(&mut symbols, bytes, &self.merges, &mut observe);
        symbols
    }

    /// A token for the trace: quoted, with its id.
    fn shown(&self, id: u32) -> String {
        let text = self.tokens.bytes(id).map(render_bytes).unwrap_or_default();
        format!("{}:{id}", quote(&text))
    }

    /// The symbols before merging, as the reference's `merge_word` makes them.
    fn initial_symbols(&self, piece: &str, symbols: &mut Vec<Symbol>) {
        let bytes = piece.as_bytes();
        let vocab = &self.tokens.vocab;
        // The units: bytes when byte-level, else characters (where each starts; a unit ends
        // where the next starts), walked without being listed, so a huge pre-token costs no
        // more than its symbols.
        let byte_level = self.tokens.byte_level;
        let units = bytes
            .iter()
            .enumerate()
            .filter_map(|(i, &b)| (byte_level || !(0x80..0xC0).contains(&b)).then_some(i));
        let mut units = units.peekable();
        let affixed = !self.prefix.is_empty() || !self.suffix.is_empty();
        let mut key = Vec::new();
        let mut pending_unk: Option<Symbol> = None;
        let mut index = 0;
        while let Some(start) = units.next() {
            let end = units.peek().copied().unwrap_or(bytes.len());
            let first = index == 0;
            index += 1;
            let unit = &bytes[start..end];
            let lookup: &[u8] = if affixed {
                key.clear();
                if !first {
                    key.extend_from_slice(&self.prefix);
                }
                key.extend_from_slice(unit);
                if end == bytes.len() {
                    key.extend_from_slice(&self.suffix);
                }
                &key
            } else {
                unit
            };
            if let Some(id) = vocab.id(lookup) {
                symbols.extend(pending_unk.take());
                symbols.push(Symbol {
                    id,
                    start: start as u32,
                });
                continue;
            }
            if let Some(byte_ids) = &self.byte_ids
                && let Some(ids) = lookup
                    .iter()
                    .map(|&b| byte_ids[b as usize])
                    .collect::<Option<Vec<u32>>>()
            {
                // The reference adds a pending unknown token only at the next known unit; its
                // position here stays the unit's start so spans keep their order.
                for (k, id) in ids.into_iter().enumerate() {
                    let at = (start + k).min(end - 1);
                    symbols.push(Symbol {
                        id,
                        start: at as u32,
                    });
                }
                continue;
            }
            let Some(unk) = self.unk else {
                // No unknown token: the reference drops the unit.
                continue;
            };
            pending_unk = match (pending_unk, self.fuse_unk) {
                (Some(run), true) => Some(run),
                (Some(run), false) => {
                    symbols.push(run);
                    Some(Symbol {
                        id: unk,
                        start: start as u32,
                    })
                }
                (None, _) => Some(Symbol {
                    id: unk,
                    start: start as u32,
                }),
            };
        }
        symbols.extend(pending_unk);
    }
}

/// The merge rules: pair → (rank, merged token), the later of two rules for one pair winning as
/// in the reference; the merged token is the left one followed by the right one without its
/// continuing-subword prefix.
fn merge_table(
    vocab: &Vocab,
    merges: &[MergeJson],
    prefix_len: usize,
    to_bytes: &dyn Fn(&str) -> Option<Vec<u8>>,
) -> std::result::Result<MergeTable, ComponentError> {
    let mut table = MergeTable::with_capacity(merges.len());
    let mut merged = Vec::new();
    for (rank, merge) in merges.iter().enumerate() {
        let (left, right) = match merge {
            MergeJson::Pair(l, r) => (l.as_str(), r.as_str()),
            MergeJson::Joined(joined) => joined
                .split_once(' ')
                .filter(|(_, r)| !r.contains(' '))
                .ok_or_else(|| {
                ComponentError::invalid(format!(
                    "merge {}: expected `left right`, found {joined:?}",
                    rank + 1
                ))
            })?,
        };
        let id = |side: &str| -> std::result::Result<(u32, Vec<u8>), ComponentError> {
            let bytes = to_bytes(side).ok_or_else(|| {
                ComponentError::invalid(format!(
                    "merge {}: {side:?} is not in the byte-level alphabet",
                    rank + 1
                ))
            })?;
            let id = vocab.id(&bytes).ok_or_else(|| {
                ComponentError::invalid(format!(
                    "merge {}: {side:?} is not in the vocabulary",
                    rank + 1
                ))
            })?;
            Ok((id, bytes))
        };
        let (left_id, left_bytes) = id(left)?;
        let (right_id, right_bytes) = id(right)?;
        merged.clear();
        merged.extend_from_slice(&left_bytes);
        merged.extend_from_slice(right_bytes.get(prefix_len..).unwrap_or_default());
        let merged_id = vocab.id(&merged).ok_or_else(|| {
            ComponentError::invalid(format!(
                "merge {}: {left:?} + {right:?} makes {:?}, which is not in the vocabulary",
                rank + 1,
                render_bytes(&merged)
            ))
        })?;
        table.insert(
            left_id,
            right_id,
            Merge {
                rank: rank as u32,
                merged: merged_id,
            },
        );
    }
    Ok(table)
}
