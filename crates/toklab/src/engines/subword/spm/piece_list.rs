//! The vocabulary of a SentencePiece model's piece list, and what makes a list unusable.

use super::proto::{PieceType, ProtoPiece};
use crate::engines::subword::bpe::vocab::Vocab;

/// What makes a model's piece list unusable as a vocabulary; the loader names the file.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum PieceError {
    /// A piece with no text, which would match nothing.
    #[error("piece {0} is empty")]
    Empty(usize),
    /// A piece listed twice: its id would be ambiguous.
    #[error("piece {piece:?} (id {id}) is defined twice")]
    Twice { piece: String, id: usize },
    /// A second piece of type unknown: there must be exactly one.
    #[error("a second unknown piece at id {0}")]
    SecondUnknown(usize),
    /// No piece of type unknown, so text outside the vocabulary has no id.
    #[error("the model has no unknown piece")]
    NoUnknown,
}

/// The vocabulary of the model's pieces and the id of its one unknown piece; the error says
/// which piece is empty, doubled, or a second unknown.
pub(super) fn vocab_of(pieces: &[ProtoPiece]) -> std::result::Result<(Vocab, u32), PieceError> {
    let mut vocab = Vocab::with_capacity(pieces.len(), pieces.len() * 6);
    let mut unk = None;
    for (id, piece) in pieces.iter().enumerate() {
        if piece.piece.is_empty() {
            return Err(PieceError::Empty(id));
        }
        vocab
            .insert(id as u32, piece.piece.as_bytes())
            .map_err(|_| PieceError::Twice {
                piece: piece.piece.clone(),
                id,
            })?;
        if piece.kind == PieceType::Unknown {
            if unk.is_some() {
                return Err(PieceError::SecondUnknown(id));
            }
            unk = Some(id as u32);
        }
    }
    let unk = unk.ok_or(PieceError::NoUnknown)?;
    Ok((vocab, unk))
}
