//! Random finite-state networks and their edges, shared by the FST loader tests.

use toklab::engines::fst::{Network, RawArc, RawNetwork, RawSymbol};

/// The edges of every state, for comparing networks.
pub fn edges(network: &Network) -> Vec<Vec<toklab::engines::fst::Edge>> {
    (1..=network.state_count())
        .map(|s| network.edges(s).to_vec())
        .collect()
}

/// A network from proptest's numbers, for the tests that hold a loader's short cut to the
/// checked path. Symbols: 0 ε, 1 TB, 2 a, 3 b, 4 space, 5 ?, 6 \u{4}, 7 a multi-character
/// symbol; an arc's input is `inputs[i]`, so a test picks the symbols its format can hold.
/// Arcs leave a state at most once per input; `None` when the network is refused (a
/// boundary cycle).
pub fn random_network(
    states: u32,
    arcs: Vec<(u32, u32, u8, u32)>,
    boundaries: Vec<(u32, u32)>,
    inputs: &[u32],
) -> Option<Network> {
    let symbols = vec![
        Some(RawSymbol::Epsilon),
        Some(RawSymbol::Boundary),
        Some(RawSymbol::Char('a')),
        Some(RawSymbol::Char('b')),
        Some(RawSymbol::Char(' ')),
        Some(RawSymbol::Identity),
        Some(RawSymbol::Char('\u{4}')),
        Some(RawSymbol::Multi("+X".into())),
    ];
    let mut raw_arcs = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for (from, input, kind, to) in arcs {
        let (from, to, input) = (
            from % states,
            to % states,
            inputs[input as usize % inputs.len()],
        );
        if taken.insert((from, input)) {
            let output = if kind == 0 { 0 } else { input };
            raw_arcs.push(RawArc {
                from,
                input,
                output,
                to,
                line: 0,
            });
        }
    }
    for (from, to) in boundaries {
        if taken.insert((from % states, 0)) {
            raw_arcs.push(RawArc {
                from: from % states,
                input: 0,
                output: 1,
                to: to % states,
                line: 0,
            });
        }
    }
    let raw = RawNetwork {
        path: "random".into(),
        format: "test",
        name: None,
        symbols,
        state_count: states,
        start: 0,
        file_counts_from_one: false,
        arcs: raw_arcs,
        warnings: vec![],
        finals: None,
    };
    Network::from_raw(raw).ok()
}
