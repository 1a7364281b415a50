//! The SentencePiece model loader's own checks.

use super::*;
use crate::engines::subword::spm::proto::ProtoPiece;

fn piece(text: &str, kind: PieceType) -> ProtoPiece {
    ProtoPiece {
        piece: text.into(),
        score: 0.0,
        kind,
    }
}

#[test]
fn the_vocabulary_needs_one_unknown_piece_and_distinct_non_empty_pieces() {
    let unk = piece("<unk>", PieceType::Unknown);
    let a = piece("a", PieceType::Normal);
    let (vocab, id) = vocab_of(&[a.clone(), unk.clone()]).unwrap();
    assert_eq!((vocab.id(b"a"), id), (Some(0), 1));
    let error = |pieces: &[ProtoPiece]| vocab_of(pieces).err().unwrap().to_string();
    assert_eq!(
        error(std::slice::from_ref(&a)),
        "the model has no unknown piece"
    );
    assert_eq!(
        error(&[unk.clone(), a.clone(), a.clone()]),
        "piece \"a\" (id 2) is defined twice"
    );
    assert_eq!(
        error(&[unk.clone(), unk.clone()]),
        "piece \"<unk>\" (id 1) is defined twice"
    );
    assert_eq!(
        error(&[unk.clone(), piece("<unk2>", PieceType::Unknown)]),
        "a second unknown piece at id 1"
    );
    assert_eq!(
        error(&[unk, piece("", PieceType::Normal)]),
        "piece 1 is empty"
    );
}
