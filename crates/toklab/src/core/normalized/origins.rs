//! Where each byte of an edited text came from, held as runs rather than a range per byte: a
//! 20 MB line in which one no-break space became a space is three runs, not 320 MB of ranges.
//!
//! Two kinds of run cover every byte:
//! - a *shifted* run is text whose characters each stand for one original character of the
//!   same length, in order (unchanged text, or a character replaced by one of equal width): the
//!   character holding byte `b` came from the original range shifted by the same amount;
//! - a *fixed* run is bytes that all came from one original range (a character made from
//!   several, or several made from one, or inserted text with an empty range).
//!
//! Appending merges with the last run where the mapping continues it, so a mapping has one
//! form and two values compare equal exactly when they map every byte alike.

use std::ops::Range;

/// One run, from normalized byte `start` up to the next run's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: usize,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The run's first byte is original byte `at`; later bytes follow it.
    Shifted { at: usize },
    /// Every byte of the run came from this original range.
    Fixed { from: usize, to: usize },
}

/// The original range of every byte of an edited text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Origins {
    runs: Vec<Run>,
    len: usize,
}

impl Origins {
    /// Appends `len` bytes whose characters each came from the original character of the same
    /// length at the same distance from `at`.
    pub(super) fn push_shifted(&mut self, at: usize, len: usize) {
        if len == 0 {
            return;
        }
        match self.runs.last() {
            Some(&Run {
                start,
                kind: Kind::Shifted { at: last },
            }) if last + (self.len - start) == at => {}
            _ => self.runs.push(Run {
                start: self.len,
                kind: Kind::Shifted { at },
            }),
        }
        self.len += len;
    }

    /// Appends `len` bytes that all came from original range `origin`.
    pub(super) fn push_fixed(&mut self, origin: (usize, usize), len: usize) {
        if len == 0 {
            return;
        }
        let (from, to) = origin;
        match self.runs.last() {
            Some(&Run {
                kind: Kind::Fixed { from: f, to: t },
                ..
            }) if (f, t) == origin => {}
            _ => self.runs.push(Run {
                start: self.len,
                kind: Kind::Fixed { from, to },
            }),
        }
        self.len += len;
    }

    /// Appends the text `written`, made from original range `origin`: one character as long as
    /// its range is shifted, anything else fixed.
    pub(super) fn push_written(&mut self, origin: (usize, usize), written: &str) {
        let one_char = written
            .chars()
            .next()
            .is_some_and(|c| c.len_utf8() == written.len());
        if one_char && origin.1 - origin.0 == written.len() {
            self.push_shifted(origin.0, written.len());
        } else {
            self.push_fixed(origin, written.len());
        }
    }

    /// Appends the mapping of bytes `range` of `other`.
    pub(super) fn push_from(&mut self, other: &Origins, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        let first = other.run_index(range.start);
        for (i, run) in other.runs[first..].iter().enumerate() {
            let end = other.run_end(first + i);
            let (from, to) = (run.start.max(range.start), end.min(range.end));
            if from >= to {
                break;
            }
            match run.kind {
                Kind::Shifted { at } => self.push_shifted(at + (from - run.start), to - from),
                Kind::Fixed { from: f, to: t } => self.push_fixed((f, t), to - from),
            }
        }
    }

    /// The original range of the character holding byte `at` of `text` (the text these
    /// origins map).
    pub(super) fn get(&self, at: usize, text: &str) -> (usize, usize) {
        let run = &self.runs[self.run_index(at)];
        match run.kind {
            Kind::Fixed { from, to } => (from, to),
            Kind::Shifted { at: base } => {
                let mut start = at;
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let len = text[start..].chars().next().map_or(1, char::len_utf8);
                let start = base + (start - run.start);
                (start, start + len)
            }
        }
    }

    /// The mapping of bytes `range` alone.
    pub(super) fn slice(&self, range: Range<usize>) -> Origins {
        let mut out = Origins::default();
        out.push_from(self, range);
        out
    }

    /// Removes the first `len` bytes.
    pub(super) fn drain_front(&mut self, len: usize) {
        *self = self.slice(len.min(self.len)..self.len);
    }

    /// Keeps the first `len` bytes.
    pub(super) fn truncate(&mut self, len: usize) {
        if len < self.len {
            *self = self.slice(0..len);
        }
    }

    /// Inserts `len` bytes from original range `origin` before the first.
    pub(super) fn prepend_fixed(&mut self, origin: (usize, usize), len: usize) {
        let mut out = Origins::default();
        out.push_fixed(origin, len);
        out.push_from(self, 0..self.len);
        *self = out;
    }

    /// The run holding byte `at` (`at < len`).
    fn run_index(&self, at: usize) -> usize {
        self.runs.partition_point(|run| run.start <= at) - 1
    }

    /// Where run `i` ends.
    fn run_end(&self, i: usize) -> usize {
        self.runs.get(i + 1).map_or(self.len, |next| next.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-byte ranges the runs stand for, as the plain representation would hold them.
    fn per_byte(origins: &Origins, text: &str) -> Vec<(usize, usize)> {
        (0..text.len()).map(|at| origins.get(at, text)).collect()
    }

    #[test]
    fn a_replaced_space_in_a_long_text_is_three_runs() {
        let text = "ab cd";
        let mut origins = Origins::default();
        origins.push_shifted(0, 2);
        origins.push_fixed((2, 4), 1); // a two-byte no-break space became a space
        origins.push_shifted(4, 2);
        assert_eq!(origins.runs.len(), 3);
        assert_eq!(
            per_byte(&origins, text),
            [(0, 1), (1, 2), (2, 4), (4, 5), (5, 6)]
        );
    }

    #[test]
    fn shifted_runs_give_each_multibyte_character_its_range() {
        let text = "é€x";
        let mut origins = Origins::default();
        origins.push_shifted(10, text.len());
        assert_eq!(
            per_byte(&origins, text),
            [(10, 12), (10, 12), (12, 15), (12, 15), (12, 15), (15, 16)]
        );
    }

    #[test]
    fn continuing_runs_merge_and_slices_keep_the_mapping() {
        let text = "abcdef";
        let mut origins = Origins::default();
        origins.push_shifted(0, 2);
        origins.push_shifted(2, 2);
        origins.push_fixed((4, 9), 1);
        origins.push_fixed((4, 9), 1);
        assert_eq!(origins.runs.len(), 2);
        let whole = per_byte(&origins, text);
        for a in 0..=text.len() {
            for b in a..=text.len() {
                let slice = origins.slice(a..b);
                assert_eq!(per_byte(&slice, &text[a..b]), whole[a..b], "{a}..{b}");
            }
        }
        let mut cut = origins.clone();
        cut.drain_front(3);
        cut.truncate(2);
        assert_eq!(cut, origins.slice(3..5));
        cut.prepend_fixed((0, 0), 2);
        assert_eq!(per_byte(&cut, "--de"), [(0, 0), (0, 0), (3, 4), (4, 9)]);
    }
}
