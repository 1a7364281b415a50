//! Filling the matrix one cell at a time, for the teaching demo: each step says which three
//! values the cell was the minimum of and which arrows it got, and the partly filled matrix
//! can be drawn between steps.

use super::{Costs, Matrix, Pointers};

/// The three values a cell is the minimum of (Eq. 2.19); `None` where the neighbour does not
/// exist (row 0, column 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidates {
    /// `D[i-1, j-1]` plus the substitution cost (0 for equal symbols).
    pub diagonal: Option<u64>,
    /// `D[i-1, j]` plus the deletion cost.
    pub up: Option<u64>,
    /// `D[i, j-1]` plus the insertion cost.
    pub left: Option<u64>,
}

/// One cell being filled: where, its candidates, the minimum and the arrows it got. The
/// teaching demo shows one of these per key press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillStep {
    /// The cell's row (source prefix length).
    pub i: usize,
    /// The cell's column (target prefix length).
    pub j: usize,
    /// The three values the cell is the minimum of.
    pub candidates: Candidates,
    /// The minimum: `D[i, j]`.
    pub value: u64,
    /// Every neighbour that gave the minimum.
    pub pointers: Pointers,
    /// Whether the source and target symbols of this cell are equal (the diagonal is then a
    /// match, at no cost).
    pub equal: bool,
}

/// Fills a matrix cell by cell in row-major order (Fig. 2.20), yielding each step; the partly
/// filled matrix is there to draw between steps. [`Matrix::new`] is this run to the end.
#[derive(Clone, Debug)]
pub struct FillSteps {
    matrix: Matrix,
}

impl FillSteps {
    /// An empty matrix of `a` against `b`, about to be filled from `(0, 0)`.
    pub fn new(a: &[u32], b: &[u32], costs: Costs) -> FillSteps {
        let cells = (a.len() + 1) * (b.len() + 1);
        FillSteps {
            matrix: Matrix {
                a: a.to_vec(),
                b: b.to_vec(),
                costs,
                values: vec![0; cells],
                pointers: vec![Pointers::NONE; cells],
                filled: 0,
            },
        }
    }

    /// The matrix as filled so far.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The matrix as filled so far, for keeping after the demo.
    pub fn into_matrix(self) -> Matrix {
        self.matrix
    }
}

impl Iterator for FillSteps {
    type Item = FillStep;

    fn next(&mut self) -> Option<FillStep> {
        let m = &mut self.matrix;
        let index = m.filled;
        if index == m.values.len() {
            return None;
        }
        let cols = m.b.len() + 1;
        let (i, j) = (index / cols, index % cols);
        let equal = i > 0 && j > 0 && m.a[i - 1] == m.b[j - 1];
        let candidates = Candidates {
            diagonal: (i > 0 && j > 0)
                .then(|| m.values[index - cols - 1] + m.costs.diagonal(m.a[i - 1], m.b[j - 1])),
            up: (i > 0).then(|| m.values[index - cols] + u64::from(m.costs.del)),
            left: (j > 0).then(|| m.values[index - 1] + u64::from(m.costs.ins)),
        };
        let value = [candidates.diagonal, candidates.up, candidates.left]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(0);
        let mut pointers = Pointers::NONE;
        for (candidate, pointer) in [
            (candidates.diagonal, Pointers::DIAGONAL),
            (candidates.up, Pointers::UP),
            (candidates.left, Pointers::LEFT),
        ] {
            if candidate == Some(value) {
                pointers = pointers.union(pointer);
            }
        }
        m.values[index] = value;
        m.pointers[index] = pointers;
        m.filled += 1;
        Some(FillStep {
            i,
            j,
            candidates,
            value,
            pointers,
            equal,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.matrix.values.len() - self.matrix.filled;
        (left, Some(left))
    }
}

impl ExactSizeIterator for FillSteps {}

/// The whole matrix in one pass: the values and arrows [`FillSteps`] gives cell by cell
/// (the same minimum, every neighbour that reaches it), without a step record per cell.
pub(super) fn fill(a: &[u32], b: &[u32], costs: Costs) -> Matrix {
    let cols = b.len() + 1;
    let cells = (a.len() + 1) * cols;
    let (ins, del) = (u64::from(costs.ins), u64::from(costs.del));
    let mut values = vec![0u64; cells];
    let mut pointers = vec![Pointers::NONE; cells];
    for j in 1..cols {
        values[j] = values[j - 1] + ins;
        pointers[j] = Pointers::LEFT;
    }
    for (i, &x) in a.iter().enumerate() {
        let (above, row) = values[i * cols..(i + 2) * cols].split_at_mut(cols);
        let arrows = &mut pointers[(i + 1) * cols..(i + 2) * cols];
        row[0] = above[0] + del;
        arrows[0] = Pointers::UP;
        for (j, &y) in b.iter().enumerate() {
            let diagonal = above[j] + costs.diagonal(x, y);
            let up = above[j + 1] + del;
            let left = row[j] + ins;
            let value = diagonal.min(up).min(left);
            row[j + 1] = value;
            arrows[j + 1] = Pointers(
                u8::from(diagonal == value)
                    | u8::from(up == value) << 1
                    | u8::from(left == value) << 2,
            );
        }
    }
    Matrix {
        a: a.to_vec(),
        b: b.to_vec(),
        costs,
        values,
        pointers,
        filled: cells,
    }
}

#[cfg(test)]
mod tests {
    use super::super::codepoints;
    use super::*;

    #[test]
    fn fill_steps_go_cell_by_cell() {
        let mut steps = FillSteps::new(&codepoints("ab"), &codepoints("b"), Costs::LEVENSHTEIN);
        assert_eq!(steps.len(), 6);
        let first = steps.next().unwrap();
        assert_eq!((first.i, first.j, first.value), (0, 0, 0));
        assert_eq!(steps.matrix().value(0, 1), None);
        let steps: Vec<FillStep> = steps.collect();
        let last = steps.last().unwrap();
        assert_eq!((last.i, last.j, last.value), (2, 1, 1));
        assert!(last.equal);
        assert_eq!(
            last.candidates,
            Candidates {
                diagonal: Some(1),
                up: Some(2),
                left: Some(3)
            }
        );
        assert_eq!(last.pointers, Pointers::DIAGONAL);
    }
}
