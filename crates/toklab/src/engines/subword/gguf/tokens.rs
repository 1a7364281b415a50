//! The token texts of a GGUF vocabulary and their ids by text, as one buffer of bytes, the end
//! of each token in it and an [`IndexTable`] of the ids, built once when the file is parsed and
//! read back from a cache entry where they lie: a second load of a vocabulary of a quarter of a
//! million tokens makes no string and hashes none.

use super::table::IndexTable;
use crate::core::model_cache::{Blob, FlatReader, FlatWriter, u32_in};
use crate::engines::subword::bpe::vocab::hash_bytes;

/// Token texts by id, and ids by text (a text listed twice is its last id, as in llama.cpp).
#[derive(Clone, Default)]
pub struct Tokens {
    /// The texts, one after another; UTF-8, each token starting at a character.
    bytes: Blob,
    /// By id, where its text ends in `bytes` (four bytes each, never decreasing).
    ends: Blob,
    ids: IndexTable,
    /// The length of the longest token, in bytes.
    max_len: usize,
}

impl Tokens {
    /// The tokens `texts`, by id.
    pub fn new(texts: impl IntoIterator<Item = impl AsRef<str>>) -> Tokens {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for text in texts {
            bytes.extend_from_slice(text.as_ref().as_bytes());
            ends.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        }
        let mut tokens = Tokens {
            bytes: Blob::Owned(bytes),
            ends: Blob::Owned(ends),
            ids: IndexTable::default(),
            max_len: 0,
        };
        tokens.max_len = tokens.iter().map(<[u8]>::len).max().unwrap_or(0);
        let n = tokens.len();
        tokens.ids = IndexTable::build(
            n,
            (0..n as u32).rev(),
            |id| hash_bytes(tokens.bytes(id)),
            |a, b| tokens.bytes(a) == tokens.bytes(b),
        );
        tokens
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.ends.len() / 4
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text of token `id` as bytes (none for an id past the end).
    #[inline]
    pub fn bytes(&self, id: u32) -> &[u8] {
        let (id, ends) = (id as usize, &*self.ends);
        let start = match id {
            0 => Some(0),
            _ => u32_in(ends, id - 1),
        };
        match (start, u32_in(ends, id)) {
            (Some(start), Some(end)) => self.bytes.get(start as usize..end as usize),
            _ => None,
        }
        .unwrap_or_default()
    }

    /// The text of token `id` (empty for an id past the end). Tokens are UTF-8 when made, and
    /// an entry's are the bytes written from them, which its hash vouches for; each is checked
    /// as it is read rather than the whole buffer on every load (a text that were not UTF-8
    /// would read as empty, never a panic).
    pub fn text(&self, id: u32) -> &str {
        std::str::from_utf8(self.bytes(id)).unwrap_or_default()
    }

    /// The id of the token with text `text`.
    #[inline]
    pub fn id(&self, text: &[u8]) -> Option<u32> {
        self.ids.find(hash_bytes(text), |id| self.bytes(id) == text)
    }

    /// Every token's text as bytes, by id.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.len() as u32).map(|id| self.bytes(id))
    }

    /// The length of the longest token, in bytes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Writes the tokens for [`Tokens::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.bytes);
        w.bytes(&self.ends);
        self.ids.write_flat(w);
    }

    /// Reads what [`Tokens::write_flat`] wrote, in place when `r` reads an entry in place;
    /// `None` when the ends do not cut the buffer into tokens that start at characters (an end
    /// that goes back, past the buffer or short of its end, or inside a character) or the ids
    /// do not fit them.
    pub fn read_flat(r: &mut FlatReader) -> Option<Tokens> {
        let bytes = r.blob()?;
        let ends = r.blob()?;
        if ends.len() % 4 != 0 {
            return None;
        }
        let n = ends.len() / 4;
        let (mut start, mut max_len) = (0, 0);
        let text: &[u8] = &bytes;
        for end in ends.chunks_exact(4) {
            let end = u32::from_le_bytes([end[0], end[1], end[2], end[3]]) as usize;
            let inside = text.get(end).is_some_and(|&b| b & 0xC0 == 0x80);
            if end < start || end > text.len() || inside {
                return None;
            }
            max_len = max_len.max(end - start);
            start = end;
        }
        if start != text.len() {
            return None;
        }
        let ids = IndexTable::read_flat(r, n)?;
        Some(Tokens {
            bytes,
            ends,
            ids,
            max_len,
        })
    }
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tokens({} tokens)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model_cache::set_u32;

    /// The ends of tokens of `lengths`, four bytes each, for a buffer made by hand.
    fn ends_of(lengths: &[u32]) -> Vec<u8> {
        let mut ends = vec![0; lengths.len() * 4];
        let mut end = 0;
        for (id, &len) in lengths.iter().enumerate() {
            end += len;
            set_u32(&mut ends, id, end);
        }
        ends
    }

    #[test]
    fn tokens_find_the_last_id_of_each_text_and_nothing_else() {
        let tokens = Tokens::new(["a", "ab", "", "a", "▁b"]);
        assert_eq!(tokens.id(b"a"), Some(3));
        assert_eq!(tokens.id(b"ab"), Some(1));
        assert_eq!(tokens.id(b""), Some(2));
        assert_eq!(tokens.id("▁b".as_bytes()), Some(4));
        assert_eq!(tokens.id(b"b"), None);
        assert_eq!(
            (tokens.text(4), tokens.text(1), tokens.text(5)),
            ("▁b", "ab", "")
        );
        assert_eq!((tokens.len(), tokens.max_len()), (5, 4));
        assert_eq!(Tokens::default().id(b"a"), None);
    }

    #[test]
    fn tokens_read_back_in_place_and_refuse_ends_that_do_not_cut_the_buffer() {
        let tokens = Tokens::new(["x", "ÿz", "z"]);
        let mut w = FlatWriter::new();
        tokens.write_flat(&mut w);
        let entry = std::sync::Arc::new(w.into_bytes());
        let back = Tokens::read_flat(&mut FlatReader::over(&entry, 0)).unwrap();
        assert!(matches!(back.bytes, Blob::Shared(..)));
        assert_eq!((back.id("ÿz".as_bytes()), back.text(2)), (Some(1), "z"));
        let ids = {
            let mut w = FlatWriter::new();
            tokens.ids.write_flat(&mut w);
            w.into_bytes()
        };
        let made = |lengths: &[u32]| {
            let mut w = FlatWriter::new();
            w.bytes("xÿzz".as_bytes());
            w.bytes(&ends_of(lengths));
            let mut bytes = w.into_bytes();
            bytes.extend_from_slice(&ids);
            Tokens::read_flat(&mut FlatReader::new(&bytes))
        };
        assert!(made(&[1, 3, 1]).is_some());
        // Inside `ÿ`, short of the end, past it.
        assert!(made(&[2, 2, 1]).is_none());
        assert!(made(&[1, 3, 0]).is_none());
        assert!(made(&[1, 3, 2]).is_none());
        // Two tokens for the three ids the table names.
        assert!(made(&[1, 4]).is_none());
    }
}
