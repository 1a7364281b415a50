//! `sent`: sentence segmentation (Jurafsky & Martin §2.8.1) as a tokenizer stage. Alone, its
//! tokens are the sentences; as `sent:SPEC` it runs the tokenizer SPEC and marks the token
//! that ends each sentence (`Tokenization::sentence_ends`), so any row can show them.
//!
//! The rules (`boundaries.rs`) decide each run of terminators: `?`/`!` end a sentence unless a
//! lower-case word follows; an ellipsis of three dots ends none, four (an ellipsis and a
//! period) do; a period after an abbreviation written before names (`Mr.`, `p.`) ends none,
//! after one that may end a sentence (`Co.`, `U.S.`) only before a usual sentence opener;
//! an initial after a capitalized word (`Albert I. Jones`) ends none; closing quotes and
//! brackets stay with the sentence they close; list bullets and markers that continue a
//! numbering (`1.` … `2.`) start one (`lists.rs`). The word lists are in `words.rs`.
//!
//! ```
//! let sent = toklab::load("sent").unwrap();
//! let text = "Dr. Smith left. He is gone.";
//! let sentences = sent.tokenize(text).sentences();
//! let spans: Vec<&str> = sentences.iter().map(|s| s.slice(text)).collect();
//! assert_eq!(spans, ["Dr. Smith left.", "He is gone."]);
//! ```

mod boundaries;
mod lists;
mod words;

use crate::core::error::Result;
use crate::core::pieces::Carry;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{GaveUp, Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::{NO_ID, Tokenizer};
use crate::core::trace::{Role, Trace, TraceLine, quote};

pub use boundaries::{Decision, decide};

/// `sent` or `sent:SPEC`: sentences as tokens, or SPEC's tokens with sentence ends marked.
/// Takes no options of its own, so SPEC keeps its `?key=value` options.
pub const KIND: Kind = Kind::new(
    "sent",
    "sent[:SPEC]",
    "sentence ends by rule (abbreviations, initials, quotes, ellipses, lists); alone: one token per sentence; sent:SPEC marks SPEC's tokens",
    load,
);

fn load(registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let inner = if spec.arg.trim().is_empty() {
        None
    } else {
        Some(registry.load(&spec.arg, &spec.base)?)
    };
    Ok(Box::new(SentenceTokenizer::new(inner)))
}

/// The words of `text` with their byte offsets.
fn words_of(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |word| (word.as_ptr() as usize - text.as_ptr() as usize, word))
}

/// The sentences of `text`, each without the whitespace around it.
pub fn sentence_spans(text: &str) -> Vec<Span> {
    let mut starts: Vec<usize> = decide(text).iter().filter_map(|d| d.next).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut spans = Vec::new();
    let mut from = 0;
    for end in starts.into_iter().chain([text.len()]) {
        let piece = &text[from..end];
        let trimmed = piece.trim();
        if !trimmed.is_empty() {
            let start = from + piece.len() - piece.trim_start().len();
            spans.push(Span::new(start, start + trimmed.len()));
        }
        from = end;
    }
    spans
}

/// Sentence segmentation, alone or over another tokenizer.
pub struct SentenceTokenizer {
    name: String,
    inner: Option<Box<dyn Tokenizer>>,
}

impl SentenceTokenizer {
    /// Sentences as tokens (`inner` = `None`), or `inner`'s tokens with sentence ends marked.
    pub fn new(inner: Option<Box<dyn Tokenizer>>) -> SentenceTokenizer {
        let name = match &inner {
            Some(inner) => format!("sent:{}", inner.name()),
            None => "sent".to_string(),
        };
        SentenceTokenizer { name, inner }
    }

    /// Every decision the rules took on `text`.
    pub fn trace(&self, text: &str) -> SentenceTrace {
        SentenceTrace {
            decisions: decide(text),
        }
    }

    /// Marks, in `tokens`, the last token before each sentence start.
    fn mark(text: &str, mut tokens: Tokenization) -> Tokenization {
        let mut ends = Vec::new();
        for sentence in sentence_spans(text).iter().skip(1) {
            let before = tokens
                .tokens
                .partition_point(|t| t.span.start < sentence.start);
            if let Some(index) = before.checked_sub(1)
                && ends.last() != Some(&index)
            {
                ends.push(index);
            }
        }
        tokens.sentence_ends = ends;
        tokens
    }
}

/// What `explain` shows for `sent`: each candidate and the rule that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentenceTrace {
    /// The decisions, in text order.
    pub decisions: Vec<Decision>,
}

impl SentenceTrace {
    /// One line per decision: the terminators, ends or not, the rule.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        self.decisions
            .iter()
            .map(|d| {
                let (label, role) = match d.next {
                    Some(_) => ("end   ", Role::Label),
                    None => ("no end", Role::Backtrack),
                };
                TraceLine::new(0, Some(d.span))
                    .part(role, label)
                    .part(Role::Detail, format!(" {:>9} ", d.span.to_string()))
                    .part(Role::Token, quote(d.span.slice(text)))
                    .part(Role::Detail, format!("  {}", d.rule))
            })
            .collect()
    }
}

impl Tokenizer for SentenceTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        match &self.inner {
            Some(inner) => SentenceTokenizer::mark(text, inner.tokenize(text)),
            None => {
                let spans = sentence_spans(text);
                let tokens: Vec<Token> = spans
                    .iter()
                    .map(|&span| {
                        Token::new(span, TokenKind::Other).with_origin(Origin::Pattern {
                            alternative: "sentence",
                        })
                    })
                    .collect();
                let ends = (0..tokens.len()).collect();
                Tokenization {
                    tokens,
                    sentence_ends: ends,
                }
            }
        }
    }

    /// The inner tokenizer's ids: sentence ends have none.
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        match &self.inner {
            Some(inner) => inner.ids_into(text, ids),
            // A sentence has no id.
            None => {
                ids.extend(sentence_spans(text).iter().map(|_| NO_ID));
                None
            }
        }
    }

    /// Over a tokenizer, its cuts: sentence ends are not kept across a cut (a piece's last
    /// token ends a sentence, as [`Tokenizer::cut_point`] allows), so a long line is cut where
    /// the tokens are. Sentences alone are never cut.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        self.inner.as_ref()?.cut_point(text, from)
    }

    fn cut_point_carried(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        self.inner
            .as_ref()?
            .cut_point_carried(text, start, from, carry)
    }

    /// The inner tokenizer's tokens of the piece, with the ends of the piece's sentences.
    fn tokenize_piece(&self, piece: &str, carry: &mut Carry) -> Tokenization {
        match &self.inner {
            Some(inner) => SentenceTokenizer::mark(piece, inner.tokenize_piece(piece, carry)),
            None => self.tokenize(piece),
        }
    }

    fn ids_into_piece(&self, piece: &str, carry: &mut Carry, ids: &mut Vec<u32>) -> Option<GaveUp> {
        match &self.inner {
            Some(inner) => inner.ids_into_piece(piece, carry, ids),
            None => self.ids_into(piece, ids),
        }
    }

    fn explain(&self, text: &str) -> Trace {
        let mut lines = self.trace(text).lines(text);
        match &self.inner {
            Some(inner) => {
                let trace = inner.explain(text);
                lines.push(
                    TraceLine::new(0, None)
                        .part(Role::Label, "tokens ")
                        .part(Role::Plain, inner.name()),
                );
                lines.extend(trace.lines().iter().cloned().map(|mut line| {
                    line.depth += 1;
                    line
                }));
                Trace::with_merges(lines, trace.merge_words().to_vec())
                    .with_merges_left_out(trace.merges_left_out())
            }
            None => Trace::new(lines),
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.inner.as_ref().map_or_else(Vec::new, |i| i.warnings())
    }

    fn sources(&self) -> Vec<std::path::PathBuf> {
        self.inner.as_ref().map_or_else(Vec::new, |i| i.sources())
    }

    fn decode(&self, ids: &[u32]) -> Result<String> {
        match &self.inner {
            Some(inner) => inner.decode(ids),
            None => Err(crate::Error::Unsupported {
                tokenizer: self.name.clone(),
                operation: "decode ids: sentences have no ids".to_string(),
            }),
        }
    }

    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        match &self.inner {
            Some(inner) => inner.detokenize(tokens),
            None => Ok(tokens.join(" ")),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn alone_every_sentence_is_a_token() {
        let tokenizer = crate::load("sent").unwrap();
        let text = "  Hi there. How are you?  Fine!";
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let forms = tokens.forms(text);
        assert_eq!(forms, ["Hi there.", "How are you?", "Fine!"]);
        assert_eq!(tokens.sentences().len(), 3);
    }

    #[test]
    fn over_a_word_tokenizer_marks_the_last_token_of_each_sentence() {
        let tokenizer = crate::load("sent:ptb").unwrap();
        assert_eq!(tokenizer.name(), "sent:ptb");
        let text = "Dr. Who said \"no.\" Then he left.";
        let tokens = tokenizer.tokenize(text);
        let ends: Vec<&str> = tokens
            .sentence_ends
            .iter()
            .map(|&i| tokens.tokens[i].form(text))
            .collect();
        assert_eq!(ends, ["''"]);
        let shown = tokenizer.explain(text).to_text();
        assert!(
            shown.contains("an abbreviation written before names"),
            "{shown}"
        );
        assert!(shown.contains("16..18 «.\"»  a period before"), "{shown}");
        assert!(shown.contains("tokens ptb"), "{shown}");
    }

    /// A long text is cut where the inner tokenizer cuts: the tokens are the whole text's,
    /// and each sentence end of the whole text is one in its piece or a piece's last token.
    #[test]
    fn cut_where_the_inner_tokenizer_cuts() {
        use crate::core::pieces::{Pieces, tokenize_in_pieces};
        let tokenizer = crate::load("sent:ptb").unwrap();
        let text = "Mr. Smith left early today. He said \"no.\" 1. one thing 2. another. Fine! ok";
        let whole = tokenizer.tokenize(text);
        let pieces = tokenize_in_pieces(tokenizer.as_ref(), text, 1);
        assert_eq!(pieces.tokens, whole.tokens);
        let starts: Vec<usize> = Pieces::new(tokenizer.as_ref(), text, 1)
            .map(|(at, _)| at)
            .collect();
        assert!(starts.len() > 5, "{starts:?}");
        let piece_last = |i: usize| {
            let next = whole.tokens.get(i + 1).map_or(text.len(), |t| t.span.start);
            starts
                .iter()
                .any(|&s| (whole.tokens[i].span.end..=next).contains(&s))
        };
        for end in &whole.sentence_ends {
            assert!(
                pieces.sentence_ends.contains(end) || piece_last(*end),
                "{}",
                whole.tokens[*end].form(text)
            );
        }
        let mut ids = Vec::new();
        assert!(tokenizer.ids_into(text, &mut ids).is_none());
        assert_eq!(ids.len(), whole.tokens.len());
    }

    #[test]
    fn inner_spec_keeps_its_options_and_errors() {
        assert_eq!(
            crate::load("sent:ptb?parens=1").unwrap().name(),
            "sent:ptb?parens=1"
        );
        let e = crate::load("sent:nope").err().unwrap().to_string();
        assert!(e.contains("unknown tokenizer kind `nope`"), "{e}");
    }
}
