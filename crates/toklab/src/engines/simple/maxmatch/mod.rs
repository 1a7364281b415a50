//! Maximum matching over a word list (Webster & Kit, in seeds/jurafsky-words-and-tokens.txt):
//! at each place take the longest dictionary word, scanning forward from the start or backward
//! from the end; a character no word covers is a token of its own. Running both directions and
//! comparing is the classic way to find segmentation ambiguities in unsegmented scripts, so
//! every token says whether it lies in a span where the two directions disagree.
//!
//! Spec: `maxmatch:DICT?dir=fwd|bwd` (default `fwd`). Whitespace separates runs and is dropped.

mod automaton;
mod dict;

pub use dict::WordList;

use std::path::PathBuf;

use crate::core::error::Result;
use crate::core::pieces::nearest_cut;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};
use crate::engines::simple::{Matcher, WhitespaceMatcher};

/// The scanning direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Left to right: the longest word starting at each point.
    Forward,
    /// Right to left: the longest word ending at each point.
    Backward,
}

impl Direction {
    /// The short name used in specs (`?dir=`) and labels.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Forward => "fwd",
            Direction::Backward => "bwd",
        }
    }
}

/// One matched piece: its span and whether the dictionary has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Where the piece is in the text.
    pub span: Span,
    /// Whether the word list has it (else it is a single unknown character).
    pub in_dictionary: bool,
}

/// Segments `text` in one direction: whitespace-separated runs, each matched greedily. The
/// longest word at every point comes from one automaton pass over the run, so the cost is
/// the run's length whatever the dictionary's longest word.
pub fn segment(words: &WordList, text: &str, direction: Direction) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for run in runs(text) {
        let bounds: Vec<usize> = run_bounds(text, run);
        let run_text = run.slice(text);
        // A match shorter than two characters is the one-character fallback anyway.
        let reach = |len: u32| (len as usize).max(1);
        match direction {
            Direction::Forward => {
                let starting = words.longest_starting(run_text);
                let mut i = 0;
                while i + 1 < bounds.len() {
                    let j = i + reach(starting[i]);
                    pieces.push(piece(words, text, bounds[i], bounds[j]));
                    i = j;
                }
            }
            Direction::Backward => {
                let ending = words.longest_ending(run_text);
                let start = pieces.len();
                let mut j = bounds.len() - 1;
                while j > 0 {
                    let i = j - reach(ending[j - 1]);
                    pieces.push(piece(words, text, bounds[i], bounds[j]));
                    j = i;
                }
                pieces[start..].reverse();
            }
        }
    }
    pieces
}

fn piece(words: &WordList, text: &str, start: usize, end: usize) -> Piece {
    Piece {
        span: Span::new(start, end),
        in_dictionary: words.contains(&text[start..end]),
    }
}

fn runs(text: &str) -> impl Iterator<Item = Span> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let skip = rest.len() - rest.trim_start().len();
        let start = at + skip;
        if start >= text.len() {
            return None;
        }
        let len = text[start..]
            .find(char::is_whitespace)
            .unwrap_or(text.len() - start);
        at = start + len;
        Some(Span::new(start, start + len))
    })
}

/// Byte offsets of the char boundaries of a run, both ends included.
fn run_bounds(text: &str, run: Span) -> Vec<usize> {
    let mut bounds: Vec<usize> = run
        .slice(text)
        .char_indices()
        .map(|(i, _)| run.start + i)
        .collect();
    bounds.push(run.end);
    bounds
}

/// The spans where the forward and backward segmentations disagree: between two places where
/// both have a boundary, if their pieces differ.
pub fn ambiguous_spans(forward: &[Piece], backward: &[Piece]) -> Vec<Span> {
    let (mut i, mut j) = (0, 0);
    let mut spans = Vec::new();
    while i < forward.len() && j < backward.len() {
        let start = forward[i].span.start.min(backward[j].span.start);
        let (mut fi, mut bj) = (i, j);
        let same = forward[i].span == backward[j].span;
        // Advance both until their ends meet.
        loop {
            let (fe, be) = (forward[fi].span.end, backward[bj].span.end);
            if fe == be {
                break;
            }
            if fe < be {
                fi += 1;
            } else {
                bj += 1;
            }
            if fi >= forward.len() || bj >= backward.len() {
                break;
            }
        }
        let fi = fi.min(forward.len() - 1);
        let bj = bj.min(backward.len() - 1);
        if !same {
            spans.push(Span::new(
                start,
                forward[fi].span.end.max(backward[bj].span.end),
            ));
        }
        i = fi + 1;
        j = bj + 1;
    }
    spans
}

/// The `maxmatch:` tokenizer.
pub struct MaxMatch {
    name: String,
    path: PathBuf,
    words: WordList,
    direction: Direction,
}

impl MaxMatch {
    /// A tokenizer over a loaded word list; `name` labels it and `path` is reported in messages.
    pub fn new(name: String, path: PathBuf, words: WordList, direction: Direction) -> MaxMatch {
        MaxMatch {
            name,
            path,
            words,
            direction,
        }
    }

    /// Both segmentations and the spans where they disagree (what `tokenize` chooses from).
    pub fn trace(&self, text: &str) -> MaxMatchTrace {
        let forward = segment(&self.words, text, Direction::Forward);
        let backward = segment(&self.words, text, Direction::Backward);
        let ambiguous = ambiguous_spans(&forward, &backward);
        MaxMatchTrace {
            direction: self.direction,
            forward,
            backward,
            ambiguous,
        }
    }
}

impl Tokenizer for MaxMatch {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let trace = self.trace(text);
        // Pieces and ambiguous spans both run left to right: one pointer through the spans.
        let mut ambiguous_spans = trace.ambiguous.iter().peekable();
        let tokens = trace
            .chosen()
            .iter()
            .map(|p| {
                let surface = p.span.slice(text);
                let kind = match TokenKind::classify(surface) {
                    TokenKind::Word if !p.in_dictionary => TokenKind::Unknown,
                    kind => kind,
                };
                while ambiguous_spans.next_if(|a| a.end <= p.span.start).is_some() {}
                let ambiguous = ambiguous_spans
                    .peek()
                    .is_some_and(|a| a.start <= p.span.start && p.span.end <= a.end);
                Token::new(p.span, kind).with_origin(Origin::MaxMatch {
                    direction: self.direction.name(),
                    in_dictionary: p.in_dictionary,
                    ambiguous,
                })
            })
            .collect();
        Tokenization::new(tokens)
    }

    /// Before whitespace, which ends a run (runs are segmented apart), or, in a run, where no
    /// word of the list spelled in the text reaches over ([`MaxMatch::uncrossed`]).
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let whitespace = |text: &str, from: usize| WhitespaceMatcher.cut_point(text, from.max(1));
        let uncrossed = |text: &str, from: usize| self.uncrossed(text, from);
        nearest_cut(text, from, &[&whitespace, &uncrossed])
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn warnings(&self) -> Vec<String> {
        self.words.warnings().to_vec()
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }

    /// Word spacing with the unspaced scripts it is meant for glued: the whitespace between runs
    /// is dropped, so spaces between runs of those scripts do not come back.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        Ok(crate::engines::simple::Joining::Words.join(tokens))
    }
}

impl MaxMatch {
    /// The first character boundary at or after `from`, inside `text`, that no word of the
    /// list spelled in `text` reaches over: each direction's walk steps from a point to the end
    /// of a word starting (or ending) there or one character on, so neither steps over it and
    /// both have a boundary there; the pieces on each side, and the stretches where the two
    /// walks disagree (which end where both have a boundary), are those of the whole run. A word
    /// over the boundary starts at most [`WordList::max_chars`] characters before it, so the
    /// search starts that far back, and a boundary counts only when every word that could reach
    /// over it lies inside `text`.
    fn uncrossed(&self, text: &str, from: usize) -> Option<usize> {
        let longest = self.words.max_chars().max(1);
        let from = crate::core::offsets::ceil_char_boundary(text, from.max(1));
        let start = text[..from]
            .char_indices()
            .rev()
            .nth(longest - 1)
            .map_or(0, |(i, _)| i);
        let window = &text[start..];
        let starting = self.words.longest_starting(window);
        let offsets: Vec<usize> = window.char_indices().map(|(i, _)| start + i).collect();
        let mut reach = 0;
        for (k, &len) in starting.iter().enumerate() {
            reach = reach.max(k + (len as usize).max(1));
            let cut = k + 1;
            if cut >= offsets.len() || cut + longest > offsets.len() + 1 {
                return None;
            }
            if reach <= cut && offsets[cut] >= from {
                return Some(offsets[cut]);
            }
        }
        None
    }
}

/// Both directions' pieces and where they disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxMatchTrace {
    /// The direction the tokenizer uses.
    pub direction: Direction,
    /// Left-to-right pieces.
    pub forward: Vec<Piece>,
    /// Right-to-left pieces.
    pub backward: Vec<Piece>,
    /// Stretches of text where the two directions disagree.
    pub ambiguous: Vec<Span>,
}

impl MaxMatchTrace {
    /// The pieces of the tokenizer's own direction.
    pub fn chosen(&self) -> &[Piece] {
        match self.direction {
            Direction::Forward => &self.forward,
            Direction::Backward => &self.backward,
        }
    }

    /// The trace as lines: per disagreement, both directions' pieces.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        // Pieces are in text order: the ones inside `span` are found by binary search, so
        // the trace costs its own length, not pieces × spans.
        let show = |pieces: &[Piece], span: Span| {
            let first = pieces.partition_point(|p| p.span.start < span.start);
            pieces[first..]
                .iter()
                .take_while(|p| p.span.end <= span.end)
                .map(|p| p.span.slice(text))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let mut lines = crate::core::trace::LineBudget::default();
        let mut next_ambiguous = self.ambiguous.iter().peekable();
        for p in self.chosen() {
            while let Some(a) = next_ambiguous.peek()
                && a.start <= p.span.start
            {
                lines.push_with(|| {
                    TraceLine::new(0, Some(**a))
                        .part(Role::Backtrack, "ambiguous ")
                        .part(Role::Token, quote(a.slice(text)))
                        .part(Role::Detail, "  fwd: ")
                        .part(Role::Plain, show(&self.forward, **a))
                        .part(Role::Detail, "   bwd: ")
                        .part(Role::Plain, show(&self.backward, **a))
                });
                next_ambiguous.next();
            }
            lines.push_with(|| {
                TraceLine::new(1, Some(p.span))
                    .part(Role::Label, format!("{} ", self.direction.name()))
                    .part(Role::Token, quote(p.span.slice(text)))
                    .part(
                        Role::Detail,
                        if p.in_dictionary {
                            "  in dictionary"
                        } else {
                            "  not in dictionary: one character"
                        },
                    )
            });
        }
        lines.into_lines()
    }
}

/// `maxmatch:DICT?dir=fwd|bwd`: longest dictionary words.
pub const KIND: Kind = Kind::new(
    "maxmatch",
    "maxmatch:DICT?dir=fwd|bwd",
    "longest dictionary words (one word per line), forward or backward; where the two directions disagree is marked ambiguous",
    load,
)
.with_options();

/// Loads `maxmatch:DICT?dir=fwd|bwd`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let direction = match spec.take_option("dir").as_deref() {
        None | Some("fwd") => Direction::Forward,
        Some("bwd") => Direction::Backward,
        Some(other) => {
            return Err(spec.bad(format!("option `dir` wants fwd or bwd, not `{other}`")));
        }
    };
    spec.finish(&["dir"])?;
    let path = spec.path();
    let words = WordList::load(&path)?;
    Ok(Box::new(MaxMatch::new(
        format!("maxmatch:{}?dir={}", spec.arg, direction.name()),
        path,
        words,
        direction,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn words(list: &str) -> WordList {
        WordList::parse(Path::new("t"), list.replace(' ', "\n").as_bytes()).unwrap()
    }

    fn pieces(text: &str, ps: &[Piece]) -> Vec<String> {
        ps.iter().map(|p| p.span.slice(text).to_string()).collect()
    }

    #[test]
    fn forward_and_backward_disagree_on_an_overlap() {
        let w = words("研究 研究生 生命 起源");
        let text = "研究生命起源";
        let f = segment(&w, text, Direction::Forward);
        let b = segment(&w, text, Direction::Backward);
        assert_eq!(pieces(text, &f), ["研究生", "命", "起源"]);
        assert_eq!(pieces(text, &b), ["研究", "生命", "起源"]);
        assert_eq!(ambiguous_spans(&f, &b), [Span::new(0, 12)]);
        assert!(!f[1].in_dictionary);
    }

    #[test]
    fn cuts_where_no_word_reaches_over_and_pieces_tokenize_as_the_whole() {
        let list = "研究 研究生 生命 起源 命起";
        for dir in [Direction::Forward, Direction::Backward] {
            let t = MaxMatch::new("m".into(), "t".into(), words(list), dir);
            assert_eq!(
                t.cut_point("研究生命起源xyz", 0),
                Some("研究生命起源".len())
            );
            assert_eq!(t.cut_point("研究生命 起源", 0), Some("研究生命".len()));
            assert_eq!(t.cut_point("研究生研", 0), None, "生命 may follow");
            assert_eq!(t.cut_point("研究生研究生命", 0), Some("研究生".len()));
            let text = "研究生命起源研究生生命研究 起源命起源起源x研究生命";
            let whole = t.tokenize(text);
            let pieces = crate::core::pieces::tokenize_in_pieces(&t, text, 1);
            assert_eq!(pieces.tokens, whole.tokens, "{dir:?}");
        }
    }

    #[test]
    fn whitespace_separates_runs() {
        let w = words("ab abc");
        let text = " abc  ab\tx";
        let f = segment(&w, text, Direction::Forward);
        assert_eq!(pieces(text, &f), ["abc", "ab", "x"]);
        let b = segment(&w, text, Direction::Backward);
        assert_eq!(pieces(text, &b), ["abc", "ab", "x"]);
        assert!(ambiguous_spans(&f, &b).is_empty());
        assert!(segment(&w, "", Direction::Backward).is_empty());
    }

    #[test]
    fn empty_dictionary_gives_characters() {
        let w = WordList::default();
        let f = segment(&w, "日本", Direction::Forward);
        assert_eq!(pieces("日本", &f), ["日", "本"]);
    }
}
