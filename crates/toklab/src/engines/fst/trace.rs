//! The finite-state trace: every step of Algorithm 1 for one text, so a rule author can see why
//! the automaton split where it did — which edge each character took, where a boundary was
//! remembered, and each backtrack with the characters it reads again.

use super::runner::Via;
use crate::core::token::{Span, Tokenization};
use crate::core::trace::{MAX_TRACE_LINES, Observer, Role, TraceLine, omitted_line, quote};

/// One step of the automaton. Positions are byte offsets into the text; states are the
/// network's numbers (the start is 1), the same for both representations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FstStep {
    /// Before reading at `at`, `state` has an ε:boundary edge: the point to come back to.
    Remember {
        /// Byte offset of the next character.
        at: usize,
        /// The state with the boundary edge.
        state: u32,
    },
    /// The character at `span` read from `from` to `to`; `deletion` when the edge deletes it,
    /// `dropped` when that deletion removed it from the text (at a token's start).
    Read {
        /// The character read.
        span: Span,
        /// State before.
        from: u32,
        /// State after.
        to: u32,
        /// Whether the edge deletes the character (`c:ε`).
        deletion: bool,
        /// Whether the deletion dropped it from the output (at a token's start).
        dropped: bool,
        /// Which kind of edge matched.
        via: Via,
    },
    /// `state` has no edge for the character at `span`.
    NoEdge {
        /// The character without an edge.
        span: Span,
        /// The state that lacks it.
        state: u32,
    },
    /// Back from `from` to the remembered position `to` in `state`; `to..from` is read again.
    Backtrack {
        /// Byte offset where reading stopped.
        from: usize,
        /// Byte offset of the remembered point.
        to: usize,
        /// The remembered state.
        state: u32,
    },
    /// The ε:boundary edge of `from` taken at `at`: it ends `token`, or (None) a sentence.
    Boundary {
        /// Byte offset of the boundary.
        at: usize,
        /// State with the boundary edge.
        from: u32,
        /// State it leads to.
        to: u32,
        /// The token it ends; `None` for a sentence boundary.
        token: Option<Span>,
    },
    /// Nothing to go back to: `token` emitted as it is, the automaton restarts.
    Forced {
        /// The token emitted.
        token: Span,
        /// The state the automaton was in.
        state: u32,
    },
    /// Whitespace already deleted that cannot be read again from the remembered point.
    SkipDeleted {
        /// The skipped whitespace.
        span: Span,
        /// The state reading resumes in.
        state: u32,
    },
    /// U+0004 ended the text at `at` (closing `token`, if one was pending).
    TextEnd {
        /// Byte offset of the end-of-text character.
        at: usize,
        /// The pending token it closed.
        token: Option<Span>,
    },
    /// The input ran out in `state`.
    InputEnd {
        /// Byte offset of the end.
        at: usize,
        /// The state at the end.
        state: u32,
    },
}

/// A whole trace: the steps and the tokenization they produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FstTrace {
    /// The steps in the order the runner took them.
    pub steps: Vec<FstStep>,
    /// The tokenization those steps produced.
    pub tokens: Tokenization,
    /// Steps taken after the first [`MAX_TRACE_LINES`], counted but not kept.
    pub omitted_steps: usize,
}

/// The observer that records the steps: the first [`MAX_TRACE_LINES`] of them, then only
/// their count, so explaining a long text takes memory for what is shown.
#[derive(Default)]
pub struct Recorder {
    /// The steps so far.
    pub steps: Vec<FstStep>,
    /// Steps beyond the first [`MAX_TRACE_LINES`].
    pub omitted: usize,
}

impl Observer<FstStep> for Recorder {
    fn observe(&mut self, step: FstStep) {
        if self.steps.len() < MAX_TRACE_LINES {
            self.steps.push(step);
        } else {
            self.omitted += 1;
        }
    }
}

impl FstTrace {
    /// The spans read again after each backtrack, in order: what the workbench highlights on
    /// the text itself.
    pub fn backtracks(&self) -> impl Iterator<Item = Span> + '_ {
        self.steps.iter().filter_map(|s| match *s {
            FstStep::Backtrack { from, to, .. } => Some(Span::new(to, from)),
            _ => None,
        })
    }

    /// How many characters were read in all (re-reads included) in the steps kept: the work
    /// the O(n·m) bound is about.
    pub fn reads(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, FstStep::Read { .. } | FstStep::NoEdge { .. }))
            .count()
    }

    /// The trace as display lines. Token-level events (boundaries, backtracks, forced tokens)
    /// are at depth 0, character steps at depth 1 beneath them.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines: Vec<TraceLine> = self.steps.iter().map(|step| line(step, text)).collect();
        if self.omitted_steps > 0 {
            lines.push(omitted_line(self.omitted_steps));
        }
        lines
    }
}

fn at(pos: usize) -> String {
    format!("{pos:>5} ")
}

/// The line of a character read along an edge.
fn read_line(
    span: Span,
    (from, to): (u32, u32),
    deletion: bool,
    dropped: bool,
    via: Via,
    text: &str,
) -> TraceLine {
    let kind = match (deletion, dropped) {
        (false, _) => "identity",
        (true, true) => "deletion (dropped)",
        (true, false) => "deletion (kept inside the token)",
    };
    let line = TraceLine::new(1, Some(span))
        .part(Role::Detail, at(span.start))
        .part(
            if dropped { Role::Dropped } else { Role::Token },
            quote(span.slice(text)),
        )
        .part(Role::Plain, format!("  {from} → {to}  "))
        .part(Role::Label, kind);
    match via {
        Via::Char => line,
        Via::Identity => line.part(Role::Detail, "  via ? (outside the alphabet)"),
        Via::Unknown => line.part(Role::Detail, "  via @_UNKNOWN_SYMBOL_@"),
    }
}

/// The line of an ε:boundary edge taken at `pos`, ending `token` or a sentence.
fn boundary_line(pos: usize, from: u32, to: u32, token: Option<Span>, text: &str) -> TraceLine {
    let line = TraceLine::new(0, Some(token.unwrap_or(Span::new(pos, pos))))
        .part(Role::Label, "ε:boundary")
        .part(Role::Plain, format!(" {from} → {to}  "));
    match token {
        Some(span) => line
            .part(Role::Plain, "token ")
            .part(Role::Token, quote(span.slice(text)))
            .part(Role::Detail, format!("  {span}")),
        None => line.part(Role::Label, "sentence end"),
    }
}

fn line(step: &FstStep, text: &str) -> TraceLine {
    match *step {
        FstStep::Remember { at: pos, state } => TraceLine::new(1, Some(Span::new(pos, pos)))
            .part(Role::Detail, at(pos))
            .part(Role::Label, "remember")
            .part(
                Role::Plain,
                format!(" state {state} has ε:boundary: come back here if stuck"),
            ),
        FstStep::Read {
            span,
            from,
            to,
            deletion,
            dropped,
            via,
        } => read_line(span, (from, to), deletion, dropped, via, text),
        FstStep::NoEdge { span, state } => TraceLine::new(1, Some(span))
            .part(Role::Detail, at(span.start))
            .part(Role::Token, quote(span.slice(text)))
            .part(Role::Plain, format!("  {state} → "))
            .part(Role::Backtrack, "no edge"),
        FstStep::Backtrack { from, to, state } if from == to => {
            TraceLine::new(0, Some(Span::new(to, to)))
                .part(Role::Backtrack, "back")
                .part(
                    Role::Plain,
                    format!(" to the remembered state {state} at {to} (nothing to read again)"),
                )
        }
        FstStep::Backtrack { from, to, state } => {
            let reread = Span::new(to, from);
            TraceLine::new(0, Some(reread))
                .part(Role::Backtrack, "backtrack")
                .part(
                    Role::Plain,
                    format!(" {from} → {to} to the remembered state {state}, reading again "),
                )
                .part(Role::Backtrack, quote(reread.slice(text)))
        }
        FstStep::Boundary {
            at: pos,
            from,
            to,
            token,
        } => boundary_line(pos, from, to, token, text),
        FstStep::Forced { token, state } => TraceLine::new(0, Some(token))
            .part(Role::Backtrack, "stuck")
            .part(
                Role::Plain,
                format!(" in state {state}, no boundary to go back to: token "),
            )
            .part(Role::Token, quote(token.slice(text)))
            .part(Role::Detail, format!("  {token}"))
            .part(Role::Plain, ", restart"),
        FstStep::SkipDeleted { span, state } => TraceLine::new(0, Some(span))
            .part(Role::Backtrack, "stuck")
            .part(
                Role::Plain,
                format!(" in state {state} on whitespace deleted before: "),
            )
            .part(Role::Dropped, quote(span.slice(text)))
            .part(Role::Plain, " stays deleted, restart after it"),
        FstStep::TextEnd { at: pos, token } => {
            let line = TraceLine::new(0, Some(Span::new(pos, pos + 1)))
                .part(Role::Label, "text end")
                .part(Role::Plain, " (U+0004)");
            match token {
                Some(span) => line
                    .part(Role::Plain, " closes token ")
                    .part(Role::Token, quote(span.slice(text))),
                None => line,
            }
        }
        FstStep::InputEnd { at: pos, state } => TraceLine::new(0, Some(Span::new(pos, pos)))
            .part(Role::Label, "end of input")
            .part(Role::Plain, format!(" in state {state}")),
    }
}
