//! foma's everyday loop over a tokenizer network: `apply down` (text on the upper side, every
//! tokenization the network allows on the lower side, not only the longest match the
//! tokenizer takes), `apply up` (a tokenized string back to every text it can come from) and
//! the summary of `print net` / `print sigma`. The search is bounded: a cyclic network (a
//! deletion loop read backwards inserts spaces without end) never hangs it.
//!
//! ```
//! use toklab::engines::fst::{Model, apply_down};
//! let model = Model::open("../../samples/fst/toy.fst".as_ref()).unwrap();
//! let down = apply_down(&model.network, "abc", 10);
//! assert_eq!(down.outputs, ["a@_TOKEN_BOUND_@b@_TOKEN_BOUND_@c@_TOKEN_BOUND_@", "abc@_TOKEN_BOUND_@"]);
//! ```

use super::alphabet::{IDENTITY, NO_SYMBOL, UNKNOWN};
use super::network::{Edge, EdgeKind, Network};

/// The boundary mark as foma writes it in `apply` results (and reads it in `apply up`).
pub const BOUNDARY_MARK: &str = "@_TOKEN_BOUND_@";

/// How many search steps one apply may take before it stops with what it found.
const STEP_BUDGET: usize = 200_000;

/// What an apply found: the outputs in the order the search met them (each once), and whether
/// the search ended by itself (`false`: the output limit or the step budget stopped it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The strings on the other side, each once.
    pub outputs: Vec<String>,
    /// The search met every path (no bound stopped it).
    pub complete: bool,
    /// The file did not say which states are final (Datok's models): the start state is taken
    /// as the only one.
    pub finals_assumed: bool,
}

/// `apply down`: every lower-side string of `input`, at most `limit` of them.
pub fn apply_down(network: &Network, input: &str, limit: usize) -> Applied {
    let symbols: Vec<Lower> = input.chars().map(Lower::Char).collect();
    Search::new(network, true, limit).run(&symbols)
}

/// `apply up`: every upper-side string (text) whose tokenization is `input`, where
/// [`BOUNDARY_MARK`] stands for a boundary; at most `limit` of them.
pub fn apply_up(network: &Network, input: &str, limit: usize) -> Applied {
    let mut symbols = Vec::new();
    let mut rest = input;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix(BOUNDARY_MARK) {
            symbols.push(Lower::Boundary);
            rest = after;
        } else {
            symbols.push(Lower::Char(c));
            rest = &rest[c.len_utf8()..];
        }
    }
    Search::new(network, false, limit).run(&symbols)
}

/// One symbol of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lower {
    Char(char),
    Boundary,
}

struct Search<'a> {
    network: &'a Network,
    down: bool,
    limit: usize,
    steps: usize,
    out: String,
    found: Applied,
}

impl<'a> Search<'a> {
    fn new(network: &'a Network, down: bool, limit: usize) -> Search<'a> {
        Search {
            network,
            down,
            limit,
            steps: 0,
            out: String::new(),
            found: Applied {
                finals_assumed: network.finals.is_none(),
                ..Applied::default()
            },
        }
    }

    fn run(mut self, input: &[Lower]) -> Applied {
        let start = self.network.start;
        let ended = self.walk(start, input, &mut Vec::new());
        self.found.complete = ended;
        self.found
    }

    fn is_final(&self, state: u32) -> bool {
        match &self.network.finals {
            Some(finals) => finals.get(state as usize).copied().unwrap_or(false),
            None => state == self.network.start,
        }
    }

    /// Every path from `state` reading `input`; `chain` holds the states that already took an
    /// edge reading nothing at this position (each may once, as foma allows, so a loop that
    /// reads nothing is taken once and never forever). False when a bound stopped it.
    fn walk(&mut self, state: u32, input: &[Lower], chain: &mut Vec<u32>) -> bool {
        self.steps += 1;
        if self.steps > STEP_BUDGET || self.found.outputs.len() >= self.limit {
            return false;
        }
        if input.is_empty() && self.is_final(state) && !self.found.outputs.contains(&self.out) {
            self.found.outputs.push(self.out.clone());
        }
        let edges: Vec<Edge> = self.network.edges(state).to_vec();
        if !chain.contains(&state) {
            chain.push(state);
            let silent: Vec<&Edge> = edges.iter().filter(|e| self.reads_nothing(e)).collect();
            for edge in silent {
                let written = self.writes(edge, None);
                if !self.follow(edge.target, input, written, chain) {
                    return false;
                }
            }
            chain.pop();
        }
        let Some((&next, rest)) = input.split_first() else {
            return true;
        };
        let reading: Vec<&Edge> = edges.iter().filter(|e| self.reads(e, next)).collect();
        for edge in reading {
            let written = self.writes(edge, Some(next));
            if !self.follow(edge.target, rest, written, &mut Vec::new()) {
                return false;
            }
        }
        true
    }

    /// Writes `written`, walks on from `target`, and takes the writing back.
    fn follow(
        &mut self,
        target: u32,
        input: &[Lower],
        written: String,
        chain: &mut Vec<u32>,
    ) -> bool {
        let len = self.out.len();
        self.out.push_str(&written);
        let ended = self.walk(target, input, chain);
        self.out.truncate(len);
        ended
    }

    /// Whether the edge reads nothing of the input: a boundary going down, a deletion up.
    fn reads_nothing(&self, edge: &Edge) -> bool {
        match edge.kind {
            EdgeKind::Boundary => self.down,
            EdgeKind::Deletion => !self.down,
            EdgeKind::Identity => false,
        }
    }

    /// Whether the edge reads `next`.
    fn reads(&self, edge: &Edge, next: Lower) -> bool {
        match (edge.kind, next) {
            (EdgeKind::Boundary, Lower::Boundary) => !self.down,
            (EdgeKind::Boundary, _) | (_, Lower::Boundary) => false,
            (EdgeKind::Deletion, _) if !self.down => false,
            (_, Lower::Char(c)) => {
                let symbol = self.network.alphabet.symbol(c);
                if symbol == NO_SYMBOL {
                    // Outside the alphabet: the identity and the unknown symbols read it.
                    edge.symbol == IDENTITY || edge.symbol == UNKNOWN
                } else {
                    edge.symbol == symbol
                }
            }
        }
    }

    /// What the edge writes on the output side, having read `read`.
    fn writes(&self, edge: &Edge, read: Option<Lower>) -> String {
        match (edge.kind, self.down) {
            (EdgeKind::Boundary, true) => BOUNDARY_MARK.to_string(),
            (EdgeKind::Boundary, false) | (EdgeKind::Deletion, true) => String::new(),
            (EdgeKind::Identity, _) => match read {
                Some(Lower::Char(c)) => c.to_string(),
                _ => String::new(),
            },
            // Up, a deletion writes the character it deletes going down.
            (EdgeKind::Deletion, false) => match self.network.alphabet.char_of(edge.symbol) {
                Some(c) => c.to_string(),
                None => "?".to_string(),
            },
        }
    }
}

/// The network as foma's `print net` heads it and `print sigma` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetSummary {
    /// States, as foma counts them.
    pub states: u32,
    /// Arcs, as foma counts them (those the tokenizer ignores included).
    pub arcs: usize,
    /// Final states, where the file said.
    pub finals: Option<usize>,
    /// The symbols, as foma prints them (`@_TOKEN_BOUND_@`, characters); its length is foma's
    /// `Size`.
    pub sigma: Vec<String>,
    /// Characters outside the sigma are read too (`?`, foma's identity and unknown symbols,
    /// which it lists but does not count).
    pub any_char: bool,
}

/// The summary of `network`.
pub fn summary(network: &Network) -> NetSummary {
    let mut sigma = Vec::new();
    if network.stats.boundary > 0 {
        sigma.push(BOUNDARY_MARK.to_string());
    }
    let used = |symbol| {
        (1..=network.state_count()).any(|s| network.edges(s).iter().any(|e| e.symbol == symbol))
    };
    sigma.extend(network.alphabet.chars().iter().map(|c| c.to_string()));
    NetSummary {
        any_char: used(IDENTITY) || used(UNKNOWN),
        states: network.state_count(),
        // foma counts the arcs the tokenizer ignores too (on the boundary mark, on
        // multi-character symbols).
        arcs: network.edge_count() + network.stats.reading_boundary + network.stats.multichar,
        finals: network
            .finals
            .as_ref()
            .map(|f| f.iter().filter(|&&x| x).count()),
        sigma,
    }
}
