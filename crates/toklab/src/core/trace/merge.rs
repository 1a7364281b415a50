//! Merge steps as plain data: a word's derivation under one of the two BPE semantics of
//! Berglund & van der Merwe, step by step, with what the merges view needs to replay it. The
//! algorithms that derive them live with the merge engine (the `merges` module); what is here is
//! only what a trace carries, so the core needs no engine to hold one.

use super::{Role, TraceLine, quote};
use crate::core::token::Span;

/// Which of the paper's two tie-breaking semantics to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// Definition 3: always the highest-priority applicable rule, leftmost. What HuggingFace
    /// tokenizers, tiktoken and SentencePiece actually do (conformance/bpe/data/formal).
    SentencePiece,
    /// Definition 4: apply the chosen rule everywhere, left to right, then choose again. What
    /// OpenAI's original GPT-2 `encoder.py` does.
    HuggingFace,
}

impl Semantics {
    /// The short name used in specs and output (`sp`, `hf`).
    pub fn name(self) -> &'static str {
        match self {
            Semantics::SentencePiece => "sp",
            Semantics::HuggingFace => "hf",
        }
    }

    /// Parses `sp` / `hf` (as in `semantics=sp|hf`).
    pub fn parse(name: &str) -> Option<Semantics> {
        match name {
            "sp" | "sentencepiece" => Some(Semantics::SentencePiece),
            "hf" | "huggingface" => Some(Semantics::HuggingFace),
            _ => None,
        }
    }
}

/// One derivation step `φ ⟩ u ⟩ v ⟩ φ' ⇒ φ ⟩ uv ⟩ φ'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Index of the rule in the dictionary (its priority order).
    pub rule: usize,
    /// The rule's rank.
    pub rank: u32,
    /// `|φ|`: the index of the left token `u` in the tokenization before the step.
    pub position: usize,
    /// Byte offset in the word where `u` starts.
    pub start: usize,
    /// Byte offset where `v` starts.
    pub split: usize,
    /// Byte offset where `v` ends.
    pub end: usize,
    /// Which rule choice this step belongs to (HuggingFace applies one choice many times).
    pub pass: usize,
}

/// A word's whole derivation under one semantics, replayable step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// Which library's order of merging.
    pub semantics: Semantics,
    /// The word, as bytes.
    pub word: Vec<u8>,
    /// End offsets of `T∅(w)`, the initial symbols.
    pub initial: Vec<usize>,
    /// The merges in order.
    pub steps: Vec<Step>,
    /// End offsets of the final tokenization.
    pub result: Vec<usize>,
}

impl Derivation {
    /// End offsets of the tokenization after the first `k` steps (`τ_k`); `k` is clamped to
    /// the number of steps.
    pub fn ends_after(&self, k: usize) -> Vec<usize> {
        let mut ends = self.initial.clone();
        for step in &self.steps[..k.min(self.steps.len())] {
            if let Ok(i) = ends.binary_search(&step.split) {
                ends.remove(i);
            }
        }
        ends
    }

    /// The tokens after `k` steps, as byte strings.
    pub fn tokens_after(&self, k: usize) -> Vec<&[u8]> {
        split_at_ends(&self.word, &self.ends_after(k))
    }

    /// `τ_k` as `toklab bpe steps` prints it: the tokens after `k` steps joined by ` ⟩ `,
    /// spaces shown as `␣` (so a leading space is visible).
    pub fn show_after(&self, k: usize) -> String {
        self.tokens_after(k)
            .into_iter()
            .map(|t| show_bytes(t).replace(' ', "␣"))
            .collect::<Vec<_>>()
            .join(" ⟩ ")
    }

    /// The final tokens as byte strings.
    pub fn tokens(&self) -> Vec<&[u8]> {
        split_at_ends(&self.word, &self.result)
    }
}

/// Cuts `s` at the given end offsets.
pub fn split_at_ends<'a>(s: &'a [u8], ends: &[usize]) -> Vec<&'a [u8]> {
    let mut at = 0;
    ends.iter()
        .map(|&e| {
            let piece = &s[at..e];
            at = e;
            piece
        })
        .collect()
}

/// Shows a symbol's bytes: valid UTF-8 as text (control characters made visible), any other
/// byte as `\xNN`.
pub fn show_bytes(s: &[u8]) -> String {
    let mut out = String::new();
    for chunk in s.utf8_chunks() {
        // The trace's quoting makes control characters visible; drop its «» marks.
        let quoted = quote(chunk.valid());
        out.push_str(&quoted['«'.len_utf8()..quoted.len() - '»'.len_utf8()]);
        for b in chunk.invalid() {
            // As SentencePiece writes byte pieces, and as every other view shows them.
            out.push_str(&format!("<0x{b:02X}>"));
        }
    }
    out
}

/// The steps for one word (pre-token) of a text.
#[derive(Clone, Debug)]
pub struct WordSteps {
    /// Where the word is in the original text.
    pub span: Span,
    /// The word's derivation under the semantics shown.
    pub derivation: Derivation,
    /// The rule of each step shown as `«u» ⟩ «v»`, rendered once so the trace needs no
    /// dictionary to be displayed.
    pub rules: Vec<String>,
    /// When both semantics were derived: the other one's steps and where they part.
    pub other: Option<OtherSemantics>,
    /// Where each byte offset of the word (`0..=len`) lies in the original text, when the word
    /// is not simply the text under `span`: a BPE model's inserted prefix space, SentencePiece's
    /// normalized text. `None` means offset `i` is `span.start + i`.
    pub to_text: Option<Vec<usize>>,
}

/// The semantics not shown in the trace lines, kept whole so the workbench's merges tab can
/// replay both side by side.
#[derive(Clone, Debug)]
pub struct OtherSemantics {
    /// The first step (0-based) where the two semantics differ, `None` if they never do.
    pub parts_at: Option<usize>,
    /// The derivation under the other semantics.
    pub derivation: Derivation,
    /// Its rules shown as `«u» ⟩ «v»`, one per step.
    pub rules: Vec<String>,
}

impl WordSteps {
    /// The original text that bytes `start..end` of the word came from, widened to whole
    /// characters: a byte-level merge can join part of a character, but a highlighted span
    /// must not cut one.
    pub fn text_span(&self, text: &str, start: usize, end: usize) -> Span {
        let at = |i: usize| match &self.to_text {
            Some(map) => map[i.min(map.len() - 1)],
            None => self.span.start + i,
        };
        let clamp = |x: usize| x.clamp(self.span.start, self.span.end.min(text.len()));
        let mut from = clamp(at(start));
        let mut to = clamp(at(end)).max(from);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        while !text.is_char_boundary(to) {
            to += 1;
        }
        Span::new(from, to)
    }

    /// One line about the derivation: symbols, steps, semantics, and where the other parts.
    pub fn summary(&self) -> String {
        let d = &self.derivation;
        let mut out = format!(
            "{} symbols, {} steps ({})",
            d.initial.len(),
            d.steps.len(),
            d.semantics.name()
        );
        if let Some(other) = &self.other {
            out.push_str(&match other.parts_at {
                None => "; both semantics take the same steps".to_string(),
                Some(k) => format!(
                    "; {} parts at step {}",
                    other.derivation.semantics.name(),
                    k + 1
                ),
            });
        }
        out
    }

    /// A line per step (its span the text the merged token covers), then the result and,
    /// when the semantics part, the other semantics' result.
    pub fn step_lines(&self, text: &str, depth: usize) -> Vec<TraceLine> {
        let d = &self.derivation;
        let mut lines = Vec::with_capacity(d.steps.len() + 2);
        for (k, step) in d.steps.iter().enumerate() {
            let parted = self.other.as_ref().is_some_and(|o| o.parts_at == Some(k));
            let merged = show_bytes(&d.word[step.start..step.end]);
            lines.push(
                TraceLine::new(depth, Some(self.text_span(text, step.start, step.end)))
                    .part(
                        if parted { Role::Backtrack } else { Role::Label },
                        format!("step {:>3} ", k + 1),
                    )
                    .part(Role::Plain, format!("{} ", self.rules[k]))
                    .part(Role::Token, format!("→ «{merged}»"))
                    .part(
                        Role::Detail,
                        format!(
                            "  rule #{} rank {} at token {}",
                            step.rule + 1,
                            step.rank,
                            step.position
                        ),
                    ),
            );
        }
        let tokens = |ends: &[usize]| {
            split_at_ends(&d.word, ends)
                .into_iter()
                .map(|t| format!("«{}»", show_bytes(t)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        lines.push(
            TraceLine::new(depth, Some(self.span))
                .part(Role::Label, "result ")
                .part(Role::Token, tokens(&d.result)),
        );
        if let Some(other) = self.other.as_ref().filter(|o| o.parts_at.is_some()) {
            lines.push(
                TraceLine::new(depth, Some(self.span))
                    .part(
                        Role::Backtrack,
                        format!("{:<7}", other.derivation.semantics.name()),
                    )
                    .part(Role::Token, tokens(&other.derivation.result)),
            );
        }
        lines
    }
}
