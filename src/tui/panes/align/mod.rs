//! The alignment view's state: two rows (the selected one, A, and another, B), the token
//! alignment of their tokens of the current line, and on request the character-level DP
//! matrix of the selected token pair or of the whole line, filled at once or cell by cell
//! (the teaching demo).

mod dp_text;
pub mod draw;
mod draw_spans;
pub mod keys;
pub mod typed;

use std::time::Instant;

use toklab::analysis::align::{Alignment, Costs, FillSteps, Interner, Matrix, Unit, segment};

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Context, Mark, Pane, Reply};
use crate::tui::app::jobs::Job;
use crate::tui::app::rows::SYNC_BYTES;
use crate::tui::app::{Action, step_due};
use crate::tui::theme::Theme;
use toklab::analysis::align::MATRIX_CELL_LIMIT;
use toklab::analysis::compare::align_tokens;
use toklab::core::token::Span;

/// The alignment view's commands (keys `b`, Enter, `c`, `S`; a click on a row label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlignCommand {
    /// The next row as B.
    NextOther,
    /// A given row as B (a click on its label).
    With(usize),
    /// Tokens ↔ the DP matrix of the selected pair.
    ToggleMatrix,
    /// The matrix of the whole line ↔ of the pair.
    ToggleMatrixScope,
    /// By character spans (boundary agreement) ↔ by forms.
    ToggleBySpans,
}

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
    /// The matrix's first row and column shown once the user scrolled it (J/K, < >); `None`
    /// follows the demo's last cell, or shows the top left (the `#` row and column).
    pub scroll: Option<(usize, usize)>,
    /// Align by character spans (boundary agreement) instead of by forms.
    pub by_spans: bool,
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
    pub last: Option<toklab::analysis::align::FillStep>,
}

/// The computed alignment for the current line and rows.
pub struct AlignData {
    pub a: usize,
    pub b: usize,
    pub tokens: Alignment,
    pub matrix: Option<MatrixView>,
    /// Why the matrix asked for was not built (more cells than the budget).
    pub refused: Option<String>,
    key: AlignKey,
}

/// What an alignment was computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AlignKey {
    /// The line and both rows' tokens (`basis`).
    basis: Basis,
    a: usize,
    b: usize,
    matrix: bool,
    whole_line: bool,
    step: Option<usize>,
    /// The token pair whose matrix is shown.
    pair: usize,
}

impl AlignKey {
    fn new(basis: Basis, a: usize, b: usize, choice: &AlignChoice, pair: usize) -> AlignKey {
        AlignKey {
            basis,
            a,
            b,
            matrix: choice.matrix,
            whole_line: choice.whole_line,
            step: choice.step,
            pair,
        }
    }
}

/// What of the rows an alignment depends on: `Rows::version` (the line and its tokens) and
/// which tokens rows A and B show.
pub type Basis = (Option<u64>, u64, u64);

/// The basis of aligning rows `a` and `b`. While one of them shows tokens kept from before an
/// edit of a long line (its new ones are computed in the background), the line is left out:
/// typing then does not align the same kept tokens again on every key; they are aligned again
/// when the new ones arrive.
pub fn basis(rows: &crate::tui::app::Rows, a: usize, b: usize) -> Basis {
    let kept = rows[a].stale || rows[b].stale;
    (
        (!kept).then_some(rows.version),
        rows[a].tokens_id,
        rows[b].tokens_id,
    )
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

/// Of rows `a` and `b`, one whose tokenizer failed to load: its row has no tokens to align,
/// and aligning nothing would count every token of the other row as an insertion.
pub fn failed_row(cx: &Context, a: usize, b: usize) -> Option<usize> {
    [a, b].into_iter().find(|&r| cx.rows[r].error().is_some())
}

impl AlignData {
    /// Aligns the tokens of rows `a` and `b` and, in matrix mode, builds the matrix.
    #[allow(clippy::too_many_arguments)]
    pub fn compute(
        basis: Basis,
        text: &str,
        a: (usize, &toklab::core::token::Tokenization),
        b: (usize, &toklab::core::token::Tokenization),
        choice: &AlignChoice,
        pair: usize,
    ) -> AlignData {
        let tokens = align_tokens(text, a.1, text, b.1, Costs::LEVENSHTEIN);
        let mut refused = None;
        let matrix = choice.matrix.then(|| {
            let (source, target) = if choice.whole_line {
                (joined(text, a.1), joined(text, b.1))
            } else {
                let pair = tokens.pairs.get(pair);
                let form = |t: &toklab::core::token::Tokenization, i: Option<usize>| {
                    i.and_then(|i| t.tokens.get(i))
                        .map_or(String::new(), |t| t.form(text).to_string())
                };
                (
                    form(a.1, pair.and_then(|p| p.a)),
                    form(b.1, pair.and_then(|p| p.b)),
                )
            };
            matrix_view(&source, &target, choice.step)
                .map_err(|e| refused = Some(e))
                .ok()
        });
        AlignData {
            a: a.0,
            b: b.0,
            tokens,
            matrix: matrix.flatten(),
            refused,
            key: AlignKey::new(basis, a.0, b.0, choice, pair),
        }
    }
}

/// The forms of a tokenization joined by single spaces.
fn joined(text: &str, tokens: &toklab::core::token::Tokenization) -> String {
    tokens
        .tokens
        .iter()
        .map(|t| t.form(text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The code-point Levenshtein matrix (costs 1/1/1, `toklab align`'s default) of two strings,
/// filled up to `step` cells while the demo runs; refused, with the reason, beyond the cell
/// budget `toklab align --matrix` has, so a long line cannot exhaust memory or freeze the
/// workbench.
fn matrix_view(source: &str, target: &str, step: Option<usize>) -> Result<MatrixView, String> {
    let (chars_a, chars_b) = (source.chars().count(), target.chars().count());
    let cells = (chars_a + 1).saturating_mul(chars_b + 1);
    if cells > MATRIX_CELL_LIMIT {
        return Err(format!(
            "no matrix: {} × {} characters make {cells} cells, more than the {MATRIX_CELL_LIMIT} \
             a matrix may have; c shows the selected pair's, Enter the token alignment",
            chars_a, chars_b
        ));
    }
    let mut interner = Interner::new();
    let (a, a_labels) = segment(source, Unit::Codepoint, &mut interner);
    let (b, b_labels) = segment(target, Unit::Codepoint, &mut interner);
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
    Ok(MatrixView {
        source: a_labels,
        target: b_labels,
        matrix,
        path,
        cells,
        last,
    })
}

/// The alignment view: what the user chose, the selected pair and the computed alignment.
#[derive(Default)]
pub struct AlignPane {
    pub choice: AlignChoice,
    /// The token pair selected.
    pub cursor: usize,
    data: Option<AlignData>,
    /// The alignment of a long line, computed in the background (tens of thousands of tokens
    /// take the interface thread too long), and what it is for.
    job: Option<(AlignKey, Job<AlignData>)>,
    /// Two words the teacher typed (`D`): their matrix is shown instead of the rows'.
    pub typed: Option<typed::TypedWords>,
}

impl AlignPane {
    fn key(&self, cx: &Context) -> Option<AlignKey> {
        let a = cx.rows.selected;
        let b = other_row(&self.choice, a, cx.rows.len())?;
        if failed_row(cx, a, b).is_some() {
            return None;
        }
        Some(AlignKey::new(
            basis(cx.rows, a, b),
            a,
            b,
            &self.choice,
            self.cursor,
        ))
    }

    /// The alignment for the current line, rows and choice, if it is computed.
    pub fn data(&self, cx: &Context) -> Option<&AlignData> {
        let data = self.data.as_ref()?;
        (Some(data.key) == self.key(cx)).then_some(data)
    }

    /// Whether the matrix demo has filled every cell (or is not running).
    fn fill_done(&self, cx: &Context) -> bool {
        match (self.choice.step, self.shown_matrix(cx)) {
            (Some(k), Some(m)) => k >= m.cells,
            _ => true,
        }
    }

    fn choose_next_other(&mut self, cx: &Context) {
        let (a, rows) = (cx.rows.selected, cx.rows.len());
        self.choice.other = other_row(&self.choice, a, rows).map(|b| {
            let mut n = (b + 1) % rows;
            if n == a {
                n = (n + 1) % rows;
            }
            n
        });
    }

    /// One cell more (or less) of the matrix demo.
    fn step(&mut self, forward: bool, cx: &Context) {
        self.choice.matrix = true;
        self.choice.playing = None;
        self.choice.scroll = None;
        let cells = self.shown_matrix(cx).map(|m| m.cells);
        let step = self
            .choice
            .step
            .unwrap_or(if forward { 0 } else { cells.unwrap_or(0) });
        self.choice.step = Some(if forward {
            (step + 1).min(cells.unwrap_or(usize::MAX))
        } else {
            step.saturating_sub(1)
        });
    }

    /// J/K move the matrix window by rows, < and > by columns (stopping at the last).
    fn scroll_matrix(&mut self, action: Action, cx: &Context) {
        let matrix = self.shown_matrix(cx);
        let (rows, cols) = matrix.map_or((1, 1), |m| (m.matrix.rows(), m.matrix.cols()));
        let from = matrix.and_then(|m| m.last).map_or((0, 0), |s| (s.i, s.j));
        let (row, col) = self.choice.scroll.get_or_insert(from);
        match action {
            Action::ViewDown(n) => *row = (*row + n).min(rows.saturating_sub(1)),
            Action::ViewUp(n) => *row = row.saturating_sub(n),
            Action::ScrollRight => *col = (*col + 4).min(cols.saturating_sub(1)),
            Action::ScrollLeft => *col = col.saturating_sub(4),
            _ => {}
        }
        // Scrolling stops following the demo's cell.
        self.choice.playing = None;
    }

    fn play(&mut self, cx: &Context) {
        self.choice.matrix = true;
        self.choice.scroll = None;
        if self.choice.playing.take().is_none() {
            if self.choice.step.is_none() || self.fill_done(cx) {
                self.choice.step = Some(0);
            }
            self.choice.playing = Some(Instant::now());
        }
    }
}

impl AlignPane {
    /// The alignment of rows `a` and `b` of a long line once the background job has it,
    /// starting the job when none runs for what is shown now (the view says "aligning…"
    /// meanwhile; a job for an earlier line or choice is dropped).
    fn background(&mut self, cx: &Context, a: usize, b: usize) -> Option<AlignData> {
        let basis = basis(cx.rows, a, b);
        let key = AlignKey::new(basis, a, b, &self.choice, self.cursor);
        match self.job.take() {
            Some((k, job)) if k == key => match job.poll() {
                Some(Ok(data)) => return Some(data),
                Some(Err(())) => {}
                None => {
                    self.job = Some((k, job));
                    return None;
                }
            },
            Some((_, job)) => job.cancel(),
            None => {}
        }
        let text: std::sync::Arc<str> = std::sync::Arc::from(cx.text());
        let (ta, tb) = (
            std::sync::Arc::clone(&cx.rows[a].tokens),
            std::sync::Arc::clone(&cx.rows[b].tokens),
        );
        let (choice, pair) = (self.choice.clone(), self.cursor);
        let job = Job::spawn("align", 0, move |_| {
            Some(AlignData::compute(
                basis,
                &text,
                (a, &ta),
                (b, &tb),
                &choice,
                pair,
            ))
        });
        self.job = Some((key, job));
        None
    }
}

impl Pane for AlignPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }

    /// The typed words' matrix is about no row.
    fn shows_selected_row(&self) -> bool {
        self.typed.is_none()
    }

    fn marks(&self, cx: &Context) -> Vec<(Span, Mark)> {
        if self.typed.is_some() {
            return Vec::new();
        }
        let Some(data) = self.data(cx) else {
            return Vec::new();
        };
        let Some(pair) = data.tokens.pairs.get(self.cursor) else {
            return Vec::new();
        };
        [(data.a, pair.a), (data.b, pair.b)]
            .into_iter()
            .filter_map(|(row, token)| token.and_then(|t| cx.rows[row].tokens.tokens.get(t)))
            .map(|t| (t.span, Mark::Cursor))
            .collect()
    }

    fn paired_row(&self, cx: &Context) -> Option<usize> {
        self.data(cx).map(|d| d.b)
    }

    /// Choosing row B, the matrix and its demo, moving between pairs. (The workbench shows
    /// the alignment view first for all but the last.)
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        match action {
            Action::Align(AlignCommand::NextOther) => self.choose_next_other(cx),
            Action::Align(AlignCommand::With(row)) => {
                if row != cx.rows.selected {
                    self.choice.other = Some(row);
                }
            }
            // Enter leaves the typed words for the rows' token alignment.
            Action::Align(AlignCommand::ToggleMatrix) if self.typed.is_some() => {
                self.typed = None;
                self.choice.matrix = false;
                self.choice.step = None;
                self.choice.playing = None;
            }
            Action::Align(AlignCommand::ToggleMatrix) => {
                self.choice.matrix = !self.choice.matrix;
                self.choice.step = None;
                self.choice.playing = None;
                self.choice.scroll = None;
            }
            Action::Align(AlignCommand::ToggleMatrixScope) => {
                self.choice.matrix = true;
                self.choice.whole_line = !self.choice.whole_line;
                self.choice.step = None;
                self.choice.scroll = None;
            }
            Action::Align(AlignCommand::ToggleBySpans) => {
                self.choice.by_spans = !self.choice.by_spans;
                self.choice.matrix = false;
            }
            Action::ViewDown(_) | Action::ViewUp(_) | Action::ScrollLeft | Action::ScrollRight
                if self.choice.matrix =>
            {
                self.scroll_matrix(action, cx)
            }
            Action::DemoStep(forward) => self.step(forward, cx),
            Action::DemoPlay => self.play(cx),
            Action::DemoFinish => {
                self.choice.step = None;
                self.choice.playing = None;
            }
            Action::ViewDown(n) => {
                let pairs = self.data(cx).map_or(0, |d| d.tokens.pairs.len());
                self.cursor = (self.cursor + n).min(pairs.saturating_sub(1));
            }
            Action::ViewUp(n) => self.cursor = self.cursor.saturating_sub(n),
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    fn refresh(&mut self, cx: &Context) {
        if let Some(typed) = &mut self.typed {
            typed.refresh(self.choice.step);
            return;
        }
        if self.data(cx).is_some() || cx.rows.own_texts() {
            return;
        }
        let a = cx.rows.selected;
        let Some(b) = other_row(&self.choice, a, cx.rows.len()) else {
            self.data = None;
            return;
        };
        if failed_row(cx, a, b).is_some() {
            self.data = None;
            return;
        }
        let pairs = self
            .data
            .as_ref()
            .map_or(usize::MAX, |d| d.tokens.pairs.len());
        self.cursor = self.cursor.min(pairs.saturating_sub(1));
        let data = if cx.text().len() > SYNC_BYTES {
            match self.background(cx, a, b) {
                Some(data) => data,
                None => return,
            }
        } else {
            AlignData::compute(
                basis(cx.rows, a, b),
                cx.text(),
                (a, &cx.rows[a].tokens),
                (b, &cx.rows[b].tokens),
                &self.choice,
                self.cursor,
            )
        };
        self.cursor = self.cursor.min(data.tokens.pairs.len().saturating_sub(1));
        self.data = Some(data);
        // The cursor may have been clamped: compute again for the clamped pair if it moved.
        if self.data(cx).is_none() {
            self.data = None;
            self.refresh(cx);
        }
    }

    /// The pair holding the selected token of row A.
    fn follow_token(&mut self, cx: &Context) {
        if cx.selected_token().is_none() {
            return;
        }
        self.refresh(cx);
        let token = cx.rows.token;
        if let Some(pair) = self
            .data(cx)
            .and_then(|d| d.tokens.pairs.iter().position(|p| p.a == token))
        {
            self.cursor = pair;
        }
    }

    /// The matrix demo fills a cell every `PLAY_STEP` while it plays.
    fn tick(&mut self, cx: &Context) {
        // A background alignment is taken in even when another view is shown.
        if self.job.is_some() {
            self.refresh(cx);
        }
        if !step_due(self.choice.playing, cx.play_step) {
            return;
        }
        if self.fill_done(cx) {
            self.choice.playing = None;
        } else {
            self.choice.step = Some(self.choice.step.unwrap_or(0) + 1);
            self.choice.playing = Some(Instant::now());
        }
    }

    fn busy(&self) -> bool {
        self.choice.playing.is_some() || self.job.is_some()
    }

    fn reset_cursor(&mut self) {
        self.cursor = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::analysis::align::Op;

    #[test]
    fn textbook_matrix_and_demo() {
        let view = matrix_view("intention", "execution", None).unwrap();
        assert_eq!(view.matrix.distance(), Some(5));
        assert_eq!(view.path.first(), Some(&(0, 0)));
        assert_eq!(view.path.last(), Some(&(9, 9)));
        let partial = matrix_view("intention", "execution", Some(12)).unwrap();
        assert!(!partial.matrix.is_complete());
        assert!(partial.path.is_empty());
        assert!(partial.last.is_some());
        assert_eq!(partial.cells, 100);
    }

    #[test]
    fn a_matrix_beyond_the_cell_budget_is_refused_without_building_it() {
        let long = "a".repeat(1_000_000);
        let refused = matrix_view(&long, &long, None).err().expect("refused");
        assert!(refused.contains("1000002000001 cells"), "{refused}");
        assert!(
            refused.contains(&MATRIX_CELL_LIMIT.to_string()),
            "{refused}"
        );
        let over = "b".repeat(4000);
        assert!(matrix_view(&over, &over, None).is_err(), "4001² cells");
        assert!(matrix_view(&over[..100], &over[..100], None).is_ok());
    }

    #[test]
    fn rewrite_pairs_align_with_a_substitution_and_an_insertion() {
        let text = "won't";
        let ws = toklab::load("ws").unwrap().tokenize(text);
        let gpt2 = toklab::load("pretok:gpt2").unwrap().tokenize(text);
        let data = AlignData::compute(
            (Some(1), 0, 1),
            text,
            (0, &ws),
            (1, &gpt2),
            &AlignChoice::default(),
            0,
        );
        let ops: Vec<Op> = data.tokens.pairs.iter().map(|p| p.op).collect();
        assert_eq!(ops, [Op::Sub, Op::Ins], "won't vs won + 't");
    }
}
