//! The trace view: the selected row's explanation of the current line, computed when the view
//! is shown and only again when the line's tokens or the selected row change.

pub mod apply;
pub mod draw;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Context, Mark, Pane, Reply};
use crate::tui::app::jobs::Job;
use crate::tui::app::rows::SYNC_BYTES;
use crate::tui::app::{Action, Row};
use crate::tui::theme::Theme;
use toklab::core::token::Span;
use toklab::core::tokenizer::{Role, Trace, TraceLine};

/// What a trace was computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TraceKey {
    /// `Rows::version`: the line and its tokens.
    version: u64,
    row: usize,
}

/// The selected row's trace of the current line and its lines, with what it was computed for.
/// A long line is explained in the background (the last trace stays on screen meanwhile), and
/// edits made while that runs are explained together once it ends.
#[derive(Default)]
pub struct TraceCache {
    key: Option<TraceKey>,
    trace: Option<Trace>,
    running: Option<(TraceKey, Job<Option<Trace>>)>,
}

impl TraceCache {
    /// Explains the line again if the line or the selected row changed; true if the trace
    /// changed.
    pub fn refresh(&mut self, cx: &Context) -> bool {
        let mut changed = false;
        if let Some(result) = self.running.as_ref().and_then(|(_, job)| job.poll()) {
            let (key, _) = self.running.take().expect("a job was polled");
            if let Ok(trace) = result {
                self.trace = trace;
                self.key = Some(key);
                changed = true;
            }
        }
        let key = TraceKey {
            version: cx.rows.version,
            row: cx.rows.selected,
        };
        if self.key == Some(key) || self.running.is_some() {
            return changed;
        }
        let text = cx.text();
        let tokenizer = cx.selected_row().and_then(Row::tokenizer).cloned();
        if text.len() <= SYNC_BYTES || tokenizer.is_none() {
            self.trace = tokenizer.map(|t| t.explain(text));
            self.key = Some(key);
            return true;
        }
        let text = text.to_string();
        let job = Job::spawn("trace", 0, move |_| {
            Some(tokenizer.map(|t| t.explain(&text)))
        });
        self.running = Some((key, job));
        changed
    }

    /// Whether a trace is being computed in the background.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    pub fn lines(&self) -> &[TraceLine] {
        self.trace.as_ref().map_or(&[], Trace::lines)
    }

    /// The trace itself, for views that read one engine's trace.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }
}

/// The trace view: the trace and the line selected in it.
#[derive(Default)]
pub struct TracePane {
    pub cursor: usize,
    cache: TraceCache,
    /// A word applied down and up to an FST row's network (`F`), shown until Esc.
    pub apply: Option<apply::FstApply>,
}

impl TracePane {
    /// The lines of the selected row's trace (as of the last refresh).
    pub fn lines(&self) -> &[TraceLine] {
        self.cache.lines()
    }

    fn clamp_cursor(&mut self) {
        self.cursor = self.cursor.min(self.lines().len().saturating_sub(1));
    }
}

impl Pane for TracePane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }

    fn marks(&self, _cx: &Context) -> Vec<(Span, Mark)> {
        let lines = self.lines();
        let backtracks = lines
            .iter()
            .filter(|line| line.parts.iter().any(|p| p.role == Role::Backtrack))
            .filter_map(|line| line.span)
            .map(|span| (span, Mark::Backtrack));
        let cursor = lines.get(self.cursor).and_then(|l| l.span);
        backtracks
            .chain(cursor.map(|span| (span, Mark::Cursor)))
            .collect()
    }
    fn handle(&mut self, action: Action, _cx: &Context) -> Reply {
        let delta = match action {
            Action::ViewDown(n) => n as isize,
            Action::ViewUp(n) => -(n as isize),
            _ => return Reply::Ignored,
        };
        self.cursor = self.cursor.saturating_add_signed(delta);
        self.clamp_cursor();
        Reply::Handled
    }

    fn refresh(&mut self, cx: &Context) {
        if self.cache.refresh(cx) {
            self.clamp_cursor();
        }
    }

    /// The line about exactly the token's span; else, of the lines whose span holds it, the
    /// narrowest one that names the token among what it produced; else the narrowest one. A
    /// recursive engine (the rules) traces segments, each holding the tokens its step found, so
    /// the narrowest segment holding a token is the step that made it.
    fn follow_token(&mut self, cx: &Context) {
        let Some(token) = cx.selected_token() else {
            return;
        };
        self.refresh(cx);
        let form = token
            .rewritten
            .as_deref()
            .or_else(|| cx.text().get(token.span.start..token.span.end))
            .map(toklab::core::trace::quote);
        if let Some(line) = line_of_token(self.lines(), token.span, form.as_deref()) {
            self.cursor = line;
        }
    }

    fn reset_cursor(&mut self) {
        self.cursor = 0;
    }

    fn busy(&self) -> bool {
        self.cache.is_running()
    }
}

/// The trace line that made the token at `span` whose form, quoted, is `form` (see
/// [`TracePane::follow_token`]).
fn line_of_token(lines: &[TraceLine], span: Span, form: Option<&str>) -> Option<usize> {
    if let Some(exact) = lines.iter().position(|l| l.span == Some(span)) {
        return Some(exact);
    }
    let holds = |l: &TraceLine| {
        l.span
            .is_some_and(|s| s.start <= span.start && span.end <= s.end && !s.is_empty())
    };
    let names = |l: &TraceLine| {
        form.is_some_and(|f| l.parts.iter().any(|p| p.role == Role::Token && p.text == f))
    };
    // The first of the narrowest: several lines can share a segment (a split and its near
    // misses), and the split comes first.
    let narrowest = |only_naming: bool| {
        let mut best: Option<(usize, usize)> = None;
        for (i, line) in lines.iter().enumerate() {
            if !holds(line) || (only_naming && !names(line)) {
                continue;
            }
            let width = line.span.map_or(usize::MAX, |s| s.len());
            if best.is_none_or(|(_, w)| width < w) {
                best = Some((i, width));
            }
        }
        best.map(|(i, _)| i)
    };
    narrowest(true).or_else(|| narrowest(false))
}
