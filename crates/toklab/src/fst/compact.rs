//! toklab's own saved form (`toklab fst convert`): the alphabet and the ready-built double
//! array, so loading is a read and a check instead of parsing foma's text and placing every
//! state again. The network (and from it the matrix) is recovered by walking the array, which
//! also proves the stored array consistent; a CRC-32 catches damaged files.
//!
//! Layout, little-endian: `TOKLABFST\n`, u16 version (1), u32 start state, u32 state count,
//! u32 character count + the characters as u32, u32 name length + UTF-8 name, u32 cell count +
//! (u32 base, u32 check) cells, u32 count + (u32 cell, u32 state) representative pairs, u32
//! CRC-32 of everything before it.

use std::path::Path;

use super::alphabet::{Alphabet, BOUNDARY};
use super::datok_models::Bytes;
use super::double_array::{CELL, Cell, DELETION_TARGET, DoubleArray, HAS_BOUNDARY, SEPARATE};
use super::network::{Edge, EdgeKind, Network};
use crate::error::{Error, Result};

/// How a saved form begins, so the loader recognises it whatever the file is called.
pub const MAGIC: &[u8] = b"TOKLABFST\n";
const VERSION: u16 = 1;

/// Serializes a network with its double array.
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
    let crc = crc32(&out);
    u32s(&mut out, crc);
    out
}

/// Reads a saved form back: the network and the stored double array.
pub fn read(path: &Path, data: &[u8]) -> Result<(Network, DoubleArray)> {
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
    if version != VERSION {
        return Err(bytes.error(format!(
            "version {version}; this toklab reads version {VERSION}"
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
    let mut cells = Vec::with_capacity(cell_count);
    for _ in 0..cell_count {
        let base = bytes.u32("the double array")?;
        let check = bytes.u32("the double array")?;
        cells.push(Cell { base, check });
    }
    let rep_count = counted(&mut bytes, 8, "the state map")?;
    let mut state_of_cell = vec![0u32; cell_count];
    let mut placed = vec![false; states as usize + 1];
    for _ in 0..rep_count {
        let cell = bytes.u32("the state map")? as usize;
        let state = bytes.u32("the state map")?;
        if cell >= cell_count
            || state == 0
            || state > states
            || std::mem::replace(&mut placed[state as usize], true)
        {
            return Err(bytes.error(format!("state map entry: cell {cell}, state {state}")));
        }
        state_of_cell[cell] = state;
    }
    if bytes.rest() != 0 {
        return Err(bytes.error("unexpected bytes after the state map"));
    }
    if state_of_cell.get(1) != Some(&start) {
        return Err(bytes.error("the start cell does not hold the start state"));
    }
    let array = DoubleArray::from_cells(cells, state_of_cell, width)
        .map_err(|e| Error::format(path, None, e.to_string()))?;
    let network = walk(path, &array, alphabet, start, states, name)?;
    Ok((network, array))
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
