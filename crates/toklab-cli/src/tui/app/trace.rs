//! The selected row's trace for the current line, computed when a view needs it (the trace
//! view shows its lines; the merges view replays the merge steps of one of its words).

use std::time::Instant;

use super::{App, Row, View};
use toklab::engine::{Trace, TraceLine};
use toklab::merges::WordSteps;
use toklab::token::Span;

/// A trace and its lines, with what it was computed for.
pub struct TraceCache {
    version: u64,
    row: usize,
    trace: Option<Trace>,
}

/// The merges view: which step of the selected word's derivations is shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReplay {
    /// Steps applied so far.
    pub step: usize,
    pub playing: Option<Instant>,
    /// The word the step belongs to; a different word starts again at step 0.
    pub word: Option<Span>,
}

impl App {
    fn trace_is_current(&self) -> bool {
        self.trace
            .as_ref()
            .is_some_and(|t| t.version == self.version && t.row == self.row)
    }

    /// The lines of the selected row's trace for the current text.
    pub fn trace_lines(&self) -> &[TraceLine] {
        match &self.trace {
            Some(TraceCache { trace: Some(t), .. }) if self.trace_is_current() => t.lines(),
            _ => &[],
        }
    }

    /// The selected row's trace itself, for views that read one engine's trace.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace
            .as_ref()
            .filter(|_| self.trace_is_current())
            .and_then(|t| t.trace.as_ref())
    }

    pub(super) fn refresh_trace(&mut self) {
        let needed = matches!(self.views.current, View::Trace | View::Merges);
        if !needed || self.views.hidden || self.trace_is_current() {
            return;
        }
        let trace = self
            .selected_row()
            .and_then(Row::tokenizer)
            .map(|t| t.explain(&self.text));
        self.trace = Some(TraceCache {
            version: self.version,
            row: self.row,
            trace,
        });
        if self.views.current == View::Trace {
            self.views.cursor = self
                .views
                .cursor
                .min(self.trace_lines().len().saturating_sub(1));
        }
    }

    /// The word whose merge steps the merges view replays: the one holding the selected
    /// token, else the first word of the line.
    pub fn merge_word(&self) -> Option<&WordSteps> {
        let words = self.trace()?.merge_words();
        let at = self.selected_token().map(|t| t.span.start);
        at.and_then(|at| {
            words
                .iter()
                .find(|w| w.span.start <= at && at < w.span.end.max(w.span.start + 1))
        })
        .or_else(|| words.iter().find(|w| !w.derivation.steps.is_empty()))
        .or(words.first())
    }

    /// The number of steps of the longer of the word's two derivations.
    pub(super) fn merge_steps(&self) -> usize {
        self.merge_word().map_or(0, |w| {
            let other = w.other.as_ref().map_or(0, |o| o.derivation.steps.len());
            w.derivation.steps.len().max(other)
        })
    }

    /// Starts the replay again at step 0 when the word changed.
    pub(super) fn sync_merge_word(&mut self) {
        let word = self.merge_word().map(|w| w.span);
        if word != self.merges.word {
            self.merges = MergeReplay {
                word,
                ..MergeReplay::default()
            };
        }
    }
}
