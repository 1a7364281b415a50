//! The models of a `tokenizer.json` in the flat form of a cache entry
//! ([`crate::core::model_cache`]): vocabularies, merge tables and scores as arrays, options as
//! numbers, so a cached model is back without parsing JSON or looking up a merge.

use std::collections::HashMap;

use super::{Bpe, Model, Tokens, Unigram, WordLevel, WordPiece};
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::engines::subword::bpe::merge_table::MergeTable;
use crate::engines::subword::bpe::vocab::Vocab;

impl Tokens {
    fn write_flat(&self, w: &mut FlatWriter) {
        self.vocab.write_flat(w);
        w.bool(self.byte_level);
        let mut unreachable: Vec<(&u32, &String)> = self.unreachable.iter().collect();
        unreachable.sort();
        w.usize(unreachable.len());
        for (id, text) in unreachable {
            w.u32(*id);
            w.str(text);
        }
    }

    fn read_flat(r: &mut FlatReader) -> Option<Tokens> {
        let vocab = Vocab::read_flat(r)?;
        let byte_level = r.bool()?;
        let count = r.usize()?;
        let mut unreachable = HashMap::new();
        for _ in 0..count {
            let id = r.u32()?;
            unreachable.insert(id, r.str()?.to_string());
        }
        Some(Tokens {
            vocab,
            byte_level,
            unreachable,
        })
    }
}

/// An id that must be one of the vocabulary's, so a damaged entry cannot send the encoder
/// past its tables.
fn read_id(r: &mut FlatReader, tokens: &Tokens) -> Option<Option<u32>> {
    let id = r.opt_u32()?;
    match id {
        Some(id) if id >= tokens.id_bound() => None,
        _ => Some(id),
    }
}

impl Model {
    /// Writes the model for [`Model::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        match self {
            Model::Bpe(m) => {
                w.u8(0);
                m.tokens.write_flat(w);
                m.merges.write_flat(w);
                w.opt_u32(m.unk);
                w.bool(m.fuse_unk);
                match &m.byte_ids {
                    None => w.bool(false),
                    Some(ids) => {
                        w.bool(true);
                        for id in ids.iter() {
                            w.opt_u32(*id);
                        }
                    }
                }
                w.bool(m.ignore_merges);
                w.bytes(&m.prefix);
                w.bytes(&m.suffix);
            }
            Model::WordPiece(m) => {
                w.u8(1);
                m.tokens.write_flat(w);
                w.opt_u32(m.unk);
                w.str(&m.prefix);
                w.usize(m.max_chars);
            }
            Model::Unigram(m) => {
                w.u8(2);
                m.tokens.write_flat(w);
                w.opt_u32(m.unk);
                w.f64s(m.scores.iter().copied());
                w.usize(m.max_len);
                w.f64(m.unk_score);
                w.bool(m.byte_fallback);
            }
            Model::WordLevel(m) => {
                w.u8(3);
                m.tokens.write_flat(w);
                w.opt_u32(m.unk);
            }
        }
    }

    /// Reads what [`Model::write_flat`] wrote; `None` for anything else.
    pub fn read_flat(r: &mut FlatReader) -> Option<Model> {
        let tag = r.u8()?;
        let tokens = Tokens::read_flat(r)?;
        Some(match tag {
            0 => {
                let merges = MergeTable::read_flat(r, tokens.id_bound())?;
                let unk = read_id(r, &tokens)?;
                let fuse_unk = r.bool()?;
                let byte_ids = match r.bool()? {
                    false => None,
                    true => {
                        let mut ids = Box::new([None; 256]);
                        for id in ids.iter_mut() {
                            *id = read_id(r, &tokens)?;
                        }
                        Some(ids)
                    }
                };
                Model::Bpe(Bpe {
                    merges,
                    unk,
                    fuse_unk,
                    byte_ids,
                    ignore_merges: r.bool()?,
                    prefix: r.bytes()?.to_vec(),
                    suffix: r.bytes()?.to_vec(),
                    tokens,
                })
            }
            1 => Model::WordPiece(WordPiece {
                unk: read_id(r, &tokens)?,
                prefix: r.str()?.to_string(),
                max_chars: r.usize()?,
                tokens,
            }),
            2 => {
                let unk = read_id(r, &tokens)?;
                let scores = r.f64s()?;
                // The lattice scores every id the vocabulary has.
                if scores.len() < tokens.id_bound() as usize {
                    return None;
                }
                Model::Unigram(Unigram {
                    unk,
                    scores,
                    max_len: r.usize()?,
                    unk_score: r.f64()?,
                    byte_fallback: r.bool()?,
                    tokens,
                })
            }
            3 => Model::WordLevel(WordLevel {
                unk: read_id(r, &tokens)?,
                tokens,
            }),
            _ => return None,
        })
    }
}
