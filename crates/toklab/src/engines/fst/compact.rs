//! toklab's own saved form (`toklab fst convert`): the alphabet, the ready-built matrix and
//! the ready-built double array, so loading is a read and a check instead of parsing foma's text
//! and placing every state again. The network was checked when the file was written; CRC-32s
//! catch damaged files. The matrix comes first with its own CRC, so a run that uses it reads
//! only the header and the matrix (a third of the file for Datok's German model) and never the
//! double array; its cells are taken as they are (checking only that each names a row, and
//! that no boundary edges form a cycle). The double array is read only when it is the
//! representation asked for, and the network is recovered from either form only when a view
//! needs it.
//!
//! Layout, little-endian: `TOKLABFST\n`, u16 version (3), u32 start state, u32 state count,
//! u32 character count + the characters as u32, u32 name length + UTF-8 name; u32 count + the
//! matrix's cells as u32 (0 when the network gets no matrix); u32 CRC-32 of everything before
//! it; u32 cell count + (u32 base, u32 check) cells, u32 count + (u32 cell, u32 state)
//! representative pairs; u32 CRC-32 of everything before it. Versions 1 and 2 (still read) have
//! the double array right after the name, then (version 2) the matrix, and one CRC at the end.

use std::io::Read;
use std::path::Path;

use super::alphabet::{Alphabet, BOUNDARY};
use super::double_array::{CELL, Cell, DELETION_TARGET, DoubleArray, HAS_BOUNDARY, SEPARATE};
use super::matrix::Matrix;
use super::network::{Edge, EdgeKind, Network};
use crate::core::error::{Error, Result};

/// How a saved form begins, so the loader recognises it whatever the file is called.
pub const MAGIC: &[u8] = b"TOKLABFST\n";
const VERSION: u16 = 3;

/// Bytes read at a time: large arrays pass through a buffer this size on their way into
/// their vectors, so a file is copied once and never held whole.
const CHUNK: usize = 1 << 16;

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

/// Reads a saved form in memory (decompressed) without recovering its network (see
/// [`Compiled`]).
pub(crate) fn read_compiled(path: &Path, data: &[u8], want: Want) -> Result<Compiled> {
    parse(Reader::new(path, data, data.len()), want)
}

/// Reads the saved form at `path` straight from the file, as far as `want` needs (for the
/// matrix of a version 3 file: the header and the matrix); `None` if the file is not an
/// uncompressed saved form (the caller reads it whole and decides what it is).
pub(crate) fn open_compiled(path: &Path, want: Want) -> Result<Option<Compiled>> {
    use std::io::BufRead;
    let io = |e| Error::io(path, e);
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len() as usize;
    let mut input = std::io::BufReader::with_capacity(CHUNK, file);
    if !input.fill_buf().map_err(io)?.starts_with(MAGIC) {
        return Ok(None);
    }
    parse(Reader::new(path, input, len), want).map(Some)
}

/// A little-endian reader over a saved form of `len` bytes (a file or bytes in memory) that
/// keeps the CRC-32 of what it has read and names the byte offset of a problem.
struct Reader<'a, R> {
    path: &'a Path,
    input: R,
    at: usize,
    len: usize,
    crc: flate2::Crc,
    chunk: Vec<u8>,
}

impl<'a, R: Read> Reader<'a, R> {
    fn new(path: &'a Path, input: R, len: usize) -> Self {
        Reader {
            path,
            input,
            at: 0,
            len,
            crc: flate2::Crc::new(),
            chunk: Vec::new(),
        }
    }

    fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::format(self.path, None, format!("byte {}: {message}", self.at))
    }

    fn rest(&self) -> usize {
        self.len - self.at
    }

    /// The next `n` bytes (at most [`CHUNK`] unless the caller knows better).
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        if self.rest() < n {
            return Err(self.error(format!(
                "the file ends in {what} (truncated?): {n} bytes needed, {} left",
                self.rest()
            )));
        }
        self.chunk.resize(n, 0);
        self.input
            .read_exact(&mut self.chunk)
            .map_err(|e| Error::io(self.path, e))?;
        self.crc.update(&self.chunk);
        self.at += n;
        Ok(&self.chunk)
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A count followed by that many items of `size` bytes, checked against what is left.
    fn counted(&mut self, size: usize, what: &str) -> Result<usize> {
        let n = self.u32(what)? as usize;
        if n.saturating_mul(size) > self.rest() {
            return Err(self.error(format!("{what} claims {n} entries; the file is shorter")));
        }
        Ok(n)
    }

    /// `n` u32s appended to `out` (`None`: read for the CRC only).
    fn u32s(&mut self, n: usize, what: &str, mut out: Option<&mut Vec<u32>>) -> Result<()> {
        if let Some(out) = out.as_deref_mut() {
            out.reserve_exact(n);
        }
        let mut left = n;
        while left > 0 {
            let k = left.min(CHUNK / 4);
            let bytes = self.take(k * 4, what)?;
            if let Some(out) = out.as_deref_mut() {
                let words = bytes.chunks_exact(4);
                out.extend(words.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
            }
            left -= k;
        }
        Ok(())
    }

    /// A counted array of u32 items of `per_item` words each.
    fn counted_u32s(&mut self, per_item: usize, what: &str, keep: bool) -> Result<Vec<u32>> {
        let n = self.counted(4 * per_item, what)?;
        let mut out = Vec::new();
        self.u32s(n * per_item, what, keep.then_some(&mut out))?;
        Ok(out)
    }

    /// The stored CRC-32 of everything read so far.
    fn crc(&mut self, what: &str) -> Result<()> {
        let computed = self.crc.sum();
        if self.u32(what)? != computed {
            return Err(Error::format(
                self.path,
                None,
                format!("damaged or truncated: the CRC-32 of {what} does not match the contents"),
            ));
        }
        Ok(())
    }
}

/// Reads the sections `want` needs, each checked against its CRC before it is used.
fn parse<R: Read>(mut r: Reader<R>, want: Want) -> Result<Compiled> {
    let (version, mut compiled) = read_header(&mut r)?;
    let (width, states, start) = (
        compiled.alphabet.symbol_count(),
        compiled.states,
        compiled.start,
    );
    let wants_matrix = want == Want::Matrix;
    let matrix = |compiled: &mut Compiled, cells: Vec<u32>, path: &Path| -> Result<()> {
        compiled.matrix = Some(Matrix::from_stored(cells, width, states, start, path)?);
        Ok(())
    };
    let mut matrix_cells = Vec::new();
    if version >= 3 {
        matrix_cells = r.counted_u32s(1, "the matrix", wants_matrix)?;
        r.crc("the header and the matrix")?;
        if wants_matrix && !matrix_cells.is_empty() {
            matrix(&mut compiled, matrix_cells, r.path)?;
            return Ok(compiled);
        }
    }
    let cell_words = r.counted_u32s(2, "the double array", true)?;
    let reps = r.counted_u32s(2, "the state map", true)?;
    if version == 2 {
        matrix_cells = r.counted_u32s(1, "the matrix", wants_matrix)?;
    }
    r.crc("the file")?;
    if r.rest() != 0 {
        return Err(r.error("unexpected bytes after the CRC-32"));
    }
    if wants_matrix && !matrix_cells.is_empty() {
        matrix(&mut compiled, matrix_cells, r.path)?;
        return Ok(compiled);
    }
    compiled.array = Some(stored_array(&r, &cell_words, &reps, &compiled)?);
    Ok(compiled)
}

/// Reads the magic, the version, the start and state count, the alphabet and the name: the
/// version and what the file holds apart from its tables.
fn read_header<R: Read>(r: &mut Reader<R>) -> Result<(u16, Compiled)> {
    if r.len < MAGIC.len() + 6 {
        return Err(Error::format(
            r.path,
            None,
            "truncated: too short for toklab's saved form",
        ));
    }
    if r.take(MAGIC.len(), "the magic")? != MAGIC {
        return Err(r.error("not a toklab saved network"));
    }
    let version = r.u16("the header")?;
    if !(1..=VERSION).contains(&version) {
        return Err(r.error(format!(
            "version {version}; this toklab reads versions 1 to {VERSION}"
        )));
    }
    let start = r.u32("the header")?;
    let states = r.u32("the header")?;
    if start == 0 || start > states || states as usize > r.len {
        return Err(r.error(format!("start state {start} of {states}")));
    }
    let count = r.counted(4, "the alphabet")?;
    let mut chars = Vec::with_capacity(count);
    for _ in 0..count {
        let v = r.u32("the alphabet")?;
        chars.push(char::from_u32(v).ok_or_else(|| r.error(format!("{v:#x} is not a character")))?);
    }
    if chars.windows(2).any(|w| w[0] >= w[1]) || count > Alphabet::MAX_CHARS {
        return Err(r.error("the alphabet is not sorted or too large"));
    }
    let name_len = r.counted(1, "the name")?;
    let name = match std::str::from_utf8(r.take(name_len, "the name")?) {
        Ok(name) => name.to_string(),
        Err(_) => return Err(r.error("the name is not UTF-8")),
    };
    let compiled = Compiled {
        alphabet: Alphabet::new(chars),
        start,
        states,
        name,
        array: None,
        matrix: None,
    };
    Ok((version, compiled))
}

/// The double array from its stored cells and state map (representative cell, state),
/// checked: every state placed once, in a cell that exists, the start in the first cell.
fn stored_array<R: Read>(
    r: &Reader<R>,
    cell_words: &[u32],
    reps: &[u32],
    compiled: &Compiled,
) -> Result<DoubleArray> {
    let (states, start) = (compiled.states, compiled.start);
    let cells: Vec<Cell> = cell_words
        .chunks_exact(2)
        .map(|w| Cell {
            base: w[0],
            check: w[1],
        })
        .collect();
    let cell_count = cells.len();
    let mut state_of_cell = vec![0u32; cell_count];
    let mut placed = vec![false; states as usize + 1];
    for pair in reps.chunks_exact(2) {
        let (cell, state) = (pair[0] as usize, pair[1]);
        if cell >= cell_count
            || state == 0
            || state > states
            || std::mem::replace(&mut placed[state as usize], true)
        {
            return Err(r.error(format!("state map entry: cell {cell}, state {state}")));
        }
        state_of_cell[cell] = state;
    }
    if state_of_cell.get(1) != Some(&start) {
        return Err(r.error("the start cell does not hold the start state"));
    }
    DoubleArray::from_cells(cells, state_of_cell, compiled.alphabet.symbol_count())
        .map_err(|e| Error::format(r.path, None, e.to_string()))
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
