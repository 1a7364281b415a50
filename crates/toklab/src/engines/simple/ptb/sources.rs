//! Where each byte of the Treebank working string came from, kept as runs: a stretch of working
//! bytes copied from a stretch of the original, or bytes a rule wrote that all stand for the
//! same original span. A rewrite that matches little adds a few runs, so a long line the rules
//! barely touch (text without spaces or punctuation) costs a few runs instead of a record for
//! every byte.

use crate::core::token::Span;

/// Where one byte of the working string came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ByteSource {
    /// The original bytes it stands for; empty for padding a rule inserted.
    pub span: Span,
    /// The rule (index into the rule list) that wrote it, `None` for original text.
    pub rule: Option<usize>,
}

/// What the bytes of one run stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Original text: the run's first byte is original byte `start`, the next one the next.
    Text { start: usize },
    /// Written by rule `rule`, every byte standing for `span` (empty for padding).
    Written { span: Span, rule: usize },
}

/// A run: its first working byte and what its bytes stand for; it ends where the next begins.
#[derive(Clone, Copy, Debug)]
struct Run {
    at: usize,
    origin: Origin,
}

/// The sources of a working string of `len` bytes, as runs in order (the first at 0).
#[derive(Clone, Debug, Default)]
pub(super) struct Sources {
    runs: Vec<Run>,
    len: usize,
}

impl Sources {
    /// `len` bytes of original text, each standing for itself.
    pub fn original(len: usize) -> Sources {
        let mut sources = Sources::default();
        sources.push_origin(Origin::Text { start: 0 }, len);
        sources
    }

    /// How many working bytes it covers.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The source of working byte `i` (`i < len`).
    pub fn get(&self, i: usize) -> ByteSource {
        let run = self.runs[self.run_of(i)];
        match run.origin {
            Origin::Text { start } => ByteSource {
                span: Span::new(start + i - run.at, start + i - run.at + 1),
                rule: None,
            },
            Origin::Written { span, rule } => ByteSource {
                span,
                rule: Some(rule),
            },
        }
    }

    /// Appends `count` bytes that all have `source`: the bytes of one character a rule wrote,
    /// or one byte of original text copied alone (a space a rewrite put back).
    pub fn push(&mut self, source: ByteSource, count: usize) {
        let origin = match source.rule {
            Some(rule) => Origin::Written {
                span: source.span,
                rule,
            },
            None => {
                debug_assert!(count == 1, "a byte of text stands for itself alone");
                Origin::Text {
                    start: source.span.start,
                }
            }
        };
        self.push_origin(origin, count);
    }

    /// Appends the sources of `from`'s bytes `start..end`.
    pub fn extend_from(&mut self, from: &Sources, start: usize, end: usize) {
        if start >= end {
            return;
        }
        let first = from.run_of(start);
        for (k, run) in from.runs[first..].iter().enumerate() {
            if run.at >= end {
                break;
            }
            let run_end = from.runs.get(first + k + 1).map_or(from.len, |r| r.at);
            let (a, b) = (start.max(run.at), end.min(run_end));
            let origin = match run.origin {
                Origin::Text { start } => Origin::Text {
                    start: start + a - run.at,
                },
                written => written,
            };
            self.push_origin(origin, b - a);
        }
    }

    /// Puts one byte written by `rule` standing for nothing at each end: the runs move along
    /// in place.
    pub fn pad(&mut self, rule: usize) {
        let space = Origin::Written {
            span: Span::default(),
            rule,
        };
        for run in &mut self.runs {
            run.at += 1;
        }
        self.runs.insert(
            0,
            Run {
                at: 0,
                origin: space,
            },
        );
        self.len += 1;
        self.merge_second();
        self.push_origin(space, 1);
    }

    /// The smallest original span covering the non-empty sources of bytes `start..end`.
    pub fn covering(&self, start: usize, end: usize) -> Span {
        if start >= end {
            return Span::default();
        }
        let first = self.run_of(start);
        let runs = self.runs[first..].iter().enumerate();
        cover(runs.take_while(|(_, run)| run.at < end).map(|(k, run)| {
            let run_end = self.runs.get(first + k + 1).map_or(self.len, |r| r.at);
            match run.origin {
                Origin::Text { start: s } => Span::new(
                    s + start.max(run.at) - run.at,
                    s + end.min(run_end) - run.at,
                ),
                Origin::Written { span, .. } => span,
            }
        }))
    }

    /// The index of the run holding byte `i`.
    fn run_of(&self, i: usize) -> usize {
        debug_assert!(i < self.len, "byte {i} past {} sources", self.len);
        self.runs.partition_point(|run| run.at <= i) - 1
    }

    /// Appends `count` bytes standing for `origin`, going on with the last run when they
    /// continue it.
    fn push_origin(&mut self, origin: Origin, count: usize) {
        if count == 0 {
            return;
        }
        let goes_on = self
            .runs
            .last()
            .is_some_and(|last| continues(last.origin, self.len - last.at, origin));
        if !goes_on {
            self.runs.push(Run {
                at: self.len,
                origin,
            });
        }
        self.len += count;
    }

    /// Joins the second run to the first when it continues it (after padding at the front).
    fn merge_second(&mut self) {
        if let [first, second, ..] = self.runs[..]
            && continues(first.origin, second.at - first.at, second.origin)
        {
            self.runs.remove(1);
        }
    }
}

/// The smallest span covering the non-empty `spans` (empty when none is).
pub(super) fn cover(spans: impl IntoIterator<Item = Span>) -> Span {
    let mut spans = spans.into_iter().filter(|s| !s.is_empty());
    let Some(first) = spans.next() else {
        return Span::default();
    };
    spans.fold(first, |acc, s| {
        Span::new(acc.start.min(s.start), acc.end.max(s.end))
    })
}

/// Whether bytes standing for `next` go on a run of `len` bytes standing for `run`.
fn continues(run: Origin, len: usize, next: Origin) -> bool {
    match (run, next) {
        (Origin::Text { start }, Origin::Text { start: next }) => start + len == next,
        (Origin::Written { .. }, Origin::Written { .. }) => run == next,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_byte(sources: &Sources) -> Vec<ByteSource> {
        (0..sources.len()).map(|i| sources.get(i)).collect()
    }

    #[test]
    fn copies_padding_and_written_bytes_keep_every_byte_source() {
        let text = Sources::original(6);
        let mut copy = Sources::default();
        copy.extend_from(&text, 1, 3);
        let quote = ByteSource {
            span: Span::new(3, 4),
            rule: Some(2),
        };
        copy.push(quote, 2);
        copy.extend_from(&text, 4, 6);
        copy.pad(5);
        let space = ByteSource {
            span: Span::default(),
            rule: Some(5),
        };
        let own = |i| ByteSource {
            span: Span::new(i, i + 1),
            rule: None,
        };
        assert_eq!(
            every_byte(&copy),
            [space, own(1), own(2), quote, quote, own(4), own(5), space]
        );
        // Two runs of text that meet in the original make one run.
        assert_eq!(copy.runs.len(), 5);
        assert_eq!(copy.covering(0, 8), Span::new(1, 6));
        assert_eq!(copy.covering(2, 5), Span::new(2, 4));
        assert_eq!(copy.covering(7, 8), Span::default());
    }

    #[test]
    fn a_long_text_padded_and_copied_stays_a_few_runs() {
        let text = Sources::original(1 << 20);
        let mut copy = Sources::default();
        copy.extend_from(&text, 0, text.len());
        copy.pad(1);
        copy.pad(1);
        assert_eq!(copy.runs.len(), 3);
        assert_eq!(copy.get(2).span, Span::new(0, 1));
    }
}
