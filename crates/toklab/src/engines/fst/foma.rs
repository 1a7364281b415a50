//! foma's saved networks (`save stack`): `##foma-net 1.0##`, a `##props##` line, the
//! `##sigma##` (one `NUMBER SYMBOL` per line; the newline symbol spills onto the next line),
//! the `##states##` (foma's compact arc lines), `##end##` — possibly several networks in a row.

use std::path::Path;

use super::raw::{RawArc, RawNetwork, RawSymbol};
use crate::core::error::{Error, Result};

/// Reads the first network of a foma file (already decompressed); a warning says if there
/// were more.
pub fn parse(path: &Path, data: &[u8]) -> Result<RawNetwork> {
    let mut lines = Lines::new(path, data);
    let header = lines.next_required("the `##foma-net 1.0##` header")?;
    if !header.starts_with(b"##foma-net") {
        return Err(lines.error("not a foma network: the first line is not `##foma-net …##`"));
    }
    let props = read_props(&mut lines, data.len())?;
    let symbols = read_sigma(&mut lines)?;
    let (arcs, finals) = read_states(&mut lines, &props)?;
    lines.expect(b"##end##")?;
    if arcs.len() as i64 != props.arc_count {
        return Err(lines.error(format!(
            "the props line says {} arcs but the states section has {}",
            props.arc_count,
            arcs.len()
        )));
    }
    let mut warnings = Vec::new();
    let more = lines.count_networks();
    if more > 0 {
        warnings.push(format!(
            "the file holds {} networks; using the first{}",
            more + 1,
            props
                .name
                .as_ref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        ));
    }
    Ok(RawNetwork {
        path: path.to_path_buf(),
        format: "foma",
        name: props.name,
        symbols,
        state_count: props.state_count as u32,
        start: 0,
        file_counts_from_one: false,
        arcs,
        warnings,
        finals: Some(finals),
    })
}

/// What the props line tells: the counts the states section is checked against, and the name.
struct Props {
    arc_count: i64,
    state_count: i64,
    name: Option<String>,
}

/// Reads `##props##` and its line; `file_len` bounds the state count a file can hold.
fn read_props(lines: &mut Lines, file_len: usize) -> Result<Props> {
    lines.expect(b"##props##")?;
    let props = lines.next_required("the props line")?;
    let props = lines.text(props)?;
    let fields: Vec<&str> = props.split_whitespace().collect();
    if fields.len() < 12 {
        return Err(lines.error(format!(
            "the props line has {} fields; foma writes 12 or 13",
            fields.len()
        )));
    }
    let number = |i: usize, what: &str| -> Result<i64> {
        fields[i].parse::<i64>().map_err(|_| {
            lines.error(format!(
                "the props line's {what} `{}` is not a number",
                fields[i]
            ))
        })
    };
    let arc_count = number(1, "arc count")?;
    let state_count = number(2, "state count")?;
    if !(1..=i64::from(super::network::MAX_STATES)).contains(&state_count) || arc_count < 0 {
        return Err(lines.error(format!(
            "the props line gives {state_count} states and {arc_count} arcs"
        )));
    }
    if state_count as usize > file_len / 2 {
        // Every state has a line of its own: a count beyond that is damage, not a network.
        return Err(lines.error(format!(
            "the props line claims {state_count} states; the file is too short for them"
        )));
    }
    let name = fields
        .get(12..)
        .map(|rest| rest.join(" "))
        .filter(|n| !n.is_empty());
    Ok(Props {
        arc_count,
        state_count,
        name,
    })
}

/// Reads `##sigma##` up to `##states##`: the symbols by number (gaps stay `None`).
fn read_sigma(lines: &mut Lines) -> Result<Vec<Option<RawSymbol>>> {
    lines.expect(b"##sigma##")?;
    let mut symbols: Vec<Option<RawSymbol>> = Vec::new();
    loop {
        let line = lines.next_required("`##states##`")?;
        if line == b"##states##" {
            return Ok(symbols);
        }
        let text = lines.text(line)?;
        let (num, symbol) = text
            .split_once(' ')
            .ok_or_else(|| lines.error("a sigma line is `NUMBER SYMBOL`; this one has no space"))?;
        let num: usize = num
            .parse()
            .ok()
            .filter(|&n| n < 1 << 20)
            .ok_or_else(|| lines.error(format!("symbol number `{num}` is not a number")))?;
        let symbol = if symbol.is_empty() {
            // The newline symbol: its line ends right after the space, and an empty line follows.
            let next = lines.next_required("the rest of the newline symbol")?;
            if !next.is_empty() {
                return Err(lines.error("an empty symbol must be the newline character"));
            }
            RawSymbol::Char('\n')
        } else {
            RawSymbol::from_name(symbol)
        };
        if symbols.len() <= num {
            symbols.resize(num + 1, None);
        }
        if symbols[num].is_some() {
            return Err(lines.error(format!("symbol number {num} is defined twice")));
        }
        symbols[num] = Some(symbol);
    }
}

/// Reads the state lines up to `-1 -1 -1 -1 -1`: the arcs, each with its line.
fn read_states(lines: &mut Lines, props: &Props) -> Result<(Vec<RawArc>, Vec<u32>)> {
    let state_count = props.state_count;
    let mut arcs = Vec::with_capacity(props.arc_count.min(1 << 24) as usize);
    let mut current: Option<u32> = None;
    let mut finals = Vec::new();
    loop {
        let line = lines.next_required("the end of the states (`-1 -1 -1 -1 -1`)")?;
        let (n, items) = state_line_numbers(lines, line)?;
        let (state, input, output, target) = match items {
            2 => (current, n[0], n[0], n[1]),
            3 => (current, n[0], n[1], n[2]),
            4 => (Some(lines.state(n[0], state_count)?), n[1], n[1], n[2]),
            5 if n[0] == -1 => return Ok((arcs, finals)),
            5 => (Some(lines.state(n[0], state_count)?), n[1], n[2], n[3]),
            _ => {
                return Err(lines.error(format!(
                    "a state line has 2 to 5 numbers; this one has {items}"
                )));
            }
        };
        let Some(from) = state else {
            return Err(lines.error("an arc line before any state line"));
        };
        // A line that names its state ends with the state's finality.
        if items >= 4 && n[items - 1] == 1 {
            finals.push(from);
        }
        current = Some(from);
        if input == -1 {
            // A state without arcs (`STATE -1 -1 FINAL`).
            continue;
        }
        let symbol = |s: i64| -> Result<u32> {
            u32::try_from(s).map_err(|_| lines.error(format!("symbol number {s} is negative")))
        };
        arcs.push(RawArc {
            from,
            input: symbol(input)?,
            output: symbol(output)?,
            to: lines.state(target, state_count)?,
            line: lines.number,
        });
    }
}

/// The numbers of a state line (at most 5) and how many there are.
fn state_line_numbers(lines: &Lines, line: &[u8]) -> Result<([i64; 5], usize)> {
    let mut n = [0i64; 5];
    let mut items = 0;
    for field in line.split(|&b| b == b' ').filter(|f| !f.is_empty()) {
        if items == 5 {
            return Err(lines.error("a state line has more than 5 numbers"));
        }
        n[items] = parse_int(field).ok_or_else(|| {
            lines.error(format!(
                "`{}` in a state line is not a number",
                String::from_utf8_lossy(field)
            ))
        })?;
        items += 1;
    }
    Ok((n, items))
}

fn parse_int(field: &[u8]) -> Option<i64> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// Lines of the decompressed file with their numbers, for error messages.
struct Lines<'a> {
    path: &'a Path,
    rest: &'a [u8],
    /// The number of the line returned last (1-based).
    number: usize,
    done: bool,
}

impl<'a> Lines<'a> {
    fn new(path: &'a Path, data: &'a [u8]) -> Self {
        Lines {
            path,
            rest: data,
            number: 0,
            done: data.is_empty(),
        }
    }

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.done {
            return None;
        }
        match memchr::memchr(b'\n', self.rest) {
            Some(i) => {
                let line = &self.rest[..i];
                self.rest = &self.rest[i + 1..];
                self.number += 1;
                Some(line)
            }
            None => {
                self.done = true;
                if self.rest.is_empty() {
                    return None;
                }
                self.number += 1;
                Some(self.rest)
            }
        }
    }

    fn next_required(&mut self, what: &str) -> Result<&'a [u8]> {
        match self.next() {
            Some(line) => Ok(line),
            None => Err(Error::format(
                self.path,
                Some(self.number + 1),
                format!("the file ends before {what} (truncated?)"),
            )),
        }
    }

    fn expect(&mut self, marker: &[u8]) -> Result<()> {
        let line = self.next_required(&format!("`{}`", String::from_utf8_lossy(marker)))?;
        if line != marker {
            return Err(self.error(format!(
                "expected `{}`, found `{}`",
                String::from_utf8_lossy(marker),
                String::from_utf8_lossy(&line[..line.len().min(40)])
            )));
        }
        Ok(())
    }

    fn text(&self, line: &'a [u8]) -> Result<&'a str> {
        std::str::from_utf8(line).map_err(|e| {
            self.error(format!(
                "invalid UTF-8 at byte {} of the line",
                e.valid_up_to() + 1
            ))
        })
    }

    fn state(&self, n: i64, count: i64) -> Result<u32> {
        if (0..count).contains(&n) {
            Ok(n as u32)
        } else {
            Err(self.error(format!(
                "state {n} is outside the network's {count} states (0 to {})",
                count - 1
            )))
        }
    }

    fn error(&self, message: impl Into<String>) -> Error {
        Error::format(self.path, Some(self.number.max(1)), message)
    }

    /// How many more networks follow.
    fn count_networks(&mut self) -> usize {
        let mut count = 0;
        while let Some(line) = self.next() {
            if line.starts_with(b"##foma-net") {
                count += 1;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "##foma-net 1.0##\n##props##\n2 4 2 5 1 -1 1 1 1 1 0 2 X1\n##sigma##\n\
        0 @_EPSILON_SYMBOL_@\n3  \n4 @_TOKEN_BOUND_@\n5 a\n6 \n\n##states##\n\
        0 5 1 0\n3 0 0\n1 0 4 0 1\n6 1\n-1 -1 -1 -1 -1\n##end##\n";

    #[test]
    fn reads_symbols_states_and_arcs() {
        let raw = parse(Path::new("t.fst"), TINY.as_bytes()).unwrap();
        assert_eq!(raw.state_count, 2);
        assert_eq!(raw.name.as_deref(), Some("X1"));
        assert_eq!(raw.symbols[3], Some(RawSymbol::Char(' ')));
        assert_eq!(raw.symbols[6], Some(RawSymbol::Char('\n')));
        assert_eq!(raw.symbols[4], Some(RawSymbol::Boundary));
        let arcs: Vec<_> = raw
            .arcs
            .iter()
            .map(|a| (a.from, a.input, a.output, a.to, a.line))
            .collect();
        assert_eq!(
            arcs,
            vec![
                (0, 5, 5, 1, 12),
                (0, 3, 0, 0, 13),
                (1, 0, 4, 0, 14),
                (1, 6, 6, 1, 15)
            ]
        );
        assert!(raw.warnings.is_empty());
    }

    #[test]
    fn the_older_boundary_symbol_works() {
        let old = TINY.replace("@_TOKEN_BOUND_@", "@_TOKEN_SYMBOL_@");
        let raw = parse(Path::new("t.fst"), old.as_bytes()).unwrap();
        let network = crate::engines::fst::Network::from_raw(raw).unwrap();
        assert_eq!(network.boundary(2), Some(1));
    }

    #[test]
    fn several_networks_warn() {
        let two = format!("{TINY}{TINY}");
        let raw = parse(Path::new("t.fst"), two.as_bytes()).unwrap();
        assert_eq!(
            raw.warnings,
            ["the file holds 2 networks; using the first (X1)"]
        );
    }

    #[test]
    fn truncation_and_bad_lines_name_the_line() {
        let cut = &TINY[..TINY.find("-1 -1").unwrap()];
        let e = parse(Path::new("t.fst"), cut.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.fst:16: the file ends before the end of the states"),
            "{e}"
        );
        let bad = TINY.replace("3 0 0", "3 0 x");
        let e = parse(Path::new("t.fst"), bad.as_bytes())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "t.fst:13: `x` in a state line is not a number");
        let bad = TINY.replace("6 1\n", "6 7\n");
        let e = parse(Path::new("t.fst"), bad.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(":15: state 7 is outside the network's 2 states"),
            "{e}"
        );
        let bad = TINY.replace("2 4 2 5", "2 5 2 5");
        let e = parse(Path::new("t.fst"), bad.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("says 5 arcs but the states section has 4"),
            "{e}"
        );
    }
}
