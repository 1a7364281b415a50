//! A SentencePiece model's pieces by id: their texts in one buffer with the offset where each
//! ends, their types and their scores in arrays. Read back from the model cache they are views
//! of the entry, so a second load of a model of 262,144 pieces allocates no string per piece:
//! the 3.6 MB of text is checked as UTF-8 once, in one call.

use super::proto::{PieceType, ProtoPiece};
use crate::core::model_cache::{Blob, FlatReader, FlatWriter, u32_in};

/// The types in the order their numbers are stored.
const PIECE_TYPES: [PieceType; 6] = [
    PieceType::Normal,
    PieceType::Unknown,
    PieceType::Control,
    PieceType::UserDefined,
    PieceType::Unused,
    PieceType::Byte,
];

/// One piece, borrowed from [`Pieces`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece<'a> {
    /// The piece's text, with `▁` for a space.
    pub piece: &'a str,
    /// Its score: the log probability (unigram) or the merge priority (BPE).
    pub score: f32,
    /// How encoding treats it.
    pub kind: PieceType,
}

/// The pieces of a model, by id.
#[derive(Clone, Default)]
pub struct Pieces {
    /// The texts one after another.
    texts: Blob,
    /// By id, where its text ends in `texts` (32 bits); it starts where the one before ends.
    ends: Blob,
    /// By id, its type's index in [`PIECE_TYPES`].
    kinds: Blob,
    /// By id, the bits of its score.
    scores: Blob,
}

impl std::fmt::Debug for Pieces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pieces({})", self.len())
    }
}

impl From<&[ProtoPiece]> for Pieces {
    fn from(pieces: &[ProtoPiece]) -> Pieces {
        let mut texts = Vec::new();
        let mut ends = Vec::with_capacity(pieces.len() * 4);
        for p in pieces {
            texts.extend_from_slice(p.piece.as_bytes());
            ends.extend_from_slice(&(texts.len() as u32).to_le_bytes());
        }
        let kind = |p: &ProtoPiece| PIECE_TYPES.iter().position(|k| *k == p.kind).unwrap_or(0);
        Pieces {
            texts: Blob::Owned(texts),
            ends: Blob::Owned(ends),
            kinds: Blob::Owned(pieces.iter().map(|p| kind(p) as u8).collect()),
            scores: Blob::Owned(pieces.iter().flat_map(|p| p.score.to_le_bytes()).collect()),
        }
    }
}

impl Pieces {
    /// How many pieces there are.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The bytes of piece `id`'s text (empty past the last).
    pub fn bytes(&self, id: usize) -> &[u8] {
        let start = match id {
            0 => Some(0),
            _ => u32_in(&self.ends, id - 1),
        };
        let range = start.zip(u32_in(&self.ends, id));
        range
            .and_then(|(start, end)| self.texts.get(start as usize..end as usize))
            .unwrap_or_default()
    }

    /// Piece `id`'s text; empty past the last, or for bytes that are not UTF-8 (an entry
    /// that is not what toklab wrote).
    pub fn text(&self, id: usize) -> &str {
        std::str::from_utf8(self.bytes(id)).unwrap_or_default()
    }

    /// Piece `id`'s type (`Normal` past the last, which no caller asks for).
    pub fn kind(&self, id: usize) -> PieceType {
        let index = self.kinds.get(id).copied().unwrap_or(0);
        PIECE_TYPES[usize::from(index) % PIECE_TYPES.len()]
    }

    /// Piece `id`'s score.
    pub fn score(&self, id: usize) -> f32 {
        f32::from_bits(u32_in(&self.scores, id).unwrap_or(0))
    }

    /// Piece `id`, if there is one.
    pub fn get(&self, id: usize) -> Option<Piece<'_>> {
        (id < self.len()).then(|| Piece {
            piece: self.text(id),
            score: self.score(id),
            kind: self.kind(id),
        })
    }

    /// The ids of the pieces of type `kind`, in order: only the types are read, so a load
    /// looking for its few user-defined pieces does not check every text.
    pub fn ids_of(&self, kind: PieceType) -> impl Iterator<Item = usize> + '_ {
        let index = PIECE_TYPES.iter().position(|k| *k == kind);
        self.kinds
            .iter()
            .enumerate()
            .filter(move |(_, k)| Some(usize::from(**k)) == index)
            .map(|(id, _)| id)
    }

    /// Every piece, by id.
    pub fn iter(&self) -> impl Iterator<Item = Piece<'_>> + '_ {
        (0..self.len()).filter_map(|id| self.get(id))
    }

    /// Writes the pieces for [`Pieces::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        for blob in [&self.texts, &self.ends, &self.kinds, &self.scores] {
            w.bytes(blob);
        }
    }

    /// Reads what [`Pieces::write_flat`] wrote, as views of the entry; `None` when the arrays
    /// disagree on the count, the texts are not UTF-8, an end goes back, past the texts or
    /// inside a character, or a type is unknown.
    pub fn read_flat(r: &mut FlatReader) -> Option<Pieces> {
        let pieces = Pieces {
            texts: r.blob()?,
            ends: r.blob()?,
            kinds: r.blob()?,
            scores: r.blob()?,
        };
        let count = pieces.kinds.len();
        if pieces.ends.len() != count * 4 || pieces.scores.len() != count * 4 {
            return None;
        }
        // One check of all the text (a few milliseconds), each end on a character boundary:
        // an entry that passed the hash yet is not what toklab wrote is refused, not read
        // with pieces gone empty.
        let texts = std::str::from_utf8(&pieces.texts).ok()?;
        let mut at = 0u32;
        for end in pieces.ends.chunks_exact(4) {
            let end = u32::from_le_bytes([end[0], end[1], end[2], end[3]]);
            (end >= at && texts.is_char_boundary(end as usize)).then_some(())?;
            at = end;
        }
        let known = pieces
            .kinds
            .iter()
            .all(|&k| usize::from(k) < PIECE_TYPES.len());
        (known && at as usize == pieces.texts.len()).then_some(pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proto(piece: &str, score: f32, kind: PieceType) -> ProtoPiece {
        ProtoPiece {
            piece: piece.to_string(),
            score,
            kind,
        }
    }

    #[test]
    fn pieces_read_back_as_they_were_and_damaged_arrays_are_none() {
        let list = [
            proto("<unk>", 0.0, PieceType::Unknown),
            proto("▁語", -1.5, PieceType::Normal),
            proto("<0x41>", 0.0, PieceType::Byte),
            proto("ab", -2.25, PieceType::UserDefined),
        ];
        let pieces = Pieces::from(&list[..]);
        let mut w = FlatWriter::new();
        pieces.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = Pieces::read_flat(&mut FlatReader::new(&bytes)).unwrap();
        for read in [&pieces, &back] {
            assert_eq!(read.len(), 4);
            let got: Vec<(String, f32, PieceType)> = read
                .iter()
                .map(|p| (p.piece.to_string(), p.score, p.kind))
                .collect();
            let want: Vec<(String, f32, PieceType)> = list
                .iter()
                .map(|p| (p.piece.clone(), p.score, p.kind))
                .collect();
            assert_eq!(got, want);
            assert_eq!(
                (read.get(4), read.text(9), read.bytes(4)),
                (None, "", &b""[..])
            );
            assert_eq!(read.ids_of(PieceType::Byte).collect::<Vec<_>>(), [2]);
            assert_eq!(read.ids_of(PieceType::Control).count(), 0);
        }
        let read = |bytes: &[u8]| Pieces::read_flat(&mut FlatReader::new(bytes));
        // An unknown type, an end past the texts, an end going back: none is a piece list.
        let kinds_at = bytes.len() - 16 - 8 - 4;
        for (at, value) in [(kinds_at, 6u8), (bytes.len() - 16 - 8 - 4 - 8 - 1, 200)] {
            let mut changed = bytes.clone();
            changed[at] = value;
            assert!(read(&changed).is_none(), "byte {at} set to {value}");
        }
        let ends_at = 8 + pieces.texts.len() + 8;
        let mut back_end = bytes.clone();
        back_end[ends_at + 4] = 0;
        assert!(read(&back_end).is_none());
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        // Text that is not UTF-8, or an end inside `語`: refused.
        let mut bad = bytes.clone();
        bad[8 + 5 + 1] = 0xff;
        assert!(read(&bad).is_none());
        let mut inside = bytes.clone();
        inside[ends_at + 4] -= 1;
        assert!(read(&inside).is_none());
    }
}
