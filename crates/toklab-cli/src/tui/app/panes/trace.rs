//! The trace view: the selected row's explanation of the current line, computed when the view
//! is shown and only again when the line's tokens or the selected row change.

use super::{Context, Pane, Reply};
use crate::tui::app::{Action, Row};
use toklab::tokenizer::{Trace, TraceLine};

/// What a trace was computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TraceKey {
    /// `Rows::version`: the line and its tokens.
    version: u64,
    row: usize,
}

/// The selected row's trace of the current line and its lines, with what it was computed for.
#[derive(Default)]
pub struct TraceCache {
    key: Option<TraceKey>,
    trace: Option<Trace>,
}

impl TraceCache {
    /// Explains the line again if the line or the selected row changed; true if it did.
    pub fn refresh(&mut self, cx: &Context) -> bool {
        let key = TraceKey {
            version: cx.rows.version,
            row: cx.rows.selected,
        };
        if self.key == Some(key) {
            return false;
        }
        let text = cx.text();
        self.trace = cx
            .selected_row()
            .and_then(Row::tokenizer)
            .map(|t| t.explain(text));
        self.key = Some(key);
        true
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

    /// The first line about the token's span, else the first line whose span holds it.
    fn follow_token(&mut self, cx: &Context) {
        let Some(span) = cx.selected_token().map(|t| t.span) else {
            return;
        };
        self.refresh(cx);
        let lines = self.lines();
        let found = lines.iter().position(|l| l.span == Some(span)).or_else(|| {
            lines.iter().position(|l| {
                l.span
                    .is_some_and(|s| s.start <= span.start && span.end <= s.end && !s.is_empty())
            })
        });
        if let Some(line) = found {
            self.cursor = line;
        }
    }

    fn reset_cursor(&mut self) {
        self.cursor = 0;
    }
}
