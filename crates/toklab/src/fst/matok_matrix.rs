//! Datok's `.matok` straight into toklab's matrix: Datok's file already is a matrix (column by
//! column, one cell per state and symbol), so the network the other readers build — two
//! million edges for Datok's German model, each classified, sorted and checked — is skipped.
//! What the checks on the network guarantee is checked here on the cells: every target is a
//! state, the characters are distinct, some state has a boundary edge and the boundary edges
//! form no cycle; a matrix cannot be non-deterministic. The network is recovered from the
//! matrix only when a view asks for it.

use std::path::Path;

use super::alphabet::{Alphabet, BOUNDARY, Sym, UNKNOWN};
use super::check::{self, Mapped};
use super::datok_models::{MATOK_DELETES, matok_head};
use super::matrix::{Matrix, fits_shape};
use super::runner::{DELETES, LEADS_TO_BOUNDARY};
use crate::error::Result;

/// A `.matok` read into a matrix, with what loading it through a network would have warned.
pub(crate) struct MatokMatrix {
    pub(crate) matrix: Matrix,
    pub(crate) alphabet: Alphabet,
    pub(crate) states: u32,
    pub(crate) warnings: Vec<String>,
}

/// States filled at a time: each of Datok's columns is read for this many states, so the rows
/// being written stay in the cache while the columns are read in order.
const BLOCK: usize = 256;

/// Fills toklab's matrix from a `.matok` (decompressed). `None` when the network gets no
/// matrix ([`Matrix::fits`] says it is too sparse), or a column maps to no symbol: the caller
/// reads the network and decides (and words the errors) as for any other file.
pub(crate) fn matok_matrix(path: &Path, data: &[u8]) -> Result<Option<MatokMatrix>> {
    let head = matok_head(path, data)?;
    let (states, count) = (head.states as usize, head.count);
    let cell = |symbol: usize, state: usize| {
        let at = head.at(symbol, state);
        u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
    };
    // Every target in range (the first bad cell in the order the network reader finds it),
    // and per column the edges and deletions it holds.
    let mut edges_in = vec![0usize; count];
    let mut deletions_in = vec![0usize; count];
    for symbol in 1..count {
        for state in 1..=states {
            let value = cell(symbol, state);
            if value == 0 {
                continue;
            }
            let target = (value & !MATOK_DELETES) as usize;
            if target == 0 || target > states {
                return Err(head.bad_target(path, symbol, state, value));
            }
            edges_in[symbol] += 1;
            deletions_in[symbol] += usize::from(value & MATOK_DELETES != 0);
        }
    }
    let raw = head.raw(path, Vec::new());
    let (alphabet, mapped) = check::symbol_map(&raw)?;
    // Datok's column → toklab's column, and whether it holds the ε:boundary edges.
    let mut columns: Vec<(usize, Sym, bool)> = Vec::new();
    let (mut reading_boundary, mut multichar, mut unknown_identity) = (0, 0, 0);
    for symbol in 1..count {
        match mapped.get(symbol).copied().flatten() {
            Some(Mapped::Epsilon) => columns.push((symbol, BOUNDARY, true)),
            Some(Mapped::Symbol(s)) => {
                columns.push((symbol, s, false));
                if s == UNKNOWN {
                    unknown_identity += edges_in[symbol] - deletions_in[symbol];
                }
            }
            Some(Mapped::Multi) => multichar += edges_in[symbol],
            Some(Mapped::Boundary) => reading_boundary += edges_in[symbol],
            None => return Ok(None),
        }
    }
    let edges: usize = columns.iter().map(|c| edges_in[c.0]).sum();
    let boundary_column = columns.iter().find(|c| c.2).map(|c| c.0);
    let Some(boundary_column) = boundary_column.filter(|&c| edges_in[c] > 0) else {
        return Err(check::no_boundary_edge(path));
    };
    let width = alphabet.symbol_count();
    if fits_shape(states + 1, width, edges).is_err() {
        return Ok(None);
    }
    let boundary: Vec<u32> = (0..=states)
        .map(|s| match s {
            0 => 0,
            s => cell(boundary_column, s) & !MATOK_DELETES,
        })
        .collect();
    check::check_boundary_chains(
        head.states,
        |s| Some(boundary[s as usize]).filter(|&t| t != 0),
        path,
    )?;
    let entry = |state: usize| -> u32 {
        let flag = if boundary[state] != 0 {
            LEADS_TO_BOUNDARY
        } else {
            0
        };
        (state * width) as u32 | flag
    };
    let mut cells = vec![0u32; (states + 1) * width];
    for first in (1..=states).step_by(BLOCK) {
        let block = first..(first + BLOCK).min(states + 1);
        for &(symbol, column, is_boundary) in &columns {
            for state in block.clone() {
                let value = cell(symbol, state);
                if value == 0 {
                    continue;
                }
                let deletes = !is_boundary && value & MATOK_DELETES != 0;
                let target = entry((value & !MATOK_DELETES) as usize);
                cells[state * width + column as usize] = target | if deletes { DELETES } else { 0 };
            }
        }
    }
    let warnings = check::warnings(&raw, reading_boundary, multichar, unknown_identity);
    Ok(Some(MatokMatrix {
        matrix: Matrix::from_cells(width, cells, entry(1)),
        alphabet,
        states: head.states,
        warnings,
    }))
}
