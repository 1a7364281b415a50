//! Merge steps as a trace: one block per word, one line per step, each line's span the
//! merged token in the original text, so the generic trace view highlights what each step
//! made and the workbench's merges tab can replay the same [`Derivation`]s.

use super::dict::Dictionary;
use super::steps::{Comparison, Derivation};
use crate::core::token::Span;
use crate::core::trace::{Role, Trace, TraceLine, quote};

pub use crate::core::trace::{OtherSemantics, WordSteps};

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

    /// The trace as `explain` returns it: the lines, and the words for the merges view.
    pub fn into_trace(self, text: &str) -> Trace {
        Trace::with_merges(self.lines(text), self.words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::formal::{Rule, Semantics, SymbolUnit};

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
        let d = Dictionary::new(SymbolUnit::Byte, rules).unwrap();
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
