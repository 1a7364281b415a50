//! A byte trie of a unigram model's pieces, so the Viterbi lattice finds every piece starting
//! at a position in one walk that stops at the first byte no piece continues with, as
//! SentencePiece's double array does, instead of hashing every substring up to the longest
//! piece.
//!
//! The nodes are numbered breadth first, so a node's children are consecutive numbers and a
//! node is only where its children start, the byte leading to it and the piece ending at it:
//! nine bytes a node, which keeps the cache entry a second load reads (262,144 pieces are
//! some 930,000 nodes) a third of what a node with its own edge list made it.

use crate::core::model_cache::{Blob, FlatReader, FlatWriter, u32_in};

/// Up to this many children are found by a linear scan of their bytes; a node with more (a
/// lead byte of CJK text has dozens of continuation bytes after it) gets a table indexed by
/// byte, one load per step as in SentencePiece's double array.
const SPARSE_EDGES: usize = 8;

const NO_PIECE: u32 = u32::MAX;
const NO_NODE: u32 = u32::MAX;
/// Marks a node's entry in [`PieceTrie::pieces`] as the index of its [`PieceTrie::tables`]
/// record (a node with a table), not a piece id; piece ids at or past it are left out.
const TABLED: u32 = 1 << 31;

/// Pieces by their bytes, each with the id and the score the lattice gives it.
///
/// The arrays are [`Blob`]s of little-endian numbers: built when a model is parsed, or views of
/// a cache entry, walked where they lie. Every step of a walk is a checked read, so a damaged
/// entry ends a walk early rather than sending it outside an array, and a piece id at or past
/// the vocabulary's bound is never offered.
#[derive(Clone, Default)]
pub struct PieceTrie {
    /// The child of the root for each first byte (the busiest node, so indexed directly).
    root: Vec<u32>,
    /// By node, where its children start; one more number than nodes, so a node's children
    /// end where the next node's start.
    first_child: Blob,
    /// By node, the byte of the edge into it (a node's children's bytes ascend).
    labels: Blob,
    /// By node, the id of the piece ending there, [`NO_PIECE`], or [`TABLED`] with the index of
    /// the node's record in `tables`.
    pieces: Blob,
    /// Three numbers a node with more than [`SPARSE_EDGES`] children: its piece, the start of
    /// its table in `dense`, and the table's first byte with its length less one
    /// (`low | last << 8`).
    tables: Blob,
    /// The byte-indexed child tables: for each byte from a table's first to its last, which
    /// child (counted from the node's first) it may lead to, checked against the child's byte.
    /// A table covers only its node's range of bytes (UTF-8 continuation bytes span 64 of 256).
    dense: Blob,
    /// By piece id, the bits of the score the lattice gives it.
    scores: Blob,
    /// One past the largest piece id a walk may offer.
    id_bound: u32,
}

impl std::fmt::Debug for PieceTrie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PieceTrie({} nodes)", self.labels.len())
    }
}

/// Little-endian bytes of numbers, for a built array.
fn blob_of(values: impl Iterator<Item = u32>) -> Blob {
    Blob::Owned(values.flat_map(u32::to_le_bytes).collect())
}

impl PieceTrie {
    /// The trie of `pieces`: (bytes, id, score). Empty pieces are left out (a lattice edge
    /// must advance), as are ids from [`TABLED`] on (no vocabulary comes near 2^31 pieces).
    pub fn new<'p>(pieces: impl IntoIterator<Item = (&'p [u8], u32, f32)>) -> PieceTrie {
        // Built with a child list per node, then numbered breadth first.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut ends: Vec<u32> = vec![NO_PIECE];
        let mut scores: Vec<u32> = Vec::new();
        for (bytes, id, score) in pieces {
            if bytes.is_empty() || id >= TABLED {
                continue;
            }
            let mut node = 0usize;
            for &byte in bytes {
                node = match children[node].iter().find(|(label, _)| *label == byte) {
                    Some(&(_, child)) => child as usize,
                    None => {
                        let child = children.len();
                        children[node].push((byte, child as u32));
                        children.push(Vec::new());
                        ends.push(NO_PIECE);
                        child
                    }
                };
            }
            ends[node] = id;
            if scores.len() <= id as usize {
                scores.resize(id as usize + 1, 0);
            }
            scores[id as usize] = score.to_bits();
        }
        // `order[k]` is the node numbered `k`; its children are numbered next in the queue.
        let mut order: Vec<u32> = vec![0];
        let mut labels: Vec<u8> = vec![0];
        let (mut first_child, mut pieces, mut tables, mut dense) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut k = 0;
        while k < order.len() {
            let node = order[k] as usize;
            let edges = &mut children[node];
            edges.sort_unstable();
            first_child.push(order.len() as u32);
            let mut piece = ends[node];
            if edges.len() > SPARSE_EDGES {
                let (low, last) = (edges[0].0, edges[edges.len() - 1].0 - edges[0].0);
                tables.extend([
                    piece,
                    dense.len() as u32,
                    u32::from(low) | u32::from(last) << 8,
                ]);
                piece = TABLED | (tables.len() / 3 - 1) as u32;
                let table = dense.len();
                dense.resize(table + usize::from(last) + 1, 0u8);
                for (child, &(label, _)) in edges.iter().enumerate() {
                    dense[table + usize::from(label - low)] = child as u8;
                }
            }
            pieces.push(piece);
            for &(label, child) in edges.iter() {
                order.push(child);
                labels.push(label);
            }
            k += 1;
        }
        first_child.push(order.len() as u32);
        let mut root = vec![NO_NODE; 256];
        for child in first_child[0]..first_child[1] {
            root[usize::from(labels[child as usize])] = child;
        }
        PieceTrie {
            root,
            first_child: blob_of(first_child.into_iter()),
            labels: Blob::Owned(labels),
            pieces: blob_of(pieces.into_iter()),
            tables: blob_of(tables.into_iter()),
            dense: Blob::Owned(dense),
            id_bound: scores.len() as u32,
            scores: blob_of(scores.into_iter()),
        }
    }

    /// The child of `node` (whose entry in `pieces` is `entry`) by `byte`, `NO_NODE` for none.
    #[inline]
    fn child(&self, node: u32, entry: u32, byte: u8) -> u32 {
        let node = node as usize;
        let (Some(first), Some(end)) = (
            u32_in(&self.first_child, node),
            u32_in(&self.first_child, node + 1),
        ) else {
            return NO_NODE;
        };
        let k = if entry != NO_PIECE && entry & TABLED != 0 {
            let record = (entry & !TABLED) as usize * 3;
            let (Some(table), Some(range)) = (
                u32_in(&self.tables, record + 1),
                u32_in(&self.tables, record + 2),
            ) else {
                return NO_NODE;
            };
            let at = byte.wrapping_sub(range as u8);
            if u32::from(at) > range >> 8 & 0xff {
                return NO_NODE;
            }
            match self.dense.get(table as usize + usize::from(at)) {
                Some(&k) => u32::from(k),
                None => return NO_NODE,
            }
        } else {
            let labels = self
                .labels
                .get(first as usize..end as usize)
                .unwrap_or_default();
            match labels.iter().position(|&label| label == byte) {
                Some(k) => k as u32,
                None => return NO_NODE,
            }
        };
        let child = first.saturating_add(k);
        match child < end && self.labels.get(child as usize) == Some(&byte) {
            true => child,
            false => NO_NODE,
        }
    }

    /// The piece ending at a node whose entry in `pieces` is `entry`, if any.
    #[inline]
    fn piece_of(&self, entry: u32) -> u32 {
        match entry != NO_PIECE && entry & TABLED != 0 {
            true => u32_in(&self.tables, (entry & !TABLED) as usize * 3).unwrap_or(NO_PIECE),
            false => entry,
        }
    }

    /// Every piece that is a prefix of `text`, shortest first: its length, id and score.
    #[inline]
    pub fn prefixes(&self, text: &[u8], mut each: impl FnMut(usize, u32, f32)) {
        let Some((&first, rest)) = text.split_first() else {
            return;
        };
        let mut node = self
            .root
            .get(usize::from(first))
            .copied()
            .unwrap_or(NO_NODE);
        let mut length = 1;
        while node != NO_NODE {
            let Some(entry) = u32_in(&self.pieces, node as usize) else {
                return;
            };
            let piece = self.piece_of(entry);
            if piece < self.id_bound
                && let Some(score) = u32_in(&self.scores, piece as usize)
            {
                each(length, piece, f32::from_bits(score));
            }
            let Some(&byte) = rest.get(length - 1) else {
                return;
            };
            node = self.child(node, entry, byte);
            length += 1;
        }
    }
}

/// The flat form of a trie in a cache entry: its arrays as they are, read back as views of the
/// entry.
impl PieceTrie {
    /// Writes the trie for [`PieceTrie::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.u32s(self.root.iter().copied());
        for blob in [
            &self.first_child,
            &self.labels,
            &self.pieces,
            &self.tables,
            &self.dense,
            &self.scores,
        ] {
            w.bytes(blob);
        }
    }

    /// Reads what [`PieceTrie::write_flat`] wrote; `None` when an array is not whole numbers
    /// or the arrays by node disagree on how many nodes there are. Walks offer no piece id at
    /// or past `id_bound`.
    pub fn read_flat(r: &mut FlatReader, id_bound: u32) -> Option<PieceTrie> {
        let root = r.u32s()?;
        let trie = PieceTrie {
            root,
            first_child: r.blob()?,
            labels: r.blob()?,
            pieces: r.blob()?,
            tables: r.blob()?,
            dense: r.blob()?,
            scores: r.blob()?,
            id_bound: 0,
        };
        let nodes = trie.labels.len();
        let whole = trie.root.len() == 256
            && trie.first_child.len() == (nodes + 1) * 4
            && trie.pieces.len() == nodes * 4
            && trie.tables.len().is_multiple_of(12)
            && trie.scores.len().is_multiple_of(4);
        let id_bound = id_bound.min((trie.scores.len() / 4).try_into().ok()?);
        whole.then_some(PieceTrie { id_bound, ..trie })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_prefix_piece_shortest_first() {
        let pieces: Vec<(&[u8], u32, f32)> = vec![
            (b"a", 1, -1.0),
            (b"ab", 2, -2.0),
            (b"abcd", 3, -3.0),
            ("語".as_bytes(), 4, -4.0),
            (b"b", 5, -5.0),
            (b"", 6, -6.0),
        ];
        let trie = PieceTrie::new(pieces);
        let found = |text: &str| {
            let mut out = Vec::new();
            trie.prefixes(text.as_bytes(), |len, id, _| out.push((len, id)));
            out
        };
        assert_eq!(found("abcde"), [(1, 1), (2, 2), (4, 3)]);
        assert_eq!(found("abc"), [(1, 1), (2, 2)]);
        assert_eq!(found("語a"), [(3, 4)]);
        assert!(found("").is_empty() && found("c").is_empty());
        let mut w = FlatWriter::new();
        trie.write_flat(&mut w);
        let bytes = w.into_bytes();
        let back = PieceTrie::read_flat(&mut FlatReader::new(&bytes), 7).unwrap();
        let mut out = Vec::new();
        back.prefixes(b"abcde", |len, id, _| out.push((len, id)));
        assert_eq!(out, [(1, 1), (2, 2), (4, 3)]);
        // Read for a vocabulary of 2 ids, piece 2 (`ab`) and past are never offered.
        let small = PieceTrie::read_flat(&mut FlatReader::new(&bytes), 2).unwrap();
        let mut out = Vec::new();
        small.prefixes(b"abcde", |len, id, _| out.push((len, id)));
        assert_eq!(out, [(1, 1)]);
        // Arrays cut inside a number, or not of one count of nodes, are not a trie.
        for (blob, cut_at) in [(0, 1), (0, 4), (1, 1), (2, 4), (5, 1)] {
            let mut w = FlatWriter::new();
            w.u32s(trie.root.iter().copied());
            let blobs = [
                &trie.first_child,
                &trie.labels,
                &trie.pieces,
                &trie.tables,
                &trie.dense,
                &trie.scores,
            ];
            for (k, b) in blobs.into_iter().enumerate() {
                let end = b.len() - if k == blob { cut_at.min(b.len()) } else { 0 };
                w.bytes(&b[..end]);
            }
            let cut = w.into_bytes();
            let read = PieceTrie::read_flat(&mut FlatReader::new(&cut), 7);
            assert!(read.is_none(), "array {blob} cut by {cut_at}");
        }
    }

    #[test]
    fn a_node_with_many_children_finds_each_by_its_table() {
        // `x` then 20 different bytes: more children than a linear scan is kept for.
        let texts: Vec<Vec<u8>> = (0..20u8).map(|k| vec![b'x', b'A' + k, b'z']).collect();
        let mut pieces: Vec<(&[u8], u32, f32)> = vec![(b"x", 0, -1.0)];
        pieces.extend(
            texts
                .iter()
                .enumerate()
                .map(|(k, t)| (&t[..], k as u32 + 1, -2.0)),
        );
        pieces.push((&texts[3][..2], 99, -3.0));
        // `y` then every byte but 0: a second table right after `x`'s, so a byte outside `x`'s
        // range that were looked up anyway would land on one of `y`'s children.
        let wide: Vec<Vec<u8>> = (1..=255u8).map(|b| vec![b'y', b]).collect();
        pieces.extend(wide.iter().map(|t| (&t[..], 1000 + u32::from(t[1]), -4.0)));
        let trie = PieceTrie::new(pieces);
        let found = |text: &[u8]| {
            let mut out = Vec::new();
            trie.prefixes(text, |len, id, _| out.push((len, id)));
            out
        };
        assert_eq!(found(b"xDz"), [(1, 0), (2, 99), (3, 4)]);
        assert_eq!(found(b"xTz!"), [(1, 0), (3, 20)]);
        assert_eq!(found(b"xUz"), [(1, 0)]);
        assert_eq!(found(b"x\xff"), [(1, 0)]);
        // Bytes below and above the table's range (`A` to `T`) are no child.
        assert_eq!(found(b"x@z"), [(1, 0)]);
        assert_eq!(found(b"x\x00"), [(1, 0)]);
        assert_eq!(found(b"y\x80"), [(2, 1128)]);
    }

    /// The pieces of `pieces` that are prefixes of `text`, found by comparing each: what the
    /// trie must find.
    fn by_scanning(pieces: &[(Vec<u8>, u32, f32)], text: &[u8]) -> Vec<(usize, u32, u32)> {
        let mut found: Vec<(usize, u32, u32)> = pieces
            .iter()
            .filter(|(p, _, _)| !p.is_empty() && text.starts_with(p))
            .map(|(p, id, score)| (p.len(), *id, score.to_bits()))
            .collect();
        found.sort_unstable();
        found
    }

    proptest::proptest! {
        #[test]
        fn a_walk_finds_what_scanning_finds_built_or_read_back(
            // Few bytes, so that many nodes have more children than a scan is kept for.
            texts in proptest::collection::hash_set(
                proptest::collection::vec(proptest::prop_oneof![0u8..12, 250u8..=255], 0..5),
                0..300,
            ),
            text in proptest::collection::vec(proptest::prop_oneof![0u8..13, 249u8..=255], 0..7),
        ) {
            let pieces: Vec<(Vec<u8>, u32, f32)> = texts
                .into_iter()
                .enumerate()
                .map(|(k, t)| (t, k as u32 * 3 + 1, -(k as f32) / 4.0))
                .collect();
            let trie = PieceTrie::new(pieces.iter().map(|(t, id, s)| (&t[..], *id, *s)));
            let mut w = FlatWriter::new();
            trie.write_flat(&mut w);
            let bytes = w.into_bytes();
            let back = PieceTrie::read_flat(&mut FlatReader::new(&bytes), u32::MAX).unwrap();
            for walked in [&trie, &back] {
                let mut found = Vec::new();
                walked.prefixes(&text, |len, id, score| found.push((len, id, score.to_bits())));
                proptest::prop_assert_eq!(&found, &by_scanning(&pieces, &text));
            }
        }
    }
}
