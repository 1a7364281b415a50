//! The unigram lesson, the merges view's mode for a SentencePiece unigram row (which has no
//! merges): the Viterbi search over the selected word's lattice, one position per step, then
//! the best path, over the model the row's tokenizer holds.

pub mod draw;

use std::sync::Arc;
use std::time::Instant;

use super::Context;
use crate::tui::app::{Action, step_due};
use toklab::core::token::Span;
use toklab::engines::subword::spm::{ModelType, SpmModel, SpmTokenizer};
use toklab::engines::subword::unigram::lesson::ViterbiLesson;

/// The lesson's state: the word, its lesson and the step shown.
#[derive(Default)]
pub struct LatticeLesson {
    /// The word of the line the lesson is about (original text).
    pub word: Option<Span>,
    pub lesson: Option<ViterbiLesson>,
    /// Steps shown: 0 is the lattice alone, one more per forward step, the last the best path.
    pub step: usize,
    pub playing: Option<Instant>,
    /// Positions in bytes instead of characters (`B`).
    pub bytes: bool,
}

impl LatticeLesson {
    /// The number of steps: the forward pass and the backtrace.
    pub fn steps(&self) -> usize {
        self.lesson.as_ref().map_or(0, |l| l.steps.len() + 1)
    }

    /// The unigram model of the selected row: the model its SentencePiece tokenizer holds.
    fn model(cx: &Context) -> Option<Arc<SpmModel>> {
        let spm = cx
            .selected_row()?
            .tokenizer()?
            .downcast_ref::<SpmTokenizer>()?;
        let model = spm.model();
        (model.model_type == ModelType::Unigram).then(|| Arc::clone(model))
    }

    /// Brings the lesson up to the selected row and word; starts again at step 0 when the
    /// word changed. Returns whether a lesson is shown.
    pub fn refresh(&mut self, cx: &Context) -> bool {
        let Some(model) = Self::model(cx) else {
            self.lesson = None;
            self.word = None;
            return false;
        };
        let word = selected_word(cx.text(), cx.selected_token().map(|t| t.span.start));
        if word != self.word || self.lesson.is_none() {
            self.word = word;
            self.lesson = word.and_then(|w| ViterbiLesson::new(&model, w.slice(cx.text())));
            self.step = 0;
            self.playing = None;
        }
        self.lesson.is_some()
    }

    /// The demo keys: `.` `,` step, `p` play, `f` finish.
    pub fn handle(&mut self, action: Action) -> bool {
        let steps = self.steps();
        match action {
            Action::DemoStep(forward) => {
                self.playing = None;
                self.step = if forward {
                    (self.step + 1).min(steps)
                } else {
                    self.step.saturating_sub(1)
                };
            }
            Action::DemoPlay => {
                if self.playing.take().is_none() {
                    if self.step >= steps {
                        self.step = 0;
                    }
                    self.playing = Some(Instant::now());
                }
            }
            Action::DemoFinish => {
                self.playing = None;
                self.step = steps;
            }
            _ => return false,
        }
        true
    }

    pub fn tick(&mut self, step: std::time::Duration) {
        if !step_due(self.playing, step) {
            return;
        }
        if self.step >= self.steps() {
            self.playing = None;
        } else {
            self.step += 1;
            self.playing = Some(Instant::now());
        }
    }
}

/// The whitespace-separated word of `text` holding byte `at`, else the first word.
pub fn selected_word(text: &str, at: Option<usize>) -> Option<Span> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                words.push(Span::new(s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    at.and_then(|at| words.iter().find(|w| w.start <= at && at < w.end).copied())
        .or_else(|| words.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_under_the_cursor_else_the_first() {
        let text = "  the teacher  walked";
        assert_eq!(selected_word(text, Some(7)), Some(Span::new(6, 13)));
        assert_eq!(selected_word(text, Some(14)), Some(Span::new(2, 5)));
        assert_eq!(selected_word(text, None), Some(Span::new(2, 5)));
        assert_eq!(selected_word("   ", None), None);
    }
}
