//! The unigram lesson (the merges view on a unigram row): on the left the word's lattice, every
//! candidate piece with its span and log-probability; on the right the Viterbi step shown —
//! the pieces ending at the position just filled, each as `best before + log p = total`, the
//! one kept — and the best totals so far; the last step reads the best path back.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::tui::panes::Context;
use crate::tui::panes::LatticeLesson;
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::core::tokenizer::quote;
use toklab::engines::subword::unigram::lesson::ViterbiLesson;

/// Draws the lesson at its step; `false` when there is none to draw.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &LatticeLesson,
    cx: &Context,
    theme: &Theme,
) -> bool {
    let (Some(lesson), Some(word)) = (&state.lesson, state.word) else {
        return false;
    };
    let steps = state.steps();
    let step = state.step.min(steps);
    let [head, columns] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("unigram Viterbi · word ", theme.dim),
            Span::styled(quote(word.slice(cx.text())), theme.title),
            Span::raw(format!(" → {} · step {step}/{steps}", quote(&lesson.text))),
            Span::styled(
                format!(
                    "   . , step · p play · f end · ←/→ another word · B {}",
                    Positions(state.bytes).other_name()
                ),
                theme.dim,
            ),
        ])),
        head,
    );
    draw_columns(frame, columns, lesson, step, Positions(state.bytes), theme);
    true
}

/// How the lesson counts positions in its word: characters (what students see: `«▁» 0..1`),
/// or bytes of UTF-8 (what the encoder indexes: `«▁» 0..3`) when the flag is set (`B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Positions(pub bool);

impl Positions {
    /// Position `byte` of `text` in the lesson's unit.
    pub fn of(self, text: &str, byte: usize) -> usize {
        if self.0 {
            byte
        } else {
            text.get(..byte).map_or(byte, |head| head.chars().count())
        }
    }

    /// What `B` switches to, for the key hint.
    pub fn other_name(self) -> &'static str {
        if self.0 { "characters" } else { "bytes" }
    }

    /// The unit, for the lattice's title.
    fn name(self) -> &'static str {
        if self.0 { "bytes" } else { "characters" }
    }
}

/// The lesson's two columns at `step` (0 = the lattice alone, one forward step more each, the
/// last the best path): the lattice on the left, the Viterbi step on the right. The training
/// view's unigram mode draws its word's lattice with them, at the last step.
pub fn draw_columns(
    frame: &mut Frame,
    area: Rect,
    lesson: &ViterbiLesson,
    step: usize,
    units: Positions,
    theme: &Theme,
) {
    let steps = lesson.steps.len() + 1;
    let step = step.min(steps);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(area);
    let forward = step.checked_sub(1).and_then(|i| lesson.steps.get(i));
    let done = step == steps;
    draw_lattice(
        frame,
        left,
        lesson,
        forward.map(|f| f.end),
        done,
        units,
        theme,
    );
    draw_step(frame, right, lesson, step, done, units, theme);
}

fn boxed(frame: &mut Frame, area: Rect, title: &str, theme: &Theme) -> Rect {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title.to_string(), theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// Every candidate piece; those ending at the position being filled stand out, and at the
/// end the best path.
fn draw_lattice(
    frame: &mut Frame,
    area: Rect,
    lesson: &ViterbiLesson,
    ending: Option<usize>,
    done: bool,
    units: Positions,
    theme: &Theme,
) {
    let inner = boxed(
        frame,
        area,
        &format!(
            " lattice: {} candidate pieces · {} ",
            lesson.nodes.len(),
            units.name()
        ),
        theme,
    );
    let at = |byte| units.of(&lesson.text, byte);
    let focus = lesson
        .nodes
        .iter()
        .position(|n| Some(n.end) == ending)
        .unwrap_or(0);
    let height = inner.height as usize;
    let first = window_start(focus, height, lesson.nodes.len());
    let lines: Vec<Line> = lesson
        .nodes
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(k, n)| {
            let on_path = done && lesson.best_path.contains(&k);
            let style = if on_path {
                theme.selected_token
            } else if Some(n.end) == ending {
                theme.cursor_line
            } else if ending.is_some_and(|e| n.end > e) {
                theme.dim
            } else {
                Style::new()
            };
            Line::styled(
                format!(
                    "{} {:>3}..{:<3} {:<12} log p {:>8.3}",
                    if on_path { '*' } else { ' ' },
                    at(n.start),
                    at(n.end),
                    quote(&lesson.pieces[k]),
                    n.score
                ),
                style,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The step: the candidates of the position just filled, the best totals so far, or the
/// best path.
fn draw_step(
    frame: &mut Frame,
    area: Rect,
    lesson: &ViterbiLesson,
    step: usize,
    done: bool,
    units: Positions,
    theme: &Theme,
) {
    let at = |byte| units.of(&lesson.text, byte);
    let inner = boxed(
        frame,
        area,
        " Viterbi: best total ending at each position ",
        theme,
    );
    let mut lines = Vec::new();
    let totals = lesson.best_totals(step.min(lesson.steps.len()));
    if step == 0 {
        lines.push(Line::styled(
            "step 0: the lattice; best[0] = 0 (nothing read yet)",
            theme.dim,
        ));
    } else if let Some(f) = lesson.steps.get(step - 1).filter(|_| !done) {
        lines.push(Line::from(vec![
            Span::styled(format!("step {step}: "), theme.label),
            Span::raw(format!(
                "position {} (after {}): the pieces ending here",
                at(f.end),
                quote(&lesson.text[..f.end])
            )),
        ]));
        for &(k, total) in &f.candidates {
            let n = &lesson.nodes[k];
            let kept = k == f.winner;
            lines.push(Line::styled(
                format!(
                    "{} best[{}] {:>8.3} + log p({}) {:>8.3} = {:>8.3}{}",
                    if kept { '✓' } else { ' ' },
                    at(n.start),
                    total - n.score,
                    lesson.pieces[k],
                    n.score,
                    total,
                    if kept { "  kept" } else { "" }
                ),
                if kept {
                    theme.selected_token
                } else {
                    Style::new()
                },
            ));
        }
    } else {
        let pieces: Vec<&str> = lesson
            .best_path
            .iter()
            .map(|&k| lesson.pieces[k].as_str())
            .collect();
        lines.push(Line::from(vec![
            Span::styled("best path ", theme.label),
            Span::styled(pieces.join(" "), theme.selected_token),
            Span::raw(format!("  total {:.3}", lesson.total)),
        ]));
        let sum: Vec<String> = lesson
            .best_path
            .iter()
            .map(|&k| format!("{:.3}", lesson.nodes[k].score))
            .collect();
        lines.push(Line::styled(
            format!(
                "read back from the end: {} = {:.3}",
                sum.join(" + "),
                lesson.total
            ),
            theme.dim,
        ));
    }
    lines.push(Line::raw(""));
    let best: Vec<String> = totals
        .iter()
        .map(|&(end, total)| format!("best[{}] {total:.2}", at(end)))
        .collect();
    lines.push(Line::styled(best.join(" · "), theme.dim));
    frame.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
        inner,
    );
}
