//! Merge steps as a trace: one block per word, one line per step, each line's span the
//! merged token in the original text, so the generic trace view highlights what each step
//! made and the workbench's merges tab can replay the same [`Derivation`]s.

use super::dict::Dictionary;
use super::steps::{Comparison, Derivation};
use crate::engine::{Role, TraceLine, quote};
use crate::token::Span;

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
    /// The steps of `word` (found at `span`) under one semantics.
    pub fn new(dict: &Dictionary, span: Span, derivation: Derivation) -> WordSteps {
        let rules = derivation
            .steps
            .iter()
            .map(|s| dict.show_rule(s.rule))
            .collect();
        WordSteps {
            span,
            derivation,
            rules,
            other: None,
            to_text: None,
        }
    }

    /// The steps of one semantics, with where the other semantics parts from them.
    pub fn compared(dict: &Dictionary, span: Span, comparison: Comparison, show_hf: bool) -> Self {
        let (shown, other) = if show_hf {
            (comparison.hf, comparison.sp)
        } else {
            (comparison.sp, comparison.hf)
        };
        let mut steps = WordSteps::new(dict, span, shown);
        let rules = other.steps.iter().map(|s| dict.show_rule(s.rule)).collect();
        steps.other = Some(OtherSemantics {
            parts_at: comparison.parts_at,
            derivation: other,
            rules,
        });
        steps
    }

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
        let show = |s: &[u8]| Dictionary::show(s);
        let mut lines = Vec::with_capacity(d.steps.len() + 2);
        for (k, step) in d.steps.iter().enumerate() {
            let parted = self.other.as_ref().is_some_and(|o| o.parts_at == Some(k));
            let merged = show(&d.word[step.start..step.end]);
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
            super::steps::split_at_ends(&d.word, ends)
                .into_iter()
                .map(|t| format!("«{}»", show(t)))
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

/// The trace of a merge-based engine for one text.
#[derive(Clone, Debug, Default)]
pub struct MergeTrace {
    /// The words of the text in order, each with its merges.
    pub words: Vec<WordSteps>,
}

impl MergeTrace {
    /// The trace of a text already cut into pre-tokens (`pieces`, ascending spans of `text`):
    /// each piece derived under both semantics and shown under `shown`, with where the other
    /// parts. What a BPE engine's `explain` returns, whatever its pre-tokenizer.
    pub fn for_pieces(
        dict: &Dictionary,
        text: &str,
        pieces: impl IntoIterator<Item = Span>,
        shown: super::encode::Semantics,
    ) -> MergeTrace {
        let show_hf = shown == super::encode::Semantics::HuggingFace;
        let words = pieces
            .into_iter()
            .map(|span| {
                let comparison = Comparison::new(dict, span.slice(text).as_bytes());
                WordSteps::compared(dict, span, comparison, show_hf)
            })
            .collect();
        MergeTrace { words }
    }

    /// The trace as display lines: a line per word with its summary, then its steps.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        for word in &self.words {
            lines.push(
                TraceLine::new(0, Some(word.span))
                    .part(Role::Label, "word ")
                    .part(Role::Token, quote(word.span.slice(text)))
                    .part(Role::Detail, format!("  {}", word.summary())),
            );
            lines.extend(word.step_lines(text, 1));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merges::{Rule, Semantics, Unit};

    #[test]
    fn lines_show_steps_and_parting() {
        let d = Dictionary::parse_paper("ab a, a b").unwrap();
        let text = "x abababab";
        let word = Span::new(2, 10);
        let c = Comparison::new(&d, &text.as_bytes()[2..10]);
        let trace = MergeTrace {
            words: vec![WordSteps::compared(&d, word, c, false)],
        };
        let lines = trace.lines(text);
        let shown: Vec<String> = lines
            .iter()
            .map(|l| l.parts.iter().map(|p| p.text.as_str()).collect())
            .collect();
        assert!(shown[0].contains("; hf parts at step 2"), "{shown:?}");
        assert!(
            shown[1].starts_with("step   1 «a» ⟩ «b» → «ab»"),
            "{shown:?}"
        );
        assert_eq!(lines[1].span, Some(Span::new(2, 4)));
        assert_eq!(lines[2].parts[0].role, Role::Backtrack);
        assert!(
            shown.iter().any(|l| l == "result «aba» «b» «aba» «b»"),
            "{shown:?}"
        );
        assert!(
            shown.iter().any(|l| l == "hf     «ab» «ab» «ab» «ab»"),
            "{shown:?}"
        );
    }

    #[test]
    fn for_pieces_keeps_offsets_into_the_text() {
        let d = Dictionary::parse_paper("a b, ab c").unwrap();
        let text = "abc  ab";
        let pieces = [Span::new(0, 3), Span::new(5, 7)];
        let trace = MergeTrace::for_pieces(&d, text, pieces, Semantics::HuggingFace);
        assert_eq!(trace.words.len(), 2);
        assert_eq!(trace.words[1].derivation.semantics, Semantics::HuggingFace);
        let spans: Vec<Option<Span>> = trace.lines(text).iter().map(|l| l.span).collect();
        assert!(spans.contains(&Some(Span::new(5, 7))));
        assert_eq!(trace.lines(text)[1].span, Some(Span::new(0, 2)));
    }

    #[test]
    fn spans_of_partial_characters_widen_to_the_character() {
        // Byte-level: «é» is two bytes, and a rule joins «a» with the first byte only.
        let rules = vec![Rule::new(b"a", b"\xc3", 0)];
        let d = Dictionary::new(Unit::Byte, rules).unwrap();
        let text = "xaé";
        let word = Span::new(1, 4);
        let der = Derivation::new(&d, &text.as_bytes()[1..4], Semantics::SentencePiece);
        assert_eq!((der.steps[0].start, der.steps[0].end), (0, 2));
        let steps = WordSteps::new(&d, word, der);
        assert_eq!(steps.text_span(text, 0, 2), Span::new(1, 4));
        assert_eq!(steps.text_span(text, 2, 3), Span::new(2, 4));
        // A word with an inserted space: byte 0 is not in the text, so it maps to the start.
        let mut spaced = steps.clone();
        spaced.to_text = Some(vec![1, 1, 2, 3]);
        assert_eq!(spaced.text_span(text, 0, 2), Span::new(1, 2));
        assert_eq!(spaced.text_span(text, 2, 3), Span::new(2, 4));
        for line in (MergeTrace { words: vec![steps] }).lines(text) {
            let span = line.span.unwrap();
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
    }
}
