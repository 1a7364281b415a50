//! Traces as data: what an engine's `explain` returns, whatever the engine.
//!
//! A [`Trace`] is display lines (each with the span of the input it is about) plus, for engines
//! that merge, the merge steps of every word ([`WordSteps`]) that the workbench's merges view
//! replays. Engines build it eagerly from their own typed trace, so nothing here names an
//! engine and a new engine needs no variant in the core.
//!
//! The engine convention: every engine has an inherent `trace(&self, text)` returning its typed
//! trace (`MatchTrace`, `MaxMatchTrace`, `FstTrace`, `BpeTrace` for BPE and SentencePiece,
//! `WordPieceTrace`, `RuleTrace`), the typed trace renders with `lines(&self, text)`, and
//! `Tokenizer::explain` is `Trace::new(self.trace(text).lines(text))`, or the typed trace's
//! `into_trace(text)` where there are merge words to keep (`BpeTrace`, `MergeTrace`).
//!
//! `trace` watches the engine through one hook, [`Observer`] of the engine's own step type:
//! the FST runner's `FstStep`, BPE's `MergeStep`, the formal encoder's `MergeEvent`,
//! WordPiece's `WordOrSpecial`, the rule engine's `Event`. `tokenize` passes [`Quiet`], so it
//! pays nothing for the trace.

mod merge;
mod observer;

use crate::core::token::Span;

pub use observer::{Observer, Quiet};

pub use merge::{
    Derivation, OtherSemantics, Semantics, Step, WordSteps, show_bytes, split_at_ends,
};

/// An engine's explanation of one text: display lines, and the merge steps of each word for
/// engines that merge (empty otherwise).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    lines: Vec<TraceLine>,
    merges: Vec<WordSteps>,
    merges_left_out: usize,
}

/// The most lines (and merge words) a trace keeps. A trace line costs a few hundred bytes and
/// engines take one or more per character, so an unbounded trace of a 1 MB line took gigabytes;
/// nobody reads past the first tens of thousands of lines, and the marker says what was left.
pub const MAX_TRACE_LINES: usize = 50_000;

/// Keeps the first [`MAX_TRACE_LINES`] of `lines`; the rest become one line saying how many
/// there were.
pub fn cap_lines(lines: &mut Vec<TraceLine>) {
    if lines.len() > MAX_TRACE_LINES + 1 {
        let more = lines.len() - MAX_TRACE_LINES;
        lines.truncate(MAX_TRACE_LINES);
        lines.shrink_to_fit();
        lines.push(omitted_line(more));
    }
}

/// The line that ends a capped trace: `… N more trace lines not kept`.
pub fn omitted_line(more: usize) -> TraceLine {
    omitted_items(more, "trace lines")
}

/// The line that ends a trace capped by items of its own (`… N more pieces not kept`).
pub fn omitted_items(more: usize, what: &str) -> TraceLine {
    TraceLine::new(0, None).part(
        Role::Detail,
        format!("… {more} more {what} not kept (a trace keeps the first {MAX_TRACE_LINES} lines)"),
    )
}

/// Trace lines collected up to [`MAX_TRACE_LINES`]: lines past the cap are counted, not
/// built, so an engine's `explain` takes memory for what is kept, whatever the text's length.
#[derive(Debug, Default)]
pub struct LineBudget {
    lines: Vec<TraceLine>,
    omitted: usize,
}

impl LineBudget {
    /// Adds the line `make` builds, or counts it when the budget is spent.
    pub fn push_with(&mut self, make: impl FnOnce() -> TraceLine) {
        if self.is_full() {
            self.omitted += 1;
        } else {
            self.lines.push(make());
        }
    }

    /// Counts `count` lines not built (an engine that skips whole items past the cap).
    pub fn omit(&mut self, count: usize) {
        self.omitted += count;
    }

    /// Whether no more lines are kept.
    pub fn is_full(&self) -> bool {
        self.lines.len() >= MAX_TRACE_LINES
    }

    /// The lines kept, ending with the `… N more` line when some were not.
    pub fn into_lines(mut self) -> Vec<TraceLine> {
        if self.omitted > 0 {
            self.lines.push(omitted_line(self.omitted));
        }
        self.lines
    }
}

impl Trace {
    /// A trace of display lines only (at most [`MAX_TRACE_LINES`] of them kept).
    pub fn new(lines: Vec<TraceLine>) -> Trace {
        Trace::with_merges(lines, Vec::new())
    }

    /// A trace whose words also carry merge steps, for views that replay them; at most
    /// [`MAX_TRACE_LINES`] lines and words are kept.
    pub fn with_merges(mut lines: Vec<TraceLine>, mut merges: Vec<WordSteps>) -> Trace {
        cap_lines(&mut lines);
        merges.truncate(MAX_TRACE_LINES);
        Trace {
            lines,
            merges,
            merges_left_out: 0,
        }
    }

    /// The same trace, noting `count` words whose merge steps were too long to keep (so a
    /// view can say why it has none to replay).
    pub fn with_merges_left_out(mut self, count: usize) -> Trace {
        self.merges_left_out = count;
        self
    }

    /// How many words had merge steps too long to keep.
    pub fn merges_left_out(&self) -> usize {
        self.merges_left_out
    }

    /// The trace as lines of labelled parts, for display.
    pub fn lines(&self) -> &[TraceLine] {
        &self.lines
    }

    /// The merge steps of every word, for views that replay them (the workbench's merges
    /// tab); empty for engines that do not merge.
    pub fn merge_words(&self) -> &[WordSteps] {
        &self.merges
    }

    /// The trace as plain text, one line per [`TraceLine`], indented by depth.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            for _ in 0..line.depth {
                out.push_str("  ");
            }
            for part in &line.parts {
                out.push_str(&part.text);
            }
            out.push('\n');
        }
        out
    }
}

/// One line of a trace: indented parts, and the span of the input it is about (highlighted in
/// the text when the line is selected).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Nesting level (a recursion depth, a word's steps under the word).
    pub depth: usize,
    /// The line's text, in styled pieces.
    pub parts: Vec<TracePart>,
    /// The input this line is about, if any.
    pub span: Option<Span>,
    /// The rule file line the step used or tried, so a viewer can open the rule the line is
    /// about (a near miss's entry included, which made no token to carry it).
    pub source: Option<crate::core::token::SourceLoc>,
}

impl TraceLine {
    /// An empty line at `depth` about `span`; add its text with [`TraceLine::part`].
    pub fn new(depth: usize, span: Option<Span>) -> Self {
        TraceLine {
            depth,
            parts: Vec::new(),
            span,
            source: None,
        }
    }

    /// Sets the rule file line the line is about; returns self as [`TraceLine::part`] does.
    pub fn at(mut self, source: Option<crate::core::token::SourceLoc>) -> Self {
        self.source = source;
        self
    }

    /// Appends a part; returns self so a line reads as one expression.
    pub fn part(mut self, role: Role, text: impl Into<String>) -> Self {
        self.parts.push(TracePart {
            role,
            text: text.into(),
        });
        self
    }
}

/// A piece of a trace line with its role, which the workbench maps to a style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracePart {
    /// What the piece is, for its style.
    pub role: Role,
    /// The text shown.
    pub text: String,
}

/// What a piece of a trace line is, so each view can style it consistently.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Connecting text with no special meaning.
    Plain,
    /// A step or rule name.
    Label,
    /// Text of a token that was produced.
    Token,
    /// Input text that was skipped or dropped.
    Dropped,
    /// Secondary detail (offsets, ranks).
    Detail,
    /// Something that went back or failed (an FST backtrack, a rejected candidate).
    Backtrack,
}

/// Bytes for display: UTF-8 as text, anything else as `<0xNN>`, the one spelling every
/// view and engine gives a piece that is not whole characters (a byte-level token that cuts
/// one).
pub fn render_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("<0x{b:02X}>"));
        }
    }
    out
}

/// Renders a piece of input for a trace line: quoted, with control characters shown as
/// pictures (a trace is shown on a terminal, and the line must stay one line).
pub fn quote(text: &str) -> String {
    let shown = crate::core::display::terminal_safe(text, crate::core::display::Keep::Nothing);
    format!("«{shown}»")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_text_indents_by_depth() {
        let trace = Trace::new(vec![
            TraceLine::new(0, None)
                .part(Role::Label, "word ")
                .part(Role::Token, quote("a\tb")),
            TraceLine::new(1, Some(Span::new(0, 1))).part(Role::Plain, "step"),
        ]);
        assert_eq!(trace.to_text(), "word «a␉b»\n  step\n");
        assert!(trace.merge_words().is_empty());
    }

    #[test]
    fn a_long_trace_keeps_its_start_and_says_how_much_more() {
        let line = |i: usize| TraceLine::new(0, None).part(Role::Plain, i.to_string());
        let trace = Trace::new((0..MAX_TRACE_LINES + 10).map(line).collect());
        assert_eq!(trace.lines().len(), MAX_TRACE_LINES + 1);
        assert_eq!(
            trace.lines()[MAX_TRACE_LINES - 1],
            line(MAX_TRACE_LINES - 1)
        );
        let last = trace.to_text().lines().last().unwrap().to_string();
        assert!(last.starts_with("… 10 more trace lines not kept"), "{last}");
        let exact = Trace::new((0..=MAX_TRACE_LINES).map(line).collect());
        assert_eq!(
            exact.lines().len(),
            MAX_TRACE_LINES + 1,
            "one over is kept whole"
        );
    }
}
