//! The training view in unigram mode: what the last step did (the loss of an EM iteration,
//! the vocabulary before and after a pruning, the pieces removed), the loss of every EM
//! iteration so far as a sparkline and a column, and on the right the selected word's Viterbi
//! lattice under the model as it is now, drawn by the unigram lesson's own columns.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline, Wrap};

use crate::counted::counted;
use crate::tui::panes::Context;
use crate::tui::panes::TrainPane;
use crate::tui::panes::lattice::draw::Positions;
use crate::tui::panes::train::unigram::UnigramDemo;
use crate::tui::theme::Theme;
use toklab::core::tokenizer::quote;
use toklab::engines::subword::train::unigram::{
    META_PIECES, UnigramEvent, UnigramStep, UnigramTrainer,
};

/// Removed pieces named in the step's line; the rest are counted.
const NAMED: usize = 12;

/// Draws the unigram mode of the training pane.
pub fn draw(frame: &mut Frame, area: Rect, pane: &TrainPane, cx: &Context, theme: &Theme) {
    let Some(demo) = pane.unigram_demo(cx) else {
        frame.render_widget(Paragraph::new(Line::styled("starting…", theme.dim)), area);
        return;
    };
    let [head, step_line, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Min(0),
    ])
    .areas(area);
    let trainer = match &demo.trainer {
        Ok(trainer) => trainer,
        Err(e) => {
            frame.render_widget(
                Paragraph::new(vec![
                    Line::styled(
                        format!(
                            "unigram training on the {}: {}",
                            pane.scope.name(),
                            super::draw::corpus_description(pane, &demo.corpus)
                        ),
                        theme.title,
                    ),
                    Line::styled(format!("cannot train: {e}"), theme.error),
                ]),
                area,
            );
            return;
        }
    };
    frame.render_widget(Paragraph::new(header(pane, demo, trainer, theme)), head);
    frame.render_widget(
        Paragraph::new(step_explanation(demo, trainer))
            .style(theme.dim)
            .wrap(Wrap { trim: true }),
        step_line,
    );
    let [history, lattice] =
        Layout::horizontal([Constraint::Percentage(32), Constraint::Percentage(68)]).areas(body);
    draw_history(frame, history, demo, theme);
    draw_lattice(frame, lattice, demo, pane.lattice_bytes, theme);
}

/// Round, vocabulary size against the target, the corpus, what the next step does, the keys.
fn header(
    pane: &TrainPane,
    demo: &UnigramDemo,
    trainer: &UnigramTrainer,
    theme: &Theme,
) -> Line<'static> {
    let target = trainer.config().vocab_size;
    let next = if trainer.is_finished() {
        "training done".to_string()
    } else {
        match demo.log.last().map(|s| &s.event) {
            Some(UnigramEvent::Em { iteration, .. })
                if *iteration < trainer.config().em_iterations =>
            {
                "next: EM iteration".into()
            }
            Some(UnigramEvent::Em { .. }) => "next: prune (or the final choice)".into(),
            _ => format!("next: round {} EM iteration 1", trainer.round()),
        }
    };
    Line::from(vec![
        Span::styled(
            format!(
                "unigram · round {} · {} + {META_PIECES} meta (target {target})",
                trainer.round(),
                counted(trainer.pieces().len(), "piece")
            ),
            theme.title,
        ),
        Span::raw(format!(
            " · on the {}: {} · ",
            pane.scope.name(),
            super::draw::corpus_description(pane, &demo.corpus)
        )),
        Span::styled(next, theme.key),
        Span::styled(
            "   . step , undo p play f to the end · U BPE · t line/selection/file V mark R row M save",
            theme.dim,
        ),
    ])
}

/// What the last step did, in words, with the pieces it removed.
fn step_explanation(demo: &UnigramDemo, trainer: &UnigramTrainer) -> String {
    let Some(step) = demo.log.last() else {
        return match trainer.seeded() {
            UnigramEvent::Seeded {
                words,
                chars,
                pieces,
                rounds,
            } => format!(
                " seeded: {} with {} and frequent substrings: {}; about {} to the target. \
                 . runs the first EM iteration",
                counted(*words, "distinct word"),
                counted(*chars, "character"),
                counted(*pieces, "seed piece"),
                counted(*rounds, "round")
            ),
            _ => String::new(),
        };
    };
    let what = match &step.event {
        UnigramEvent::Em {
            round,
            iteration,
            pieces,
            loss,
            tokens,
        } => format!(
            " round {round}, EM iteration {iteration}: loss {loss:.4} per word (−log likelihood \
             over every segmentation), {tokens} tokens on the best segmentations; {} left",
            counted(*pieces, "piece")
        ),
        UnigramEvent::Pruned { round, from, to } => format!(
            " round {round}, pruning: {from} → {to} pieces, those whose loss costs the corpus \
             least went"
        ),
        UnigramEvent::Finished { pieces } => format!(
            " final: the {pieces} best-scored pieces (every character kept) + {META_PIECES} meta"
        ),
        _ => String::new(),
    };
    format!("{what}; {}", removed_list(step))
}

/// `removed 3: «a» «b» «c»`, the first [`NAMED`] named.
fn removed_list(step: &UnigramStep) -> String {
    if step.removed.is_empty() {
        return "none removed".into();
    }
    let named: Vec<String> = step.removed.iter().take(NAMED).map(|p| quote(p)).collect();
    let more = step.removed.len().saturating_sub(NAMED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("removed {}: {}{more}", step.removed.len(), named.join(" "))
}

/// The loss of each EM iteration as a sparkline over every step as a column, newest last.
fn draw_history(frame: &mut Frame, area: Rect, demo: &UnigramDemo, theme: &Theme) {
    let block = Block::new()
        .borders(Borders::RIGHT)
        .border_style(theme.border);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [title, spark, column] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Min(0),
    ])
    .areas(inner);
    let losses = demo.losses();
    frame.render_widget(
        Paragraph::new(Line::styled(
            " loss per EM iteration (lower is better)",
            theme.dim,
        )),
        title,
    );
    // The sparkline shows how far each loss is above the lowest, so the fall stands out.
    let lowest = losses.iter().map(|l| l.2).fold(f64::INFINITY, f64::min);
    let heights: Vec<u64> = losses
        .iter()
        .map(|l| ((l.2 - lowest) * 1000.0).round() as u64 + 1)
        .collect();
    frame.render_widget(Sparkline::default().data(&heights).style(theme.bar), spark);
    let rows: Vec<Line> = demo
        .log
        .iter()
        .filter_map(|s| history_row(&s.event))
        .collect();
    let height = column.height as usize;
    let lines: Vec<Line> = rows
        .into_iter()
        .rev()
        .take(height)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    frame.render_widget(Paragraph::new(lines), column);
}

/// One step in the history column.
fn history_row(event: &UnigramEvent) -> Option<Line<'static>> {
    Some(Line::raw(match event {
        UnigramEvent::Em {
            round,
            iteration,
            pieces,
            loss,
            ..
        } => format!(" r{round} EM{iteration} loss {loss:>8.4}  {pieces:>6} pieces"),
        UnigramEvent::Pruned { round, from, to } => {
            format!(" r{round} prune  {from} → {to} (−{})", from - to)
        }
        UnigramEvent::Finished { pieces } => format!(" final  {pieces} pieces"),
        _ => return None,
    }))
}

/// The selected word's lattice and best path under the model now.
fn draw_lattice(frame: &mut Frame, area: Rect, demo: &UnigramDemo, bytes: bool, theme: &Theme) {
    let [title, columns] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let Some(lattice) = &demo.lattice else {
        frame.render_widget(
            Paragraph::new(Line::styled(
                " the cursor line has no word to segment",
                theme.dim,
            )),
            area,
        );
        return;
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(" the word ", theme.dim),
            Span::styled(quote(&lattice.word), theme.title),
            Span::styled(
                " under the model of this step (←/→ another word)",
                theme.dim,
            ),
        ])),
        title,
    );
    match &lattice.lesson {
        Some(lesson) => {
            crate::tui::panes::lattice::draw::draw_columns(
                frame,
                columns,
                lesson,
                usize::MAX,
                Positions(bytes),
                theme,
            );
        }
        None => frame.render_widget(
            Paragraph::new(Line::styled(" nothing to segment", theme.dim)),
            columns,
        ),
    }
}
