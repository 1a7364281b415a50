//! A byte trie of a unigram model's pieces, so the Viterbi lattice finds every piece starting
//! at a position in one walk that stops at the first byte no piece continues with, as
//! SentencePiece's double array does, instead of hashing every substring up to the longest
//! piece.

use crate::core::model_cache::{FlatReader, FlatWriter};

/// A node: its children (a range of the edge arrays, labels sorted; for a node with more
/// than [`SPARSE_EDGES`] children also a table indexed by byte) and the piece ending here.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_edge: u32,
    edges: u32,
    /// The start of the node's 256 entries in [`PieceTrie::dense`], or [`NO_NODE`].
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
#[derive(Clone, Debug, Default)]
pub struct PieceTrie {
    /// The child of the root for each first byte (the busiest node, so indexed directly).
    root: Vec<u32>,
    nodes: Vec<Node>,
    labels: Vec<u8>,
    targets: Vec<u32>,
    /// The byte-indexed child tables of the nodes with many children.
    dense: Vec<u32>,
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
        let mut trie = PieceTrie {
            root: vec![NO_NODE; 256],
            nodes: Vec::with_capacity(children.len()),
            labels: Vec::new(),
            targets: Vec::new(),
            dense: Vec::new(),
        };
        for (mut edges, (piece, score)) in children.into_iter().zip(ends) {
            edges.sort_unstable();
            let mut table = NO_NODE;
            if edges.len() > SPARSE_EDGES {
                table = trie.dense.len() as u32;
                trie.dense.resize(trie.dense.len() + 256, NO_NODE);
                for &(label, target) in &edges {
                    trie.dense[table as usize + usize::from(label)] = target;
                }
            }
            trie.nodes.push(Node {
                first_edge: trie.labels.len() as u32,
                edges: edges.len() as u32,
                table,
                piece,
                score,
            });
            trie.labels.extend(edges.iter().map(|(label, _)| label));
            trie.targets.extend(edges.iter().map(|(_, target)| target));
        }
        for k in 0..trie.nodes[0].edges as usize {
            trie.root[usize::from(trie.labels[k])] = trie.targets[k];
        }
        trie
    }

    #[inline]
    fn child(&self, node: u32, byte: u8) -> u32 {
        let node = &self.nodes[node as usize];
        if node.table != NO_NODE {
            return self.dense[node.table as usize + usize::from(byte)];
        }
        let start = node.first_edge as usize;
        let labels = &self.labels[start..start + node.edges as usize];
        labels
            .iter()
            .position(|&label| label == byte)
            .map_or(NO_NODE, |k| self.targets[start + k])
    }

    /// Every piece that is a prefix of `text`, shortest first: its length, id and score.
    #[inline]
    pub fn prefixes(&self, text: &[u8], mut each: impl FnMut(usize, u32, f32)) {
        let Some((&first, rest)) = text.split_first() else {
            return;
        };
        let mut node = self.root[usize::from(first)];
        let mut length = 1;
        while node != NO_NODE {
            let here = &self.nodes[node as usize];
            if here.piece != NO_PIECE {
                each(length, here.piece, here.score);
            }
            let Some(&byte) = rest.get(length - 1) else {
                return;
            };
            node = self.child(node, byte);
            length += 1;
        }
    }
}

/// The flat form of a trie in a cache entry: its arrays as they are. Reading checks every
/// index the walk follows, so a damaged entry cannot send it outside the arrays.
impl PieceTrie {
    /// Writes the trie for [`PieceTrie::read_flat`].
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.u32s(self.root.iter().copied());
        let nodes: Vec<u32> = self
            .nodes
            .iter()
            .flat_map(|n| [n.first_edge, n.edges, n.table, n.piece, n.score.to_bits()])
            .collect();
        w.u32s(nodes.iter().copied());
        w.bytes(&self.labels);
        w.u32s(self.targets.iter().copied());
        w.u32s(self.dense.iter().copied());
    }

    /// Reads what [`PieceTrie::write_flat`] wrote; `None` when an index points outside its
    /// array or a piece id is at or past `id_bound`.
    pub fn read_flat(r: &mut FlatReader, id_bound: u32) -> Option<PieceTrie> {
        let root = r.u32s()?;
        let mut raw = r.u32_iter()?;
        let labels = r.bytes()?.to_vec();
        let targets = r.u32s()?;
        let dense = r.u32s()?;
        if raw.len() % 5 != 0 || root.len() != 256 || labels.len() != targets.len() {
            return None;
        }
        let count = raw.len() / 5;
        let node_ok = |n: u32| n == NO_NODE || (n as usize) < count;
        // Read straight from the entry into the nodes: one copy of the largest array.
        let mut nodes = Vec::with_capacity(count);
        while let (Some(first_edge), Some(edges), Some(table), Some(piece), Some(score)) =
            (raw.next(), raw.next(), raw.next(), raw.next(), raw.next())
        {
            let node = Node {
                first_edge,
                edges,
                table,
                piece,
                score: f32::from_bits(score),
            };
            let edges_end = (node.first_edge as usize).checked_add(node.edges as usize)?;
            let table_ok =
                node.table == NO_NODE || (node.table as usize).checked_add(256)? <= dense.len();
            let piece_ok = node.piece == NO_PIECE || node.piece < id_bound;
            if edges_end > labels.len() || !table_ok || !piece_ok {
                return None;
            }
            nodes.push(node);
        }
        let links_ok = [&root, &targets, &dense]
            .iter()
            .all(|links| links.iter().all(|&n| node_ok(n)));
        links_ok.then_some(PieceTrie {
            root,
            nodes,
            labels,
            targets,
            dense,
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
        // Piece 5 is past a vocabulary of 5 ids.
        assert!(PieceTrie::read_flat(&mut FlatReader::new(&bytes), 5).is_none());
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
    }
}
