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
use super::datok_models::{MATOK_DELETES, MatokHead, matok_head};
use super::matrix::{Matrix, fits_shape};
use super::runner::{DELETES, LEADS_TO_BOUNDARY};
use crate::core::error::Result;

/// A `.matok` read into a matrix, with what loading it through a network would have warned.
pub(crate) struct MatokMatrix {
    pub(crate) matrix: Matrix,
    pub(crate) alphabet: Alphabet,
    pub(crate) states: u32,
    pub(crate) warnings: Vec<String>,
}

const _: () = assert!(DELETES == MATOK_DELETES);

/// States filled at a time: each of Datok's columns is read for this many states, so the rows
/// being written stay in the cache while the columns are read in order.
const BLOCK: usize = 256;

/// Datok's column of `symbol`: the cells of states 1..=states, in order.
fn column<'d>(head: &MatokHead, data: &'d [u8], symbol: usize) -> std::slice::ChunksExact<'d, u8> {
    let first = head.at(symbol, 1);
    data[first..first + 4 * head.states as usize].chunks_exact(4)
}

/// A little-endian cell.
fn word(c: &[u8]) -> u32 {
    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
}

/// Per column, the edges and the deletions it holds, once every target is checked to be a
/// state: counted without branches (the loop vectorizes); a column with a bad cell is read
/// again to name the first one, as the network reader would.
fn column_counts(path: &Path, head: &MatokHead, data: &[u8]) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut edges_in = vec![0usize; head.count];
    let mut deletions_in = vec![0usize; head.count];
    for symbol in 1..head.count {
        let (mut edges, mut deletions, mut bad) = (0usize, 0usize, false);
        for value in column(head, data, symbol).map(word) {
            let target = value & !MATOK_DELETES;
            edges += usize::from(value != 0);
            deletions += (value >> 31) as usize;
            bad |= (value != 0) & (target.wrapping_sub(1) >= head.states);
        }
        if bad {
            let (state, value) = column(head, data, symbol)
                .map(word)
                .enumerate()
                .find(|&(_, v)| v != 0 && (v & !MATOK_DELETES).wrapping_sub(1) >= head.states)
                .unwrap_or_default();
            return Err(head.bad_target(path, symbol, state + 1, value));
        }
        edges_in[symbol] = edges;
        deletions_in[symbol] = deletions;
    }
    Ok((edges_in, deletions_in))
}

/// Fills toklab's matrix from a `.matok` (decompressed). `None` when the network gets no
/// matrix ([`Matrix::fits`] says it is too sparse), or a column maps to no symbol: the caller
/// reads the network and decides (and words the errors) as for any other file.
pub(crate) fn matok_matrix(path: &Path, data: &[u8]) -> Result<Option<MatokMatrix>> {
    let head = matok_head(path, data)?;
    let (states, count) = (head.states as usize, head.count);
    let column = |symbol: usize| column(&head, data, symbol);
    let (edges_in, deletions_in) = column_counts(path, &head, data)?;
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
    let mut boundary = vec![0u32; states + 1];
    for (slot, value) in boundary[1..]
        .iter_mut()
        .zip(column(boundary_column).map(word))
    {
        *slot = value & !MATOK_DELETES;
    }
    check::check_boundary_chains(
        head.states,
        |s| Some(boundary[s as usize]).filter(|&t| t != 0),
        path,
    )?;
    // Each state's entry in a cell: its row, and whether it has a boundary edge. State 0 (an
    // empty cell) stays 0.
    let entries: Vec<u32> = (0..=states)
        .map(|s| match boundary[s] {
            0 => (s * width) as u32,
            _ => (s * width) as u32 | LEADS_TO_BOUNDARY,
        })
        .collect();
    let mut cells = vec![0u32; (states + 1) * width];
    for first in (1..=states).step_by(BLOCK) {
        let end = (first + BLOCK).min(states + 1);
        let block = &mut cells[first * width..end * width];
        for &(symbol, to, is_boundary) in &columns {
            // Datok's deletion bit is toklab's; a boundary edge deletes nothing.
            let (to, keep) = (to as usize, if is_boundary { 0 } else { DELETES });
            let values = column(symbol).skip(first - 1).take(end - first).map(word);
            for (row, value) in block.chunks_exact_mut(width).zip(values) {
                row[to] = entries[(value & !MATOK_DELETES) as usize] | (value & keep);
            }
        }
    }
    let warnings = check::warnings(&raw, reading_boundary, multichar, unknown_identity);
    Ok(Some(MatokMatrix {
        matrix: Matrix::from_cells(width, cells, entries[1]),
        alphabet,
        states: head.states,
        warnings,
    }))
}
