//! Normalized text that remembers, for every byte, the range of the original text it came
//! from, so a token found in the normalized text maps back to a span of the text the user
//! gave, whatever the normalizers replaced, expanded, merged, removed or inserted.
//!
//! The design follows HuggingFace tokenizers' `NormalizedString`: the original, the
//! normalized text, and per normalized byte an original byte range (all bytes of one
//! character share their character's range). Every operation is a method that rewrites the
//! text and its ranges together, so normalizers chain: each works on what the previous one
//! left, and the ranges still point into the first original.
//!
//! Three rules keep the map useful:
//! - text made from several original characters (`&nbsp;` → U+00A0) gets the union of their
//!   ranges; characters made from one original character (`ﬁ` → `fi`, NFD) all get its
//!   range, and the last of them *owns* it ([`NormalizedString::original_span_owned`]);
//! - removed text leaves a gap between the ranges of its neighbours: it belongs to no
//!   character, but [`NormalizedString::original_offset`] gives it to the character before
//!   (SentencePiece's convention);
//! - stripped text (at either end) falls outside the *extent*, the part of the original the
//!   normalized text stands for; inserted text gets an empty range at the edge of the extent.
//!
//! While nothing has changed the value borrows the original and allocates nothing.

mod charsmap;
mod ops;
mod origins;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::ops::Range;

use crate::core::token::Span;
use origins::Origins;

pub use charsmap::{CharsMap, CharsMapError};
pub use ops::Form;

/// Text after normalization, aligned to the original text it was made from.
///
/// ```
/// use toklab::NormalizedString;
///
/// let mut text = NormalizedString::new("Ça  va");
/// text.nfd();
/// text.filter(|c| !('\u{300}'..='\u{36f}').contains(&c));
/// text.lowercase();
/// text.collapse_whitespace();
/// assert_eq!(text.normalized(), "ca va");
/// assert_eq!(text.original_span(0..3).slice(text.original()), "Ça  ");
/// assert_eq!(text.original_span(3..5).slice(text.original()), "va");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalizedString<'o> {
    original: Cow<'o, str>,
    /// The part of the original the normalized text stands for (stripping shrinks it).
    extent: (usize, usize),
    /// `None` while the normalized text is `original[extent]` unchanged.
    edited: Option<Edited>,
}

/// The normalized text once an operation changed it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Edited {
    text: String,
    /// For each byte of `text`, the original byte range of its character.
    origins: Origins,
}

impl<'o> From<&'o str> for NormalizedString<'o> {
    fn from(original: &'o str) -> Self {
        NormalizedString::new(original)
    }
}

impl<'o> NormalizedString<'o> {
    /// The original text, not normalized yet (borrowed: nothing is copied).
    pub fn new(original: &'o str) -> Self {
        NormalizedString {
            original: Cow::Borrowed(original),
            extent: (0, original.len()),
            edited: None,
        }
    }

    /// The same value owning its original, free of the borrowed text's lifetime.
    pub fn into_owned(self) -> NormalizedString<'static> {
        NormalizedString {
            original: Cow::Owned(self.original.into_owned()),
            extent: self.extent,
            edited: self.edited,
        }
    }

    /// The normalized text alone, the alignment dropped: for a caller that needs no way
    /// back (ids), so a huge text's map does not outlive its normalizing.
    pub fn into_normalized(self) -> Cow<'o, str> {
        match (self.edited, self.original) {
            (Some(edited), _) => Cow::Owned(edited.text),
            (None, Cow::Borrowed(original)) => {
                Cow::Borrowed(&original[self.extent.0..self.extent.1])
            }
            (None, Cow::Owned(original)) => {
                Cow::Owned(original[self.extent.0..self.extent.1].into())
            }
        }
    }

    /// The text as given.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// The normalized text.
    #[inline]
    pub fn normalized(&self) -> &str {
        match &self.edited {
            Some(edited) => &edited.text,
            None => &self.original[self.extent.0..self.extent.1],
        }
    }

    /// The normalized text's length in bytes.
    pub fn len(&self) -> usize {
        match &self.edited {
            Some(edited) => edited.text.len(),
            None => self.extent.1 - self.extent.0,
        }
    }

    /// Whether normalization left no text.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether some operation changed the text (stripping aside): until then, normalized
    /// offsets are original offsets shifted by the start of the extent.
    pub fn is_edited(&self) -> bool {
        self.edited.is_some()
    }

    /// The part of the original the normalized text stands for: all of it unless text was
    /// stripped from the ends.
    pub fn extent(&self) -> Span {
        Span::new(self.extent.0, self.extent.1)
    }

    /// The original range of the character holding normalized byte `at` (`at < len`).
    fn origin(&self, at: usize) -> (usize, usize) {
        match &self.edited {
            Some(edited) => edited.origins.get(at, &edited.text),
            None => {
                let (original, at) = (&*self.original, self.extent.0 + at);
                let mut start = at;
                while !original.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = at + 1;
                while !original.is_char_boundary(end) {
                    end += 1;
                }
                (start, end)
            }
        }
    }

    /// The original span of normalized bytes `range`: from the start of its first
    /// character's range to the end of its last one's (text removed around it is left out).
    /// An empty range gives the empty span at [`Self::original_offset`]. The range is clamped
    /// to the text; its ends should be character boundaries.
    pub fn original_span(&self, range: Range<usize>) -> Span {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        if start == end {
            let at = self.original_offset(start);
            return Span::new(at, at);
        }
        if self.edited.is_none() {
            let text = self.normalized();
            if text.is_char_boundary(start) && text.is_char_boundary(end) {
                return Span::new(self.extent.0 + start, self.extent.0 + end);
            }
        }
        Span::new(self.origin(start).0, self.origin(end - 1).1)
    }

    /// Where normalized offset `at` falls in the original: where the character there came
    /// from, or at the end the end of the extent. Spans between such offsets tile the
    /// extent, each gap of removed text going to the character before it (SentencePiece's
    /// convention).
    pub fn original_offset(&self, at: usize) -> usize {
        if at < self.len() {
            self.origin(at).0
        } else {
            self.extent.1
        }
    }

    /// The original byte of normalized byte offset `at`, also inside a character: byte-level
    /// models cut characters, and a piece's exact bytes are wanted. Inside a character the
    /// normalization kept as it was, the offset moves with it byte for byte; inside one it
    /// changed, no original byte corresponds, and the offset is where that character came
    /// from ([`Self::original_offset`] of its start), so exact ranges still tile.
    pub fn original_byte(&self, at: usize) -> usize {
        let at = at.min(self.len());
        if self.edited.is_none() {
            return self.extent.0 + at;
        }
        let text = self.normalized();
        if text.is_char_boundary(at) {
            return self.original_offset(at);
        }
        let mut start = at;
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let (from, to) = self.origin(start);
        let end = start + text[start..].chars().next().map_or(0, char::len_utf8);
        if self.original.get(from..to) == Some(&text[start..end]) {
            from + (at - start)
        } else {
            self.original_offset(start)
        }
    }

    /// The original span of the characters of `range` whose last normalized character lies
    /// in it (so when a character expands into several and tokens split them, one token
    /// owns it); `None` if the range owns no character.
    pub fn original_span_owned(&self, range: Range<usize>) -> Option<Span> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let mut owned: Option<Span> = None;
        let mut chars = self.chars_from(start).peekable();
        while let Some((at, _, origin)) = chars.next() {
            if at >= end {
                break;
            }
            if chars.peek().is_some_and(|next| next.2 == origin) {
                continue;
            }
            owned = Some(match owned {
                Some(span) => Span::new(span.start, origin.1),
                None => Span::new(origin.0, origin.1),
            });
        }
        owned
    }

    /// The characters of the normalized text with their byte offset and original span.
    pub fn char_origins(&self) -> impl Iterator<Item = (usize, char, Span)> + '_ {
        self.chars_from(0)
            .map(|(at, c, (start, end))| (at, c, Span::new(start, end)))
    }

    /// From the character at normalized byte `at` (a boundary) on, each character's offset,
    /// itself and original range, walked in order (a lookup per character would search).
    fn chars_from(
        &self,
        at: usize,
    ) -> Box<dyn Iterator<Item = (usize, char, (usize, usize))> + '_> {
        match &self.edited {
            Some(edited) => Box::new(edited.origins.chars(&edited.text, at)),
            None => {
                let base = self.extent.0;
                let text = &self.original[base..self.extent.1];
                Box::new(text[at..].char_indices().map(move |(i, c)| {
                    let from = base + at + i;
                    (at + i, c, (from, from + c.len_utf8()))
                }))
            }
        }
    }

    /// The general rewrite every operation is made of. Left to right, `step` sees the rest
    /// of the normalized text, appends its replacement for a prefix of it to the buffer (which
    /// may hold earlier output: append only) and returns the prefix's length (at least one character; rounded up to a character
    /// boundary). The replacement's characters get the union of the prefix's ranges; a
    /// replacement equal to the prefix keeps the prefix's own ranges; an empty one removes
    /// the prefix. Nothing is allocated for the result until something changes.
    pub fn rewrite(&mut self, mut step: impl FnMut(&str, &mut String) -> usize) {
        let source = self.edited.take();
        let base = self.extent.0;
        let text = match &source {
            Some(edited) => edited.text.as_str(),
            None => &self.original[base..self.extent.1],
        };
        // The union of the ranges of source bytes `range` (character boundaries).
        let union = |range: Range<usize>| match &source {
            Some(edited) => (
                edited.origins.get(range.start, text).0,
                edited.origins.get(range.end - 1, text).1,
            ),
            None => (base + range.start, base + range.end),
        };
        let mut result: Option<Edited> = None;
        // Until something changes, replacements go to a scratch buffer; after that, straight
        // to the end of the result.
        let mut scratch = String::new();
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let out = match &mut result {
                Some(edited) => &mut edited.text,
                None => {
                    scratch.clear();
                    &mut scratch
                }
            };
            let written_from = out.len();
            let mut taken = step(rest, out).min(rest.len());
            if taken == 0 {
                taken = rest.chars().next().map_or(1, char::len_utf8);
            }
            while !rest.is_char_boundary(taken) {
                taken += 1;
            }
            let written = out.len() - written_from;
            let unchanged = written == taken
                && match taken {
                    1 => out.as_bytes()[written_from] == rest.as_bytes()[0],
                    _ => out.as_bytes()[written_from..] == rest.as_bytes()[..taken],
                };
            let edited = match &mut result {
                Some(edited) => edited,
                None if unchanged => {
                    at += taken;
                    continue;
                }
                None => {
                    // Room for growth (SentencePiece's `▁` is three bytes for one).
                    let capacity = text.len() + text.len() / 2 + scratch.len();
                    let mut edited = Edited {
                        text: String::with_capacity(capacity),
                        origins: Origins::default(),
                    };
                    edited.text.push_str(&text[..at]);
                    copy_origins(&source, base, 0..at, &mut edited.origins);
                    edited.text.push_str(&scratch);
                    result.insert(edited)
                }
            };
            // One character of the unedited text: its own range is the union.
            let one_original_char = source.is_none() && taken == utf8_width(rest.as_bytes()[0]);
            if unchanged && !one_original_char {
                copy_origins(&source, base, at..at + taken, &mut edited.origins);
            } else {
                let origin = union(at..at + taken);
                let end = edited.text.len();
                edited
                    .origins
                    .push_written(origin, &edited.text[end - written..]);
            }
            at += taken;
        }
        if let Some(edited) = &mut result {
            edited.origins.shrink_to_fit();
        }
        self.edited = result.or(source);
    }

    /// The normalized bytes `range` (clamped; its ends should be character boundaries) as a
    /// value of their own, aligned to the same original: a pre-tokenizer's pieces are such
    /// slices, so each piece's offsets still map to the text the user gave. The slice's
    /// extent is the original span of `range`.
    pub fn slice(&self, range: Range<usize>) -> NormalizedString<'o> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        match &self.edited {
            None => NormalizedString {
                original: self.original.clone(),
                extent: (self.extent.0 + start, self.extent.0 + end),
                edited: None,
            },
            Some(edited) => {
                let span = self.original_span(start..end);
                NormalizedString {
                    original: self.original.clone(),
                    extent: (span.start, span.end),
                    edited: Some(Edited {
                        text: edited.text[start..end].to_string(),
                        origins: edited.origins.slice(start..end),
                    }),
                }
            }
        }
    }

    /// The text as edited, copied out of the original first if it was not yet.
    fn edited_mut(&mut self) -> &mut Edited {
        if self.edited.is_none() {
            let mut origins = Origins::default();
            let text = self.normalized();
            copy_origins(&None, self.extent.0, 0..text.len(), &mut origins);
            let text = text.to_string();
            self.edited = Some(Edited { text, origins });
        }
        self.edited.get_or_insert_with(Edited::default)
    }

    /// Inserts `text` before the normalized text, aligned to the empty span at the start of
    /// the extent.
    pub fn prepend(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let origin = (self.extent.0, self.extent.0);
        let edited = self.edited_mut();
        edited.text.insert_str(0, text);
        edited.origins.prepend_fixed(origin, text.len());
    }

    /// Appends `text` to the normalized text, aligned to the empty span at the end of the
    /// extent.
    pub fn append(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let origin = (self.extent.1, self.extent.1);
        let edited = self.edited_mut();
        edited.text.push_str(text);
        edited.origins.push_fixed(origin, text.len());
    }

    /// Strips the first `len` bytes (rounded up to a character boundary): they and the
    /// original text only they came from fall outside the extent.
    pub fn strip_start(&mut self, len: usize) {
        let len = self.round_up(len);
        if len == 0 {
            return;
        }
        let dropped_end = self.origin(len - 1).1;
        let kept_start = if len < self.len() {
            self.origin(len).0
        } else {
            self.extent.1
        };
        match &mut self.edited {
            Some(edited) => {
                edited.text.drain(..len);
                edited.origins.drain_front(len);
                self.extent.0 = dropped_end.min(kept_start).max(self.extent.0);
            }
            // Without edits the normalized text is `original[extent]`: the extent moves exactly.
            None => self.extent.0 += len,
        }
        self.extent.1 = self.extent.1.max(self.extent.0);
    }

    /// Strips the last `len` bytes (rounded up to a character boundary): they and the
    /// original text only they came from fall outside the extent.
    pub fn strip_end(&mut self, len: usize) {
        let total = self.len();
        // The first byte stripped: the end minus `len`, moved down to a boundary.
        let mut cut = total - len.min(total);
        while !self.normalized().is_char_boundary(cut) {
            cut -= 1;
        }
        if cut == total {
            return;
        }
        let dropped_start = self.origin(cut).0;
        let kept_end = if cut > 0 { self.origin(cut - 1).1 } else { 0 };
        match &mut self.edited {
            Some(edited) => {
                edited.text.truncate(cut);
                edited.origins.truncate(cut);
                self.extent.1 = dropped_start.max(kept_end).min(self.extent.1);
            }
            None => self.extent.1 = self.extent.0 + cut,
        }
        self.extent.0 = self.extent.0.min(self.extent.1);
    }

    /// `at` moved up to the next character boundary of the normalized text (at most its
    /// length).
    fn round_up(&self, at: usize) -> usize {
        let text = self.normalized();
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at += 1;
        }
        at
    }
}

/// Appends the original ranges of bytes `range` of the source text to `origins`: from the edited
/// source, or, for the unedited text (which starts at `base` of the original), each
/// character's own range.
fn copy_origins(source: &Option<Edited>, base: usize, range: Range<usize>, origins: &mut Origins) {
    match source {
        Some(edited) => origins.push_from(&edited.origins, range),
        None => origins.push_shifted(base + range.start, range.len()),
    }
}

/// The length of the UTF-8 character that starts with byte `first`.
fn utf8_width(first: u8) -> usize {
    match first {
        0..0xE0 => 1 + usize::from(first >= 0xC0),
        0xE0..0xF0 => 3,
        _ => 4,
    }
}
