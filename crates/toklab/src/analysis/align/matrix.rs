//! The textbook's dynamic-programming matrix (Jurafsky & Martin, Fig. 2.20–2.22): every cell's
//! value and every backpointer kept, so a teacher can show the arrows, any backtrace, all the
//! minimum-cost alignments, and the matrix being filled cell by cell.

#[cfg(doc)]
use super::FillSteps;
use super::{AlignedPair, Alignment, Costs, Op};

/// Which neighbours a cell's minimum came from: Fig. 2.22's arrows. A cell may have several,
/// and every path of arrows from the last cell to the first is a minimum-cost alignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pointers(pub(super) u8);

impl Pointers {
    /// No arrows: the first cell, and cells not filled yet.
    pub const NONE: Pointers = Pointers(0);
    /// From `(i-1, j-1)`: a match or a substitution (↖).
    pub const DIAGONAL: Pointers = Pointers(1);
    /// From `(i-1, j)`: a deletion of the source symbol (↑).
    pub const UP: Pointers = Pointers(2);
    /// From `(i, j-1)`: an insertion of the target symbol (←).
    pub const LEFT: Pointers = Pointers(4);

    /// Whether the minimum came from the diagonal (↖).
    pub fn diagonal(self) -> bool {
        self.0 & Self::DIAGONAL.0 != 0
    }

    /// Whether the minimum came from above (↑, a deletion).
    pub fn up(self) -> bool {
        self.0 & Self::UP.0 != 0
    }

    /// Whether the minimum came from the left (←, an insertion).
    pub fn left(self) -> bool {
        self.0 & Self::LEFT.0 != 0
    }

    /// No arrows at all.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Both sets of arrows.
    pub fn union(self, other: Pointers) -> Pointers {
        Pointers(self.0 | other.0)
    }

    /// The arrows in three fixed slots (`↖←↑`, a blank for each missing one), so columns of a
    /// printed matrix line up.
    pub fn arrows(self) -> String {
        [(self.diagonal(), '↖'), (self.left(), '←'), (self.up(), '↑')]
            .iter()
            .map(|&(on, arrow)| if on { arrow } else { ' ' })
            .collect()
    }
}

/// The DP matrix of a source `a` (rows) and a target `b` (columns): `(a.len()+1) × (b.len()+1)`
/// cells, row 0 and column 0 being the empty prefixes (the textbook's `#`). A matrix may be
/// partly filled while a [`FillSteps`] runs; unfilled cells have no value.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub(super) a: Vec<u32>,
    pub(super) b: Vec<u32>,
    pub(super) costs: Costs,
    pub(super) values: Vec<u64>,
    pub(super) pointers: Vec<Pointers>,
    /// Cells filled so far, in row-major order.
    pub(super) filled: usize,
}

impl Matrix {
    /// The complete matrix of `a` against `b`. Memory is quadratic: for long inputs use
    /// [`super::distance`] or [`super::hirschberg`].
    /// It is filled as [`FillSteps`] fills it, cell for cell, without stopping at each cell.
    pub fn new(a: &[u32], b: &[u32], costs: Costs) -> Matrix {
        super::fill::fill(a, b, costs)
    }

    /// Rows: the source's length plus one.
    pub fn rows(&self) -> usize {
        self.a.len() + 1
    }

    /// Columns: the target's length plus one.
    pub fn cols(&self) -> usize {
        self.b.len() + 1
    }

    /// The source symbols (rows), to tell a match from a substitution when drawing.
    pub fn source(&self) -> &[u32] {
        &self.a
    }

    /// The target symbols (columns).
    pub fn target(&self) -> &[u32] {
        &self.b
    }

    /// The costs the matrix was filled with, for its caption.
    pub fn costs(&self) -> Costs {
        self.costs
    }

    /// Whether every cell is filled (only then are there distances and backtraces).
    pub fn is_complete(&self) -> bool {
        self.filled == self.values.len()
    }

    /// How many cells are filled (all of them once complete).
    pub fn filled(&self) -> usize {
        self.filled
    }

    fn index(&self, i: usize, j: usize) -> usize {
        assert!(
            i < self.rows() && j < self.cols(),
            "cell ({i}, {j}) outside a {}×{} matrix",
            self.rows(),
            self.cols()
        );
        i * self.cols() + j
    }

    /// `D[i, j]`, the distance between the first `i` symbols of the source and the first `j`
    /// of the target; `None` while the cell is not filled yet.
    pub fn value(&self, i: usize, j: usize) -> Option<u64> {
        let index = self.index(i, j);
        (index < self.filled).then(|| self.values[index])
    }

    /// The cell's backpointers (none for `(0, 0)` and for unfilled cells).
    pub fn pointers(&self, i: usize, j: usize) -> Pointers {
        let index = self.index(i, j);
        if index < self.filled {
            self.pointers[index]
        } else {
            Pointers::NONE
        }
    }

    /// The edit distance, once the matrix is complete.
    pub fn distance(&self) -> Option<u64> {
        self.value(self.a.len(), self.b.len())
    }

    /// The step a backpointer stands for at cell `(i, j)`, and the cell it leads back to.
    fn step(&self, i: usize, j: usize, pointer: Pointers) -> (AlignedPair, usize, usize) {
        if pointer == Pointers::DIAGONAL {
            let op = if self.a[i - 1] == self.b[j - 1] {
                Op::Match
            } else {
                Op::Sub
            };
            let pair = AlignedPair {
                op,
                a: Some(i - 1),
                b: Some(j - 1),
            };
            (pair, i - 1, j - 1)
        } else if pointer == Pointers::UP {
            let pair = AlignedPair {
                op: Op::Del,
                a: Some(i - 1),
                b: None,
            };
            (pair, i - 1, j)
        } else {
            let pair = AlignedPair {
                op: Op::Ins,
                a: None,
                b: Some(j - 1),
            };
            (pair, i, j - 1)
        }
    }

    /// The backpointers of a cell in the order a backtrace tries them: diagonal first, so
    /// matches and substitutions are preferred to an insertion-deletion pair, then up, then
    /// left.
    fn ordered(&self, i: usize, j: usize) -> impl Iterator<Item = Pointers> + use<> {
        let p = self.pointers(i, j);
        [Pointers::DIAGONAL, Pointers::UP, Pointers::LEFT]
            .into_iter()
            .filter(move |&q| p.0 & q.0 != 0)
    }

    /// One minimum-cost alignment: the backtrace from the last cell, taking the first
    /// backpointer of each cell (diagonal, then up, then left). `None` until complete.
    pub fn backtrace(&self) -> Option<Alignment> {
        if !self.is_complete() {
            return None;
        }
        let (mut i, mut j) = (self.a.len(), self.b.len());
        let mut pairs = Vec::with_capacity(i.max(j));
        while i > 0 || j > 0 {
            let pointer = self
                .ordered(i, j)
                .next()
                .expect("every filled cell but the first has a backpointer");
            let (pair, pi, pj) = self.step(i, j, pointer);
            pairs.push(pair);
            (i, j) = (pi, pj);
        }
        pairs.reverse();
        let cost = self.distance().unwrap_or(0);
        Some(Alignment { pairs, cost })
    }

    /// The cells an alignment passes through, from `(0, 0)` to the last cell: the bold cells
    /// of Fig. 2.22.
    pub fn path(&self, alignment: &Alignment) -> Vec<(usize, usize)> {
        let mut cell = (0, 0);
        let mut cells = vec![cell];
        for pair in &alignment.pairs {
            cell.0 += usize::from(pair.a.is_some());
            cell.1 += usize::from(pair.b.is_some());
            cells.push(cell);
        }
        cells
    }

    /// How many distinct minimum-cost alignments there are (paths of backpointers from the
    /// last cell to the first); `saturated` when the count does not fit in a `u128`.
    pub fn path_count(&self) -> (u128, bool) {
        let cols = self.cols();
        let mut counts = vec![0u128; self.values.len()];
        let mut saturated = false;
        if counts.is_empty() || !self.is_complete() {
            return (0, false);
        }
        counts[0] = 1;
        for index in 1..counts.len() {
            let (i, j) = (index / cols, index % cols);
            let mut total = 0u128;
            for pointer in self.ordered(i, j) {
                let (_, pi, pj) = self.step(i, j, pointer);
                let (sum, over) = total.overflowing_add(counts[pi * cols + pj]);
                saturated |= over;
                total = if over { u128::MAX } else { sum };
            }
            counts[index] = total;
        }
        (counts[counts.len() - 1], saturated)
    }

    /// Up to `limit` minimum-cost alignments, in backtrace order (the first is
    /// [`Matrix::backtrace`]'s), with the count of all of them.
    pub fn alignments(&self, limit: usize) -> Alignments {
        let (total, saturated) = self.path_count();
        let mut found = Vec::new();
        if !self.is_complete() || limit == 0 {
            return Alignments {
                alignments: found,
                total,
                saturated,
            };
        }
        let cost = self.distance().unwrap_or(0);
        // A depth-first walk over the backpointers with an explicit stack: `tried` counts the
        // pointers of a cell already followed, `pairs[k]` is the step from stack[k] to stack[k+1].
        struct Frame {
            i: usize,
            j: usize,
            tried: usize,
        }
        let mut stack = vec![Frame {
            i: self.a.len(),
            j: self.b.len(),
            tried: 0,
        }];
        let mut pairs: Vec<AlignedPair> = Vec::new();
        while let Some(frame) = stack.last_mut() {
            if frame.i == 0 && frame.j == 0 {
                found.push(Alignment {
                    pairs: pairs.iter().rev().copied().collect(),
                    cost,
                });
                if found.len() >= limit {
                    break;
                }
                stack.pop();
                pairs.pop();
                continue;
            }
            let (i, j) = (frame.i, frame.j);
            match self.ordered(i, j).nth(frame.tried) {
                Some(pointer) => {
                    frame.tried += 1;
                    let (pair, pi, pj) = self.step(i, j, pointer);
                    pairs.push(pair);
                    stack.push(Frame {
                        i: pi,
                        j: pj,
                        tried: 0,
                    });
                }
                None => {
                    stack.pop();
                    pairs.pop();
                }
            }
        }
        Alignments {
            alignments: found,
            total,
            saturated,
        }
    }
}

/// Some of the minimum-cost alignments and how many there are in all.
#[derive(Clone, Debug)]
pub struct Alignments {
    /// The alignments found, the backtrace's first.
    pub alignments: Vec<Alignment>,
    /// How many minimum-cost alignments there are in all.
    pub total: u128,
    /// The total did not fit in a `u128` (it is at least `u128::MAX`).
    pub saturated: bool,
}

#[cfg(test)]
mod tests {
    use super::super::codepoints;
    use super::*;

    /// Fig. 2.21: intention (rows) against execution (columns), costs 1/1/2.
    const FIG_2_21: [[u64; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 5, 6, 7, 6, 7, 8],
        [2, 3, 4, 5, 6, 7, 8, 7, 8, 7],
        [3, 4, 5, 6, 7, 8, 7, 8, 9, 8],
        [4, 3, 4, 5, 6, 7, 8, 9, 10, 9],
        [5, 4, 5, 6, 7, 8, 9, 10, 11, 10],
        [6, 5, 6, 7, 8, 9, 8, 9, 10, 11],
        [7, 6, 7, 8, 9, 10, 9, 8, 9, 10],
        [8, 7, 8, 9, 10, 11, 10, 9, 8, 9],
        [9, 8, 9, 10, 11, 12, 11, 10, 9, 8],
    ];

    fn textbook() -> Matrix {
        Matrix::new(
            &codepoints("intention"),
            &codepoints("execution"),
            Costs::INDEL,
        )
    }

    #[test]
    fn reproduces_figure_2_21() {
        let m = textbook();
        for (i, row) in FIG_2_21.iter().enumerate() {
            for (j, &expected) in row.iter().enumerate() {
                assert_eq!(m.value(i, j), Some(expected), "cell ({i}, {j})");
            }
        }
        assert_eq!(m.distance(), Some(8));
    }

    #[test]
    fn arrows_of_figure_2_22() {
        let m = textbook();
        // Row `i`: three arrows under `e`, a lone diagonal under the matching `i`.
        assert_eq!(m.pointers(1, 1).arrows(), "↖←↑");
        assert_eq!(m.pointers(1, 7).arrows(), "↖  ");
        assert_eq!(m.pointers(1, 8).arrows(), " ← ");
        // Row `e`: the match with the first `e`, then insertions.
        assert_eq!(m.pointers(4, 1).arrows(), "↖  ");
        assert_eq!(m.pointers(4, 2).arrows(), " ← ");
        // The first column only goes up, the first row only left.
        assert_eq!(m.pointers(5, 0).arrows(), "  ↑");
        assert_eq!(m.pointers(0, 3).arrows(), " ← ");
        assert!(m.pointers(0, 0).is_empty());
    }

    #[test]
    fn backtrace_is_figure_2_17() {
        // I N T E * N T I O N over * E X E C U T I O N: d s s, a match, i s, four matches.
        let m = textbook();
        let alignment = m.backtrace().unwrap();
        assert_eq!(alignment.ops(), "dss is    ");
        assert_eq!(alignment.cost, 8);
        let path = m.path(&alignment);
        assert_eq!(path.first(), Some(&(0, 0)));
        assert_eq!(path.last(), Some(&(9, 9)));
        assert!(path.contains(&(4, 3)) && path.contains(&(4, 4)));
        let lev = Matrix::new(
            &codepoints("intention"),
            &codepoints("execution"),
            Costs::LEVENSHTEIN,
        );
        assert_eq!(lev.backtrace().unwrap().cost, 5);
    }

    #[test]
    fn all_alignments_are_counted_and_distinct() {
        let m = textbook();
        let all = m.alignments(1000);
        assert_eq!(all.total as usize, all.alignments.len());
        assert!(!all.saturated);
        assert_eq!(all.alignments[0], m.backtrace().unwrap());
        let distinct: std::collections::HashSet<_> =
            all.alignments.iter().map(|a| a.pairs.clone()).collect();
        assert_eq!(distinct.len(), all.alignments.len());
        let (a, b) = (codepoints("intention"), codepoints("execution"));
        for alignment in &all.alignments {
            assert_eq!(alignment.replay(&a, &b).unwrap(), b);
            let cost: u64 = alignment.pairs.iter().map(|p| Costs::INDEL.of(p.op)).sum();
            assert_eq!(cost, 8);
        }
        let few = m.alignments(3);
        assert_eq!(few.alignments.len(), 3);
        assert_eq!(few.total, all.total);
    }

    #[test]
    fn two_equal_ways_to_align_ab_with_ba() {
        // ab → ba at 1/1/1: substitute both, or delete a and insert it after b, or insert b
        // first and delete b after: three alignments of cost 2.
        let m = Matrix::new(&codepoints("ab"), &codepoints("ba"), Costs::LEVENSHTEIN);
        let all = m.alignments(10);
        assert_eq!(all.total, 3);
        let ops: Vec<String> = all.alignments.iter().map(|a| a.ops()).collect();
        assert_eq!(ops, ["ss", "i d", "d i"]);
    }

    #[test]
    fn empty_inputs() {
        let m = Matrix::new(&[], &[], Costs::LEVENSHTEIN);
        assert_eq!(m.distance(), Some(0));
        assert!(m.backtrace().unwrap().pairs.is_empty());
        assert_eq!(m.path_count(), (1, false));
        let m = Matrix::new(&[], &codepoints("xy"), Costs::LEVENSHTEIN);
        assert_eq!(m.backtrace().unwrap().ops(), "ii");
    }
}
