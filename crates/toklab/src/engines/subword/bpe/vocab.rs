//! The vocabulary of a subword model: id ↔ token bytes, in one contiguous buffer so that
//! loading a 200k-entry table is a few allocations, not hundreds of thousands.

use std::hash::Hasher;

use hashbrown::HashTable;

use crate::core::model_cache::{FlatReader, FlatWriter};

/// Token bytes by id and ids by token bytes. Ids may have holes (tiktoken files leave some
/// ranks unused); a hole has no bytes.
#[derive(Clone, Default)]
pub struct Vocab {
    data: Vec<u8>,
    /// By id: offset and length into `data`; `HOLE` marks an unused id.
    entries: Vec<(u32, u32)>,
    /// Ids, hashed by their bytes, with the first bytes inline so that most lookups compare
    /// without touching `entries` or `data`.
    table: HashTable<Slot>,
    count: usize,
}

const HOLE: (u32, u32) = (u32::MAX, u32::MAX);

/// A table slot: the token's first (up to) eight bytes as a number, its length and id.
#[derive(Clone, Copy)]
struct Slot {
    head: u64,
    len: u32,
    id: u32,
}

#[inline]
fn head_of(bytes: &[u8]) -> u64 {
    let mut head = [0u8; 8];
    let n = bytes.len().min(8);
    head[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(head)
}

/// Why an entry could not be added: the loaders turn this into an error naming the line.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VocabConflict {
    /// The id already has bytes.
    IdTaken,
    /// The bytes already have another id.
    BytesTaken(u32),
}

/// Slice equality without a `memcmp` call for the short slices tokens are.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 32 {
        return a == b;
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.write_usize(bytes.len());
    hasher.finish()
}

impl Vocab {
    /// An empty vocabulary with room for `entries` tokens of `bytes` bytes in all.
    pub fn with_capacity(entries: usize, bytes: usize) -> Self {
        Vocab {
            data: Vec::with_capacity(bytes),
            entries: Vec::with_capacity(entries),
            table: HashTable::with_capacity(entries),
            count: 0,
        }
    }

    /// Adds `bytes` under `id`.
    pub fn insert(&mut self, id: u32, bytes: &[u8]) -> Result<(), VocabConflict> {
        let index = id as usize;
        if index < self.entries.len() && self.entries[index] != HOLE {
            return Err(VocabConflict::IdTaken);
        }
        let (head, len) = (head_of(bytes), bytes.len() as u32);
        let (data, entries) = (&self.data, &self.entries);
        let stored = |slot: &Slot| {
            let (offset, len) = entries[slot.id as usize];
            &data[offset as usize..(offset + len) as usize]
        };
        let entry = self.table.entry(
            hash_bytes(bytes),
            |slot| slot.len == len && slot.head == head && stored(slot) == bytes,
            |slot| hash_bytes(stored(slot)),
        );
        let vacant = match entry {
            hashbrown::hash_table::Entry::Occupied(slot) => {
                return Err(VocabConflict::BytesTaken(slot.get().id));
            }
            hashbrown::hash_table::Entry::Vacant(vacant) => vacant,
        };
        vacant.insert(Slot { head, len, id });
        if index >= self.entries.len() {
            self.entries.resize(index + 1, HOLE);
        }
        self.entries[index] = (self.data.len() as u32, len);
        self.data.extend_from_slice(bytes);
        self.count += 1;
        Ok(())
    }

    /// The id of a token, if the bytes are one.
    #[inline]
    pub fn id(&self, bytes: &[u8]) -> Option<u32> {
        let (head, len) = (head_of(bytes), bytes.len() as u32);
        self.table
            .find(hash_bytes(bytes), |slot| {
                slot.len == len
                    && slot.head == head
                    && (len <= 8 || same_bytes(&self.bytes_unchecked(slot.id)[8..], &bytes[8..]))
            })
            .map(|slot| slot.id)
    }

    #[inline]
    fn bytes_unchecked(&self, id: u32) -> &[u8] {
        let (offset, len) = self.entries[id as usize];
        &self.data[offset as usize..(offset + len) as usize]
    }

    /// The bytes of token `id`, `None` for an id outside the vocabulary.
    #[inline]
    pub fn bytes(&self, id: u32) -> Option<&[u8]> {
        match self.entries.get(id as usize) {
            Some(&entry) if entry != HOLE => Some(self.bytes_unchecked(id)),
            _ => None,
        }
    }

    /// Number of tokens (holes not counted).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether nothing was loaded (a loader reports this as an error).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// One past the largest id.
    pub fn id_bound(&self) -> u32 {
        self.entries.len() as u32
    }

    /// Every (id, bytes), ascending by id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[u8])> + '_ {
        (0..self.id_bound()).filter_map(|id| self.bytes(id).map(|b| (id, b)))
    }
}

/// The flat form of a vocabulary in a cache entry: its byte buffer and its (offset, length)
/// table as they are, so reading it back copies two arrays and rebuilds the hash table without
/// an allocation per token.
impl Vocab {
    /// Writes the vocabulary for [`Vocab::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.data);
        let entries: Vec<u32> = self.entries.iter().flat_map(|&(o, l)| [o, l]).collect();
        w.u32s(entries.iter().copied());
    }

    /// Reads what [`Vocab::write_flat`] wrote; `None` when an entry points outside the buffer
    /// or two ids have the same bytes (an entry that is not what toklab wrote).
    pub fn read_flat(r: &mut FlatReader) -> Option<Vocab> {
        let data = r.bytes()?.to_vec();
        let mut raw = r.u32_iter()?;
        if raw.len() % 2 != 0 {
            return None;
        }
        let mut entries: Vec<(u32, u32)> = Vec::with_capacity(raw.len() / 2);
        while let (Some(offset), Some(len)) = (raw.next(), raw.next()) {
            entries.push((offset, len));
        }
        let mut table = HashTable::with_capacity(entries.len());
        let stored = |id: u32| {
            let (offset, len) = entries[id as usize];
            &data[offset as usize..(offset + len) as usize]
        };
        let mut count = 0;
        for (id, &(offset, len)) in entries.iter().enumerate() {
            if (offset, len) == HOLE {
                continue;
            }
            let end = offset.checked_add(len)? as usize;
            let bytes = data.get(offset as usize..end)?;
            let head = head_of(bytes);
            let entry = table.entry(
                hash_bytes(bytes),
                |slot: &Slot| slot.len == len && slot.head == head && stored(slot.id) == bytes,
                |slot: &Slot| hash_bytes(stored(slot.id)),
            );
            match entry {
                hashbrown::hash_table::Entry::Occupied(_) => return None,
                hashbrown::hash_table::Entry::Vacant(vacant) => {
                    vacant.insert(Slot {
                        head,
                        len,
                        id: id as u32,
                    });
                }
            }
            count += 1;
        }
        Some(Vocab {
            data,
            entries,
            table,
            count,
        })
    }
}

impl std::fmt::Debug for Vocab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vocab({} tokens)", self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_look_up() {
        let mut v = Vocab::default();
        v.insert(0, b"a").unwrap();
        v.insert(5, b"ab").unwrap();
        assert_eq!(v.id(b"ab"), Some(5));
        assert_eq!(v.id(b"b"), None);
        assert_eq!(v.bytes(5), Some(&b"ab"[..]));
        assert_eq!(v.bytes(3), None);
        assert_eq!(v.bytes(99), None);
        assert_eq!(v.len(), 2);
        assert_eq!(v.id_bound(), 6);
        assert_eq!(v.insert(1, b"a"), Err(VocabConflict::BytesTaken(0)));
        assert_eq!(v.insert(5, b"x"), Err(VocabConflict::IdTaken));
        assert_eq!(v.iter().map(|(id, _)| id).collect::<Vec<_>>(), [0, 5]);
    }

    #[test]
    fn the_flat_form_reads_back_and_rejects_a_duplicate() {
        let mut v = Vocab::default();
        for (id, t) in [(0, "a"), (3, "abcdefghijkl"), (4, "b")] {
            v.insert(id, t.as_bytes()).unwrap();
        }
        let mut w = FlatWriter::new();
        v.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = Vocab::read_flat(&mut FlatReader::new(&bytes)).unwrap();
        assert_eq!(back.id(b"abcdefghijkl"), Some(3));
        assert_eq!(back.bytes(4), Some(&b"b"[..]));
        assert_eq!(back.bytes(1), None);
        assert_eq!((back.len(), back.id_bound()), (3, 5));
        // Two ids pointing at the same bytes: not an entry toklab writes.
        let mut w = FlatWriter::new();
        w.bytes(b"ab");
        w.u32s([0, 1, 0, 1].into_iter());
        let bytes = w.into_bytes();
        assert!(Vocab::read_flat(&mut FlatReader::new(&bytes)).is_none());
        // An entry past the end of the buffer.
        let mut w = FlatWriter::new();
        w.bytes(b"ab");
        w.u32s([1, 5].into_iter());
        let bytes = w.into_bytes();
        assert!(Vocab::read_flat(&mut FlatReader::new(&bytes)).is_none());
    }
}
