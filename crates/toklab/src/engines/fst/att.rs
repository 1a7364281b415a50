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
    let error = |line: usize, message: String| Error::format(path, Some(line), message);
    let text = std::str::from_utf8(data).map_err(|e| {
        let line = 1 + data[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        error(line, "invalid UTF-8".into())
    })?;
    let raw_lines: Vec<&str> = text.split('\n').collect();
    let mut symbols: Vec<Option<RawSymbol>> = Vec::new();
    let mut numbers: HashMap<String, u32> = HashMap::new();
    let mut intern = |name: &str| -> u32 {
        if let Some(&n) = numbers.get(name) {
            return n;
        }
        let symbol = match name {
            "@_SPACE_@" => RawSymbol::Char(' '),
            _ => RawSymbol::from_name(name),
        };
        let n = symbols.len() as u32;
        symbols.push(Some(symbol));
        numbers.insert(name.to_string(), n);
        n
    };
    let mut arcs = Vec::new();
    let mut start = None;
    let mut finals = Vec::new();
    let mut max_state = 0u32;
    let mut warnings = Vec::new();
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
                warnings.push("the file holds more than one transducer; using the first".into());
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
        let fields: Vec<&str> = if line.contains('\t') {
            tab_fields(&line)
        } else {
            line.split_whitespace().collect()
        };
        let state = |field: &str| -> Result<u32> {
            field
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&s| s < super::network::MAX_STATES)
                .ok_or_else(|| error(number, format!("`{field}` is not a state number")))
        };
        let (from, to, input, output) = match fields.len() {
            1 | 2 => {
                // A final state (tokenizing never asks; apply up / down do).
                let s = state(fields[0])?;
                finals.push(s);
                start.get_or_insert(s);
                max_state = max_state.max(s);
                continue;
            }
            3 => (state(fields[0])?, state(fields[1])?, fields[2], fields[2]),
            4 | 5 => (state(fields[0])?, state(fields[1])?, fields[2], fields[3]),
            n => {
                return Err(error(
                    number,
                    format!("an AT&T line has 1, 2, 4 or 5 fields; this one has {n}"),
                ));
            }
        };
        if fields.len() == 5 && fields[4].trim().parse::<f64>().is_err() {
            return Err(error(
                number,
                format!("weight `{}` is not a number", fields[4]),
            ));
        }
        start.get_or_insert(from);
        max_state = max_state.max(from).max(to);
        arcs.push(RawArc {
            from,
            input: intern(input),
            output: intern(output),
            to,
            line: number,
        });
    }
    let Some(start) = start else {
        return Err(Error::format(
            path,
            None,
            "no states: the AT&T file is empty",
        ));
    };
    if max_state as usize > 2 * index + 64 {
        return Err(Error::format(
            path,
            None,
            format!(
                "state numbers go up to {max_state} in {index} lines; number the states densely"
            ),
        ));
    }
    Ok(RawNetwork {
        path: path.to_path_buf(),
        format: "AT&T",
        name: None,
        symbols,
        state_count: max_state + 1,
        start,
        file_counts_from_one: false,
        arcs,
        warnings,
        finals: Some(finals),
    })
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
