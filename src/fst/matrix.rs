//! The matrix representation (the paper's §2.1): one row per state, one cell per symbol; the
//! cell holds the target state, with the top bit set for a deletion. The ε:boundary edge is
//! the cell in the [`BOUNDARY`] column. One memory read per character.

use super::alphabet::{BOUNDARY, Sym};
use super::network::{EdgeKind, Network};
use super::runner::{DELETES, Transitions};

/// The transition table, row-major (`cells[state * width + symbol]`) so a state's edges share
/// cache lines; `0` is "no edge".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    width: usize,
    cells: Vec<u32>,
    start: u32,
    /// Whether each state has an ε:boundary edge: a byte per state, always in cache, so the
    /// check before each character need not read the state's boundary cell.
    has_boundary: Vec<bool>,
}

impl Matrix {
    /// Fills the table from a network: states are the network's numbers.
    pub fn build(network: &Network) -> Matrix {
        let width = network.alphabet.symbol_count();
        let rows = network.state_count() as usize + 1;
        let mut cells = vec![0u32; rows * width];
        for state in 1..rows as u32 {
            for edge in network.edges(state) {
                let flag = if edge.kind == EdgeKind::Deletion {
                    DELETES
                } else {
                    0
                };
                cells[state as usize * width + edge.symbol as usize] = edge.target | flag;
            }
        }
        let has_boundary = (0..rows as u32)
            .map(|s| s > 0 && network.boundary(s).is_some())
            .collect();
        Matrix {
            width,
            cells,
            start: network.start,
            has_boundary,
        }
    }

    /// Bytes the table occupies.
    pub fn memory(&self) -> usize {
        self.cells.len() * std::mem::size_of::<u32>()
    }

    /// Rows × columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.cells.len() / self.width.max(1), self.width)
    }
}

impl Transitions for Matrix {
    #[inline]
    fn start(&self) -> u32 {
        self.start
    }

    #[inline]
    fn step(&self, state: u32, symbol: Sym) -> u32 {
        self.cells[state as usize * self.width + symbol as usize]
    }

    #[inline]
    fn boundary(&self, state: u32) -> u32 {
        self.cells[state as usize * self.width + BOUNDARY as usize]
    }

    #[inline]
    fn has_boundary(&self, state: u32) -> bool {
        self.has_boundary[state as usize]
    }

    #[inline]
    fn network_state(&self, state: u32) -> u32 {
        state
    }
}
