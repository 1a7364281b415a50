//! toklab's own saved form (`toklab fst convert`): the alphabet, the ready-built double array
//! and the ready-built matrix, so loading is a read and a check instead of parsing foma's text
//! and placing every state again. The network was checked when the file was written; a CRC-32
//! catches damaged files. Loading the matrix takes its cells as they are (checking only that
//! each names a row, and that no boundary edges form a cycle); the double array is read only
//! when it is the representation asked for, and the network is recovered from either form
//! only when a view needs it.
//!
//! Layout, little-endian: `TOKLABFST\n`, u16 version (2), u32 start state, u32 state count,
//! u32 character count + the characters as u32, u32 name length + UTF-8 name, u32 cell count +
//! (u32 base, u32 check) cells, u32 count + (u32 cell, u32 state) representative pairs, u32
//! count + the matrix's cells as u32 (0 when the network gets no matrix; absent in version 1,
//! which is still read), u32 CRC-32 of everything before it.

use std::path::Path;

use super::alphabet::{Alphabet, BOUNDARY};
use super::datok_models::Bytes;
use super::double_array::{CELL, Cell, DELETION_TARGET, DoubleArray, HAS_BOUNDARY, SEPARATE};
use super::matrix::Matrix;
use super::network::{Edge, EdgeKind, Network};
use crate::error::{Error, Result};

/// How a saved form begins, so the loader recognises it whatever the file is called.
pub const MAGIC: &[u8] = b"TOKLABFST\n";
const VERSION: u16 = 2;

/// Serializes a network with its double array (and its matrix, when it gets one).
pub fn write(network: &Network, array: &DoubleArray) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + array.cells().len() * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let u32s = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    u32s(&mut out, network.start);
    u32s(&mut out, network.state_count());
    let chars = network.alphabet.chars();
    u32s(&mut out, chars.len() as u32);
    for &c in chars {
        u32s(&mut out, c as u32);
    }
    let name = network.name.as_deref().unwrap_or("");
    u32s(&mut out, name.len() as u32);
    out.extend_from_slice(name.as_bytes());
    u32s(&mut out, array.cells().len() as u32);
    for cell in array.cells() {
        u32s(&mut out, cell.base);
        u32s(&mut out, cell.check);
    }
    let reps: Vec<(u32, u32)> = array
        .state_of_cell()
        .iter()
        .enumerate()
        .filter(|(_, s)| **s != 0)
        .map(|(c, s)| (c as u32, *s))
        .collect();
    u32s(&mut out, reps.len() as u32);
    for (cell, state) in reps {
        u32s(&mut out, cell);
        u32s(&mut out, state);
    }
    // From the array, so the matrix holds the same (reachable) states the array does.
    let matrix = Matrix::fits(network).ok().and_then(|()| {
        let (states, start) = (network.state_count(), network.start);
        Matrix::from_double_array(array, states, start, Path::new("")).ok()
    });
    let matrix_cells = matrix.as_ref().map_or(&[][..], |m| m.cells());
    u32s(&mut out, matrix_cells.len() as u32);
    for &cell in matrix_cells {
        u32s(&mut out, cell);
    }
    let crc = crc32(&out);
    u32s(&mut out, crc);
    out
}

/// A saved form as stored: everything but the network, which [`Compiled::network`] recovers
/// from the array when a view needs it. The CRC and the array's bounds are checked; the
/// network's properties were checked when the file was written (`toklab fst convert`), so
/// loading trusts them instead of rebuilding and re-checking two million edges.
pub(crate) struct Compiled {
    pub(crate) alphabet: Alphabet,
    pub(crate) start: u32,
    pub(crate) states: u32,
    pub(crate) name: String,
    /// Read unless the matrix was asked for and the file has one.
    pub(crate) array: Option<DoubleArray>,
    /// The stored matrix, when asked for and the file has one.
    pub(crate) matrix: Option<Matrix>,
}

/// Which representation a caller of [`read_compiled`] wants from the file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// The double array (and from it the network).
    Array,
    /// The stored matrix if there is one (else the array, to build it from).
    Matrix,
}

/// Reads a saved form back: the network and the stored double array.
pub fn read(path: &Path, data: &[u8]) -> Result<(Network, DoubleArray)> {
    let Compiled {
        alphabet,
        start,
        states,
        name,
        array,
        ..
    } = read_compiled(path, data, Want::Array)?;
    let array = array.ok_or_else(|| Error::format(path, None, "no double array read"))?;
    let network = walk(path, &array, alphabet, start, states, name)?;
    Ok((network, array))
}

/// Reads a saved form without recovering its network (see [`Compiled`]).
pub(crate) fn read_compiled(path: &Path, data: &[u8], want: Want) -> Result<Compiled> {
    if data.len() < MAGIC.len() + 6 {
        return Err(Error::format(
            path,
            None,
            "truncated: too short for toklab's saved form",
        ));
    }
    let (body, tail) = data.split_at(data.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    if crc32(body) != stored {
        return Err(Error::format(
            path,
            None,
            "damaged or truncated: the CRC-32 does not match the contents",
        ));
    }
    let mut bytes = Bytes::new(path, body);
    if bytes.take(MAGIC.len(), "the magic")? != MAGIC {
        return Err(bytes.error("not a toklab saved network"));
    }
    let version = bytes.u16("the header")?;
    if version != VERSION && version != 1 {
        return Err(bytes.error(format!(
            "version {version}; this toklab reads versions 1 and {VERSION}"
        )));
    }
    let start = bytes.u32("the header")?;
    let states = bytes.u32("the header")?;
    if start == 0 || start > states || states as usize > body.len() {
        return Err(bytes.error(format!("start state {start} of {states}")));
    }
    let count = counted(&mut bytes, 4, "the alphabet")?;
    let mut chars = Vec::with_capacity(count);
    for _ in 0..count {
        let v = bytes.u32("the alphabet")?;
        chars.push(
            char::from_u32(v).ok_or_else(|| bytes.error(format!("{v:#x} is not a character")))?,
        );
    }
    if chars.windows(2).any(|w| w[0] >= w[1]) || count > Alphabet::MAX_CHARS {
        return Err(bytes.error("the alphabet is not sorted or too large"));
    }
    let alphabet = Alphabet::new(chars);
    let width = alphabet.symbol_count();
    let name_len = counted(&mut bytes, 1, "the name")?;
    let name = std::str::from_utf8(bytes.take(name_len, "the name")?)
        .map_err(|_| bytes.error("the name is not UTF-8"))?
        .to_string();
    let cell_count = counted(&mut bytes, 8, "the double array")?;
    let cell_bytes = bytes.take(cell_count * 8, "the double array")?;
    let rep_count = counted(&mut bytes, 8, "the state map")?;
    let mut reps = Bytes::new(path, body);
    reps.at = bytes.at;
    bytes.take(rep_count * 8, "the state map")?;
    let matrix_count = match version {
        1 => 0,
        _ => counted(&mut bytes, 4, "the matrix")?,
    };
    let matrix_bytes = bytes.take(matrix_count * 4, "the matrix")?;
    if bytes.rest() != 0 {
        return Err(bytes.error("unexpected bytes after the matrix"));
    }
    let mut compiled = Compiled {
        alphabet,
        start,
        states,
        name,
        array: None,
        matrix: None,
    };
    if want == Want::Matrix && matrix_count > 0 {
        let cells = matrix_bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        compiled.matrix = Some(Matrix::from_stored(cells, width, states, start, path)?);
        return Ok(compiled);
    }
    let cells: Vec<Cell> = cell_bytes
        .chunks_exact(8)
        .map(|c| Cell {
            base: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
            check: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
        })
        .collect();
    let mut state_of_cell = vec![0u32; cell_count];
    let mut placed = vec![false; states as usize + 1];
    for _ in 0..rep_count {
        let cell = reps.u32("the state map")? as usize;
        let state = reps.u32("the state map")?;
        if cell >= cell_count
            || state == 0
            || state > states
            || std::mem::replace(&mut placed[state as usize], true)
        {
            return Err(reps.error(format!("state map entry: cell {cell}, state {state}")));
        }
        state_of_cell[cell] = state;
    }
    if state_of_cell.get(1) != Some(&start) {
        return Err(reps.error("the start cell does not hold the start state"));
    }
    compiled.array = Some(
        DoubleArray::from_cells(cells, state_of_cell, width)
            .map_err(|e| Error::format(path, None, e.to_string()))?,
    );
    Ok(compiled)
}

/// A count followed by that many items of `size` bytes, checked against what is left.
fn counted(bytes: &mut Bytes, size: usize, what: &str) -> Result<usize> {
    let n = bytes.u32(what)? as usize;
    if n.saturating_mul(size) > bytes.rest() {
        return Err(bytes.error(format!("{what} claims {n} entries; the file is shorter")));
    }
    Ok(n)
}

/// Recovers the network's edges from the array: every representative cell's children.
fn walk(
    path: &Path,
    array: &DoubleArray,
    alphabet: Alphabet,
    start: u32,
    states: u32,
    name: String,
) -> Result<Network> {
    let cells = array.cells();
    let state_of = array.state_of_cell();
    let width = alphabet.symbol_count();
    let mut per_state = vec![Vec::new(); states as usize + 1];
    for (rep, &state) in state_of.iter().enumerate() {
        if state == 0 {
            continue;
        }
        let base = (cells[rep].base & CELL) as usize;
        for symbol in 1..width {
            let t1 = base + symbol;
            let child = cells[t1];
            if (child.check & CELL) as usize != rep {
                continue;
            }
            let target_cell = if child.base & SEPARATE != 0 {
                (child.base & CELL) as usize
            } else {
                t1
            };
            let target = state_of.get(target_cell).copied().unwrap_or(0);
            if target == 0 {
                return Err(Error::format(
                    path,
                    None,
                    format!("cell {t1} leads to cell {target_cell}, which is no state"),
                ));
            }
            let kind = if symbol == BOUNDARY as usize {
                EdgeKind::Boundary
            } else if child.check & DELETION_TARGET != 0 {
                EdgeKind::Deletion
            } else {
                EdgeKind::Identity
            };
            per_state[state as usize].push(Edge {
                symbol: symbol as u16,
                target,
                kind,
            });
        }
        let has_boundary = per_state[state as usize]
            .iter()
            .any(|e| e.kind == EdgeKind::Boundary);
        if has_boundary != (cells[rep].base & HAS_BOUNDARY != 0) {
            return Err(Error::format(
                path,
                None,
                format!("cell {rep}: the boundary flag does not match the cell's edges"),
            ));
        }
    }
    let name = (!name.is_empty()).then_some(name);
    let network = Network::from_edges(alphabet, start, per_state, name, "toklab saved form");
    super::check::check_boundary_cycles(&network, path)?;
    Ok(network)
}

/// CRC-32 (IEEE), through flate2's implementation.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(data);
    crc.sum()
}
