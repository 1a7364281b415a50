//! The matrix representation (the paper's §2.1): one row per state, one cell per symbol; the
//! cell holds the target state, with the top bit set for a deletion. The ε:boundary edge is
//! the cell in the [`BOUNDARY`] column. One memory read per character.
//!
//! Two refinements keep that read the only work on the way from one character to the next: a
//! state is stored as the offset of its row (no multiplication per character), and each cell
//! also says whether its target has an ε:boundary edge (no second read to decide whether to
//! remember the state).

use super::alphabet::{BOUNDARY, Sym};
use super::network::{EdgeKind, Network};
use super::runner::{DELETES, LEADS_TO_BOUNDARY, STATE, Transitions};

/// Why a network gets no matrix: its table would have more cells than a state offset can
/// address, or far more than its edges justify (a sparse network with a large alphabet: 16,500
/// states × 65,000 symbols is 4 GiB of cells for a few hundred thousand edges). The message
/// points to the double array, whose memory follows the edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixTooLarge {
    /// Rows the table would need (states plus the dead row).
    pub rows: usize,
    /// Columns per row (symbols of the alphabet).
    pub width: usize,
    /// The network's edges: what the cells would hold.
    pub edges: usize,
}

impl std::fmt::Display for MatrixTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = (self.rows as u128 * self.width as u128 * 4) >> 20;
        write!(
            f,
            "{} states × {} symbols would make a matrix of {mib} MiB for {} edges, too large; use ?repr=da",
            self.rows, self.width, self.edges
        )
    }
}

impl std::error::Error for MatrixTooLarge {}

/// A table this small is always fine (16 MiB), however sparse.
const FREE_CELLS: usize = 1 << 22;

/// Beyond [`FREE_CELLS`], cells per edge (or state) a matrix may spend: denser networks get
/// the one-read-per-character table, sparser ones would waste the memory.
const CELLS_PER_EDGE: usize = 256;

impl From<MatrixTooLarge> for crate::Error {
    fn from(error: MatrixTooLarge) -> Self {
        crate::Error::invalid(error)
    }
}

/// The transition table, row-major (`cells[row + symbol]`, `row = state * width`) so a
/// state's edges share cache lines; `0` is "no edge".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    width: usize,
    cells: Vec<u32>,
    /// The start state's row, with [`LEADS_TO_BOUNDARY`] if it has a boundary edge.
    start: u32,
}

impl Matrix {
    /// Fills the table from a network; an error, before allocating, if the table would not
    /// be addressable (more than 2^30 cells) or would be far larger than the network's edges
    /// justify (see [`Matrix::fits`]): a double array is the form for such networks.
    pub fn build(network: &Network) -> Result<Matrix, MatrixTooLarge> {
        Matrix::fits(network)?;
        let width = network.alphabet.symbol_count();
        let rows = network.state_count() as usize + 1;
        let entry = |state: u32| -> u32 {
            let flag = if network.boundary(state).is_some() {
                LEADS_TO_BOUNDARY
            } else {
                0
            };
            (state as usize * width) as u32 | flag
        };
        let mut cells = vec![0u32; rows * width];
        for state in 1..rows as u32 {
            for edge in network.edges(state) {
                let flag = if edge.kind == EdgeKind::Deletion {
                    DELETES
                } else {
                    0
                };
                cells[state as usize * width + edge.symbol as usize] = entry(edge.target) | flag;
            }
        }
        Ok(Matrix {
            width,
            cells,
            start: entry(network.start),
        })
    }

    /// Whether the network's matrix is worth building: addressable, and either small or with
    /// at most [`CELLS_PER_EDGE`] cells per edge and state.
    pub fn fits(network: &Network) -> Result<(), MatrixTooLarge> {
        let width = network.alphabet.symbol_count();
        let rows = network.state_count() as usize + 1;
        let edges = network.edge_count();
        let cells = rows.saturating_mul(width);
        let justified = FREE_CELLS.max(CELLS_PER_EDGE.saturating_mul(edges + rows));
        if cells > STATE as usize || cells > justified {
            return Err(MatrixTooLarge { rows, width, edges });
        }
        Ok(())
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
    const CARRIES_BOUNDARY_FLAG: bool = true;

    #[inline]
    fn start(&self) -> u32 {
        self.start
    }

    #[inline]
    fn step(&self, state: u32, symbol: Sym) -> u32 {
        self.cells[state as usize + symbol as usize]
    }

    #[inline]
    fn boundary(&self, state: u32) -> u32 {
        self.cells[state as usize + BOUNDARY as usize]
    }

    #[inline]
    fn network_state(&self, state: u32) -> u32 {
        ((state & STATE) as usize / self.width) as u32
    }
}
