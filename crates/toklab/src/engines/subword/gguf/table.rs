//! [`IndexTable`], an open-addressing table of indices into a list it does not copy, which a
//! cache entry stores ready-made: a second load of a GGUF vocabulary reads its ids by token
//! text where they lie in the entry instead of hashing a quarter of a million tokens again.

use crate::core::model_cache::{Blob, FlatReader, FlatWriter, set_u32, u32_in};

/// A slot holding no index.
const EMPTY: u32 = u32::MAX;

/// The 32-bit numbers of `bytes`, in order.
#[inline]
fn numbers(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|n| u32::from_le_bytes([n[0], n[1], n[2], n[3]]))
}

/// Indices of a list by a key of its entries: linear probing over a power of two of 32-bit
/// slots at most half full, each empty or an index with, in the bits an index of the list
/// never needs, a tag of its key's hash; the keys stay in the list, so a table of a quarter of
/// a million strings is a megabyte of numbers and no copy of any string, and a probe passes
/// over most slots of other keys by their tag without reading the list. The caller hashes
/// keys and says whether an index holds the key looked for.
#[derive(Clone, Default)]
pub struct IndexTable {
    /// `EMPTY`, or an index and its key's tag, four bytes each; a power of two of them, or none.
    slots: Blob,
    /// The bits of a slot that hold the index: an index of the list is less than this, which
    /// is never all of its bits, so no full slot is `EMPTY`.
    index: u32,
}

/// The bits that hold the indices of a list of `n`: the fewest that leave `n` below all of
/// them set.
fn index_bits(n: usize) -> Option<u32> {
    let bits = (n as u64 + 1).next_power_of_two().trailing_zeros();
    (bits <= 32).then(|| u32::MAX.checked_shr(32 - bits).unwrap_or(0))
}

/// Where the probe for `hash` starts among `slots` slots (a power of two, at least 2), and
/// the tag of the key, in the bits of a slot above `index`: both from one multiplication that
/// makes every bit of the hash count, the start from its top bits, the tag from the ones below.
#[inline]
fn home_and_tag(hash: u64, slots: usize, index: u32) -> (usize, u32) {
    let mixed = (hash ^ (hash >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let home = (mixed >> (64 - slots.trailing_zeros())) as usize;
    (home, (mixed >> 32) as u32 & !index)
}

impl IndexTable {
    /// Indexes the entries `order` names, of a list of `n`: `hash` gives an entry's key's hash
    /// and `same` whether two entries have the same key; of entries with the same key, the
    /// first `order` names is the one found.
    pub fn build(
        n: usize,
        order: impl Iterator<Item = u32>,
        hash: impl Fn(u32) -> u64,
        same: impl Fn(u32, u32) -> bool,
    ) -> IndexTable {
        let len = (n * 2).next_power_of_two().max(2);
        let index = index_bits(n).unwrap_or(u32::MAX);
        let mut slots = vec![EMPTY; len];
        let mask = len - 1;
        for id in order {
            let (mut at, tag) = home_and_tag(hash(id), len, index);
            loop {
                match slots[at] {
                    EMPTY => {
                        slots[at] = id | tag;
                        break;
                    }
                    held if held & !index == tag && same(held & index, id) => break,
                    _ => at = (at + 1) & mask,
                }
            }
        }
        let mut bytes = vec![0; len * 4];
        for (at, &slot) in slots.iter().enumerate() {
            set_u32(&mut bytes, at, slot);
        }
        IndexTable {
            slots: Blob::Owned(bytes),
            index,
        }
    }

    /// The index whose entry has the key of `hash` that `is` recognises. Every probe ends: the
    /// table always has an empty slot, and a walk is bounded by its length besides.
    #[inline]
    pub fn find(&self, hash: u64, is: impl Fn(u32) -> bool) -> Option<u32> {
        let slots: &[u8] = &self.slots;
        let len = slots.len() / 4;
        if len < 2 {
            return None;
        }
        let (mut at, tag) = home_and_tag(hash, len, self.index);
        for _ in 0..len {
            match u32_in(slots, at)? {
                EMPTY => return None,
                slot if slot & !self.index == tag && is(slot & self.index) => {
                    return Some(slot & self.index);
                }
                _ => at = (at + 1) & (len - 1),
            }
        }
        None
    }

    /// Writes the table for [`IndexTable::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.slots);
    }

    /// Reads what [`IndexTable::write_flat`] wrote for a list of `n`, in place when `r` reads
    /// an entry in place; `None` when it cannot be such a table (not a power of two of slots,
    /// no empty slot, an index at or past `n`), so a lookup never reads past the list.
    pub fn read_flat(r: &mut FlatReader, n: usize) -> Option<IndexTable> {
        let slots = r.blob()?;
        let len = slots.len() / 4;
        if slots.len() % 4 != 0 || len < 2 || !len.is_power_of_two() {
            return None;
        }
        let index = index_bits(n)?;
        // An empty slot as 0, a full one as one more than its index: the table holds when the
        // least is 0 and the greatest at most `n` (a pass without a branch per slot).
        let n = u32::try_from(n).ok()?;
        let (least, greatest) = numbers(&slots)
            .map(|slot| match slot {
                EMPTY => 0,
                _ => (slot & index) + 1,
            })
            .fold((u32::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
        (least == 0 && greatest <= n).then_some(IndexTable { slots, index })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_table_finds_the_first_of_equal_keys_and_nothing_else() {
        let keys = [7u64, 9, 7, 12, 9];
        let table = IndexTable::build(
            keys.len(),
            0..keys.len() as u32,
            |i| keys[i as usize],
            |a, b| keys[a as usize] == keys[b as usize],
        );
        let find = |key: u64| table.find(key, |i| keys[i as usize] == key);
        assert_eq!(
            (find(7), find(9), find(12), find(8)),
            (Some(0), Some(1), Some(3), None)
        );
        assert_eq!(IndexTable::default().find(7, |_| true), None);
        // Enough keys for long probes, the tags beside the indices telling most apart.
        let keys: Vec<u64> = (0..5000u64).map(|k| k * 0x1_0000_0001).collect();
        let table = IndexTable::build(
            keys.len(),
            0..keys.len() as u32,
            |i| keys[i as usize],
            |a, b| keys[a as usize] == keys[b as usize],
        );
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(table.find(key, |j| keys[j as usize] == key), Some(i as u32));
        }
        assert_eq!(table.find(3, |j| keys[j as usize] == 3), None);
    }

    #[test]
    fn an_index_table_reads_back_and_refuses_one_that_cannot_be_its_lists() {
        let table = IndexTable::build(3, 0..3, u64::from, |a, b| a == b);
        let mut w = FlatWriter::new();
        table.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = IndexTable::read_flat(&mut FlatReader::new(&bytes), 3).unwrap();
        assert_eq!(back.find(2, |i| i == 2), Some(2));
        // An index past the list's end.
        assert!(IndexTable::read_flat(&mut FlatReader::new(&bytes), 2).is_none());
        for slots in [vec![0, EMPTY, 1], vec![0, 1, 2, 0], vec![EMPTY]] {
            let mut raw = vec![0; slots.len() * 4];
            for (at, &s) in slots.iter().enumerate() {
                set_u32(&mut raw, at, s);
            }
            let mut w = FlatWriter::new();
            w.bytes(&raw);
            let bytes = w.into_bytes();
            assert!(IndexTable::read_flat(&mut FlatReader::new(&bytes), 3).is_none());
        }
    }
}
