//! `ptb`: Penn Treebank tokenization (Jurafsky & Martin §2.8), the same tokens as NLTK's
//! `TreebankWordTokenizer`, and the way back as its `TreebankWordDetokenizer`.
//!
//! The conventions are ordered regex rewrites of the whole text (`rules.rs`). They run on an
//! [`aligned`] working string, so each token keeps the span of the original it came from (a
//! `"` rewritten as ``` `` ``` covers the `"`), and each split knows the rule that padded it:
//! that is the trace.

mod aligned;
mod rules;
mod sources;

use crate::core::error::Result;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};

use self::aligned::{AlignedText, Part, parse_template};
pub use self::rules::{PtbRule, PtbStep};

/// `ptb[?parens=1]`: Penn Treebank tokens; `parens=1` writes brackets as -LRB- … -RCB-.
pub const KIND: Kind = Kind::new(
    "ptb",
    "ptb[?parens=1]",
    "Penn Treebank tokens (NLTK's TreebankWordTokenizer): clitics split (does n't), quotes as `` ''",
    load,
)
.with_options();

fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let parens = spec.take_flag("parens", false)?;
    spec.finish(&["parens"])?;
    Ok(Box::new(PtbTokenizer::new(parens)))
}

/// A step with its pattern compiled.
struct Compiled {
    step: PtbStep,
    regex: Option<fancy_regex::Regex>,
    template: Vec<Part>,
}

fn compile(steps: &[&[PtbStep]]) -> Vec<Compiled> {
    steps
        .iter()
        .flat_map(|s| s.iter())
        .map(|&step| match step {
            PtbStep::Rule(rule) => Compiled {
                step,
                // The patterns are constants checked by a unit test, so failing here is a bug
                // in this file, never the user's input.
                regex: Some(fancy_regex::Regex::new(rule.pattern).expect("PTB patterns compile")),
                template: parse_template(rule.replacement),
            },
            PtbStep::Pad | PtbStep::Strip => Compiled {
                step,
                regex: None,
                template: Vec::new(),
            },
        })
        .collect()
}

/// The Treebank tokenizer and detokenizer.
pub struct PtbTokenizer {
    name: String,
    tokenize_steps: Vec<Compiled>,
    detokenize_steps: Vec<Compiled>,
}

impl PtbTokenizer {
    /// The tokenizer; with `parens`, brackets become -LRB- … -RCB- (and back).
    pub fn new(parens: bool) -> PtbTokenizer {
        let none: &[PtbStep] = &[];
        let (to, back) = if parens {
            (rules::CONVERT_PARENS, rules::DETOKENIZE_PARENS)
        } else {
            (none, none)
        };
        PtbTokenizer {
            name: if parens { "ptb?parens=1" } else { "ptb" }.to_string(),
            tokenize_steps: compile(&[rules::BEFORE_PARENS, to, rules::AFTER_PARENS]),
            detokenize_steps: compile(&[rules::DETOKENIZE, back, rules::DETOKENIZE_REST]),
        }
    }

    /// Every rewrite each rule made, and the tokens with the rules that split them off.
    pub fn trace(&self, text: &str) -> PtbTrace {
        let mut aligned = AlignedText::new(text);
        let mut fired = Vec::new();
        for (index, compiled) in self.tokenize_steps.iter().enumerate() {
            match (&compiled.step, &compiled.regex) {
                (PtbStep::Rule(rule), Some(regex)) => {
                    let rewrites = aligned.substitute(regex, &compiled.template, index);
                    if !rewrites.is_empty() {
                        fired.push(RuleFired {
                            rule: rule.name,
                            rewrites: rewrites
                                .into_iter()
                                .map(|r| (r.span, r.before, r.after))
                                .collect(),
                        });
                    }
                }
                _ => aligned.pad(index),
            }
        }
        let mut previous_end = 0;
        let tokens = aligned
            .pieces()
            .into_iter()
            .map(|piece| {
                // A piece made only of inserted text (never with these rules) sits where the
                // previous token ended, so spans stay ordered.
                let span = if piece.span.is_empty() {
                    Span::new(previous_end, previous_end)
                } else {
                    piece.span
                };
                previous_end = span.end;
                let split_by = piece.split_by.iter().map(|&i| self.step_name(i)).collect();
                PtbToken {
                    span,
                    form: piece.form,
                    split_by,
                }
            })
            .collect();
        PtbTrace { fired, tokens }
    }

    fn step_name(&self, index: usize) -> &'static str {
        match self.tokenize_steps[index].step {
            PtbStep::Rule(rule) => rule.name,
            PtbStep::Pad => "padding",
            PtbStep::Strip => "strip",
        }
    }

    /// Joins tokens as Treebank's detokenizer does: the tokenizer's padding undone rule by rule.
    pub fn detokenize_tokens(&self, tokens: &[&str]) -> String {
        let mut aligned = AlignedText::new(&tokens.join(" "));
        for (index, compiled) in self.detokenize_steps.iter().enumerate() {
            match (&compiled.step, &compiled.regex) {
                (PtbStep::Rule(_), Some(regex)) => {
                    aligned.substitute(regex, &compiled.template, index);
                }
                (PtbStep::Strip, _) => {
                    aligned = AlignedText::new(aligned.text.trim_matches(aligned::is_python_space));
                }
                _ => aligned.pad(index),
            }
        }
        aligned.text
    }
}

/// What `explain` shows for `ptb`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtbTrace {
    /// The rules that rewrote something, in order, with each rewrite.
    pub fired: Vec<RuleFired>,
    /// The tokens, each with the rules whose padding split it from the one before.
    pub tokens: Vec<PtbToken>,
}

/// One rule that fired: its name and its rewrites (original span, matched text, replacement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFired {
    /// The rule's name.
    pub rule: &'static str,
    /// Each rewrite: the original span behind the match, the working text matched, what
    /// replaced it.
    pub rewrites: Vec<(Span, String, String)>,
}

/// A token of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtbToken {
    /// Where it is in the original.
    pub span: Span,
    /// Its form (``` `` ``` for an opening `"`).
    pub form: String,
    /// The rules that split it from the token before; empty when whitespace in the text did.
    pub split_by: Vec<&'static str>,
}

impl PtbTrace {
    /// The rules with their rewrites, then the tokens with the rules behind each split.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        for fired in &self.fired {
            lines.push(
                TraceLine::new(0, None)
                    .part(Role::Label, "rule ")
                    .part(Role::Plain, fired.rule)
                    .part(Role::Detail, format!("  ×{}", fired.rewrites.len())),
            );
            for (span, before, after) in &fired.rewrites {
                lines.push(
                    TraceLine::new(1, Some(*span))
                        .part(Role::Detail, format!("{:>9} ", span.to_string()))
                        .part(Role::Dropped, quote(before))
                        .part(Role::Plain, " → ")
                        .part(Role::Token, quote(after)),
                );
            }
        }
        for (index, token) in self.tokens.iter().enumerate() {
            let mut line = TraceLine::new(0, Some(token.span))
                .part(Role::Label, "token ")
                .part(Role::Detail, format!("{:>9} ", token.span.to_string()))
                .part(Role::Token, quote(&token.form));
            if token.form != token.span.slice(text) {
                line = line.part(
                    Role::Detail,
                    format!(" for {}", quote(token.span.slice(text))),
                );
            }
            line = if index == 0 {
                line
            } else if token.split_by.is_empty() {
                line.part(Role::Detail, "  after whitespace")
            } else {
                line.part(
                    Role::Detail,
                    format!("  split by: {}", token.split_by.join(", ")),
                )
            };
            lines.push(line);
        }
        lines
    }
}

/// The coarse kind of a Treebank token: clitics are contractions, the quote forms punctuation.
fn kind_of(form: &str) -> TokenKind {
    const CLITICS: &[&str] = &["'s", "'m", "'d", "'ll", "'re", "'ve", "n't", "'t"];
    if CLITICS.iter().any(|c| c.eq_ignore_ascii_case(form)) {
        TokenKind::Contraction
    } else if form == "``" || form == "''" {
        TokenKind::Punct
    } else {
        TokenKind::classify(form)
    }
}

impl Tokenizer for PtbTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let tokens = self
            .trace(text)
            .tokens
            .into_iter()
            .map(|t| {
                let token = Token::new(t.span, kind_of(&t.form));
                if t.form == t.span.slice(text) {
                    token
                } else {
                    token.with_form(t.form)
                }
            })
            .collect();
        Tokenization::new(tokens)
    }

    /// A space between ASCII letters. Every rule looks at a few characters around what it
    /// rewrites; those anchored at the ends of the text look for quotes, punctuation or spaces
    /// there, never a letter; and the rules that need the space after a word (`n't `, `'s `,
    /// `wanna`) find it at the end of a piece too, since the text is padded with a space.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        crate::core::pieces::space_between_ascii_letters(text, from)
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        Ok(self.detokenize_tokens(tokens))
    }
}

#[cfg(test)]
mod tests;
