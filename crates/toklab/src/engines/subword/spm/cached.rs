//! A SentencePiece model in the model cache ([`crate::core::model_cache`]): the pieces (one
//! buffer of their texts, their kinds and scores), the vocabulary and implied merge rules, the
//! normalizer's character map and options, and the unigram trie, each as flat arrays. The
//! implied merge rules and the trie are what loading a large model spends its time on.

use std::path::Path;

use super::normalizer::{CharsMap, Normalizer};
use super::pieces::Pieces;
use super::proto::ModelType;
use super::{SpmModel, user_matcher, user_pieces};
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::engines::subword::bpe::merge_table::MergeTable;
use crate::engines::subword::bpe::model::{Alphabet, BpeModel, Rules};
use crate::engines::subword::bpe::vocab::Vocab;
use crate::engines::subword::unigram::SpmUnigram;

const MODEL_TYPES: [ModelType; 4] = [
    ModelType::Unigram,
    ModelType::Bpe,
    ModelType::Word,
    ModelType::Char,
];

fn index_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter().position(|v| v == value).unwrap_or(0) as u8
}

impl SpmModel {
    /// Writes the model for [`SpmModel::read_flat`].
    pub(super) fn write_flat(&self, w: &mut FlatWriter) {
        w.u8(index_of(&MODEL_TYPES, &self.model_type));
        self.pieces.write_flat(w);
        self.bpe.vocab.write_flat(w);
        self.bpe.merges().write_flat(w);
        w.opt_u32(self.bpe.unk);
        match &self.bpe.byte_fallback {
            None => w.bool(false),
            Some(ids) => {
                w.bool(true);
                w.u32s(ids.iter().copied());
            }
        }
        let n = &self.normalizer;
        w.bytes(&n.map.to_blob());
        for flag in [
            n.add_dummy_prefix,
            n.remove_extra_whitespaces,
            n.escape_whitespaces,
            n.treat_whitespace_as_suffix,
        ] {
            w.bool(flag);
        }
        match &self.unigram {
            None => w.bool(false),
            Some(unigram) => {
                w.bool(true);
                unigram.write_flat(w);
            }
        }
    }

    /// Reads what [`SpmModel::write_flat`] wrote; `None` for anything else.
    pub(super) fn read_flat(path: &Path, r: &mut FlatReader) -> Option<SpmModel> {
        let model_type = *MODEL_TYPES.get(usize::from(r.u8()?))?;
        let pieces = Pieces::read_flat(r)?;
        let vocab = Vocab::read_flat(r)?;
        let bound = vocab.id_bound();
        if bound as usize > pieces.len() {
            return None;
        }
        let merges = MergeTable::read_flat(r, bound)?;
        let known = |id: u32| id < bound;
        let unk = r.opt_u32()?.filter(|&id| known(id))?;
        let byte_fallback = match r.bool()? {
            false => None,
            true => {
                let ids: [u32; 256] = r.u32s()?.try_into().ok()?;
                ids.iter().all(|&id| known(id)).then_some(())?;
                Some(Box::new(ids))
            }
        };
        let blob = r.bytes()?;
        let map = match blob.is_empty() {
            true => CharsMap::default(),
            false => CharsMap::parse(blob).ok()?,
        };
        let normalizer = Normalizer {
            map,
            add_dummy_prefix: r.bool()?,
            remove_extra_whitespaces: r.bool()?,
            escape_whitespaces: r.bool()?,
            treat_whitespace_as_suffix: r.bool()?,
            user_defined: user_pieces(&pieces),
        };
        let unigram = match r.bool()? {
            false => None,
            true => Some(SpmUnigram::read_flat(r, &pieces)?),
        };
        let mut bpe = BpeModel::new(vocab, Rules::Implied(merges));
        bpe.alphabet = Alphabet::Chars;
        bpe.unk = Some(unk);
        bpe.byte_fallback = byte_fallback;
        Some(SpmModel {
            bpe,
            normalizer,
            user_defined: user_matcher(path, &pieces).ok()?,
            pieces,
            model_type,
            unigram,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_cut_or_changed_anywhere_reads_as_none_or_a_model_never_a_panic() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/bpe/sample-spm.model");
        let model = SpmModel::from_bytes(&path, &std::fs::read(&path).unwrap()).unwrap();
        let mut w = FlatWriter::new();
        model.write_flat(&mut w);
        let payload = w.into_bytes();
        let text = "Hello world, naïve 日本語 text";
        let read = |bytes: &[u8]| {
            let mut r = FlatReader::new(bytes);
            SpmModel::read_flat(&path, &mut r).filter(|_| r.finished())
        };
        assert_eq!(read(&payload).unwrap().encode(text), model.encode(text));
        for cut in 0..payload.len() {
            assert!(read(&payload[..cut]).is_none(), "cut at {cut}");
        }
        for at in (0..payload.len()).step_by(3) {
            let mut changed = payload.clone();
            changed[at] ^= 0x5a;
            if let Some(m) = read(&changed) {
                let _ = m.encode(text);
            }
        }
    }
}
