//! Edit distance and alignment over any sequence (code points, grapheme clusters, bytes,
//! tokens): the textbook's DP matrix with every backpointer for teaching, a bit-parallel
//! distance for long inputs, and a linear-memory alignment for long token sequences.
//!
//! Every algorithm works on `u32` symbols so one implementation serves every unit: code points
//! are their scalar values, bytes their values, and graphemes or tokens are interned
//! ([`Interner`]). The choice of algorithm is made here, by what the costs allow:
//!
//! - [`distance`]: Myers/Hyyrö bit-vectors for unit costs, a bit-parallel LCS when a
//!   substitution costs at least a deletion plus an insertion, a two-row DP otherwise.
//! - [`align`]: the full [`Matrix`] backtrace for small inputs (the same alignment `--matrix`
//!   shows), Hirschberg's linear-memory divide and conquer for large ones.
//!
//! ```
//! use toklab::analysis::align::{Costs, str_distance};
//!
//! // The textbook's pair: 5 with unit costs, 8 when a substitution costs 2.
//! assert_eq!(str_distance("intention", "execution", Costs::new(1, 1, 1)), 5);
//! assert_eq!(str_distance("intention", "execution", Costs::new(1, 1, 2)), 8);
//! ```

mod band;
mod bitalign;
mod bitparallel;
mod editops;
mod fill;
mod lcs;
mod linear;
mod matrix;
mod render;
mod short;
mod strip;
mod units;

/// Random edits for the property tests: one piece that turns a proptest's edit list into an
/// edited copy, so each test states only its alphabet.
#[cfg(test)]
pub(crate) fn edited(a: &[u32], edits: &[(usize, u32)], mark: u32, alphabet: u32) -> Vec<u32> {
    let mut b = a.to_vec();
    for &(at, what) in edits {
        let at = at.min(b.len());
        match what {
            0 if at < b.len() => b[at] = mark,
            1 if at < b.len() => drop(b.remove(at)),
            _ => b.insert(at, what % alphabet),
        }
    }
    b
}

pub use self::bitalign::backtrace;
pub use self::bitparallel::{lcs_len, levenshtein};
pub use self::editops::{EditKind, EditOp, RapidfuzzAligner, rapidfuzz_align};
pub use self::fill::{Candidates, FillStep, FillSteps};
pub use self::linear::{general_distance, hirschberg};
pub use self::matrix::{Alignments, Matrix, Pointers};
pub use self::render::{MatrixStyle, render_matrix, render_rows};
pub use self::units::{Interner, Unit, display_label, segment, symbols};

use std::fmt;

/// The largest DP matrix the program builds in full (cells), so a long input gets a clear
/// error instead of exhausting memory; plain alignment has no such limit (Hirschberg). The
/// command line and the workbench refuse beyond it alike.
pub const MATRIX_CELL_LIMIT: usize = 16_000_000;

/// The price of each edit operation. Costs are per operation, not per symbol, which covers the
/// textbook's two variants (1/1/1 and 1/1/2) and anything between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Costs {
    /// Inserting a target symbol.
    pub ins: u32,
    /// Deleting a source symbol.
    pub del: u32,
    /// Substituting a target symbol for a different source symbol (equal ones cost 0).
    pub sub: u32,
}

impl Costs {
    /// Levenshtein's distance: every operation costs 1.
    pub const LEVENSHTEIN: Costs = Costs {
        ins: 1,
        del: 1,
        sub: 1,
    };
    /// The textbook's second variant (Jurafsky & Martin, Eq. 2.20): a substitution costs as
    /// much as a deletion plus an insertion, so it is the insertion/deletion ("indel") distance.
    pub const INDEL: Costs = Costs {
        ins: 1,
        del: 1,
        sub: 2,
    };

    /// Costs in the order the command line names them: insertion, deletion, substitution.
    pub fn new(ins: u32, del: u32, sub: u32) -> Costs {
        Costs { ins, del, sub }
    }

    /// The cost of aligning `x` over `y`: nothing for equal symbols, else a substitution.
    fn diagonal(&self, x: u32, y: u32) -> u64 {
        if x == y { 0 } else { u64::from(self.sub) }
    }

    /// The cost of one step of an alignment.
    pub fn of(&self, op: Op) -> u64 {
        match op {
            Op::Match => 0,
            Op::Sub => u64::from(self.sub),
            Op::Ins => u64::from(self.ins),
            Op::Del => u64::from(self.del),
        }
    }
}

impl Default for Costs {
    fn default() -> Self {
        Costs::LEVENSHTEIN
    }
}

impl fmt::Display for Costs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ins {}, del {}, sub {}", self.ins, self.del, self.sub)
    }
}

/// One operation of an alignment, read as turning the first sequence (the source, the rows of
/// the matrix) into the second (the target, the columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// The same symbol in both: no cost.
    Match,
    /// One symbol replaced by another.
    Sub,
    /// A symbol of the second sequence with no counterpart in the first.
    Ins,
    /// A symbol of the first sequence with no counterpart in the second.
    Del,
}

impl Op {
    /// The textbook's operation-list letter: `d`, `s`, `i`, and a blank for a match.
    pub fn code(self) -> char {
        match self {
            Op::Match => ' ',
            Op::Sub => 's',
            Op::Ins => 'i',
            Op::Del => 'd',
        }
    }

    /// The operation's name, for legends and messages.
    pub fn name(self) -> &'static str {
        match self {
            Op::Match => "match",
            Op::Sub => "substitution",
            Op::Ins => "insertion",
            Op::Del => "deletion",
        }
    }
}

/// One column of an alignment: the symbols it pairs (by index into each sequence; `None` is
/// the gap, the textbook's `*`) and the operation that pairs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlignedPair {
    /// What the column does.
    pub op: Op,
    /// Index of the source symbol, `None` for an insertion.
    pub a: Option<usize>,
    /// Index of the target symbol, `None` for a deletion.
    pub b: Option<usize>,
}

/// A minimum-cost alignment: the columns from left to right and their total cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alignment {
    /// The columns, left to right.
    pub pairs: Vec<AlignedPair>,
    /// The sum of the columns' costs: the edit distance.
    pub cost: u64,
}

impl Alignment {
    /// The operation list as the textbook writes it under an alignment (`d s s   i s`, one
    /// letter per column, blank for a match).
    pub fn ops(&self) -> String {
        self.pairs.iter().map(|p| p.op.code()).collect()
    }

    /// How many columns have each operation: (matches, substitutions, insertions, deletions).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut counts = (0, 0, 0, 0);
        for pair in &self.pairs {
            match pair.op {
                Op::Match => counts.0 += 1,
                Op::Sub => counts.1 += 1,
                Op::Ins => counts.2 += 1,
                Op::Del => counts.3 += 1,
            }
        }
        counts
    }

    /// Applies the operations to `a` and returns the result, checking every column against
    /// both sequences; `Err` names the first column that does not fit. Tests use it to show an
    /// alignment really turns `a` into `b`.
    pub fn replay(&self, a: &[u32], b: &[u32]) -> Result<Vec<u32>, ReplayError> {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::with_capacity(b.len());
        for (column, pair) in self.pairs.iter().enumerate() {
            let expect_a = matches!(pair.op, Op::Match | Op::Sub | Op::Del);
            let expect_b = matches!(pair.op, Op::Match | Op::Sub | Op::Ins);
            if pair.a != expect_a.then_some(i) || pair.b != expect_b.then_some(j) {
                return Err(ReplayError::OutOfOrder {
                    column,
                    pair: *pair,
                    at: (i, j),
                });
            }
            let fits = match pair.op {
                Op::Match => i < a.len() && j < b.len() && a[i] == b[j],
                Op::Sub => i < a.len() && j < b.len() && a[i] != b[j],
                Op::Ins => j < b.len(),
                Op::Del => i < a.len(),
            };
            if !fits {
                return Err(ReplayError::DoesNotFit {
                    column,
                    op: pair.op,
                    at: (i, j),
                });
            }
            if expect_b {
                out.push(b[j]);
            }
            i += usize::from(expect_a);
            j += usize::from(expect_b);
        }
        if i != a.len() || j != b.len() {
            return Err(ReplayError::EndsEarly {
                at: (i, j),
                lengths: (a.len(), b.len()),
            });
        }
        Ok(out)
    }
}

/// Why [`Alignment::replay`] could not turn the first sequence into the second: the first
/// column (or the end) where the alignment and the sequences disagree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A column's indices are not the next ones its operation should consume.
    #[error("column {column}: {pair:?} out of order at ({}, {})", at.0, at.1)]
    OutOfOrder {
        /// The column, from 0.
        column: usize,
        /// The column's content.
        pair: AlignedPair,
        /// Where in `(a, b)` the column should have started.
        at: (usize, usize),
    },
    /// A column's operation does not hold for the symbols there (a match of different
    /// symbols, a substitution of equal ones, a step past the end).
    #[error("column {column}: a {} does not fit at ({}, {})", op.name(), at.0, at.1)]
    DoesNotFit {
        /// The column, from 0.
        column: usize,
        /// The column's operation.
        op: Op,
        /// The position in `(a, b)` it was applied at.
        at: (usize, usize),
    },
    /// The columns run out before both sequences are consumed.
    #[error("alignment ends at ({}, {}), not ({}, {})", at.0, at.1, lengths.0, lengths.1)]
    EndsEarly {
        /// Where in `(a, b)` the last column left off.
        at: (usize, usize),
        /// The lengths of `a` and `b`.
        lengths: (usize, usize),
    },
}

impl From<ReplayError> for crate::Error {
    fn from(error: ReplayError) -> Self {
        crate::Error::invalid(error)
    }
}

/// The edit distance of `a` and `b` under `costs`, by the fastest algorithm the costs allow.
/// Memory is linear in the shorter input whatever the lengths.
pub fn distance(a: &[u32], b: &[u32], costs: Costs) -> u64 {
    let (a, b) = strip_common(a, b);
    let (n, m) = (a.len() as u64, b.len() as u64);
    let (ins, del, sub) = (
        u64::from(costs.ins),
        u64::from(costs.del),
        u64::from(costs.sub),
    );
    if a.is_empty() || b.is_empty() {
        return m * ins + n * del;
    }
    if ins == del && del == sub {
        levenshtein(a, b) as u64 * ins
    } else if sub >= ins + del {
        let common = lcs_len(a, b) as u64;
        (n - common) * del + (m - common) * ins
    } else {
        general_distance(a, b, costs)
    }
}

/// The distance of two strings counted in code points, the unit of the textbook and of the
/// reference pairs.
pub fn str_distance(a: &str, b: &str, costs: Costs) -> u64 {
    distance(&codepoints(a), &codepoints(b), costs)
}

/// The code points of `text` as symbols.
pub fn codepoints(text: &str) -> Vec<u32> {
    text.chars().map(u32::from).collect()
}

/// Inputs up to this many DP cells are aligned with the full matrix (so the alignment is the
/// one `--matrix` marks) under costs other than unit ones; larger ones with Hirschberg in
/// linear memory.
pub const FULL_MATRIX_CELLS: usize = 1 << 20;

/// One minimum-cost alignment of `a` and `b`. Ties are broken the way the matrix backtrace
/// breaks them (diagonal, then deletion, then insertion) on small inputs: under unit costs
/// when one side has at most 128 symbols (every column's bit-vectors kept, one or two words)
/// or when the band of cells the cheapest paths can reach fits in 24 MB of bit-vectors
/// (distance × length / 64 blocks), under other costs up to [`FULL_MATRIX_CELLS`]. Above,
/// the alignment is Hirschberg's, equally cheap but possibly another of the optimal ones.
pub fn align(a: &[u32], b: &[u32], costs: Costs) -> Alignment {
    if bitalign::is_unit(costs) {
        let (pairs, distance) = bitalign::unit_align(a, b);
        Alignment {
            pairs,
            cost: distance as u64 * u64::from(costs.ins),
        }
    } else if (a.len() + 1).saturating_mul(b.len() + 1) <= FULL_MATRIX_CELLS {
        backtrace(a, b, costs)
    } else {
        hirschberg(a, b, costs)
    }
}

/// The lengths of the common prefix and of the common suffix of `a` and `b` (not
/// overlapping): they align as matches under any costs, so the work can leave them out.
fn common_affixes(a: &[u32], b: &[u32]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (prefix, suffix)
}

/// `a` and `b` without their common prefix and suffix.
fn strip_common<'s>(a: &'s [u32], b: &'s [u32]) -> (&'s [u32], &'s [u32]) {
    let (prefix, suffix) = common_affixes(a, b);
    (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_distances() {
        assert_eq!(
            str_distance("intention", "execution", Costs::LEVENSHTEIN),
            5
        );
        assert_eq!(str_distance("intention", "execution", Costs::INDEL), 8);
        assert_eq!(str_distance("leda", "deal", Costs::LEVENSHTEIN), 3);
        assert_eq!(str_distance("drive", "brief", Costs::INDEL), 4);
        assert_eq!(str_distance("drive", "divers", Costs::INDEL), 3);
    }

    #[test]
    fn general_costs_use_the_two_row_dp() {
        // Insertions dear, deletions cheap: turning "ab" into "b" is one deletion (1), turning
        // "b" into "ab" one insertion (5).
        let costs = Costs::new(5, 1, 3);
        assert_eq!(str_distance("ab", "b", costs), 1);
        assert_eq!(str_distance("b", "ab", costs), 5);
        assert_eq!(str_distance("abc", "axc", costs), 3);
        assert_eq!(str_distance("", "xy", costs), 10);
    }

    #[test]
    fn replay_rejects_a_wrong_alignment() {
        let a = codepoints("ab");
        let b = codepoints("ab");
        let good = align(&a, &b, Costs::LEVENSHTEIN);
        assert_eq!(good.replay(&a, &b).unwrap(), b);
        let mut bad = good.clone();
        bad.pairs[0].op = Op::Sub;
        assert!(bad.replay(&a, &b).is_err());
        bad.pairs.pop();
        assert!(good.replay(&a, &codepoints("abc")).is_err());
    }

    #[test]
    fn replay_errors_name_the_column() {
        let a = codepoints("ab");
        let b = codepoints("ab");
        let good = align(&a, &b, Costs::LEVENSHTEIN);
        let mut bad = good.clone();
        bad.pairs[0].op = Op::Sub;
        assert_eq!(
            bad.replay(&a, &b).unwrap_err().to_string(),
            "column 0: a substitution does not fit at (0, 0)"
        );
        let error = crate::Error::from(good.replay(&a, &codepoints("abc")).unwrap_err());
        assert_eq!(error.to_string(), "alignment ends at (2, 2), not (2, 3)");
    }
}
