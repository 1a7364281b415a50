//! The tokenizer network: a deterministic automaton whose edges are of the paper's three kinds
//! only (identity, deletion, ε:boundary). Every file format is checked into this one shape, and
//! both representations are built from it, so they cannot disagree about what was loaded.

use super::alphabet::{Alphabet, BOUNDARY, IDENTITY, Sym, UNKNOWN};
use super::raw::RawNetwork;
use super::runner::{DELETES, STATE, Transitions};
use crate::core::error::Result;

/// What an edge does with the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// `x:x` or `?:?`: reads a character and keeps it in the token.
    Identity,
    /// `x:0`: reads a character and drops it (when it would start a token: whitespace).
    Deletion,
    /// `0:TB`: reads nothing and ends the token (two in a row end a sentence).
    Boundary,
}

impl EdgeKind {
    /// The kind's name in traces and `fst info`.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Identity => "identity",
            EdgeKind::Deletion => "deletion",
            EdgeKind::Boundary => "ε:boundary",
        }
    }
}

/// One edge of a state. Boundary edges are stored under the symbol
/// [`BOUNDARY`](super::BOUNDARY).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The symbol read (or [`super::BOUNDARY`]).
    pub symbol: Sym,
    /// The state the edge leads to.
    pub target: u32,
    /// What the edge does with the character.
    pub kind: EdgeKind,
}

/// Counts of what was read, for `toklab fst info` and for the warnings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetworkStats {
    /// Identity edges (`x:x`, `?:?`).
    pub identity: usize,
    /// `?:?` edges (a subset of `identity`).
    pub identity_unknown: usize,
    /// Deletion edges (`x:0`).
    pub deletion: usize,
    /// ε:boundary edges.
    pub boundary: usize,
    /// `TB:TB` edges: they read the boundary mark, which never occurs in text.
    pub reading_boundary: usize,
    /// Edges on multi-character symbols, which never match one character of text.
    pub multichar: usize,
}

/// A validated tokenizer network. States are numbered from 1 (`0` means "no state"), as in the
/// paper and in Datok; foma's state `n` is our `n + 1`.
#[derive(Clone, Debug)]
pub struct Network {
    /// The symbols edges may read, and the map from characters to them.
    pub alphabet: Alphabet,
    /// The start state.
    pub start: u32,
    /// Edges of state `s` are `edges[offsets[s]..offsets[s + 1]]`, sorted by symbol.
    offsets: Vec<u32>,
    edges: Vec<Edge>,
    /// The network's name in its file, if the format has one.
    pub name: Option<String>,
    /// The file format it was read from, for `fst info`.
    pub format: &'static str,
    /// What was read, for `fst info` and the warnings.
    pub stats: NetworkStats,
    /// Things in the file that load but will not work as the author may think.
    pub warnings: Vec<String>,
    /// Which states are final, by our state number, where the file said (foma, AT&T); the
    /// tokenizer never asks, `apply up` / `apply down` do.
    pub finals: Option<Vec<bool>>,
}

/// The most states a network may have: targets share their u32 with two flag bits.
pub const MAX_STATES: u32 = (1 << 30) - 2;

impl Network {
    /// Builds a network from edges that are already of the three kinds (the representations'
    /// own files use this). `edges[s]` lists state `s`'s edges; index 0 is unused.
    pub fn from_edges(
        alphabet: Alphabet,
        start: u32,
        mut per_state: Vec<Vec<Edge>>,
        name: Option<String>,
        format: &'static str,
    ) -> Network {
        let mut offsets = Vec::with_capacity(per_state.len() + 1);
        let mut edges = Vec::new();
        let mut stats = NetworkStats::default();
        for list in &mut per_state {
            list.sort_by_key(|e| e.symbol);
            offsets.push(edges.len() as u32);
            for e in list.iter() {
                match e.kind {
                    EdgeKind::Identity => {
                        stats.identity += 1;
                        if e.symbol == IDENTITY || e.symbol == UNKNOWN {
                            stats.identity_unknown += 1;
                        }
                    }
                    EdgeKind::Deletion => stats.deletion += 1,
                    EdgeKind::Boundary => stats.boundary += 1,
                }
            }
            edges.extend_from_slice(list);
        }
        offsets.push(edges.len() as u32);
        Network {
            alphabet,
            start,
            offsets,
            edges,
            name,
            format,
            stats,
            warnings: Vec::new(),
            finals: None,
        }
    }

    /// The network a representation holds, read back through its transitions: `handles` are
    /// the representation's own numbers of its states (a matrix's rows, a double array's
    /// representative cells), `states` the network's state count. For views of a model whose
    /// representation was loaded straight from toklab's saved form, without a network.
    pub(crate) fn from_transitions<T: Transitions>(
        fsa: &T,
        handles: impl Iterator<Item = u32>,
        states: u32,
        alphabet: Alphabet,
        name: Option<String>,
    ) -> Network {
        let width = alphabet.symbol_count();
        let mut per_state = vec![Vec::new(); states as usize + 1];
        for handle in handles {
            let Some(edges) = per_state.get_mut(fsa.network_state(handle) as usize) else {
                continue;
            };
            for symbol in BOUNDARY..width as Sym {
                let next = fsa.step(handle, symbol);
                if next == 0 {
                    continue;
                }
                edges.push(Edge {
                    symbol,
                    target: fsa.network_state(next & STATE),
                    kind: if symbol == BOUNDARY {
                        EdgeKind::Boundary
                    } else if next & DELETES != 0 {
                        EdgeKind::Deletion
                    } else {
                        EdgeKind::Identity
                    },
                });
            }
        }
        let start = fsa.network_state(fsa.start() & STATE);
        Network::from_edges(alphabet, start, per_state, name, "toklab saved form")
    }

    /// Checks that a file's network is a tokenizer and builds it; errors name the state, the
    /// edge and the line.
    pub fn from_raw(raw: RawNetwork) -> Result<Network> {
        super::check::check(&raw)
    }

    /// The number of states (the largest state number).
    pub fn state_count(&self) -> u32 {
        (self.offsets.len() - 2) as u32
    }

    /// Edges of all states (ignored arcs not counted).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The edges of `state`, sorted by symbol (the boundary edge, if any, first).
    pub fn edges(&self, state: u32) -> &[Edge] {
        let s = state as usize;
        &self.edges[self.offsets[s] as usize..self.offsets[s + 1] as usize]
    }

    /// The target of `state`'s ε:boundary edge.
    pub fn boundary(&self, state: u32) -> Option<u32> {
        self.edges(state)
            .first()
            .filter(|e| e.kind == EdgeKind::Boundary)
            .map(|e| e.target)
    }

    /// The edge `state` takes on `symbol`.
    pub fn edge(&self, state: u32, symbol: Sym) -> Option<&Edge> {
        let edges = self.edges(state);
        edges
            .binary_search_by_key(&symbol, |e| e.symbol)
            .ok()
            .map(|i| &edges[i])
    }

    /// The states reachable from the start, in breadth-first order with edges taken in symbol
    /// order: the deterministic order the double array is built in.
    pub fn reachable(&self) -> Vec<u32> {
        let mut seen = vec![false; self.offsets.len()];
        let mut order = vec![self.start];
        seen[self.start as usize] = true;
        let mut next = 0;
        while next < order.len() {
            let s = order[next];
            next += 1;
            for e in self.edges(s) {
                if !seen[e.target as usize] {
                    seen[e.target as usize] = true;
                    order.push(e.target);
                }
            }
        }
        order
    }
}

/// The network itself can run, one binary search per character: too slow for work, but the
/// plainest statement of what both representations must compute, so tests compare them to it.
impl super::runner::Transitions for Network {
    fn start(&self) -> u32 {
        self.start
    }

    fn step(&self, state: u32, symbol: Sym) -> u32 {
        match self.edge(state, symbol) {
            Some(e) if e.kind == EdgeKind::Deletion => e.target | super::runner::DELETES,
            Some(e) => e.target,
            None => 0,
        }
    }

    fn boundary(&self, state: u32) -> u32 {
        Network::boundary(self, state).unwrap_or(0)
    }

    fn network_state(&self, state: u32) -> u32 {
        state
    }
}
