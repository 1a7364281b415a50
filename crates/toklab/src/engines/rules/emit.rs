//! From the engine's tokens of each line to the span model: spans of the text, forms, kinds
//! and provenance. One walk serves `tokenize` and `ids_into`: a rules token has no id, so the
//! ids of a text need only which tokens utoken writes and where the depth limit cut, not
//! token objects, and a huge line then costs no more than the engine's own work.
//!
//! Provenance is shared: tokens made alike (the same step, type, sem-class, entry and cut)
//! hold one [`RuleOrigin`], so a line of a million words does not allocate a million
//! provenance records.

use std::mem::{Discriminant, discriminant};
use std::sync::Arc;

use super::normalize::{self, Sentence};
use super::origin::{ChartType, RuleOrigin, Step};
use super::split::Run;
use super::split::{self, Tok};
use super::{RulesTokenizer, text_lines};
use crate::core::token::{GaveUp, Origin, Span, Token, Tokenization};
use crate::core::tokenizer::NO_ID;

/// What the walk hands over for each token utoken writes.
pub(super) struct Kept<'a> {
    /// Where the token is in the text.
    pub span: Span,
    /// The output form when it differs from the text under `span`.
    pub rewritten: Option<&'a str>,
    /// The engine's token.
    pub tok: &'a Tok,
    /// Whether it is the first token the depth limit left to the whitespace split.
    pub cut: bool,
}

/// Where the walk's tokens go.
pub(super) trait Sink {
    /// One token, in text order.
    fn token(&mut self, kept: Kept<'_>);
    /// The end of a line that had at least one token (utoken's sentence end).
    fn line_end(&mut self);
}

/// How many characters of a depth-limited line's rest are split on whitespace at a time.
const TAIL_PART: usize = 1 << 16;

/// How many tokens [`Parts`] hands over at a time.
pub(super) const PART_TOKENS: usize = 1 << 12;

impl RulesTokenizer {
    /// Hands `sink` every token utoken writes for `text`, line by line, in order. The rest of a
    /// line that the depth limit leaves to the whitespace split is split a part at a time, so a
    /// huge line's tokens are never all held here.
    pub(super) fn walk(&self, text: &str, sink: &mut dyn Sink) {
        self.walk_deferring(text, sink, true);
    }

    /// [`RulesTokenizer::walk`]; with `defer` false the run itself splits the rest of a line
    /// past the depth limit, whole (what the tests compare the parts with).
    fn walk_deferring(&self, text: &str, sink: &mut dyn Sink, defer: bool) {
        let mut last_end: Option<usize> = None;
        for (offset, line) in text_lines(text) {
            let (sentence, _) = normalize::normalize(line, false);
            let mut run = Run::new(&self.rules, &sentence, None);
            run.defer_tail = defer;
            let (toks, depth_cut, tail) = run.run_deferring();
            let mut walk = LineWalk {
                text,
                offset,
                sentence: &sentence,
                depth_cut,
                index: 0,
                any: false,
                last_end: &mut last_end,
            };
            let at = tail.map_or(toks.len(), |t| t.at);
            for tok in &toks[..at] {
                walk.keep(tok, sink);
            }
            if let Some(tail) = tail {
                let n = sentence.chars.len();
                let mut part = Vec::new();
                let mut from = tail.start;
                while from < n {
                    let to = run.space_at_or_after((from + TAIL_PART).min(n));
                    part.clear();
                    run.space_split(from, to, &mut part);
                    for tok in &part {
                        walk.keep(tok, sink);
                    }
                    from = to;
                }
            }
            for tok in &toks[at..] {
                walk.keep(tok, sink);
            }
            if walk.any {
                sink.line_end();
            }
        }
    }
}

/// The walk through one line's tokens.
struct LineWalk<'w, 't> {
    text: &'w str,
    /// Where the line starts in `text`.
    offset: usize,
    sentence: &'w Sentence<'t>,
    /// The index of the first token the depth limit cut, counting every token of the line.
    depth_cut: Option<usize>,
    /// The index of the next token.
    index: usize,
    /// Whether the line had a token utoken writes.
    any: bool,
    /// Where the last token written (of this line or an earlier one) ends.
    last_end: &'w mut Option<usize>,
}

impl LineWalk<'_, '_> {
    /// Hands `tok` to `sink` as a token of the text, unless utoken leaves it out.
    fn keep(&mut self, tok: &Tok, sink: &mut dyn Sink) {
        let index = self.index;
        self.index += 1;
        let sentence = self.sentence;
        let (s, e) = (tok.start as usize, tok.end as usize);
        let (start, end) = sentence.span(s, e);
        let mut span = Span::new(self.offset + start, self.offset + end);
        // utoken's contraction mapping can, on odd entries, place a token before the end of
        // the previous one; spans stay ordered.
        if let Some(prev) = *self.last_end
            && span.start < prev
        {
            span.start = prev;
            span.end = span.end.max(span.start);
        }
        let surface = span.slice(self.text);
        let normalized = || &sentence.text()[sentence.byte_at(s)..sentence.byte_at(e.max(s))];
        let form = tok.surf.as_deref().unwrap_or_else(normalized);
        if form.is_empty() {
            // utoken leaves empty forms (an entry with an empty target) out of its output
            // line.
            return;
        }
        *self.last_end = Some(span.end);
        self.any = true;
        sink.token(Kept {
            span,
            rewritten: (form != surface).then_some(form),
            tok,
            cut: self.depth_cut == Some(index),
        });
    }
}

/// The key of a shared provenance: everything a [`RuleOrigin`] is made of, with the entry by
/// index and the shared strings (a chart tag, a semantic class) by address. Building it
/// touches no reference count: the rules' strings are shared by every thread tokenizing with
/// them, and a count changed by two cores at once moves its cache line between them at every
/// token (`--threads 2` cost 11% more CPU than one thread on 16 MB of English). Two equal
/// strings at different addresses only make two equal records.
type OriginKey = (
    Step,
    Discriminant<ChartType>,
    usize,
    usize,
    Option<u32>,
    bool,
);

/// The address of a shared string, 0 for none.
fn address(text: Option<&Arc<str>>) -> usize {
    text.map_or(0, |text| Arc::as_ptr(text).cast::<u8>() as usize)
}

/// Builds the [`Tokenization`]: tokens with their provenance, and sentence ends.
pub(super) struct Tokens<'r> {
    rules: &'r RulesTokenizer,
    /// The provenance records made so far, shared by the tokens made alike: a record (and the
    /// shared strings it holds) is made once per text, not once per token.
    origins: rustc_hash::FxHashMap<OriginKey, Origin>,
    pub out: Tokenization,
}

impl<'r> Tokens<'r> {
    /// The tokens of a text, made with `rules`.
    pub fn new(rules: &'r RulesTokenizer) -> Tokens<'r> {
        Tokens {
            rules,
            origins: rustc_hash::FxHashMap::default(),
            out: Tokenization::default(),
        }
    }

    /// The tokenization, with the last token's sentence end left implicit.
    pub fn finish(mut self) -> Tokenization {
        let out = &mut self.out;
        if out.sentence_ends.last() == Some(&(out.tokens.len().wrapping_sub(1))) {
            out.sentence_ends.pop();
        }
        self.out
    }

    /// The provenance of `tok`, shared with every token made alike.
    fn origin(&mut self, tok: &Tok, cut: bool) -> Origin {
        let rules = self.rules;
        let tag = match &tok.chart_type {
            ChartType::Tag(tag) => Some(tag),
            _ => None,
        };
        let key = (
            tok.step,
            discriminant(&tok.chart_type),
            address(tag),
            address(tok.sem_class.as_ref()),
            tok.entry,
            cut,
        );
        let make = || {
            Origin::detail(RuleOrigin {
                gave_up: cut.then_some(split::DEPTH_CUT),
                step: tok.step,
                chart_type: tok.chart_type.clone(),
                sem_class: tok.sem_class.clone(),
                entry: tok
                    .entry
                    .map(|id| rules.rules.res.entries[id as usize].loc.clone()),
            })
        };
        self.origins.entry(key).or_insert_with(make).clone()
    }
}

impl Sink for Tokens<'_> {
    fn token(&mut self, kept: Kept<'_>) {
        let tok = kept.tok;
        let mut token = Token::new(kept.span, tok.chart_type.kind(tok.sem_class.as_deref()))
            .with_origin(self.origin(tok, kept.cut));
        if let Some(form) = kept.rewritten {
            token = token.with_form(form);
        }
        self.out.tokens.push(token);
    }

    fn line_end(&mut self) {
        let ends = &mut self.out.sentence_ends;
        ends.push(self.out.tokens.len() - 1);
    }
}

/// Appends [`NO_ID`] for each token and keeps where the depth limit cut first, as
/// [`Tokenization::gave_up`] reports it.
pub(super) struct Ids<'a> {
    pub ids: &'a mut Vec<u32>,
    pub gave_up: Option<GaveUp>,
}

impl Sink for Ids<'_> {
    fn token(&mut self, kept: Kept<'_>) {
        self.ids.push(NO_ID);
        if kept.cut && self.gave_up.is_none() {
            self.gave_up = Some(GaveUp {
                span: kept.span,
                reason: split::DEPTH_CUT,
                as_reference: true,
            });
        }
    }

    fn line_end(&mut self) {}
}

/// Hands the tokens to a caller [`PART_TOKENS`] at a time, without sentence ends.
pub(super) struct Parts<'r, 'f> {
    tokens: Tokens<'r>,
    each: &'f mut dyn FnMut(Tokenization),
}

impl<'r, 'f> Parts<'r, 'f> {
    /// Parts of a text whose tokens may be many: they share provenance.
    pub fn new(rules: &'r RulesTokenizer, each: &'f mut dyn FnMut(Tokenization)) -> Self {
        Parts {
            tokens: Tokens::new(rules),
            each,
        }
    }

    /// Hands over the last part, if it has tokens.
    pub fn finish(mut self) {
        if !self.tokens.out.tokens.is_empty() {
            (self.each)(std::mem::take(&mut self.tokens.out));
        }
    }
}

impl Sink for Parts<'_, '_> {
    fn token(&mut self, kept: Kept<'_>) {
        self.tokens.token(kept);
        if self.tokens.out.tokens.len() >= PART_TOKENS {
            (self.each)(std::mem::take(&mut self.tokens.out));
        }
    }

    fn line_end(&mut self) {}
}

#[cfg(test)]
#[path = "emit_tests.rs"]
mod tests;
