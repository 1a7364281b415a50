//! Checking that a file's network is a tokenizer: every arc one of the three kinds, the
//! network deterministic on its input, no cycle of boundaries. The errors name the file, the
//! line, the state and the edge, so the grammar's author knows what to change.

use std::collections::HashMap;

use super::alphabet::{Alphabet, BOUNDARY, IDENTITY, Sym, UNKNOWN};
use super::network::{Edge, EdgeKind, MAX_STATES, Network, NetworkStats};
use super::raw::{RawArc, RawNetwork, RawSymbol};
use crate::core::error::{Error, Result};

/// Checks `raw` and builds its network.
pub(crate) fn check(raw: &RawNetwork) -> Result<Network> {
    Checker::new(raw)?.check()
}

/// The alphabet of `raw`'s symbols and what each file symbol maps to, with the checks on
/// symbols (no character twice, a boundary symbol, not too many characters or states) that
/// [`check`] makes first; for readers that fill a representation without a network.
pub(crate) fn symbol_map(raw: &RawNetwork) -> Result<(Alphabet, Vec<Option<Mapped>>)> {
    let checker = Checker::new(raw)?;
    Ok((checker.alphabet, checker.mapped))
}

/// The error for a network without any ε:boundary edge.
pub(crate) fn no_boundary_edge(path: &std::path::Path) -> Error {
    Error::format(
        path,
        None,
        "not a tokenizer: no state has a token boundary edge (0:@_TOKEN_BOUND_@)",
    )
}

/// What loading `raw` warns about: the reader's own warnings and the edges ignored or kept
/// by Datok's convention, from their counts.
pub(crate) fn warnings(
    raw: &RawNetwork,
    reading_boundary: usize,
    multichar: usize,
    unknown_identity: usize,
) -> Vec<String> {
    let mut warnings = raw.warnings.clone();
    if reading_boundary > 0 {
        warnings.push(format!(
            "{reading_boundary} edges reading the boundary symbol (TB:TB) ignored: it never occurs in text"
        ));
    }
    if multichar > 0 {
        let names: Vec<String> = raw
            .symbols
            .iter()
            .filter_map(|s| match s {
                Some(RawSymbol::Multi(name)) => Some(name.clone()),
                _ => None,
            })
            .take(5)
            .collect();
        warnings.push(format!(
            "{multichar} edges on multi-character symbols ({}) ignored: they never match one character",
            names.join(", ")
        ));
    }
    if unknown_identity > 0 {
        warnings.push(format!(
            "{unknown_identity} ?:? edges between unknown symbols kept as identity edges, as Datok does"
        ));
    }
    warnings
}

/// How a file symbol maps to ours.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mapped {
    Epsilon,
    Boundary,
    Symbol(Sym),
    Multi,
}

struct Checker<'a> {
    raw: &'a RawNetwork,
    alphabet: Alphabet,
    mapped: Vec<Option<Mapped>>,
}

impl<'a> Checker<'a> {
    fn new(raw: &'a RawNetwork) -> Result<Checker<'a>> {
        let mut chars = Vec::new();
        let mut seen: HashMap<char, usize> = HashMap::new();
        let mut has_boundary = false;
        for (number, symbol) in raw.symbols.iter().enumerate() {
            match symbol {
                Some(RawSymbol::Char(c)) => {
                    if let Some(first) = seen.insert(*c, number) {
                        return Err(Error::format(
                            &raw.path,
                            None,
                            format!(
                                "symbols {first} and {number} are both the character {}",
                                RawSymbol::Char(*c).display()
                            ),
                        ));
                    }
                    chars.push(*c);
                }
                Some(RawSymbol::Boundary) => has_boundary = true,
                _ => {}
            }
        }
        if !has_boundary {
            return Err(Error::format(
                &raw.path,
                None,
                "not a tokenizer: the alphabet has no token boundary symbol \
                 (@_TOKEN_BOUND_@ or @_TOKEN_SYMBOL_@)",
            ));
        }
        if chars.len() > Alphabet::MAX_CHARS {
            return Err(Error::format(
                &raw.path,
                None,
                format!(
                    "{} characters in the alphabet; at most {} are supported",
                    chars.len(),
                    Alphabet::MAX_CHARS
                ),
            ));
        }
        if raw.state_count == 0 || raw.state_count > MAX_STATES {
            return Err(Error::format(
                &raw.path,
                None,
                format!(
                    "{} states; a tokenizer needs 1 to {MAX_STATES}",
                    raw.state_count
                ),
            ));
        }
        let alphabet = Alphabet::new(chars);
        let mapped = raw
            .symbols
            .iter()
            .map(|s| {
                s.as_ref().map(|s| match s {
                    RawSymbol::Epsilon => Mapped::Epsilon,
                    RawSymbol::Boundary => Mapped::Boundary,
                    RawSymbol::Identity => Mapped::Symbol(IDENTITY),
                    RawSymbol::Unknown => Mapped::Symbol(UNKNOWN),
                    RawSymbol::Char(c) => Mapped::Symbol(alphabet.symbol(*c)),
                    RawSymbol::Multi(_) => Mapped::Multi,
                })
            })
            .collect();
        Ok(Checker {
            raw,
            alphabet,
            mapped,
        })
    }

    fn state_name(&self, raw_state: u32) -> String {
        let ours = raw_state + 1;
        if self.raw.file_counts_from_one {
            format!("state {ours}")
        } else {
            format!("state {ours} ({raw_state} in the file)")
        }
    }

    fn symbol_name(&self, number: u32) -> String {
        match self.raw.symbols.get(number as usize) {
            Some(Some(s)) => s.display(),
            _ => format!("#{number}"),
        }
    }

    fn edge_name(&self, arc: &RawArc) -> String {
        format!(
            "{}:{} → {}",
            self.symbol_name(arc.input),
            self.symbol_name(arc.output),
            arc.to + 1
        )
    }

    fn error(&self, arc: &RawArc, why: &str) -> Error {
        Error::format(
            &self.raw.path,
            (arc.line > 0).then_some(arc.line),
            format!(
                "not a tokenizer: {}, edge {}: {why}",
                self.state_name(arc.from),
                self.edge_name(arc)
            ),
        )
    }

    fn symbol(&self, arc: &RawArc, number: u32) -> Result<Mapped> {
        match self.mapped.get(number as usize) {
            Some(Some(m)) => Ok(*m),
            _ => Err(Error::format(
                &self.raw.path,
                (arc.line > 0).then_some(arc.line),
                format!(
                    "{}: symbol number {number} is not in the alphabet",
                    self.state_name(arc.from)
                ),
            )),
        }
    }

    /// Classifies one arc: `Some(edge)`, `None` for arcs that can never fire, or an error.
    fn classify(&self, arc: &RawArc, stats: &mut NetworkStats) -> Result<Option<Edge>> {
        let input = self.symbol(arc, arc.input)?;
        let output = self.symbol(arc, arc.output)?;
        let target = arc.to + 1;
        let edge = |symbol, kind| {
            Ok(Some(Edge {
                symbol,
                target,
                kind,
            }))
        };
        match (input, output) {
            (Mapped::Epsilon, Mapped::Boundary) => {
                stats.boundary += 1;
                edge(BOUNDARY, EdgeKind::Boundary)
            }
            (Mapped::Boundary, Mapped::Boundary | Mapped::Epsilon) => {
                stats.reading_boundary += 1;
                Ok(None)
            }
            (Mapped::Multi, _) if arc.input == arc.output || output == Mapped::Epsilon => {
                stats.multichar += 1;
                Ok(None)
            }
            (Mapped::Epsilon, Mapped::Epsilon) => Err(self.error(
                arc,
                "an ε:ε edge (the network must be epsilon-free, as foma's compiled networks are)",
            )),
            (Mapped::Epsilon, _) => Err(self.error(
                arc,
                "inserts a symbol; the only insertion a tokenizer may make is the token boundary (0:TB)",
            )),
            (Mapped::Symbol(s), Mapped::Epsilon) => {
                stats.deletion += 1;
                edge(s, EdgeKind::Deletion)
            }
            (Mapped::Symbol(s), Mapped::Symbol(o)) if s == o => {
                stats.identity += 1;
                if s == IDENTITY || s == UNKNOWN {
                    stats.identity_unknown += 1;
                }
                edge(s, EdgeKind::Identity)
            }
            _ => Err(self.error(
                arc,
                "rewrites its input; a tokenizer may only keep a character (x:x), \
                 delete it (x:0) or insert the token boundary (0:TB)",
            )),
        }
    }

    fn check(self) -> Result<Network> {
        let raw = self.raw;
        let count = raw.state_count;
        let mut per_state: Vec<Vec<Edge>> = vec![Vec::new(); count as usize + 1];
        let mut lines: Vec<Vec<usize>> = vec![Vec::new(); count as usize + 1];
        let mut stats = NetworkStats::default();
        let mut unknown_identity = 0usize;
        for arc in &raw.arcs {
            for (what, state) in [("source", arc.from), ("target", arc.to)] {
                if state >= raw.state_count {
                    return Err(Error::format(
                        &raw.path,
                        (arc.line > 0).then_some(arc.line),
                        format!(
                            "{what} state {} of edge {} is beyond the network's {} states",
                            state + 1,
                            self.edge_name(arc),
                            raw.state_count
                        ),
                    ));
                }
            }
            if let Some(edge) = self.classify(arc, &mut stats)? {
                if edge.symbol == UNKNOWN && edge.kind == EdgeKind::Identity {
                    unknown_identity += 1;
                }
                let s = (arc.from + 1) as usize;
                per_state[s].push(edge);
                lines[s].push(arc.line);
            }
        }
        for s in 1..per_state.len() {
            let mut order: Vec<usize> = (0..per_state[s].len()).collect();
            order.sort_by_key(|&i| per_state[s][i].symbol);
            for pair in order.windows(2) {
                let (a, b) = (&per_state[s][pair[0]], &per_state[s][pair[1]]);
                if a.symbol == b.symbol {
                    let at = |i: usize| match lines[s][i] {
                        0 => String::new(),
                        l => format!(" (line {l})"),
                    };
                    return Err(Error::format(
                        &raw.path,
                        (lines[s][pair[1]] > 0).then_some(lines[s][pair[1]]),
                        format!(
                            "not a tokenizer: {} is non-deterministic: it reads {} on two edges, \
                             to {}{} and to {}{}",
                            self.state_name(s as u32 - 1),
                            self.alphabet.describe(a.symbol),
                            a.target,
                            at(pair[0]),
                            b.target,
                            at(pair[1])
                        ),
                    ));
                }
            }
        }
        if stats.boundary == 0 {
            return Err(no_boundary_edge(&raw.path));
        }
        let warnings = warnings(
            raw,
            stats.reading_boundary,
            stats.multichar,
            unknown_identity,
        );
        let start = raw.start + 1;
        let mut network = Network::from_edges(
            self.alphabet,
            start,
            per_state,
            raw.name.clone(),
            raw.format,
        );
        network.stats.reading_boundary = stats.reading_boundary;
        network.stats.multichar = stats.multichar;
        network.finals = raw.finals.as_ref().map(|finals| {
            let mut of_state = vec![false; raw.state_count as usize + 2];
            for &f in finals {
                if let Some(slot) = of_state.get_mut(f as usize + 1) {
                    *slot = true;
                }
            }
            of_state
        });
        check_boundary_cycles(&network, &raw.path)?;
        network.warnings = warnings;
        Ok(network)
    }
}

/// A cycle of ε:boundary edges would make the tokenizer emit boundaries forever at the end of
/// a text (Datok loops there); each state has at most one such edge, so following them finds it.
pub(crate) fn check_boundary_cycles(network: &Network, path: &std::path::Path) -> Result<()> {
    check_boundary_chains(network.state_count(), |s| network.boundary(s), path)
}

/// [`check_boundary_cycles`] for any representation: `boundary(s)` is the target of state
/// `s`'s ε:boundary edge (states `1..=states`; targets must be among them).
pub(crate) fn check_boundary_chains(
    states: u32,
    boundary: impl Fn(u32) -> Option<u32>,
    path: &std::path::Path,
) -> Result<()> {
    let n = states as usize + 1;
    // 0 = unvisited, 1 = on the current chain, 2 = known to end.
    let mut mark = vec![0u8; n];
    for first in 1..n {
        let mut chain = Vec::new();
        let mut s = first;
        while mark[s] == 0 {
            mark[s] = 1;
            chain.push(s);
            match boundary(s as u32) {
                Some(t) => s = t as usize,
                None => break,
            }
        }
        if mark[s] == 1 && boundary(s as u32).is_some() && chain.contains(&s) {
            let at = chain.iter().position(|&c| c == s).unwrap_or(0);
            let cycle: Vec<String> = chain[at..].iter().map(|s| s.to_string()).collect();
            return Err(Error::format(
                path,
                None,
                format!(
                    "not a tokenizer: the states {} → {s} form a cycle of ε:boundary edges \
                     (the boundary would be inserted without end)",
                    cycle.join(" → ")
                ),
            ));
        }
        for c in chain {
            mark[c] = 2;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::fst::network::Network;

    /// A raw network over symbols 0 ε, 1 TB, 2 a, 3 b, 4 space, with arcs (from, in, out, to).
    pub(crate) fn raw(states: u32, arcs: &[(u32, u32, u32, u32)]) -> RawNetwork {
        RawNetwork {
            path: "t.fst".into(),
            format: "test",
            name: None,
            symbols: vec![
                Some(RawSymbol::Epsilon),
                Some(RawSymbol::Boundary),
                Some(RawSymbol::Char('a')),
                Some(RawSymbol::Char('b')),
                Some(RawSymbol::Char(' ')),
                Some(RawSymbol::Multi("+X".into())),
            ],
            state_count: states,
            start: 0,
            file_counts_from_one: false,
            finals: None,
            arcs: arcs
                .iter()
                .enumerate()
                .map(|(i, &(from, input, output, to))| RawArc {
                    from,
                    input,
                    output,
                    to,
                    line: i + 10,
                })
                .collect(),
            warnings: Vec::new(),
        }
    }

    fn error(states: u32, arcs: &[(u32, u32, u32, u32)]) -> String {
        Network::from_raw(raw(states, arcs))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn three_kinds_of_edges() {
        let n = Network::from_raw(raw(
            2,
            &[
                (0, 2, 2, 1),
                (0, 4, 0, 0),
                (1, 0, 1, 0),
                (1, 1, 1, 1),
                (0, 5, 5, 0),
            ],
        ))
        .unwrap();
        assert_eq!(n.start, 1);
        assert_eq!(n.state_count(), 2);
        let a = n.alphabet.symbol('a');
        assert_eq!(
            n.edge(1, a).map(|e| (e.target, e.kind)),
            Some((2, EdgeKind::Identity))
        );
        let space = n.alphabet.symbol(' ');
        assert_eq!(n.edge(1, space).map(|e| e.kind), Some(EdgeKind::Deletion));
        assert_eq!(n.boundary(2), Some(1));
        assert_eq!(n.boundary(1), None);
        assert_eq!(n.stats.reading_boundary, 1);
        assert_eq!(n.stats.multichar, 1);
        assert_eq!(n.warnings.len(), 2, "{:?}", n.warnings);
        assert_eq!(n.reachable(), vec![1, 2]);
    }

    #[test]
    fn rewrites_name_state_edge_and_line() {
        let e = error(2, &[(0, 0, 1, 1), (1, 2, 3, 0)]);
        assert!(
            e.starts_with(
                "t.fst:11: not a tokenizer: state 2 (1 in the file), edge «a»:«b» → 1: rewrites"
            ),
            "{e}"
        );
    }

    #[test]
    fn epsilon_epsilon_and_insertions_are_errors() {
        assert!(error(1, &[(0, 0, 1, 0), (0, 0, 0, 0)]).contains("ε:ε edge"));
        assert!(error(1, &[(0, 0, 1, 0), (0, 0, 2, 0)]).contains("inserts a symbol"));
    }

    #[test]
    fn non_determinism_names_both_edges() {
        let e = error(3, &[(0, 0, 1, 0), (0, 2, 2, 1), (0, 2, 0, 2)]);
        assert!(
            e.contains("state 1 (0 in the file) is non-deterministic: it reads «a» on two edges, to 2 (line 11) and to 3 (line 12)"),
            "{e}"
        );
        assert!(error(2, &[(0, 0, 1, 0), (0, 0, 1, 1)]).contains("reads ε:TB on two edges"));
    }

    #[test]
    fn boundary_needed_and_cycles_rejected() {
        assert!(error(1, &[(0, 2, 2, 0)]).contains("no state has a token boundary edge"));
        let e = error(2, &[(0, 0, 1, 1), (1, 0, 1, 0)]);
        assert!(e.contains("cycle of ε:boundary edges"), "{e}");
        assert!(error(1, &[(0, 0, 1, 3)]).contains("beyond the network's 1 states"));
        assert!(error(1, &[(0, 0, 9, 0)]).contains("symbol number 9 is not in the alphabet"));
    }
}
