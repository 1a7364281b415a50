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
    pub derivation: Derivation,
    /// The rule of each step shown as `«u» ⟩ «v»`, rendered once so the trace needs no
    /// dictionary to be displayed.
    pub rules: Vec<String>,
    /// When both semantics were derived: the other one's steps and where they part.
    pub other: Option<OtherSemantics>,
}

/// The semantics not shown in the trace lines, kept whole so the workbench's merges tab can
/// replay both side by side.
#[derive(Clone, Debug)]
pub struct OtherSemantics {
    /// The first step (0-based) where the two semantics differ, `None` if they never do.
    pub parts_at: Option<usize>,
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

    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        for word in &self.words {
            let d = &word.derivation;
            let base = word.span.start;
            let show = |s: &[u8]| Dictionary::show(s);
            let mut head = TraceLine::new(0, Some(word.span))
                .part(Role::Label, "word ")
                .part(Role::Token, quote(word.span.slice(text)))
                .part(
                    Role::Detail,
                    format!(
                        "  {} symbols, {} steps ({})",
                        d.initial.len(),
                        d.steps.len(),
                        d.semantics.name()
                    ),
                );
            if let Some(other) = &word.other {
                head = head.part(
                    Role::Detail,
                    match other.parts_at {
                        None => "; both semantics take the same steps".to_string(),
                        Some(k) => format!("; the other semantics parts at step {}", k + 1),
                    },
                );
            }
            lines.push(head);
            for (k, step) in d.steps.iter().enumerate() {
                let span = Span::new(base + step.start, base + step.end);
                let parted = word.other.as_ref().is_some_and(|o| o.parts_at == Some(k));
                let merged = show(&d.word[step.start..step.end]);
                lines.push(
                    TraceLine::new(1, Some(span))
                        .part(
                            if parted { Role::Backtrack } else { Role::Label },
                            format!("step {:>3} ", k + 1),
                        )
                        .part(Role::Plain, format!("{} ", word.rules[k]))
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
                TraceLine::new(1, Some(word.span))
                    .part(Role::Label, "result ")
                    .part(Role::Token, tokens(&d.result)),
            );
            if let Some(other) = word.other.as_ref().filter(|o| o.parts_at.is_some()) {
                lines.push(
                    TraceLine::new(1, Some(word.span))
                        .part(Role::Backtrack, "other  ")
                        .part(Role::Token, tokens(&other.derivation.result)),
                );
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merges::Semantics;

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
        assert!(shown[0].contains("parts at step 2"), "{shown:?}");
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
            shown.iter().any(|l| l == "other  «ab» «ab» «ab» «ab»"),
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
}
