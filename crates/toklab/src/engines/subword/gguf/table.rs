//! The two lookup tables of a GGUF vocabulary that a cache entry stores ready-made, so that a
//! second load reads them where they lie in the entry instead of hashing a quarter of a
//! million tokens or half a million merges again: [`IndexTable`], an open-addressing table of
//! indices into a list it does not copy (the token texts, the merge rules), and [`MergeRules`],
//! the merges of a BPE vocabulary by pair, one such table over the rules in rank order.

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
/// slots at most half full, each empty or an index; the keys stay in the list, so a table of a
/// quarter of a million strings is a megabyte of numbers and no copy of any string. The caller
/// hashes keys and says whether an index holds the key looked for.
#[derive(Clone, Default)]
pub struct IndexTable {
    /// `EMPTY` or an index, four bytes each; a power of two of them, or none.
    slots: Blob,
}

/// Where the probe for `hash` starts among `slots` slots (a power of two, at least 2): the top
/// bits of the hash, multiplied so that every bit of it counts.
#[inline]
fn home(hash: u64, slots: usize) -> usize {
    let mixed = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (64 - slots.trailing_zeros())) as usize
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
        let mut slots = vec![EMPTY; len];
        let mask = len - 1;
        for index in order {
            let mut at = home(hash(index), len);
            loop {
                match slots[at] {
                    EMPTY => {
                        slots[at] = index;
                        break;
                    }
                    held if same(held, index) => break,
                    _ => at = (at + 1) & mask,
                }
            }
        }
        let mut bytes = vec![0; len * 4];
        for (at, &index) in slots.iter().enumerate() {
            set_u32(&mut bytes, at, index);
        }
        IndexTable {
            slots: Blob::Owned(bytes),
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
        let mut at = home(hash, len);
        for _ in 0..len {
            match u32_in(slots, at)? {
                EMPTY => return None,
                index if is(index) => return Some(index),
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
        // One more than each slot, so an empty slot is 0 and an index past the list more
        // than `n`: the table holds when the least is 0 and the greatest at most `n` (a pass
        // without a branch per slot).
        let n = u32::try_from(n).ok()?;
        let (least, greatest) = numbers(&slots)
            .map(|slot| slot.wrapping_add(1))
            .fold((u32::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
        (least == 0 && greatest <= n).then_some(IndexTable { slots })
    }
}

/// The merge rules of a BPE vocabulary: by rank, the pair of numbers merged and the number the
/// merge makes (three 32-bit numbers a rule), and an [`IndexTable`] of the ranks by pair. The
/// first of two rules for the same pair is the one found, as in llama.cpp.
#[derive(Clone, Default)]
pub struct MergeRules {
    /// Left, right and merged, four bytes each, by rank.
    rules: Blob,
    pairs: IndexTable,
}

const RULE: usize = 3;

/// The hash of a pair's key.
#[inline]
fn pair_hash(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

impl MergeRules {
    /// The rules `(left, right, merged)`, by rank.
    pub fn new(rules: &[(u32, u32, u32)]) -> MergeRules {
        let mut bytes = vec![0; rules.len() * RULE * 4];
        for (rank, &(left, right, merged)) in rules.iter().enumerate() {
            set_u32(&mut bytes, rank * RULE, left);
            set_u32(&mut bytes, rank * RULE + 1, right);
            set_u32(&mut bytes, rank * RULE + 2, merged);
        }
        let pairs = IndexTable::build(
            rules.len(),
            0..rules.len() as u32,
            |rank| {
                let (left, right, _) = rules[rank as usize];
                pair_hash(left, right)
            },
            |a, b| {
                rules[a as usize].0 == rules[b as usize].0
                    && rules[a as usize].1 == rules[b as usize].1
            },
        );
        MergeRules {
            rules: Blob::Owned(bytes),
            pairs,
        }
    }

    /// The rank of the rule for `left` then `right` and the number it makes.
    #[inline]
    pub fn get(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        let rules: &[u8] = &self.rules;
        let rank = self.pairs.find(pair_hash(left, right), |rank| {
            let at = rank as usize * RULE;
            u32_in(rules, at) == Some(left) && u32_in(rules, at + 1) == Some(right)
        })?;
        Some((rank, u32_in(rules, rank as usize * RULE + 2)?))
    }

    /// How many rules there are.
    fn len(&self) -> usize {
        self.rules.len() / (RULE * 4)
    }

    /// Writes the rules for [`MergeRules::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.rules);
        self.pairs.write_flat(w);
    }

    /// Reads what [`MergeRules::write_flat`] wrote, in place when `r` reads an entry in place;
    /// `None` when a rule names a number at or past `bound` or the table does not fit them.
    pub fn read_flat(r: &mut FlatReader, bound: u32) -> Option<MergeRules> {
        let rules = r.blob()?;
        if rules.len() % (RULE * 4) != 0 {
            return None;
        }
        if numbers(&rules)
            .max()
            .is_some_and(|greatest| greatest >= bound)
        {
            return None;
        }
        let pairs = IndexTable::read_flat(r, rules.len() / (RULE * 4))?;
        Some(MergeRules { rules, pairs })
    }
}

impl std::fmt::Debug for MergeRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MergeRules({} rules)", self.len())
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

    #[test]
    fn merge_rules_find_the_first_rule_of_a_pair_and_read_back_in_place() {
        let rules = MergeRules::new(&[(0, 1, 5), (1, 2, 6), (0, 1, 7), (5, 2, 8)]);
        assert_eq!(rules.get(0, 1), Some((0, 5)));
        assert_eq!(rules.get(5, 2), Some((3, 8)));
        assert_eq!((rules.get(1, 0), rules.get(2, 1)), (None, None));
        assert_eq!(rules.len(), 4);
        let mut w = FlatWriter::new();
        rules.write_flat(&mut w);
        let entry = std::sync::Arc::new(w.into_bytes());
        let back = MergeRules::read_flat(&mut FlatReader::over(&entry, 0), 9).unwrap();
        assert!(matches!(back.rules, Blob::Shared(..)));
        assert_eq!(
            (back.get(1, 2), back.get(0, 1)),
            (Some((1, 6)), Some((0, 5)))
        );
        // A rule naming a number at or past the bound.
        assert!(MergeRules::read_flat(&mut FlatReader::new(&entry), 8).is_none());
    }
}
