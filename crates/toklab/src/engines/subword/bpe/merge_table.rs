//! The merge rules of a BPE model as a table from an adjacent pair of token ids to the rule's
//! rank and the token it makes. Merge-list formats (GPT-2, HuggingFace) give the rules in
//! order; rank-only formats (tiktoken, SentencePiece) define a rule for every split of a token
//! into two tokens, ranked by the token's own rank — both end up in the same table.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use super::vocab::Vocab;
use crate::core::model_cache::{FlatReader, FlatWriter};

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

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Pair → rule, plus for each token the lowest rank of a rule that makes it.
#[derive(Clone, Default)]
pub struct MergeTable {
    pairs: FxMap<u64, Merge>,
    made_by: Vec<u32>,
}

#[inline]
fn key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

impl MergeTable {
    /// An empty table with room for `rules` rules, for loaders that know the count.
    pub fn with_capacity(rules: usize) -> Self {
        MergeTable {
            pairs: FxMap::with_capacity_and_hasher(rules, Default::default()),
            made_by: Vec::new(),
        }
    }

    /// Adds a rule; returns the rule it replaced for the same pair, if any (the later one wins,
    /// as in GPT-2's `encoder.py` and HuggingFace tokenizers).
    pub fn insert(&mut self, left: u32, right: u32, merge: Merge) -> Option<Merge> {
        let index = merge.merged as usize;
        if index >= self.made_by.len() {
            self.made_by.resize(index + 1, u32::MAX);
        }
        self.made_by[index] = self.made_by[index].min(merge.rank);
        self.pairs.insert(key(left, right), merge)
    }

    /// The rule for an adjacent pair, if there is one.
    #[inline]
    pub fn get(&self, left: u32, right: u32) -> Option<Merge> {
        self.pairs.get(&key(left, right)).copied()
    }

    /// The lowest rank of a rule that makes token `id`; `None` for tokens no rule makes (base
    /// symbols, added tokens).
    pub fn rank_of_token(&self, id: u32) -> Option<u32> {
        self.made_by
            .get(id as usize)
            .copied()
            .filter(|&r| r != u32::MAX)
    }

    /// The number of rules (pairs), for summaries and warnings.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the model has no rules (a vocabulary used by lookup alone).
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Every rule, by rank (ties by pair). Built on demand: analysis needs it, encoding does not.
    pub fn rules(&self) -> Vec<MergeRule> {
        let mut rules: Vec<MergeRule> = self
            .pairs
            .iter()
            .map(|(&k, m)| MergeRule {
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
        table.made_by = vec![u32::MAX; vocab.id_bound() as usize];
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

/// The flat form of a merge table in a cache entry: every rule as four numbers and the
/// lowest rank making each token, so reading it back fills the pair map without parsing or
/// looking a token up.
impl MergeTable {
    /// Writes the table for [`MergeTable::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        let rules: Vec<u32> = self
            .pairs
            .iter()
            .flat_map(|(&k, m)| [(k >> 32) as u32, k as u32, m.rank, m.merged])
            .collect();
        w.u32s(rules.iter().copied());
        w.u32s(self.made_by.iter().copied());
    }

    /// Reads what [`MergeTable::write_flat`] wrote; `None` when a rule names an id at or past
    /// `id_bound` or a pair twice.
    pub fn read_flat(r: &mut FlatReader, id_bound: u32) -> Option<MergeTable> {
        let mut rules = r.u32_iter()?;
        let made_by = r.u32s()?;
        if rules.len() % 4 != 0 || made_by.len() > id_bound as usize {
            return None;
        }
        let mut pairs = FxMap::with_capacity_and_hasher(rules.len() / 4, Default::default());
        while let (Some(left), Some(right), Some(rank), Some(merged)) =
            (rules.next(), rules.next(), rules.next(), rules.next())
        {
            if left >= id_bound || right >= id_bound || merged as usize >= made_by.len() {
                return None;
            }
            if pairs
                .insert(key(left, right), Merge { rank, merged })
                .is_some()
            {
                return None;
            }
        }
        Some(MergeTable { pairs, made_by })
    }
}

impl std::fmt::Debug for MergeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MergeTable({} rules)", self.pairs.len())
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
    }
}
