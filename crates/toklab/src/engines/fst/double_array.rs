//! The double-array representation (the paper's §2.2, after Mizobuchi et al.): a state is a
//! cell; reading symbol `a` in state `t` leads to cell `base[t] + a`, valid if that cell's
//! `check` names `t`. A state reached by more than one edge has one representative cell; the
//! other cells that lead to it are "separate" (top bit of `base`) and point to it. Deletion
//! targets carry the top bit of `check`.
//!
//! Unlike Datok's, the construction is deterministic: states are placed in breadth-first order
//! with edges in symbol order, each at the first base where all its symbols fit.

use std::collections::VecDeque;

use super::alphabet::{BOUNDARY, Sym};
use super::network::{EdgeKind, Network};
use super::runner::{DELETES, Transitions};

/// `base` bit: the cell is a separate state; the rest of `base` is its representative cell.
pub const SEPARATE: u32 = 1 << 31;
/// `base` bit of a representative cell: its state has an ε:boundary edge (Datok masks this
/// bit away, so a written `.datok` stays valid).
pub const HAS_BOUNDARY: u32 = 1 << 30;
/// `check` bit: the cell is the target of a deletion edge.
pub const DELETION_TARGET: u32 = 1 << 31;
/// `check` bit: the cell is the target of an ε:boundary edge (shown by `fst info`).
pub const BOUNDARY_TARGET: u32 = 1 << 30;
/// The cell number in `base` and `check`, below the flag bits.
pub const CELL: u32 = (1 << 30) - 1;

// A deletion target's flag is passed on as the runner's deletion flag unchanged.
const _: () = assert!(DELETION_TARGET == DELETES);

/// One cell: the base of the state it represents (or its representative) and its parent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Where the state's children start (or its representative), with flag bits.
    pub base: u32,
    /// The parent state, with flag bits; tells whether a cell belongs to the state that looks it up.
    pub check: u32,
}

/// The double array, with the map from representative cells back to network states so
/// traces and tokens name the same states whichever representation ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoubleArray {
    cells: Vec<Cell>,
    start: u32,
    /// The network state each representative cell stands for (0 for other cells).
    state_of_cell: Vec<u32>,
    width: usize,
}

impl DoubleArray {
    /// Places every reachable state of `network` (deterministically: same network, same array).
    pub fn build(network: &Network) -> DoubleArray {
        let width = network.alphabet.symbol_count();
        let mut rep = vec![0u32; network.state_count() as usize + 1];
        let mut cells = vec![Cell::default(); 2 + width];
        let mut used = vec![false; cells.len()];
        used[0] = true;
        used[1] = true;
        rep[network.start as usize] = 1;
        let mut queue = VecDeque::from([network.start]);
        let mut free_from = 2usize;
        // Where the last state with as many edges was placed: the cells before it were too
        // full for that one, so a state like it starts looking there (a deterministic skip).
        let mut hint = vec![0usize; width + 1];
        while let Some(state) = queue.pop_front() {
            let edges = network.edges(state);
            if edges.is_empty() {
                continue;
            }
            let symbols: Vec<usize> = edges.iter().map(|e| e.symbol as usize).collect();
            let from = free_from.max(hint[symbols.len()] + symbols[0]);
            let base = first_fit(&used, from, &symbols);
            hint[symbols.len()] = base;
            let needed = base + width + 1;
            if cells.len() < needed {
                cells.resize(needed, Cell::default());
                used.resize(needed, false);
            }
            let here = rep[state as usize];
            cells[here as usize].base = base as u32
                | if network.boundary(state).is_some() {
                    HAS_BOUNDARY
                } else {
                    0
                };
            for edge in edges {
                let cell = base + edge.symbol as usize;
                used[cell] = true;
                cells[cell].check = here
                    | match edge.kind {
                        EdgeKind::Deletion => DELETION_TARGET,
                        EdgeKind::Boundary => BOUNDARY_TARGET,
                        EdgeKind::Identity => 0,
                    };
                let target = &mut rep[edge.target as usize];
                if *target == 0 {
                    *target = cell as u32;
                    queue.push_back(edge.target);
                } else {
                    cells[cell].base = *target | SEPARATE;
                }
            }
            while free_from < used.len() && used[free_from] {
                free_from += 1;
            }
        }
        let mut state_of_cell = vec![0u32; cells.len()];
        for (state, &cell) in rep.iter().enumerate() {
            if cell != 0 {
                state_of_cell[cell as usize] = state as u32;
            }
        }
        DoubleArray {
            cells,
            start: 1,
            state_of_cell,
            width,
        }
    }

    /// A double array from stored cells (our saved form), checked so that no lookup can leave
    /// the array: every base plus every symbol stays inside, every representative is a cell.
    pub fn from_cells(
        cells: Vec<Cell>,
        state_of_cell: Vec<u32>,
        width: usize,
    ) -> Result<DoubleArray, CellsError> {
        if cells.len() < 2 || state_of_cell.len() != cells.len() {
            return Err(CellsError::Truncated);
        }
        for (i, cell) in cells.iter().enumerate() {
            let base = (cell.base & CELL) as usize;
            // A separate cell's base names its representative; any other's, where its
            // children start.
            let reach = if cell.base & SEPARATE != 0 {
                base + 1
            } else {
                base + width
            };
            if reach > cells.len() {
                return Err(CellsError::BaseBeyondEnd {
                    cell: i,
                    base,
                    cells: cells.len(),
                });
            }
        }
        Ok(DoubleArray {
            cells,
            start: 1,
            state_of_cell,
            width,
        })
    }

    /// Symbols per state: the alphabet's symbol count the array was built for.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The cells, for saving and for `fst info`.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The network state of each representative cell (0 elsewhere), saved with the cells.
    pub fn state_of_cell(&self) -> &[u32] {
        &self.state_of_cell
    }

    /// Bytes of base and check (the state map, used only to name states, is not counted).
    pub fn memory(&self) -> usize {
        self.cells.len() * std::mem::size_of::<Cell>()
    }

    /// The share of cells in use (the paper's load factor): the start cell and every edge's cell.
    pub fn load_factor(&self) -> f64 {
        let used = 1 + self.cells.iter().filter(|c| c.check & CELL != 0).count();
        used as f64 / self.cells.len() as f64
    }
}

/// Why stored cells cannot be a double array: a lookup could leave the array.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellsError {
    /// Fewer than the two cells every array has, or a state map of another length.
    #[error("double array too short or without its state map")]
    Truncated,
    /// A cell whose base plus a symbol points past the last cell.
    #[error("cell {cell}: base {base} leads beyond the array of {cells} cells")]
    BaseBeyondEnd {
        /// The offending cell's index.
        cell: usize,
        /// Its base.
        base: usize,
        /// The array's length.
        cells: usize,
    },
}

impl From<CellsError> for crate::Error {
    fn from(error: CellsError) -> Self {
        crate::Error::invalid(error)
    }
}

/// The smallest base ≥ 1 at which every symbol's cell is free (cells past the end are free).
fn first_fit(used: &[bool], free_from: usize, symbols: &[usize]) -> usize {
    let first = symbols[0];
    let mut cell = free_from.max(first + 1);
    loop {
        if cell < used.len() && used[cell] {
            cell += 1;
            continue;
        }
        let base = cell - first;
        if symbols[1..]
            .iter()
            .all(|&s| base + s >= used.len() || !used[base + s])
        {
            return base;
        }
        cell += 1;
    }
}

impl Transitions for DoubleArray {
    #[inline]
    fn start(&self) -> u32 {
        self.start
    }

    #[inline]
    fn step(&self, state: u32, symbol: Sym) -> u32 {
        let cell = (self.cells[state as usize].base & CELL) as usize + symbol as usize;
        let target = self.cells[cell];
        if target.check & CELL != state {
            return 0;
        }
        let next = if target.base & SEPARATE != 0 {
            target.base & CELL
        } else {
            cell as u32
        };
        next | (target.check & DELETION_TARGET)
    }

    #[inline]
    fn boundary(&self, state: u32) -> u32 {
        self.step(state, BOUNDARY)
    }

    #[inline]
    fn has_boundary(&self, state: u32) -> bool {
        self.cells[state as usize].base & HAS_BOUNDARY != 0
    }

    #[inline]
    fn network_state(&self, state: u32) -> u32 {
        self.state_of_cell[state as usize]
    }
}
