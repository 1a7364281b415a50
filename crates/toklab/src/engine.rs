//! The one shape every engine has: load (through a spec), tokenize, explain.

use crate::simple::MatchTrace;
use crate::token::{Span, Tokenization};

/// A tokenizer of any family. Engines are immutable once loaded so one instance can serve the
/// workbench's UI thread and its background workers at once.
pub trait Tokenizer: Send + Sync {
    /// A short name for labels and messages: the kind and its main argument.
    fn name(&self) -> &str;

    /// Tokenizes one text. Never fails: text an engine cannot place becomes tokens of kind
    /// `Unknown`, so no input is lost.
    fn tokenize(&self, text: &str) -> Tokenization;

    /// How the engine arrived at its tokens for `text`: a second call, made only when a view
    /// asks, so tokenizing stays fast.
    fn explain(&self, text: &str) -> Trace;

    /// Things the user should know about what was loaded (a skipped network, an entry that
    /// can never fire). Shown by the CLI on stderr and in the workbench.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// The files this tokenizer was loaded from, so the workbench can watch them and reload
    /// when they change on disk.
    fn sources(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// Tokenizes `new`, an edit of `old` whose tokenization was `old_tokens`. Engines that can
    /// re-tokenize only what an edit can change (BPE, the incremental algorithm) override this;
    /// the result must always equal `tokenize(new)`.
    fn retokenize(&self, old: &str, old_tokens: &Tokenization, new: &str) -> Tokenization {
        let _ = (old, old_tokens);
        self.tokenize(new)
    }
}

/// An engine's explanation. Each family adds a variant; every variant can be flattened into
/// [`TraceLine`]s, so the CLI and the workbench can show any trace without knowing the engine.
#[derive(Clone, Debug)]
pub enum Trace {
    /// Pattern matches and the gaps between them (whitespace, regex and pre-tokenizer kinds).
    Matches(MatchTrace),
    /// Merge steps per word under one BPE semantics (`crate::merges`).
    Merges(crate::merges::MergeTrace),
    /// Forward and backward maximum matching and where they disagree (`maxmatch:`).
    MaxMatch(crate::maxmatch::MaxMatchTrace),
    /// A finite-state tokenizer's steps: edges taken, remembered boundaries, backtracks.
    Fst(crate::fst::FstTrace),
    /// Pre-tokenizer pieces, each with its merge steps under both semantics and what the model
    /// did around them (BPE models, SentencePiece).
    Bpe(crate::bpe::BpeTrace),
    /// Words and their greedy longest-match pieces (WordPiece).
    WordPiece(crate::wordpiece::WordPieceTrace),
    /// The rule engine's recursion tree: segments, the step that split each, tokens found.
    Rules(crate::rules::RuleTrace),
}

impl Trace {
    /// The trace as lines of labelled parts, for display.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        match self {
            Trace::Matches(trace) => trace.lines(text),
            Trace::Merges(trace) => trace.lines(text),
            Trace::MaxMatch(trace) => trace.lines(text),
            Trace::Fst(trace) => trace.lines(text),
            Trace::Bpe(trace) => trace.lines(text),
            Trace::WordPiece(trace) => trace.lines.clone(),
            Trace::Rules(trace) => trace.lines(text),
        }
    }

    /// The merge steps of every word, for views that replay them (the workbench's merges
    /// tab); empty for engines that do not merge.
    pub fn merge_words(&self) -> Vec<&crate::merges::WordSteps> {
        match self {
            Trace::Merges(trace) => trace.words.iter().collect(),
            Trace::Bpe(trace) => trace.words().collect(),
            _ => Vec::new(),
        }
    }

    /// The trace as plain text, one line per [`TraceLine`], indented by depth.
    pub fn to_text(&self, text: &str) -> String {
        let mut out = String::new();
        for line in self.lines(text) {
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
    pub depth: usize,
    pub parts: Vec<TracePart>,
    pub span: Option<Span>,
}

impl TraceLine {
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
    pub role: Role,
    pub text: String,
}

/// What a piece of a trace line is, so each view can style it consistently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
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
