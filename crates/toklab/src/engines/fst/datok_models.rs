//! Datok's own converted models, read as they are: `.matok` (the matrix) and `.datok` (the
//! double array), both gzip-compressed little-endian files (layout in the conformance README).
//! Datok numbers foma's symbols and states +1, so its files count states from 1 as we do; its
//! ε column holds the ε:boundary edges (the boundary symbol itself is not stored).

use std::path::Path;

use super::alphabet::{Alphabet, BOUNDARY, IDENTITY, Sym, UNKNOWN};
use super::double_array::DoubleArray;
use super::network::{EdgeKind, Network};
use super::raw::{RawArc, RawNetwork, RawSymbol};
use crate::core::error::{Error, Result};

/// Datok's flag bits.
const FIRST_BIT: u32 = 1 << 31;
const SECOND_BIT: u32 = 1 << 30;
const REST_BITS: u32 = !(FIRST_BIT | SECOND_BIT);

/// A little-endian reader over a decompressed model that names the byte offset of a problem.
pub(crate) struct Bytes<'a> {
    path: &'a Path,
    data: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Bytes<'a> {
    pub(crate) fn new(path: &'a Path, data: &'a [u8]) -> Self {
        Bytes { path, data, at: 0 }
    }

    pub(crate) fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::format(
            self.path,
            None,
            format!("byte {} (decompressed): {message}", self.at),
        )
    }

    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.data.len() - self.at < n {
            return Err(self.error(format!(
                "the file ends in {what} (truncated?): {n} bytes needed, {} left",
                self.data.len() - self.at
            )));
        }
        let slice = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(slice)
    }

    pub(crate) fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// One UTF-8 character (Go's `WriteRune`).
    pub(crate) fn char(&mut self, what: &str) -> Result<char> {
        let first = *self.take(1, what)?.first().unwrap_or(&0);
        let len = match first {
            0x00..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 0,
        };
        self.at -= 1;
        let bytes = if len == 0 {
            None
        } else {
            self.take(len, what).ok()
        };
        match bytes.and_then(|b| std::str::from_utf8(b).ok()) {
            Some(s) => Ok(s.chars().next().unwrap_or('\0')),
            None => Err(self.error(format!("invalid UTF-8 in {what}"))),
        }
    }

    pub(crate) fn rest(&self) -> usize {
        self.data.len() - self.at
    }
}

/// The sigma list both formats share: `count` characters by symbol number, with 0 for the
/// slots of special symbols.
fn sigma(
    bytes: &mut Bytes,
    count: usize,
    epsilon: u16,
    unknown: u16,
    identity: u16,
) -> Result<Vec<Option<RawSymbol>>> {
    let mut symbols = Vec::with_capacity(count + 1);
    for number in 0..count {
        let c = bytes.char("the alphabet")?;
        let n = number as u16;
        symbols.push(Some(if n == epsilon {
            RawSymbol::Epsilon
        } else if n == unknown {
            RawSymbol::Unknown
        } else if n == identity {
            RawSymbol::Identity
        } else if c == '\0' {
            RawSymbol::Multi(format!("#{number}"))
        } else {
            RawSymbol::Char(c)
        }));
    }
    if epsilon as usize >= count || epsilon == 0 {
        return Err(bytes.error(format!(
            "the epsilon symbol {epsilon} is not among the {count} symbols"
        )));
    }
    // The boundary symbol is implicit: the ε column holds the ε:boundary edges.
    symbols.push(Some(RawSymbol::Boundary));
    Ok(symbols)
}

/// The start both formats share: magic, version 1, and the ε, unknown and identity symbols.
fn header(bytes: &mut Bytes, magic: &[u8], what: &str) -> Result<[u16; 3]> {
    if bytes.take(magic.len(), "the magic")? != magic {
        return Err(bytes.error(format!(
            "not {what} (no {} magic)",
            String::from_utf8_lossy(magic)
        )));
    }
    let version = bytes.u16("the header")?;
    if version != 1 {
        return Err(bytes.error(format!("version {version}; only version 1 is known")));
    }
    Ok([
        bytes.u16("the header")?,
        bytes.u16("the header")?,
        bytes.u16("the header")?,
    ])
}

/// A `.matok`'s header and alphabet, checked to be followed by the whole matrix.
pub(crate) struct MatokHead {
    /// Datok's ε symbol, whose column holds the ε:boundary edges.
    pub(crate) epsilon: u16,
    pub(crate) states: u32,
    /// Datok's symbol count (the matrix's columns, counting the unused column 0).
    pub(crate) count: usize,
    /// By Datok's symbol number, with the implicit boundary symbol last.
    pub(crate) symbols: Vec<Option<RawSymbol>>,
    /// Where the matrix begins.
    origin: usize,
}

impl MatokHead {
    /// The byte offset of the cell of `state` (1-based) and `symbol` (Datok's number, from 1):
    /// Datok stores the matrix column by column.
    #[inline]
    pub(crate) fn at(&self, symbol: usize, state: usize) -> usize {
        self.origin + 4 * ((symbol - 1) * self.states as usize + state)
    }

    /// The error for a cell whose target is no state.
    pub(crate) fn bad_target(&self, path: &Path, symbol: usize, state: usize, value: u32) -> Error {
        let (at, target, states) = (self.at(symbol, state), value & !FIRST_BIT, self.states);
        Error::format(
            path,
            None,
            format!(
                "byte {at} (decompressed): state {state}, symbol {symbol}: target {target} \
                 is outside the {states} states"
            ),
        )
    }

    /// A network with the file's symbols and states but no arcs, for the symbol checks.
    pub(crate) fn raw(&self, path: &Path, arcs: Vec<RawArc>) -> RawNetwork {
        RawNetwork {
            path: path.to_path_buf(),
            format: "Datok matrix (.matok)",
            name: None,
            symbols: self.symbols.clone(),
            state_count: self.states,
            start: 0,
            file_counts_from_one: true,
            arcs,
            warnings: Vec::new(),
            finals: None,
        }
    }
}

/// Datok's deletion flag in a `.matok` cell; the rest of the cell is the target state.
pub(crate) const MATOK_DELETES: u32 = FIRST_BIT;

/// Reads a `.matok`'s header and alphabet (decompressed).
pub(crate) fn matok_head(path: &Path, data: &[u8]) -> Result<MatokHead> {
    let mut bytes = Bytes::new(path, data);
    let [epsilon, unknown, identity] = header(&mut bytes, b"MATOK", "a Datok matrix")?;
    let states = bytes.u32("the header")?;
    let count = bytes.u16("the header")? as usize;
    if states == 0 || states >= super::network::MAX_STATES {
        return Err(bytes.error(format!("{states} states")));
    }
    let symbols = sigma(&mut bytes, count, epsilon, unknown, identity)?;
    if bytes.take(1, "the marker")? != b"M" {
        return Err(bytes.error("the matrix marker `M` is missing"));
    }
    let cells = (states as usize + 1) * count;
    if bytes.rest() / 4 < cells {
        return Err(bytes.error(format!(
            "the matrix needs {cells} cells of 4 bytes, the file has {} bytes left (truncated?)",
            bytes.rest()
        )));
    }
    Ok(MatokHead {
        epsilon,
        states,
        count,
        symbols,
        origin: bytes.at,
    })
}

/// Reads a `.matok` (decompressed).
pub fn parse_matok(path: &Path, data: &[u8]) -> Result<RawNetwork> {
    let head = matok_head(path, data)?;
    let (epsilon, states, count) = (head.epsilon, head.states, head.count);
    let boundary = count as u32;
    let mut arcs = Vec::new();
    for symbol in 1..count as u32 {
        for state in 1..=states {
            let at = head.at(symbol as usize, state as usize);
            let value = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
            if value == 0 {
                continue;
            }
            let target = value & !FIRST_BIT;
            if target == 0 || target > states {
                return Err(head.bad_target(path, symbol as usize, state as usize, value));
            }
            let deletes = value & FIRST_BIT != 0;
            let (input, output) = if symbol == epsilon as u32 {
                (symbol, boundary)
            } else if deletes {
                (symbol, epsilon as u32)
            } else {
                (symbol, symbol)
            };
            arcs.push(RawArc {
                from: state - 1,
                input,
                output,
                to: target - 1,
                line: 0,
            });
        }
    }
    Ok(head.raw(path, arcs))
}

/// Reads a `.datok` (decompressed) by walking its double array from the start cell.
pub fn parse_datok(path: &Path, data: &[u8]) -> Result<RawNetwork> {
    let mut bytes = Bytes::new(path, data);
    let [epsilon, unknown, identity] = header(&mut bytes, b"DATOK", "a Datok double array")?;
    let final_symbol = bytes.u16("the header")?;
    let count = bytes.u16("the header")? as usize;
    let length = (bytes.u32("the header")? / 2) as usize;
    let symbols = sigma(&mut bytes, count, epsilon, unknown, identity)?;
    if bytes.take(1, "the marker")? != b"T" {
        return Err(bytes.error("the double-array marker `T` is missing"));
    }
    if length < 2 || bytes.rest() / 8 < length {
        return Err(bytes.error(format!(
            "the double array needs {length} cells of 8 bytes, the file has {} bytes left",
            bytes.rest()
        )));
    }
    let origin = bytes.at;
    let cell = |i: usize| -> (u32, u32) {
        let at = origin + 8 * i;
        let word = |o: usize| u32::from_le_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]]);
        (word(at), word(at + 4))
    };
    let size = ((cell(1).1 & REST_BITS) as usize).min(length - 1);
    let boundary = count as u32;
    // Representative cells get state numbers in the order the walk finds them.
    let mut state_of = std::collections::HashMap::from([(1usize, 0u32)]);
    let mut queue = vec![1usize];
    let mut next = 0;
    let mut arcs = Vec::new();
    while next < queue.len() {
        let t = queue[next];
        let from = next as u32;
        next += 1;
        let base = (cell(t).0 & REST_BITS) as usize;
        for symbol in 1..count {
            if symbol == final_symbol as usize {
                continue;
            }
            let t1 = base + symbol;
            if t1 > size || (cell(t1).1 & REST_BITS) as usize != t {
                continue;
            }
            let (b1, c1) = cell(t1);
            let target = if b1 & FIRST_BIT != 0 {
                (b1 & REST_BITS) as usize
            } else {
                t1
            };
            if target == 0 || target > size {
                return Err(Error::format(
                    path,
                    None,
                    format!("cell {t1} points to cell {target}, outside the array of {size} cells"),
                ));
            }
            let to = *state_of.entry(target).or_insert_with(|| {
                queue.push(target);
                queue.len() as u32 - 1
            });
            let symbol = symbol as u32;
            let (input, output) = if symbol == epsilon as u32 {
                (symbol, boundary)
            } else if c1 & FIRST_BIT != 0 {
                (symbol, epsilon as u32)
            } else {
                (symbol, symbol)
            };
            arcs.push(RawArc {
                from,
                input,
                output,
                to,
                line: 0,
            });
        }
    }
    Ok(RawNetwork {
        path: path.to_path_buf(),
        format: "Datok double array (.datok)",
        name: None,
        symbols,
        state_count: queue.len() as u32,
        start: 0,
        file_counts_from_one: true,
        arcs,
        warnings: Vec::new(),
        finals: None,
    })
}

/// The sigma list as Datok writes it: `count` characters by symbol number, U+0000 in the
/// slots of the special symbols. Our symbol numbers serve as Datok's: 1 is ε (whose column
/// holds the ε:boundary edges, as in Datok's models), 2 the identity, 3 the unknown symbol.
fn write_sigma(out: &mut Vec<u8>, alphabet: &Alphabet) {
    for symbol in 0..alphabet.symbol_count() {
        let c = alphabet.char_of(symbol as Sym).unwrap_or('\0');
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
}

/// A `.matok` (before gzip) of a network, in Datok's layout, so Datok can load what toklab
/// built.
pub fn write_matok(network: &Network) -> Vec<u8> {
    let alphabet = &network.alphabet;
    let states = network.state_count() as usize;
    let count = alphabet.symbol_count();
    let mut out = Vec::with_capacity(32 + (states + 1) * count * 4);
    out.extend_from_slice(b"MATOK");
    for v in [1u16, BOUNDARY, UNKNOWN, IDENTITY] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(states as u32).to_le_bytes());
    out.extend_from_slice(&(count as u16).to_le_bytes());
    write_sigma(&mut out, alphabet);
    out.push(b'M');
    let mut cells = vec![0u32; (states + 1) * count];
    for state in 1..=states {
        for edge in network.edges(state as u32) {
            let flag = if edge.kind == EdgeKind::Deletion {
                FIRST_BIT
            } else {
                0
            };
            cells[(edge.symbol as usize - 1) * states + state] = edge.target | flag;
        }
    }
    for cell in cells {
        out.extend_from_slice(&cell.to_le_bytes());
    }
    out
}

/// A `.datok` (before gzip) of a network's double array, in Datok's layout: the flag bits are
/// Datok's, cell 1's check holds the array's last cell, the final symbol is one past the
/// alphabet (there are no final cells: finality plays no role in tokenizing).
pub fn write_datok(network: &Network, array: &DoubleArray) -> Vec<u8> {
    let alphabet = &network.alphabet;
    let cells = array.cells();
    let count = alphabet.symbol_count();
    let mut out = Vec::with_capacity(32 + cells.len() * 8);
    out.extend_from_slice(b"DATOK");
    for v in [
        1u16,
        BOUNDARY,
        UNKNOWN,
        IDENTITY,
        count as u16,
        count as u16,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(cells.len() as u32 * 2).to_le_bytes());
    write_sigma(&mut out, alphabet);
    out.push(b'T');
    for (i, cell) in cells.iter().enumerate() {
        let check = if i == 1 {
            cells.len() as u32 - 1
        } else {
            cell.check
        };
        out.extend_from_slice(&cell.base.to_le_bytes());
        out.extend_from_slice(&check.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::fst::Model;

    fn network() -> Network {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/fst/english.fst");
        Model::open(&path).unwrap().network
    }

    fn edges(n: &Network) -> Vec<Vec<crate::engines::fst::Edge>> {
        (1..=n.state_count()).map(|s| n.edges(s).to_vec()).collect()
    }

    #[test]
    fn matok_round_trip() {
        let n = network();
        let data = write_matok(&n);
        let back = Network::from_raw(parse_matok(Path::new("x.matok"), &data).unwrap()).unwrap();
        assert_eq!(back.alphabet, n.alphabet);
        assert_eq!(edges(&back), edges(&n));
        let e = parse_matok(Path::new("x.matok"), &data[..data.len() - 3]).unwrap_err();
        assert!(e.to_string().contains("x.matok: byte"), "{e}");
    }

    #[test]
    fn datok_round_trip() {
        let n = network();
        let array = DoubleArray::build(&n);
        let data = write_datok(&n, &array);
        let back = Network::from_raw(parse_datok(Path::new("x.datok"), &data).unwrap()).unwrap();
        assert_eq!(back.alphabet, n.alphabet);
        assert_eq!(back.edge_count(), n.edge_count());
        let kinds = |n: &Network| {
            (
                n.stats.identity,
                n.stats.identity_unknown,
                n.stats.deletion,
                n.stats.boundary,
            )
        };
        assert_eq!(kinds(&back), kinds(&n));
        // The walk numbers states in the order it finds them: compare what each text gives.
        let text = "Dr. Smith's cat didn't see www.example.com, etc. Then it left :-)";
        let run = |net: &Network| {
            crate::engines::fst::runner::run(
                net,
                &net.alphabet,
                text,
                &mut crate::core::trace::Quiet,
            )
        };
        let (a, b) = (run(&back), run(&n));
        let spans = |t: &crate::Tokenization| t.tokens.iter().map(|t| t.span).collect::<Vec<_>>();
        assert_eq!(spans(&a), spans(&b));
        assert_eq!(a.sentence_ends, b.sentence_ends);
    }
}
