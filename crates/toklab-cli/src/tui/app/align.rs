//! The alignment view's state: two rows (the selected one, A, and another, B), the token
//! alignment of their tokens of the current line, and on request the character-level DP
//! matrix of the selected token pair or of the whole line, filled at once or cell by cell
//! (the teaching demo).

use std::time::Instant;

use toklab::align::{Alignment, Costs, FillSteps, Interner, Matrix, Unit, segment};

use super::{Action, App, View};
use toklab::compare::align_tokens;

/// What the user chose in the alignment view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AlignChoice {
    /// Row B; `None` means the row after the selected one.
    pub other: Option<usize>,
    /// Show the DP matrix instead of the token alignment.
    pub matrix: bool,
    /// The matrix of the whole line (forms joined by spaces) instead of the selected pair.
    pub whole_line: bool,
    /// Cells filled so far in the step-by-step demo; `None` shows the matrix complete.
    pub step: Option<usize>,
    pub playing: Option<Instant>,
}

/// The character-level DP matrix shown, with its labels and (once complete) backtrace path.
pub struct MatrixView {
    pub source: Vec<String>,
    pub target: Vec<String>,
    pub matrix: Matrix,
    pub path: Vec<(usize, usize)>,
    /// Cells in the whole matrix, to know when the demo is done.
    pub cells: usize,
    /// The cell filled last in the demo, with its three candidates.
    pub last: Option<toklab::align::FillStep>,
}

/// The computed alignment for the current line and rows.
pub struct AlignData {
    pub a: usize,
    pub b: usize,
    pub tokens: Alignment,
    pub matrix: Option<MatrixView>,
    key: (u64, usize, usize, bool, bool, Option<usize>, usize),
}

/// The B row for selected row `a` among `rows` rows.
pub fn other_row(choice: &AlignChoice, a: usize, rows: usize) -> Option<usize> {
    if rows < 2 {
        return None;
    }
    match choice.other {
        Some(b) if b < rows && b != a => Some(b),
        _ => Some((a + 1) % rows),
    }
}

impl AlignData {
    /// Whether this was computed for these inputs.
    pub fn is_for(
        &self,
        version: u64,
        a: usize,
        b: usize,
        choice: &AlignChoice,
        pair: usize,
    ) -> bool {
        self.key
            == (
                version,
                a,
                b,
                choice.matrix,
                choice.whole_line,
                choice.step,
                pair,
            )
    }

    /// Aligns the tokens of rows `a` and `b` and, in matrix mode, builds the matrix.
    #[allow(clippy::too_many_arguments)]
    pub fn compute(
        version: u64,
        text: &str,
        a: (usize, &toklab::token::Tokenization),
        b: (usize, &toklab::token::Tokenization),
        choice: &AlignChoice,
        pair: usize,
    ) -> AlignData {
        let tokens = align_tokens(text, a.1, text, b.1, Costs::LEVENSHTEIN);
        let matrix = choice.matrix.then(|| {
            let (source, target) = if choice.whole_line {
                (joined(text, a.1), joined(text, b.1))
            } else {
                let pair = tokens.pairs.get(pair);
                let form = |t: &toklab::token::Tokenization, i: Option<usize>| {
                    i.and_then(|i| t.tokens.get(i))
                        .map_or(String::new(), |t| t.form(text).to_string())
                };
                (
                    form(a.1, pair.and_then(|p| p.a)),
                    form(b.1, pair.and_then(|p| p.b)),
                )
            };
            matrix_view(&source, &target, choice.step)
        });
        AlignData {
            a: a.0,
            b: b.0,
            tokens,
            matrix,
            key: (
                version,
                a.0,
                b.0,
                choice.matrix,
                choice.whole_line,
                choice.step,
                pair,
            ),
        }
    }
}

/// The forms of a tokenization joined by single spaces.
fn joined(text: &str, tokens: &toklab::token::Tokenization) -> String {
    tokens
        .tokens
        .iter()
        .map(|t| t.form(text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The code-point Levenshtein matrix (costs 1/1/1, `toklab align`'s default) of two strings,
/// filled up to `step` cells while the demo runs.
fn matrix_view(source: &str, target: &str, step: Option<usize>) -> MatrixView {
    let mut interner = Interner::new();
    let (a, a_labels) = segment(source, Unit::Codepoint, &mut interner);
    let (b, b_labels) = segment(target, Unit::Codepoint, &mut interner);
    let cells = (a.len() + 1) * (b.len() + 1);
    let costs = Costs::LEVENSHTEIN;
    let (matrix, last) = match step {
        None => (Matrix::new(&a, &b, costs), None),
        Some(k) => {
            let mut fill = FillSteps::new(&a, &b, costs);
            let last = fill.by_ref().take(k).last();
            (fill.into_matrix(), last)
        }
    };
    let path = match matrix.backtrace() {
        Some(alignment) if matrix.is_complete() => matrix.path(&alignment),
        _ => Vec::new(),
    };
    MatrixView {
        source: a_labels,
        target: b_labels,
        matrix,
        path,
        cells,
        last,
    }
}

impl App {
    /// The alignment view's own actions: choosing row B and the matrix.
    pub(super) fn align_action(&mut self, action: Action) {
        match action {
            Action::AlignNextOther => {
                self.show_view(View::Align);
                let next = other_row(&self.align, self.row, self.rows.len()).map(|b| {
                    let mut n = (b + 1) % self.rows.len();
                    if n == self.row {
                        n = (n + 1) % self.rows.len();
                    }
                    n
                });
                self.align.other = next;
            }
            Action::AlignWith(row) => {
                self.show_view(View::Align);
                if row != self.row {
                    self.align.other = Some(row);
                }
            }
            Action::ToggleMatrix => {
                self.show_view(View::Align);
                self.align.matrix = !self.align.matrix;
                self.align.step = None;
                self.align.playing = None;
            }
            Action::ToggleMatrixScope => {
                self.show_view(View::Align);
                self.align.matrix = true;
                self.align.whole_line = !self.align.whole_line;
                self.align.step = None;
            }
            _ => {}
        }
    }

    /// The alignment view's data for the current line and rows, when the view is shown.
    pub fn align_data(&self) -> Option<&AlignData> {
        let data = self.align_data.as_ref()?;
        let b = other_row(&self.align, self.row, self.rows.len())?;
        data.is_for(self.version, self.row, b, &self.align, self.views.cursor)
            .then_some(data)
    }

    pub(super) fn refresh_align(&mut self) {
        if self.views.current != View::Align || self.views.hidden || self.align_data().is_some() {
            return;
        }
        let Some(b) = other_row(&self.align, self.row, self.rows.len()) else {
            self.align_data = None;
            return;
        };
        let pairs = self
            .align_data
            .as_ref()
            .map_or(usize::MAX, |d| d.tokens.pairs.len());
        self.views.cursor = self.views.cursor.min(pairs.saturating_sub(1));
        let data = AlignData::compute(
            self.version,
            &self.text,
            (self.row, &self.rows[self.row].tokens),
            (b, &self.rows[b].tokens),
            &self.align,
            self.views.cursor,
        );
        self.views.cursor = self
            .views
            .cursor
            .min(data.tokens.pairs.len().saturating_sub(1));
        self.align_data = Some(data);
        // The cursor may have been clamped: compute again for the clamped pair if it moved.
        if self.align_data().is_none() {
            self.align_data = None;
            self.refresh_align();
        }
    }

    /// Whether the matrix demo has filled every cell (or is not running).
    pub(super) fn matrix_fill_done(&self) -> bool {
        match (
            self.align.step,
            self.align_data().and_then(|d| d.matrix.as_ref()),
        ) {
            (Some(k), Some(m)) => k >= m.cells,
            _ => true,
        }
    }

    /// One cell more (or less) of the matrix demo.
    pub(super) fn matrix_step(&mut self, forward: bool) {
        self.show_view(View::Align);
        self.align.matrix = true;
        self.align.playing = None;
        let cells = self
            .align_data()
            .and_then(|d| d.matrix.as_ref())
            .map(|m| m.cells);
        let step = self
            .align
            .step
            .unwrap_or(if forward { 0 } else { cells.unwrap_or(0) });
        self.align.step = Some(if forward {
            (step + 1).min(cells.unwrap_or(usize::MAX))
        } else {
            step.saturating_sub(1)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::align::Op;

    #[test]
    fn textbook_matrix_and_demo() {
        let view = matrix_view("intention", "execution", None);
        assert_eq!(view.matrix.distance(), Some(5));
        assert_eq!(view.path.first(), Some(&(0, 0)));
        assert_eq!(view.path.last(), Some(&(9, 9)));
        let partial = matrix_view("intention", "execution", Some(12));
        assert!(!partial.matrix.is_complete());
        assert!(partial.path.is_empty());
        assert!(partial.last.is_some());
        assert_eq!(partial.cells, 100);
    }

    #[test]
    fn rewrite_pairs_align_with_a_substitution_and_an_insertion() {
        let text = "won't";
        let ws = toklab::load("ws").unwrap().tokenize(text);
        let gpt2 = toklab::load("pretok:gpt2").unwrap().tokenize(text);
        let data = AlignData::compute(1, text, (0, &ws), (1, &gpt2), &AlignChoice::default(), 0);
        let ops: Vec<Op> = data.tokens.pairs.iter().map(|p| p.op).collect();
        assert_eq!(ops, [Op::Sub, Op::Ins], "won't vs won + 't");
    }
}
