//! The AT&T text format, as hfst (`hfst-fst2txt`), OpenFst (`fstprint`) and foma (`write att`)
//! write it: `SOURCE TARGET INPUT OUTPUT [WEIGHT]` per arc, `STATE [WEIGHT]` per final state,
//! fields separated by tabs (or spaces when a line has no tab). The start state is the first
//! line's source. Epsilon is `@0@`, `@_EPSILON_SYMBOL_@` or `<eps>`; hfst writes a space as
//! `@_SPACE_@`. foma writes the newline symbol raw, splitting its arc over two lines: that is
//! joined back. A `--` line (hfst) ends the first transducer.
//!
//! The format has no alphabet of its own: characters that occur on no arc are outside it.

use std::collections::HashMap;
use std::path::Path;

use super::raw::{RawArc, RawNetwork, RawSymbol};
use crate::core::error::{Error, Result};

/// Reads the first transducer of an AT&T file; errors name the line.
pub fn parse(path: &Path, data: &[u8]) -> Result<RawNetwork> {
    let text = std::str::from_utf8(data).map_err(|e| {
        let line = 1 + data[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        Error::format(path, Some(line), "invalid UTF-8")
    })?;
    let raw_lines: Vec<&str> = text.split('\n').collect();
    let mut reader = Reader {
        path,
        symbols: Vec::new(),
        numbers: HashMap::new(),
        arcs: Vec::new(),
        start: None,
        max_state: 0,
        finals: Vec::new(),
        warnings: Vec::new(),
    };
    let mut index = 0;
    while index < raw_lines.len() {
        let number = index + 1;
        let mut line = raw_lines[index].trim_end_matches('\r').to_string();
        index += 1;
        if line.trim().is_empty() {
            continue;
        }
        if line.trim() == "--" {
            if raw_lines[index..].iter().any(|l| !l.trim().is_empty()) {
                let warning = "the file holds more than one transducer; using the first";
                reader.warnings.push(warning.into());
            }
            break;
        }
        // foma's raw newline symbol: `S\tT\t` then `\tOUT` on the next line.
        if line.ends_with('\t')
            && line.matches('\t').count() == 2
            && raw_lines
                .get(index)
                .is_some_and(|next| next.starts_with('\t'))
        {
            line.push('\n');
            line.push_str(raw_lines[index]);
            index += 1;
        }
        reader.line(number, &line)?;
    }
    reader.finish(index)
}

/// What the lines read so far hold: the symbols by name, the arcs, the states seen.
struct Reader<'p> {
    path: &'p Path,
    symbols: Vec<Option<RawSymbol>>,
    numbers: HashMap<String, u32>,
    arcs: Vec<RawArc>,
    /// The first line's source state.
    start: Option<u32>,
    max_state: u32,
    /// The final states; `apply up` / `apply down` need them.
    finals: Vec<u32>,
    warnings: Vec<String>,
}

impl Reader<'_> {
    fn error(&self, line: usize, message: String) -> Error {
        Error::format(self.path, Some(line), message)
    }

    /// The number of the symbol `name`, numbering it when it is new.
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let symbol = match name {
            "@_SPACE_@" => RawSymbol::Char(' '),
            _ => RawSymbol::from_name(name),
        };
        let n = self.symbols.len() as u32;
        self.symbols.push(Some(symbol));
        self.numbers.insert(name.to_string(), n);
        n
    }

    fn state(&self, number: usize, field: &str) -> Result<u32> {
        field
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&s| s < super::network::MAX_STATES)
            .ok_or_else(|| self.error(number, format!("`{field}` is not a state number")))
    }

    /// Reads one non-empty line (numbered `number`): an arc or a final state.
    fn line(&mut self, number: usize, line: &str) -> Result<()> {
        let fields: Vec<&str> = if line.contains('\t') {
            tab_fields(line)
        } else {
            line.split_whitespace().collect()
        };
        let (from, to, input, output) = match fields.len() {
            1 | 2 => {
                // A final state (tokenizing never asks; apply up / down do).
                let s = self.state(number, fields[0])?;
                self.finals.push(s);
                self.start.get_or_insert(s);
                self.max_state = self.max_state.max(s);
                return Ok(());
            }
            3 => (
                self.state(number, fields[0])?,
                self.state(number, fields[1])?,
                fields[2],
                fields[2],
            ),
            4 | 5 => (
                self.state(number, fields[0])?,
                self.state(number, fields[1])?,
                fields[2],
                fields[3],
            ),
            n => {
                let message = format!("an AT&T line has 1, 2, 4 or 5 fields; this one has {n}");
                return Err(self.error(number, message));
            }
        };
        if fields.len() == 5 && fields[4].trim().parse::<f64>().is_err() {
            let message = format!("weight `{}` is not a number", fields[4]);
            return Err(self.error(number, message));
        }
        self.start.get_or_insert(from);
        self.max_state = self.max_state.max(from).max(to);
        let (input, output) = (self.intern(input), self.intern(output));
        self.arcs.push(RawArc {
            from,
            input,
            output,
            to,
            line: number,
        });
        Ok(())
    }

    /// The network of the `lines` lines read, once its states are known to be dense.
    fn finish(self, lines: usize) -> Result<RawNetwork> {
        let Some(start) = self.start else {
            return Err(Error::format(
                self.path,
                None,
                "no states: the AT&T file is empty",
            ));
        };
        let max_state = self.max_state;
        if max_state as usize > 2 * lines + 64 {
            return Err(Error::format(
                self.path,
                None,
                format!(
                    "state numbers go up to {max_state} in {lines} lines; number the states densely"
                ),
            ));
        }
        Ok(RawNetwork {
            path: self.path.to_path_buf(),
            format: "AT&T",
            name: None,
            symbols: self.symbols,
            state_count: max_state + 1,
            start,
            file_counts_from_one: false,
            arcs: self.arcs,
            warnings: self.warnings,
            finals: Some(self.finals),
        })
    }
}

/// Splits a tab-separated line. A symbol is never empty, so an empty field after the two
/// state numbers is foma's raw tab symbol, which swallowed a separator.
fn tab_fields(line: &str) -> Vec<&str> {
    let mut fields = Vec::with_capacity(5);
    let mut rest = line;
    while fields.len() < 6 {
        if fields.len() >= 2 && rest.starts_with('\t') {
            fields.push("\t");
            rest = &rest[1..];
            match rest.strip_prefix('\t') {
                Some(after) => rest = after,
                None if rest.is_empty() => break,
                None => {}
            }
            continue;
        }
        match rest.find('\t') {
            Some(i) => {
                fields.push(&rest[..i]);
                rest = &rest[i + 1..];
            }
            None => {
                fields.push(rest);
                break;
            }
        }
    }
    fields
}

/// Whether `data` looks like AT&T text: its first non-empty line starts with a state number.
pub fn looks_like(data: &[u8]) -> bool {
    let first = data
        .split(|&b| b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace));
    first.is_some_and(|l| {
        let digits = l.iter().take_while(|b| b.is_ascii_digit()).count();
        digits > 0 && (digits == l.len() || matches!(l[digits], b'\t' | b' ' | b'\r'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_arcs_finals_and_the_split_newline() {
        let text =
            "0\t1\ta\ta\n0\t0\t@_SPACE_@\t@0@\n1\t0\t@0@\t@_TOKEN_BOUND_@\t0.5\n0\t0\t\n\t@0@\n1\n";
        let raw = parse(Path::new("t.att"), text.as_bytes()).unwrap();
        assert_eq!(raw.state_count, 2);
        assert_eq!(raw.start, 0);
        let named: Vec<_> = raw
            .arcs
            .iter()
            .map(|a| {
                (
                    raw.symbols[a.input as usize].clone().unwrap(),
                    raw.symbols[a.output as usize].clone().unwrap(),
                    a.line,
                )
            })
            .collect();
        assert_eq!(named[1], (RawSymbol::Char(' '), RawSymbol::Epsilon, 2));
        assert_eq!(named[2], (RawSymbol::Epsilon, RawSymbol::Boundary, 3));
        assert_eq!(named[3], (RawSymbol::Char('\n'), RawSymbol::Epsilon, 4));
    }

    #[test]
    fn foma_raw_tabs() {
        assert_eq!(tab_fields("0\t0\t\t\t@0@"), ["0", "0", "\t", "@0@"]);
        assert_eq!(tab_fields("0\t0\t\t\t\t"), ["0", "0", "\t", "\t"]);
        assert_eq!(tab_fields("0\t0\tx\t\t"), ["0", "0", "x", "\t"]);
        assert_eq!(tab_fields("0\t1\ta\tb\t0.5"), ["0", "1", "a", "b", "0.5"]);
        assert_eq!(tab_fields("3\t0.5"), ["3", "0.5"]);
        assert_eq!(tab_fields("0\t0\t\n\t@0@"), ["0", "0", "\n", "@0@"]);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse(Path::new("t.att"), b"0\t1\ta\n0\tx\ta\ta\n").unwrap_err();
        assert_eq!(e.to_string(), "t.att:2: `x` is not a state number");
        assert!(looks_like(b"\n0\t1\ta\ta\n"));
        assert!(!looks_like(b"##foma-net"));
    }
}
