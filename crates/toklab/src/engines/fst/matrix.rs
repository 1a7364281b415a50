//! The matrix representation (the paper's §2.1): one row per state, one cell per symbol; the
//! cell holds the target state, with the top bit set for a deletion. The ε:boundary edge is
//! the cell in the [`BOUNDARY`] column. One memory read per character.
//!
//! Two refinements keep that read the only work on the way from one character to the next: a
//! state is stored as the offset of its row (no multiplication per character), and each cell
//! also says whether its target has an ε:boundary edge (no second read to decide whether to
//! remember the state).

use super::alphabet::{BOUNDARY, Sym};
use super::double_array::{CELL, Cell, DELETION_TARGET, DoubleArray, SEPARATE};
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
        fits_shape(rows, width, network.edge_count())
    }

    /// [`Matrix::fits`] for a network stored as a double array with `states` states: its
    /// edges are the cells a state owns.
    pub(crate) fn fits_double_array(
        array: &DoubleArray,
        states: u32,
    ) -> Result<(), MatrixTooLarge> {
        let edges = array.cells().iter().filter(|c| c.check & CELL != 0).count();
        fits_shape(states as usize + 1, array.width(), edges)
    }

    /// Fills the table straight from a stored double array (toklab's saved form), without a
    /// network in between: one pass over each state's cells, as [`Matrix::build`] makes one
    /// over its edges. `states` is the network's state count, `start` its start state. Errors
    /// name the cell that leads nowhere; a boundary cycle is refused as when checking a network.
    pub(crate) fn from_double_array(
        array: &DoubleArray,
        states: u32,
        start: u32,
        path: &std::path::Path,
    ) -> crate::Result<Matrix> {
        Matrix::fits_double_array(array, states)?;
        let (width, cells_of, state_of) = (array.width(), array.cells(), array.state_of_cell());
        let bad = |message: String| crate::Error::format(path, None, message);
        // The cell a state's edge on `symbol` leads to, if the state has that edge.
        let child = |rep: usize, symbol: usize| -> Option<(usize, Cell)> {
            let cell = (cells_of[rep].base & CELL) as usize + symbol;
            let c = *cells_of.get(cell)?;
            ((c.check & CELL) as usize == rep).then_some((cell, c))
        };
        let target_of = |cell: usize, c: Cell| -> crate::Result<u32> {
            let rep = if c.base & SEPARATE != 0 {
                (c.base & CELL) as usize
            } else {
                cell
            };
            match state_of.get(rep).copied() {
                Some(t) if t != 0 && t <= states => Ok(t),
                _ => Err(bad(format!(
                    "cell {cell} leads to cell {rep}, which is no state"
                ))),
            }
        };
        let mut boundary = vec![0u32; states as usize + 1];
        for (rep, &state) in state_of.iter().enumerate() {
            if state > states {
                return Err(bad(format!("cell {rep} names state {state} of {states}")));
            }
            if state != 0
                && let Some((cell, c)) = child(rep, BOUNDARY as usize)
            {
                boundary[state as usize] = target_of(cell, c)?;
            }
        }
        super::check::check_boundary_chains(
            states,
            |s| Some(boundary[s as usize]).filter(|&t| t != 0),
            path,
        )?;
        let entry = |state: u32| -> u32 {
            let flag = if boundary[state as usize] != 0 {
                LEADS_TO_BOUNDARY
            } else {
                0
            };
            (state as usize * width) as u32 | flag
        };
        let mut cells = vec![0u32; (states as usize + 1) * width];
        for (rep, &state) in state_of.iter().enumerate() {
            if state == 0 {
                continue;
            }
            let row = &mut cells[state as usize * width..][..width];
            for (symbol, slot) in row.iter_mut().enumerate().skip(1) {
                if let Some((cell, c)) = child(rep, symbol) {
                    let deletes = symbol != BOUNDARY as usize && c.check & DELETION_TARGET != 0;
                    *slot = entry(target_of(cell, c)?) | if deletes { DELETES } else { 0 };
                }
            }
        }
        Ok(Matrix {
            width,
            cells,
            start: entry(start),
        })
    }

    /// A table as toklab's saved form stores it (the cells as [`Matrix::cells`] gives them),
    /// trusted as the file's CRC vouches for it except for what could send the runner
    /// astray: each cell must name a row of the table, and boundary edges must not form a
    /// cycle (the runner would insert boundaries without end).
    pub(crate) fn from_stored(
        cells: Vec<u32>,
        width: usize,
        states: u32,
        start: u32,
        path: &std::path::Path,
    ) -> crate::Result<Matrix> {
        let rows = states as usize + 1;
        let bad = |message: String| crate::Error::format(path, None, message);
        if width <= BOUNDARY as usize || cells.len() != rows * width || start as usize >= rows {
            return Err(bad(format!(
                "the matrix has {} cells, not {rows} states × {width} symbols",
                cells.len()
            )));
        }
        // A division per cell would cost more than reading the file; this is the same test.
        let multiple = MultipleOf::new(width);
        let names_a_row =
            |v: u32| multiple.divides(v & STATE) & (((v & STATE) as usize) < cells.len());
        // Without an early exit the loop vectorizes; the bad cell is looked for only if any.
        if !cells.iter().fold(true, |ok, &v| ok & names_a_row(v)) {
            let at = cells.iter().position(|&v| !names_a_row(v)).unwrap_or(0);
            return Err(bad(format!("matrix cell {at} names no row")));
        }
        let boundary = |s: u32| {
            let v = cells[s as usize * width + BOUNDARY as usize];
            (v != 0).then(|| ((v & STATE) as usize / width) as u32)
        };
        super::check::check_boundary_chains(states, boundary, path)?;
        let flag = if boundary(start).is_some() {
            LEADS_TO_BOUNDARY
        } else {
            0
        };
        Ok(Matrix {
            start: (start as usize * width) as u32 | flag,
            width,
            cells,
        })
    }

    /// A table filled by a reader that checked it (Datok's `.matok`): `cells` row by row as
    /// [`Matrix::cells`] gives them, `start` the start state's entry.
    pub(crate) fn from_cells(width: usize, cells: Vec<u32>, start: u32) -> Matrix {
        Matrix {
            width,
            cells,
            start,
        }
    }

    /// The cells, row by row, as the runner reads them (for toklab's saved form).
    pub(crate) fn cells(&self) -> &[u32] {
        &self.cells
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

/// Whether a u32 is a multiple of a fixed divisor, by one multiplication (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019): `n` is a multiple of `d` exactly
/// when `n · ⌈2^64 / d⌉` wraps to less than `⌈2^64 / d⌉`.
#[derive(Clone, Copy)]
struct MultipleOf {
    c: u64,
}

impl MultipleOf {
    /// `d` must be at least 2 (a matrix has at least the boundary column and one more).
    fn new(d: usize) -> MultipleOf {
        MultipleOf {
            c: (u64::MAX / d as u64).wrapping_add(1),
        }
    }

    #[inline]
    fn divides(self, n: u32) -> bool {
        (n as u64).wrapping_mul(self.c) < self.c
    }
}

/// [`Matrix::fits`] for a table of `rows` × `width` cells holding `edges` edges.
pub(crate) fn fits_shape(rows: usize, width: usize, edges: usize) -> Result<(), MatrixTooLarge> {
    let cells = rows.saturating_mul(width);
    let justified = FREE_CELLS.max(CELLS_PER_EDGE.saturating_mul(edges + rows));
    if cells > STATE as usize || cells > justified {
        return Err(MatrixTooLarge { rows, width, edges });
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::MultipleOf;

    #[test]
    fn multiple_of_agrees_with_the_remainder() {
        for d in [2usize, 3, 5, 7, 64, 171, 175, 1000, 65_539] {
            let m = MultipleOf::new(d);
            let near = |k: u32| [k.wrapping_sub(1), k, k.wrapping_add(1)];
            let samples = (0..2000u32)
                .chain((0..2000u32).map(|k| k * d as u32))
                .chain([u32::MAX, u32::MAX - 1, (u32::MAX / d as u32) * d as u32])
                .flat_map(near);
            for n in samples {
                assert_eq!(m.divides(n), (n as usize).is_multiple_of(d), "{n} by {d}");
            }
        }
    }
}
