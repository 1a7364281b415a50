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

use crate::token::Span;

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
}

impl Trace {
    /// A trace of display lines only.
    pub fn new(lines: Vec<TraceLine>) -> Trace {
        Trace {
            lines,
            merges: Vec::new(),
        }
    }

    /// A trace whose words also carry merge steps, for views that replay them.
    pub fn with_merges(lines: Vec<TraceLine>, merges: Vec<WordSteps>) -> Trace {
        Trace { lines, merges }
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
}

impl TraceLine {
    /// An empty line at `depth` about `span`; add its text with [`TraceLine::part`].
    pub fn new(depth: usize, span: Option<Span>) -> Self {
        TraceLine {
            depth,
            parts: Vec::new(),
            span,
        }
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

/// Renders a piece of input for a trace line: quoted, with control characters made visible.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('«');
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('»');
    out
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
        assert_eq!(trace.to_text(), "word «a\\tb»\n  step\n");
        assert!(trace.merge_words().is_empty());
    }
}
