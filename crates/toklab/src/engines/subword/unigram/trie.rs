//! A byte trie of a unigram model's pieces, so the Viterbi lattice finds every piece starting
//! at a position in one walk that stops at the first byte no piece continues with, as
//! SentencePiece's double array does, instead of hashing every substring up to the longest
//! piece.

use crate::core::model_cache::{Blob, FlatReader, FlatWriter, u32_in};

/// A node: its children (a range of the edge arrays, labels sorted; for a node with more
/// than [`SPARSE_EDGES`] children also a table indexed by byte) and the piece ending here.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_edge: u32,
    edges: u32,
    /// The smallest byte of the node's table, and the table's length less one: a table covers
    /// only the bytes from its first child's to its last (UTF-8 continuation bytes span 64 of
    /// the 256), which keeps the trie, and the entry a cached load reads, a fraction the size.
    /// Stored with `edges` in one number (`edges | low << 16 | last << 24`).
    low: u8,
    last: u8,
    /// The start of the node's entries in [`PieceTrie::dense`], or [`NO_NODE`].
    table: u32,
    piece: u32,
    score: f32,
}

/// Up to this many children are found by a linear scan of the labels; a node with more (a
/// lead byte of CJK text has dozens of continuation bytes after it) gets a table indexed by
/// byte, one load per step as in SentencePiece's double array.
const SPARSE_EDGES: usize = 8;

const NO_PIECE: u32 = u32::MAX;
const NO_NODE: u32 = u32::MAX;

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
    /// Five numbers a node: [`Node`]'s fields in order, the score's bits last.
    nodes: Blob,
    labels: Blob,
    targets: Blob,
    /// The byte-indexed child tables of the nodes with many children.
    dense: Blob,
    /// One past the largest piece id a walk may offer.
    id_bound: u32,
}

impl std::fmt::Debug for PieceTrie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PieceTrie({} nodes)", self.nodes.len() / 20)
    }
}

/// Little-endian bytes of numbers, for a built array.
fn blob_of(values: impl Iterator<Item = u32>) -> Blob {
    Blob::Owned(values.flat_map(u32::to_le_bytes).collect())
}

impl Node {
    /// The edge count with the table's byte range, as a node is stored.
    fn packed_edges(&self) -> u32 {
        self.edges | u32::from(self.low) << 16 | u32::from(self.last) << 24
    }
}

impl PieceTrie {
    /// The trie of `pieces`: (bytes, id, score). Empty pieces are left out (a lattice edge
    /// must advance).
    pub fn new<'p>(pieces: impl IntoIterator<Item = (&'p [u8], u32, f32)>) -> PieceTrie {
        // Built with a child list per node, then laid out with each node's edges contiguous.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut ends: Vec<(u32, f32)> = vec![(NO_PIECE, 0.0)];
        for (bytes, id, score) in pieces {
            if bytes.is_empty() {
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
                        ends.push((NO_PIECE, 0.0));
                        child
                    }
                };
            }
            ends[node] = (id, score);
        }
        let mut root = vec![NO_NODE; 256];
        let (mut nodes, mut labels, mut targets, mut dense) = (
            Vec::with_capacity(children.len()),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        let mut id_bound = 0;
        for (mut edges, (piece, score)) in children.into_iter().zip(ends) {
            edges.sort_unstable();
            let (mut table, mut low, mut last) = (NO_NODE, 0, 0);
            if edges.len() > SPARSE_EDGES {
                table = dense.len() as u32;
                (low, last) = (edges[0].0, edges[edges.len() - 1].0 - edges[0].0);
                dense.resize(dense.len() + usize::from(last) + 1, NO_NODE);
                for &(label, target) in &edges {
                    dense[table as usize + usize::from(label - low)] = target;
                }
            }
            if piece != NO_PIECE {
                id_bound = id_bound.max(piece + 1);
            }
            nodes.push(Node {
                first_edge: labels.len() as u32,
                edges: edges.len() as u32,
                low,
                last,
                table,
                piece,
                score,
            });
            labels.extend(edges.iter().map(|(label, _)| label));
            targets.extend(edges.iter().map(|(_, target)| target));
        }
        for k in 0..nodes[0].edges as usize {
            root[usize::from(labels[k])] = targets[k];
        }
        PieceTrie {
            root,
            nodes: blob_of(nodes.iter().flat_map(|n| {
                [
                    n.first_edge,
                    n.packed_edges(),
                    n.table,
                    n.piece,
                    n.score.to_bits(),
                ]
            })),
            labels: Blob::Owned(labels),
            targets: blob_of(targets.into_iter()),
            dense: blob_of(dense.into_iter()),
            id_bound,
        }
    }

    #[inline]
    fn node(&self, node: u32) -> Option<Node> {
        let nodes = &*self.nodes;
        let at = node as usize * 5;
        let edges = u32_in(nodes, at + 1)?;
        Some(Node {
            first_edge: u32_in(nodes, at)?,
            edges: edges & 0xffff,
            low: (edges >> 16) as u8,
            last: (edges >> 24) as u8,
            table: u32_in(nodes, at + 2)?,
            piece: u32_in(nodes, at + 3)?,
            score: f32::from_bits(u32_in(nodes, at + 4)?),
        })
    }

    /// The child of `node` (read as `here`) by `byte`, `NO_NODE` for none.
    #[inline]
    fn child(&self, here: &Node, byte: u8) -> u32 {
        if here.table != NO_NODE {
            let k = byte.wrapping_sub(here.low);
            if k > here.last {
                return NO_NODE;
            }
            return u32_in(&self.dense, here.table as usize + usize::from(k)).unwrap_or(NO_NODE);
        }
        let start = here.first_edge as usize;
        let labels = start
            .checked_add(here.edges as usize)
            .and_then(|end| self.labels.get(start..end))
            .unwrap_or_default();
        labels
            .iter()
            .position(|&label| label == byte)
            .and_then(|k| u32_in(&self.targets, start + k))
            .unwrap_or(NO_NODE)
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
            let Some(here) = self.node(node) else {
                return;
            };
            if here.piece < self.id_bound {
                each(length, here.piece, here.score);
            }
            let Some(&byte) = rest.get(length - 1) else {
                return;
            };
            node = self.child(&here, byte);
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
        w.bytes(&self.nodes);
        w.bytes(&self.labels);
        w.bytes(&self.targets);
        w.bytes(&self.dense);
    }

    /// Reads what [`PieceTrie::write_flat`] wrote; `None` when an array is not whole numbers.
    /// Walks offer no piece id at or past `id_bound`.
    pub fn read_flat(r: &mut FlatReader, id_bound: u32) -> Option<PieceTrie> {
        let root = r.u32s()?;
        let nodes = r.blob()?;
        let labels = r.blob()?;
        let targets = r.blob()?;
        let dense = r.blob()?;
        let whole = nodes.len() % 20 == 0 && targets.len() % 4 == 0 && dense.len() % 4 == 0;
        (whole && root.len() == 256 && labels.len() * 4 == targets.len()).then_some(PieceTrie {
            root,
            nodes,
            labels,
            targets,
            dense,
            id_bound,
        })
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
        // Arrays cut inside a number are not a trie.
        let mut cut = FlatWriter::new();
        cut.u32s(trie.root.iter().copied());
        cut.bytes(&trie.nodes[..trie.nodes.len() - 1]);
        let cut = cut.into_bytes();
        assert!(PieceTrie::read_flat(&mut FlatReader::new(&cut), 7).is_none());
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
}
