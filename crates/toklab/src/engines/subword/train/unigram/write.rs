//! A trained unigram model as a SentencePiece `ModelProto` (field numbers from
//! `sentencepiece_model.proto`): `<unk>`, `<s>`, `</s>`, then the learned pieces best first;
//! a unigram `TrainerSpec` with the vocabulary size; an identity `NormalizerSpec` that adds the
//! dummy prefix, removes extra whitespace and escapes spaces as `▁` (the way the trainer read
//! the corpus).

use super::TrainedUnigram;

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn key(field: u64, wire: u64, out: &mut Vec<u8>) {
    varint(field << 3 | wire, out);
}

fn bytes_field(field: u64, payload: &[u8], out: &mut Vec<u8>) {
    key(field, 2, out);
    varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

fn varint_field(field: u64, v: u64, out: &mut Vec<u8>) {
    key(field, 0, out);
    varint(v, out);
}

/// Piece types as the proto numbers them.
const NORMAL: u64 = 1;
const UNKNOWN: u64 = 2;
const CONTROL: u64 = 3;

fn piece(text: &str, score: f32, kind: u64) -> Vec<u8> {
    let mut out = Vec::new();
    bytes_field(1, text.as_bytes(), &mut out);
    key(2, 5, &mut out);
    out.extend_from_slice(&score.to_bits().to_le_bytes());
    varint_field(3, kind, &mut out);
    out
}

/// The `.model` file's bytes.
pub fn model_bytes(model: &TrainedUnigram) -> Vec<u8> {
    let mut out = Vec::new();
    for (text, kind) in [("<unk>", UNKNOWN), ("<s>", CONTROL), ("</s>", CONTROL)] {
        bytes_field(1, &piece(text, 0.0, kind), &mut out);
    }
    for (text, score) in &model.pieces {
        bytes_field(1, &piece(text, *score, NORMAL), &mut out);
    }
    let mut trainer = Vec::new();
    varint_field(3, 1, &mut trainer); // model_type: UNIGRAM
    varint_field(4, model.vocab_size as u64, &mut trainer);
    bytes_field(2, &trainer, &mut out);
    let mut normalizer = Vec::new();
    bytes_field(1, b"identity", &mut normalizer);
    varint_field(3, 1, &mut normalizer); // add_dummy_prefix
    varint_field(4, 1, &mut normalizer); // remove_extra_whitespaces
    varint_field(5, 1, &mut normalizer); // escape_whitespaces
    bytes_field(3, &normalizer, &mut out);
    out
}

impl TrainedUnigram {
    /// The model as SentencePiece would load it from the `.model` file [`model_bytes`]
    /// writes, to tokenize with it without a file (a model being trained).
    pub fn to_model(&self) -> crate::core::error::Result<crate::engines::subword::spm::SpmModel> {
        crate::engines::subword::spm::SpmModel::from_bytes(
            "(trained unigram).model".as_ref(),
            &model_bytes(self),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::spm::SpmModel;

    #[test]
    fn the_written_model_loads_and_encodes_by_its_scores() {
        let trained = TrainedUnigram {
            pieces: vec![
                ("▁ab".into(), -1.0),
                ("a".into(), -2.0),
                ("b".into(), -2.5),
                ("▁".into(), -3.0),
            ],
            vocab_size: 7,
        };
        let bytes = model_bytes(&trained);
        let proto = crate::engines::subword::spm::proto::parse(&bytes).unwrap();
        let model = SpmModel::from_proto("t.model".as_ref(), proto).unwrap();
        assert_eq!(model.pieces.len(), 7);
        assert_eq!(model.encode("ab  ba"), [3, 6, 5, 4]);
    }
}
