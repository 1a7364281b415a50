//! The merges view: the merge steps of the selected word (from the selected row's trace),
//! replayed one step at a time under both semantics.

pub mod draw;

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Context, Pane, Reply, TraceCache};
use crate::tui::app::{Action, step_due};
use crate::tui::theme::Theme;
use toklab::core::token::Span;
use toklab::engines::subword::formal::WordSteps;

/// Which step of the selected word's derivations is shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReplay {
    /// Steps applied so far.
    pub step: usize,
    pub playing: Option<Instant>,
    /// The word the step belongs to; a different word starts again at step 0.
    pub word: Option<Span>,
}

/// The merges view: the selected row's trace and the replay of one of its words.
#[derive(Default)]
pub struct MergesPane {
    trace: TraceCache,
    pub replay: MergeReplay,
    /// The unigram lesson, shown instead when the selected row is a unigram model.
    pub lattice: super::LatticeLesson,
}

impl MergesPane {
    /// The word whose merge steps are replayed: the one holding the selected token, else the
    /// first word of the line with a step, else the first.
    pub fn word(&self, cx: &Context) -> Option<&WordSteps> {
        let words = self.trace.trace()?.merge_words();
        let at = cx.selected_token().map(|t| t.span.start);
        at.and_then(|at| {
            words
                .iter()
                .find(|w| w.span.start <= at && at < w.span.end.max(w.span.start + 1))
        })
        .or_else(|| words.iter().find(|w| !w.derivation.steps.is_empty()))
        .or(words.first())
    }

    /// Whether the selected row's trace is being computed in the background.
    pub fn explaining(&self) -> bool {
        self.trace.is_running()
    }

    /// How many words of the selected row's trace had merge steps too long to keep.
    pub fn left_out(&self) -> usize {
        self.trace.trace().map_or(0, |t| t.merges_left_out())
    }

    /// The number of steps of the longer of the word's two derivations.
    fn steps(&self, cx: &Context) -> usize {
        self.word(cx).map_or(0, |w| {
            let other = w.other.as_ref().map_or(0, |o| o.derivation.steps.len());
            w.derivation.steps.len().max(other)
        })
    }
}

impl Pane for MergesPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }

    fn has_demo(&self) -> bool {
        true
    }
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        if action == Action::LatticeBytes {
            self.lattice.bytes = !self.lattice.bytes;
            return Reply::Handled;
        }
        if self.lattice.lesson.is_some() {
            return match self.lattice.handle(action) {
                true => Reply::Handled,
                false => Reply::Ignored,
            };
        }
        let steps = self.steps(cx);
        let replay = &mut self.replay;
        match action {
            Action::DemoStep(forward) => {
                replay.playing = None;
                replay.step = if forward {
                    (replay.step + 1).min(steps)
                } else {
                    replay.step.saturating_sub(1)
                };
            }
            Action::DemoPlay => {
                if replay.playing.take().is_none() {
                    if replay.step >= steps {
                        replay.step = 0;
                    }
                    replay.playing = Some(Instant::now());
                }
            }
            Action::DemoFinish => {
                replay.playing = None;
                replay.step = steps;
            }
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    /// Explains the line again when it changed, and starts the replay again at step 0 when
    /// the word changed.
    fn refresh(&mut self, cx: &Context) {
        if self.lattice.refresh(cx) {
            return;
        }
        self.trace.refresh(cx);
        let word = self.word(cx).map(|w| w.span);
        if word != self.replay.word {
            self.replay = MergeReplay {
                word,
                ..MergeReplay::default()
            };
        }
    }

    fn tick(&mut self, cx: &Context) {
        self.lattice.tick(cx.play_step);
        if !step_due(self.replay.playing, cx.play_step) {
            return;
        }
        if self.replay.step >= self.steps(cx) {
            self.replay.playing = None;
        } else {
            self.replay.step += 1;
            self.replay.playing = Some(Instant::now());
        }
    }

    fn busy(&self) -> bool {
        self.replay.playing.is_some() || self.lattice.playing.is_some() || self.trace.is_running()
    }
}
