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

/// Runs a block holds: a lookup scans at most this many, and each block's index entry costs
/// `24 / BLOCK_RUNS` bytes a run.
const BLOCK_RUNS: usize = 16;

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

/// Where a block of encoded runs starts: a lookup finds its block by `start`, then decodes
/// from `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    /// The normalized offset of the block's first run.
    start: usize,
    /// The original offset the first run's origin is encoded relative to.
    origin: usize,
    /// Where the block's first run is in the encoded bytes.
    offset: usize,
}

/// The original range of every byte of an edited text.
///
/// Runs are stored as a few bytes each, since a text whose normalizing touched every word
/// (SentencePiece's `▁` for each space) has two runs a word. Each run is encoded relative to
/// the one before: its length, and where its origin starts measured from where the previous
/// run's origin ended, so a run whose origin follows on (the usual case) and is short takes one
/// byte. Every [`BLOCK_RUNS`] runs start a block whose absolute offsets are kept in `blocks`,
/// so a lookup is a binary search over blocks and a scan of one. The last run stays decoded,
/// since appending may still lengthen it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Origins {
    blocks: Vec<Block>,
    /// The runs before the last, encoded (see [`encode`]).
    bytes: Vec<u8>,
    /// How many runs the last block holds.
    block_runs: usize,
    /// Where the origin of the last encoded run ends: the next one is encoded relative to it.
    end: usize,
    /// The last run, not encoded yet.
    last: Option<Run>,
    len: usize,
}

impl Origins {
    /// Appends `len` bytes whose characters each came from the original character of the same
    /// length at the same distance from `at`.
    pub(super) fn push_shifted(&mut self, at: usize, len: usize) {
        if len == 0 {
            return;
        }
        match self.last {
            Some(Run {
                start,
                kind: Kind::Shifted { at: last },
            }) if last + (self.len - start) == at => {}
            _ => self.push_run(Kind::Shifted { at }),
        }
        self.len += len;
    }

    /// Appends `len` bytes that all came from original range `origin`.
    pub(super) fn push_fixed(&mut self, origin: (usize, usize), len: usize) {
        if len == 0 {
            return;
        }
        let (from, to) = origin;
        match self.last {
            Some(Run {
                kind: Kind::Fixed { from: f, to: t },
                ..
            }) if (f, t) == origin => {}
            _ => self.push_run(Kind::Fixed { from, to }),
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
        let (mut run, mut end, mut rest) = other.seek(range.start);
        loop {
            let (from, to) = (run.start.max(range.start), end.min(range.end));
            if from >= to {
                break;
            }
            match run.kind {
                Kind::Shifted { at } => self.push_shifted(at + (from - run.start), to - from),
                Kind::Fixed { from: f, to: t } => self.push_fixed((f, t), to - from),
            }
            match rest.next() {
                Some(next) => (run, end) = next,
                None => break,
            }
        }
    }

    /// The original range of the character holding byte `at` of `text` (the text these
    /// origins map).
    pub(super) fn get(&self, at: usize, text: &str) -> (usize, usize) {
        let (run, _, _) = self.seek(at);
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

    /// From the character starting at byte `at` of `text` on, each character's offset,
    /// itself and original range: what [`Self::get`] gives for each, found by walking the runs
    /// in order rather than looking each up.
    pub(super) fn chars<'a>(
        &'a self,
        text: &'a str,
        at: usize,
    ) -> impl Iterator<Item = (usize, char, (usize, usize))> + 'a {
        let mut runs = (at < self.len).then(|| self.seek(at));
        text[at..].char_indices().map(move |(i, c)| {
            let at = at + i;
            let (run, end, rest) = runs.as_mut().expect("a character inside the mapped text");
            while *end <= at {
                (*run, *end) = rest.next().expect("a character inside the mapped text");
            }
            let range = match run.kind {
                Kind::Fixed { from, to } => (from, to),
                Kind::Shifted { at: base } => {
                    let start = base + (at - run.start);
                    (start, start + c.len_utf8())
                }
            };
            (at, c, range)
        })
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

    /// Gives back the room reserved for growth, once the map is built.
    pub(super) fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.bytes.shrink_to_fit();
    }

    /// Starts a run of `kind` at the end, encoding the one before (whose length is now known).
    fn push_run(&mut self, kind: Kind) {
        let run = Run {
            start: self.len,
            kind,
        };
        let Some(last) = self.last.replace(run) else {
            return;
        };
        if self.blocks.is_empty() || self.block_runs == BLOCK_RUNS {
            self.blocks.push(Block {
                start: last.start,
                origin: self.end,
                offset: self.bytes.len(),
            });
            self.block_runs = 0;
        }
        self.block_runs += 1;
        self.end = encode(&mut self.bytes, last.kind, self.len - last.start, self.end);
    }

    /// The run holding byte `at` (`at < len`), where it ends, and the runs after it.
    fn seek(&self, at: usize) -> (Run, usize, Runs<'_>) {
        let mut runs = Runs {
            bytes: &self.bytes,
            offset: self.bytes.len(),
            start: 0,
            end: 0,
            last: self.last,
            len: self.len,
        };
        if self.last.is_none_or(|last| last.start > at) {
            let block = &self.blocks[self.blocks.partition_point(|block| block.start <= at) - 1];
            (runs.offset, runs.start, runs.end) = (block.offset, block.start, block.origin);
        }
        loop {
            // Runs of one byte before `at` are passed over without being decoded: their tag
            // holds their length and their origin's width.
            while let Some(&tag) = runs.bytes.get(runs.offset)
                && tag < GENERAL
            {
                let fixed = tag >= FIXED;
                let len = usize::from(if fixed { tag & 7 } else { tag });
                if at < runs.start + len {
                    break;
                }
                runs.start += len;
                runs.end += usize::from(if fixed { tag >> 3 & 7 } else { tag });
                runs.offset += 1;
            }
            let (run, end) = runs.next().expect("a byte inside the mapped text");
            if at < end {
                return (run, end, runs);
            }
        }
    }

    /// How many runs the map holds.
    #[cfg(test)]
    fn runs(&self) -> usize {
        match self.blocks.first() {
            Some(block) => self.seek(block.start).2.count() + 1,
            None => usize::from(self.last.is_some()),
        }
    }

    /// The bytes of memory the map holds (its capacity, not only what is used).
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>() + self.bytes.capacity()
    }
}

/// The runs from some point on, decoded in order, each with where it ends.
struct Runs<'a> {
    bytes: &'a [u8],
    /// Where the next encoded run is.
    offset: usize,
    /// Where the next run starts.
    start: usize,
    /// Where the previous run's origin ended.
    end: usize,
    /// The run after the encoded ones, until it is given.
    last: Option<Run>,
    len: usize,
}

impl Iterator for Runs<'_> {
    type Item = (Run, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(Run, usize)> {
        if self.offset >= self.bytes.len() {
            return self.last.take().map(|last| (last, self.len));
        }
        let (kind, len) = decode(self.bytes, &mut self.offset, self.end);
        let run = Run {
            start: self.start,
            kind,
        };
        self.start += len;
        self.end = origin_end(kind, len);
        Some((run, self.start))
    }
}

/// Where the origin of a run of `kind` and `len` bytes ends.
fn origin_end(kind: Kind, len: usize) -> usize {
    match kind {
        Kind::Shifted { at } => at + len,
        Kind::Fixed { to, .. } => to,
    }
}

/// Tags of an encoded run's first byte: below [`GENERAL`] one byte holds the whole run, whose
/// origin starts where the previous one's ended (`end`): `00LLLLLL`, a shifted run of `L`
/// bytes (1 to 63), or `01WWWLLL`, a fixed run of `L` bytes (1 to 7) from a range `W` bytes
/// wide. Otherwise `1000000K` (`K` set for fixed) is followed by varints: the length, the
/// zigzagged distance of the origin's start from `end`, and for a fixed run its width.
const FIXED: u8 = 0x40;
const GENERAL: u8 = 0x80;

/// Appends run `kind` of `len` bytes to `bytes`, relative to where the previous run's origin
/// ended (`end`), and returns where this run's ends. Offsets are kept whole (wrapping
/// differences, varints of any size), so texts past 4 GB lose nothing.
fn encode(bytes: &mut Vec<u8>, kind: Kind, len: usize, end: usize) -> usize {
    match kind {
        Kind::Shifted { at } if at == end && len < 64 => bytes.push(len as u8),
        Kind::Fixed { from, to } if from == end && len < 8 && to.wrapping_sub(from) < 8 => {
            bytes.push(FIXED | ((to - from) as u8) << 3 | len as u8);
        }
        Kind::Shifted { at } => {
            bytes.push(GENERAL);
            put_varint(bytes, len);
            put_varint(bytes, zigzag(at.wrapping_sub(end)));
        }
        Kind::Fixed { from, to } => {
            bytes.push(GENERAL | 1);
            put_varint(bytes, len);
            put_varint(bytes, zigzag(from.wrapping_sub(end)));
            put_varint(bytes, to.wrapping_sub(from));
        }
    }
    origin_end(kind, len)
}

/// The run encoded at `*offset` (moved past it) and its length; `end` as for [`encode`].
#[inline(always)]
fn decode(bytes: &[u8], offset: &mut usize, end: usize) -> (Kind, usize) {
    let tag = bytes[*offset];
    *offset += 1;
    if tag < FIXED {
        return (Kind::Shifted { at: end }, usize::from(tag));
    }
    if tag < GENERAL {
        let width = usize::from(tag >> 3 & 7);
        let kind = Kind::Fixed {
            from: end,
            to: end + width,
        };
        return (kind, usize::from(tag & 7));
    }
    let len = get_varint(bytes, offset);
    let from = end.wrapping_add(unzigzag(get_varint(bytes, offset)));
    let kind = match tag & 1 {
        0 => Kind::Shifted { at: from },
        _ => Kind::Fixed {
            from,
            to: from.wrapping_add(get_varint(bytes, offset)),
        },
    };
    (kind, len)
}

/// Appends `value` seven bits a byte, low bits first, the high bit set on all but the last.
fn put_varint(bytes: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        bytes.push(value as u8 | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

/// The varint at `*offset` (moved past it).
fn get_varint(bytes: &[u8], offset: &mut usize) -> usize {
    let (mut value, mut shift) = (0, 0);
    loop {
        let byte = bytes[*offset];
        *offset += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return value;
        }
        shift += 7;
    }
}

/// A wrapping difference as a varint-friendly number: small either way is small.
fn zigzag(delta: usize) -> usize {
    (delta << 1) ^ ((delta as isize >> (usize::BITS - 1)) as usize)
}

/// The difference [`zigzag`] was given.
fn unzigzag(value: usize) -> usize {
    (value >> 1) ^ 0usize.wrapping_sub(value & 1)
}

#[cfg(test)]
#[path = "origins_tests.rs"]
mod tests;
