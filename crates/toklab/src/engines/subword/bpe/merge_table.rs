//! The merge rules of a BPE model as a table from an adjacent pair of token ids to the rule's
//! rank and the token it makes. Merge-list formats (GPT-2, HuggingFace) give the rules in
//! order; rank-only formats (tiktoken, SentencePiece) define a rule for every split of a token
//! into two tokens, ranked by the token's own rank — both end up in the same table.

use super::probe::{self, Probe, slots_for};
use super::vocab::Vocab;
use crate::core::model_cache::{Blob, FlatReader, FlatWriter, set_u32, set_u64, u32_in, u64_in};

/// What applying a rule to a pair gives: its priority (lower merges first) and the new token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merge {
    /// Lower merges first; equal ranks merge leftmost first.
    pub rank: u32,
    /// The token the pair becomes.
    pub merged: u32,
}

/// One rule, for listing and analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MergeRule {
    /// Priority: lower merges first.
    pub rank: u32,
    /// Id of the left token.
    pub left: u32,
    /// Id of the right token.
    pub right: u32,
    /// Id of the token the pair becomes.
    pub merged: u32,
}

/// Pair → rule, plus for each token the lowest rank of a rule that makes it.
///
/// The pairs are an open-addressing table (linear probing, a power of two of slots, at most
/// three quarters full; a table of the size the loader asked for is 38-75% full) of 16-byte
/// slots: the pair as one 64-bit key, the rank and the merged token; beside them one tag byte
/// per slot (see [`super::probe`]), probed first, since most pairs an encoder asks about have
/// no rule. It is made once, when the file is parsed; a cached load reads it back where it
/// lies in the entry.
#[derive(Clone, Default)]
pub struct MergeTable {
    /// The slots; an empty one's tag is `probe::EMPTY`.
    slots: Blob,
    /// One tag per slot.
    tags: Blob,
    len: usize,
    /// By token: the lowest rank of a rule making it, `u32::MAX` for none.
    made_by: Blob,
}

const SLOT: usize = 16;

#[inline]
fn key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// The hash of a pair's key: Fibonacci hashing, whose top bits are the best mixed.
#[inline]
fn hash(key: u64) -> u64 {
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The slot of `key` in a table, if it is there.
#[inline]
fn find(slots: &[u8], tags: &[u8], key: u64) -> Option<usize> {
    Probe::new(tags, hash(key)).find(|&at| u64_in(slots, at * 2) == Some(key))
}

impl MergeTable {
    /// An empty table with room for `rules` rules, for loaders that know the count.
    pub fn with_capacity(rules: usize) -> Self {
        let slots = slots_for(rules);
        MergeTable {
            slots: Blob::Owned(vec![0; slots * SLOT]),
            tags: Blob::Owned(vec![probe::EMPTY; slots]),
            len: 0,
            made_by: Blob::default(),
        }
    }

    /// Adds a rule; returns the rule it replaced for the same pair, if any (the later one wins,
    /// as in GPT-2's `encoder.py` and HuggingFace tokenizers).
    pub fn insert(&mut self, left: u32, right: u32, merge: Merge) -> Option<Merge> {
        let index = merge.merged as usize;
        let made_by = self.made_by.to_mut();
        if made_by.len() < (index + 1) * 4 {
            made_by.resize((index + 1) * 4, 0xFF);
        }
        let lowest = u32_in(made_by, index).unwrap_or(u32::MAX).min(merge.rank);
        set_u32(made_by, index, lowest);
        if (self.len + 1) * 4 > self.tags.len() * 3 {
            self.rehash(slots_for(self.len + 1) * 2);
        }
        let key = key(left, right);
        if let Some(at) = find(&self.slots, &self.tags, key) {
            let old = slot_merge(&self.slots, at);
            set_slot(self.slots.to_mut(), at, key, merge);
            return old;
        }
        let at = probe::free_slot(&self.tags, hash(key))?;
        self.tags.to_mut()[at] = probe::tag(hash(key));
        set_slot(self.slots.to_mut(), at, key, merge);
        self.len += 1;
        None
    }

    /// Makes the table again with `slots` slots.
    fn rehash(&mut self, slots: usize) {
        let mut table = vec![0; slots * SLOT];
        let mut tags = vec![probe::EMPTY; slots];
        for (key, merge) in self.pairs() {
            if let Some(at) = probe::free_slot(&tags, hash(key)) {
                tags[at] = probe::tag(hash(key));
                set_slot(&mut table, at, key, merge);
            }
        }
        self.slots = Blob::Owned(table);
        self.tags = Blob::Owned(tags);
    }

    /// Every (pair key, rule) in the table.
    fn pairs(&self) -> impl Iterator<Item = (u64, Merge)> + '_ {
        let full = self
            .tags
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != probe::EMPTY);
        full.filter_map(|(at, _)| Some((self.slots.u64_at(at * 2)?, slot_merge(&self.slots, at)?)))
    }

    /// The rule for an adjacent pair, if there is one. The hot path of every BPE encoder: a
    /// miss usually reads one tag byte; a hit reads one 16-byte slot, with one bounds check.
    #[inline]
    pub fn get(&self, left: u32, right: u32) -> Option<Merge> {
        let table: &[u8] = &self.slots;
        let key = key(left, right);
        for at in Probe::new(&self.tags, hash(key)) {
            let slot: &[u8; SLOT] = table.get(at * SLOT..(at + 1) * SLOT)?.try_into().ok()?;
            let [
                k0,
                k1,
                k2,
                k3,
                k4,
                k5,
                k6,
                k7,
                r0,
                r1,
                r2,
                r3,
                m0,
                m1,
                m2,
                m3,
            ] = *slot;
            if u64::from_le_bytes([k0, k1, k2, k3, k4, k5, k6, k7]) == key {
                return Some(Merge {
                    rank: u32::from_le_bytes([r0, r1, r2, r3]),
                    merged: u32::from_le_bytes([m0, m1, m2, m3]),
                });
            }
        }
        None
    }

    /// The lowest rank of a rule that makes token `id`; `None` for tokens no rule makes (base
    /// symbols, added tokens).
    pub fn rank_of_token(&self, id: u32) -> Option<u32> {
        self.made_by.u32_at(id as usize).filter(|&r| r != u32::MAX)
    }

    /// The number of rules (pairs), for summaries and warnings.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the model has no rules (a vocabulary used by lookup alone).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every rule, by rank (ties by pair). Built on demand: analysis needs it, encoding does not.
    pub fn rules(&self) -> Vec<MergeRule> {
        let mut rules: Vec<MergeRule> = self
            .pairs()
            .map(|(k, m)| MergeRule {
                rank: m.rank,
                left: (k >> 32) as u32,
                right: k as u32,
                merged: m.merged,
            })
            .collect();
        rules.sort_unstable();
        rules
    }

    /// The rules a rank-only vocabulary implies: every split of an eligible token into two
    /// eligible tokens is a rule ranked `rank(token)`. `char_splits` restricts splits to UTF-8
    /// character boundaries (character-level models such as SentencePiece).
    pub fn from_vocab(
        vocab: &Vocab,
        eligible: impl Fn(u32) -> bool,
        rank: impl Fn(u32) -> u32,
        char_splits: bool,
    ) -> MergeTable {
        let mut table = MergeTable::with_capacity(vocab.len() * 2);
        table.made_by = Blob::Owned(vec![0xFF; vocab.id_bound() as usize * 4]);
        for (id, bytes) in vocab.iter() {
            if bytes.len() < 2 || !eligible(id) {
                continue;
            }
            let merge = Merge {
                rank: rank(id),
                merged: id,
            };
            for split in 1..bytes.len() {
                if char_splits && (bytes[split] & 0xC0) == 0x80 {
                    continue;
                }
                let Some(left) = vocab.id(&bytes[..split]).filter(|&l| eligible(l)) else {
                    continue;
                };
                if let Some(right) = vocab.id(&bytes[split..]).filter(|&r| eligible(r)) {
                    table.insert(left, right, merge);
                }
            }
        }
        table
    }
}

/// Writes `key` and `merge` into the slot at `at`.
fn set_slot(table: &mut [u8], at: usize, key: u64, merge: Merge) {
    set_u64(table, at * 2, key);
    set_u32(table, at * 4 + 2, merge.rank);
    set_u32(table, at * 4 + 3, merge.merged);
}

/// The merged token and rank of the slot at `at`.
#[inline]
fn slot_merge(table: &[u8], at: usize) -> Option<Merge> {
    Some(Merge {
        rank: u32_in(table, at * 4 + 2)?,
        merged: u32_in(table, at * 4 + 3)?,
    })
}

/// The flat form of a merge table in a cache entry: its slots, tags and the lowest rank making
/// each token as they are, read back as views of the entry.
impl MergeTable {
    /// Writes the table for [`MergeTable::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.bytes(&self.slots);
        w.bytes(&self.tags);
        w.bytes(&self.made_by);
    }

    /// Reads what [`MergeTable::write_flat`] wrote; `None` when a rule names an id at or past
    /// `id_bound`, a tag is not its slot's key's or the table has no empty slot. Every full
    /// slot is checked (its key hashed, one multiplication; the table is not built again).
    pub fn read_flat(r: &mut FlatReader, id_bound: u32) -> Option<MergeTable> {
        let slots = r.blob()?;
        let tags = r.blob()?;
        let made_by = r.blob()?;
        let count = tags.len();
        if slots.len() != count * SLOT
            || !(count == 0 || count.is_power_of_two())
            || made_by.len() % 4 != 0
            || made_by.len() / 4 > id_bound as usize
        {
            return None;
        }
        let mut table = MergeTable {
            slots,
            tags,
            len: 0,
            made_by,
        };
        let tokens = table.made_by.len() / 4;
        let mut len = 0;
        for (at, &tag) in table.tags.iter().enumerate() {
            if tag == probe::EMPTY {
                continue;
            }
            let key = table.slots.u64_at(at * 2)?;
            let merge = slot_merge(&table.slots, at)?;
            let (left, right) = ((key >> 32) as u32, key as u32);
            if left >= id_bound
                || right >= id_bound
                || merge.merged as usize >= tokens
                || tag != probe::tag(hash(key))
            {
                return None;
            }
            len += 1;
        }
        table.len = len;
        (count == 0 || len < count).then_some(table)
    }
}

impl std::fmt::Debug for MergeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MergeTable({} rules)", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_rules_cover_every_split() {
        let mut v = Vocab::default();
        for (id, t) in ["a", "b", "c", "ab", "bc", "abc"].iter().enumerate() {
            v.insert(id as u32, t.as_bytes()).unwrap();
        }
        let t = MergeTable::from_vocab(&v, |_| true, |id| id, false);
        assert_eq!(t.get(0, 1), Some(Merge { rank: 3, merged: 3 }));
        assert_eq!(t.get(3, 2), Some(Merge { rank: 5, merged: 5 }));
        assert_eq!(t.get(0, 4), Some(Merge { rank: 5, merged: 5 }));
        assert_eq!(t.get(1, 0), None);
        assert_eq!(t.len(), 4);
        assert_eq!(t.rank_of_token(5), Some(5));
        assert_eq!(t.rank_of_token(0), None);
        assert_eq!(t.rules()[0].merged, 3);
        let mut w = FlatWriter::new();
        t.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = MergeTable::read_flat(&mut FlatReader::new(&bytes), 6).unwrap();
        assert_eq!(back.rules(), t.rules());
        assert_eq!(back.rank_of_token(5), Some(5));
        // The same rules against a vocabulary of 5 ids name an id outside it.
        assert!(MergeTable::read_flat(&mut FlatReader::new(&bytes), 5).is_none());
        // A tag that is not its key's (its rule would never be found).
        let full = t.tags.iter().position(|&g| g != probe::EMPTY).unwrap();
        let mut damaged = t.clone();
        damaged.tags.to_mut()[full] ^= 0x01;
        let mut w = FlatWriter::new();
        damaged.write_flat(&mut w);
        let bytes = w.into_bytes();
        assert!(MergeTable::read_flat(&mut FlatReader::new(&bytes), 6).is_none());
    }
}
