//! The vocabulary of a subword model: id ↔ token bytes, in one contiguous buffer and flat
//! arrays, so that loading a 200k-entry table is a few allocations, not hundreds of thousands,
//! and a vocabulary read from the model cache is used where it lies in the entry.

use std::hash::Hasher;

use super::probe::{self, Probe, slots_for};
use crate::core::model_cache::{Blob, FlatReader, FlatWriter, set_u32, set_u64, u32_in, u64_in};

/// Token bytes by id and ids by token bytes. Ids may have holes (tiktoken files leave some
/// ranks unused); a hole has no bytes.
///
/// The ids by bytes are an open-addressing table (linear probing, a power of two of slots, at
/// most three quarters full) of 16-byte slots: the token's first eight bytes, its length and
/// its id, so most lookups compare without touching the token's bytes; beside them one tag byte
/// per slot (see [`super::probe`]), probed first, so a miss seldom reads a slot. The table is
/// made once, when the file is parsed; a cached load reads it back as it is.
#[derive(Clone, Default)]
pub struct Vocab {
    /// The tokens' bytes, one after another.
    data: Blob,
    /// By id: offset and length into `data` (two 32-bit numbers); `HOLE` marks an unused id.
    entries: Blob,
    /// The slots: head (64 bits), length and id (32 bits each).
    table: Blob,
    /// One tag per slot; an empty slot's is `probe::EMPTY`.
    tags: Blob,
    count: usize,
}

const HOLE: u32 = u32::MAX;
const SLOT: usize = 16;

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

/// One slot of a table: head, length and id.
#[inline]
fn slot(table: &[u8], index: usize) -> Option<(u64, u32, u32)> {
    Some((
        u64_in(table, index * 2)?,
        u32_in(table, index * 4 + 2)?,
        u32_in(table, index * 4 + 3)?,
    ))
}

impl Vocab {
    /// An empty vocabulary with room for `entries` tokens of `bytes` bytes in all.
    pub fn with_capacity(entries: usize, bytes: usize) -> Self {
        Vocab {
            data: Blob::Owned(Vec::with_capacity(bytes)),
            entries: Blob::Owned(Vec::with_capacity(entries * 8)),
            table: Blob::Owned(vec![0; slots_for(entries) * SLOT]),
            tags: Blob::Owned(vec![probe::EMPTY; slots_for(entries)]),
            count: 0,
        }
    }

    /// Adds `bytes` under `id`.
    pub fn insert(&mut self, id: u32, bytes: &[u8]) -> Result<(), VocabConflict> {
        let index = id as usize;
        if self.bytes(id).is_some() {
            return Err(VocabConflict::IdTaken);
        }
        if let Some(taken) = self.id(bytes) {
            return Err(VocabConflict::BytesTaken(taken));
        }
        if (self.count + 1) * 4 > self.slots() * 3 {
            self.rehash(slots_for(self.count + 1) * 2);
        }
        let offset = self.data.len() as u32;
        self.data.to_mut().extend_from_slice(bytes);
        let entries = self.entries.to_mut();
        if entries.len() < (index + 1) * 8 {
            entries.resize((index + 1) * 8, 0xFF);
        }
        set_u32(entries, index * 2, offset);
        set_u32(entries, index * 2 + 1, bytes.len() as u32);
        place(self.table.to_mut(), self.tags.to_mut(), bytes, id);
        self.count += 1;
        Ok(())
    }

    fn slots(&self) -> usize {
        self.tags.len()
    }

    /// Makes the table again with `slots` slots.
    fn rehash(&mut self, slots: usize) {
        let mut table = vec![0; slots * SLOT];
        let mut tags = vec![probe::EMPTY; slots];
        for id in 0..self.id_bound() {
            if let Some(bytes) = self.bytes(id) {
                place(&mut table, &mut tags, bytes, id);
            }
        }
        self.table = Blob::Owned(table);
        self.tags = Blob::Owned(tags);
    }

    /// The id of a token, if the bytes are one.
    #[inline]
    pub fn id(&self, bytes: &[u8]) -> Option<u32> {
        let table = &*self.table;
        let (head, len) = (head_of(bytes), bytes.len() as u32);
        for at in Probe::new(&self.tags, hash_bytes(bytes)) {
            let (slot_head, slot_len, id) = slot(table, at)?;
            if slot_len == len
                && slot_head == head
                && (len <= 8 || same_bytes(self.bytes(id)?.get(8..)?, &bytes[8..]))
            {
                return Some(id);
            }
        }
        None
    }

    /// The bytes of token `id`, `None` for an id outside the vocabulary.
    #[inline]
    pub fn bytes(&self, id: u32) -> Option<&[u8]> {
        let offset = self.entries.u32_at(id as usize * 2)?;
        let len = self.entries.u32_at(id as usize * 2 + 1)?;
        if offset == HOLE {
            return None;
        }
        self.data
            .get(offset as usize..(offset as usize).checked_add(len as usize)?)
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
        (self.entries.len() / 8) as u32
    }

    /// Every (id, bytes), ascending by id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[u8])> + '_ {
        (0..self.id_bound()).filter_map(|id| self.bytes(id).map(|b| (id, b)))
    }
}

/// Puts `id` in the first empty slot of its probe (the table has one: it is never full).
fn place(table: &mut [u8], tags: &mut [u8], bytes: &[u8], id: u32) {
    let hash = hash_bytes(bytes);
    if let Some(at) = probe::free_slot(tags, hash) {
        tags[at] = probe::tag(hash);
        set_u64(table, at * 2, head_of(bytes));
        set_u32(table, at * 4 + 2, bytes.len() as u32);
        set_u32(table, at * 4 + 3, id);
    }
}

/// The flat form of a vocabulary in a cache entry: its byte buffer, its (offset, length)
/// array and its table as they are, read back as views of the entry.
impl Vocab {
    /// Writes the vocabulary for [`Vocab::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.data);
        w.bytes(&self.entries);
        w.bytes(&self.table);
        w.bytes(&self.tags);
    }

    /// Reads what [`Vocab::write_flat`] wrote; `None` when an entry points outside the buffer
    /// or a slot at an id without those bytes' length (an entry that is not what toklab wrote).
    /// Every id of the table is checked; the table itself is not hashed again.
    pub fn read_flat(r: &mut FlatReader) -> Option<Vocab> {
        let data = r.blob()?;
        let entries = r.blob()?;
        let table = r.blob()?;
        let tags = r.blob()?;
        let slots = tags.len();
        if entries.len() % 8 != 0
            || table.len() != slots * SLOT
            || !slots.is_power_of_two()
            || entries.len() / 8 >= u32::MAX as usize
        {
            return None;
        }
        let vocab = Vocab {
            data,
            entries,
            table,
            tags,
            count: 0,
        };
        let data_len = vocab.data.len() as u64;
        let mut held = 0;
        for entry in vocab.entries.chunks_exact(8) {
            let offset = u32_in(entry, 0)?;
            if offset != HOLE {
                let end = u64::from(offset) + u64::from(u32_in(entry, 1)?);
                (end <= data_len).then_some(())?;
                held += 1;
            }
        }
        let mut count = 0;
        for (slot, &tag) in vocab.table.chunks_exact(SLOT).zip(vocab.tags.iter()) {
            let (len, id) = (u32_in(slot, 2)?, u32_in(slot, 3)?);
            if tag != probe::EMPTY {
                let entry = id as usize * 2;
                let ok = u32_in(&vocab.entries, entry).is_some_and(|o| o != HOLE)
                    && u32_in(&vocab.entries, entry + 1) == Some(len);
                ok.then_some(())?;
                count += 1;
            }
        }
        // Every token in the table once, and an empty slot to end every probe.
        (count == held && count < slots).then_some(Vocab { count, ..vocab })
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
    fn the_flat_form_reads_back_and_rejects_a_damaged_one() {
        let mut v = Vocab::default();
        for (id, t) in [(0, "a"), (3, "abcdefghijkl"), (4, "b")] {
            v.insert(id, t.as_bytes()).unwrap();
        }
        let mut w = FlatWriter::new();
        v.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = Vocab::read_flat(&mut FlatReader::new(&bytes)).unwrap();
        assert_eq!(back.id(b"abcdefghijkl"), Some(3));
        assert_eq!(back.id(b"abcdefghijkx"), None);
        assert_eq!(back.bytes(4), Some(&b"b"[..]));
        assert_eq!(back.bytes(1), None);
        assert_eq!((back.len(), back.id_bound()), (3, 5));
        // An entry past the end of the buffer.
        let mut w = FlatWriter::new();
        w.bytes(b"ab");
        w.bytes(&[1, 0, 0, 0, 5, 0, 0, 0]);
        w.bytes(&[0; 8 * SLOT]);
        w.bytes(&[probe::EMPTY; 8]);
        let bytes = w.into_bytes();
        assert!(Vocab::read_flat(&mut FlatReader::new(&bytes)).is_none());
        // A slot naming an id that has no bytes.
        let (mut table, mut tags) = ([0; 8 * SLOT], [probe::EMPTY; 8]);
        place(&mut table, &mut tags, b"ab", 7);
        let mut w = FlatWriter::new();
        w.bytes(b"ab");
        w.bytes(&[0, 0, 0, 0, 2, 0, 0, 0]);
        w.bytes(&table);
        w.bytes(&tags);
        let bytes = w.into_bytes();
        assert!(Vocab::read_flat(&mut FlatReader::new(&bytes)).is_none());
    }

    #[test]
    fn a_vocabulary_read_from_an_entry_is_a_view_of_it_not_a_copy() {
        let mut v = Vocab::default();
        for (id, t) in ["x", "yz", "a longer token"].iter().enumerate() {
            v.insert(id as u32, t.as_bytes()).unwrap();
        }
        let mut w = FlatWriter::new();
        v.write_flat(&mut w);
        let entry = std::sync::Arc::new(w.into_bytes());
        let back = Vocab::read_flat(&mut FlatReader::over(&entry, 0)).unwrap();
        for blob in [&back.data, &back.entries, &back.table, &back.tags] {
            assert!(matches!(blob, Blob::Shared(..)));
        }
        assert_eq!(back.id(b"a longer token"), Some(2));
        assert_eq!(back.id(b"yz"), Some(1));
        // A change after a cached load copies the views first and leaves the entry alone.
        let mut changed = back.clone();
        changed.insert(3, b"new").unwrap();
        assert_eq!((changed.id(b"new"), back.id(b"new")), (Some(3), None));
    }

    #[test]
    fn the_table_grows_and_finds_every_token() {
        let mut v = Vocab::with_capacity(2, 4);
        let tokens: Vec<String> = (0..5000).map(|i| format!("t{i}-{}", i % 7)).collect();
        for (id, t) in tokens.iter().enumerate() {
            v.insert(id as u32 * 2, t.as_bytes()).unwrap();
        }
        for (id, t) in tokens.iter().enumerate() {
            assert_eq!(v.id(t.as_bytes()), Some(id as u32 * 2), "{t}");
        }
        assert_eq!(v.id(b"t5000-2"), None);
        assert_eq!(v.iter().count(), 5000);
    }
}
