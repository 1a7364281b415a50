//! A long text tokenized in pieces, where its tokenizer says it may be cut
//! ([`Tokenizer::cut_point_carried`], given the [`Carry`] so far): the tokens of the pieces, shifted to where each piece starts,
//! are the tokens of the whole text, so a caller that writes each piece's tokens before
//! tokenizing the next never holds the tokens (or the output) of the whole text. What an
//! engine needs to know of the pieces before a cut travels with the pieces in a [`Carry`].

use std::any::Any;

use unicode_segmentation::UnicodeSegmentation;

use crate::core::token::{GaveUp, Span, Tokenization};
use crate::core::tokenizer::Tokenizer;

/// What the pieces of a text tokenized so far leave for the next one: whether one came before
/// (an engine that treats a text's start apart, as SentencePiece's dummy prefix does, then
/// tokenizes a middle), and whatever state the engine put there for the piece after (a unigram
/// model's path total at the cut, which its whole-text search would have carried on from). One
/// carry serves one text: [`Pieces`] holds it and marks each piece's start.
#[derive(Default)]
pub struct Carry {
    continued: bool,
    state: Option<Box<dyn Any + Send>>,
}

impl Carry {
    /// The carry of a piece after a cut (`continued`) or of a text's start, with no engine
    /// state.
    pub fn new(continued: bool) -> Carry {
        Carry {
            continued,
            state: None,
        }
    }

    /// Whether the piece is a part after a cut rather than the text's start.
    pub fn continued(&self) -> bool {
        self.continued
    }

    /// The state the engine left with [`Carry::put`] at the end of the piece before, taken
    /// out; `None` at a text's start or when it left none of type `T`.
    pub fn take<T: Any>(&mut self) -> Option<T> {
        let state = self.state.take()?;
        state.downcast::<T>().ok().map(|state| *state)
    }

    /// The state the engine left, in place: what it reads (and may add to) when asked for the
    /// cut that ends the piece, before the piece is tokenized.
    pub fn get_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.state.as_mut()?.downcast_mut::<T>()
    }

    /// Leaves `state` for the next piece of the text.
    pub fn put<T: Any + Send>(&mut self, state: T) {
        self.state = Some(Box::new(state));
    }
}

/// How long a piece is at least before the tokenizer is asked for a cut: long enough that a
/// piece's overhead (a call, a buffer) is nothing next to its work, short enough that the
/// tokens of one piece (72 bytes each) stay a few megabytes.
pub const PIECE_BYTES: usize = 1 << 18;

/// How many tokens an engine hands over at a time when it tokenizes a piece no cut reaches
/// into in parts ([`Tokenizer::tokenize_piece_in_parts`]): about a megabyte of tokens.
pub const PART_TOKENS: usize = 1 << 14;

/// The pieces of a text, each with the byte offset where it starts, in order. Pieces are at
/// least `size` bytes long (the last may be shorter); a text the tokenizer cannot cut is one
/// piece. Each piece is to be tokenized with [`Pieces::carry`] as it is after the piece is
/// handed out, in order, so state flows from each piece to the next.
pub struct Pieces<'a> {
    tokenizer: &'a dyn Tokenizer,
    text: &'a str,
    size: usize,
    at: usize,
    carry: Carry,
}

impl<'a> Pieces<'a> {
    /// The pieces of `text` for `tokenizer`, each at least `size` bytes long (at least 1).
    pub fn new(tokenizer: &'a dyn Tokenizer, text: &'a str, size: usize) -> Pieces<'a> {
        Pieces {
            tokenizer,
            text,
            size: size.max(1),
            at: 0,
            carry: Carry::default(),
        }
    }

    /// The carry of the piece last handed out, which the tokenizer reads and leaves its state
    /// in for the next.
    pub fn carry(&mut self) -> &mut Carry {
        &mut self.carry
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let start = self.at;
        if start >= self.text.len() && !(start == 0 && self.text.is_empty()) {
            return None;
        }
        let from = start.saturating_add(self.size);
        let end = match from < self.text.len() {
            true => self
                .tokenizer
                .cut_point_carried(self.text, start, from, &mut self.carry)
                // A cut the engine got wrong would lose or repeat text: never past the end,
                // never at or before the previous cut, always on a character boundary.
                .filter(|&c| c > start && c < self.text.len() && self.text.is_char_boundary(c))
                .unwrap_or(self.text.len()),
            false => self.text.len(),
        };
        // The empty text is one (empty) piece; past it, `at` is beyond the end.
        self.at = end.max(1);
        self.carry.continued = start > 0;
        Some((start, &self.text[start..end]))
    }
}

/// `text` tokenized piece by piece ([`Pieces`]) and put back together: equal to
/// `tokenizer.tokenize(text)` for every tokenizer whose cut points keep their promise, which is
/// what the tests of each engine's cut points check.
pub fn tokenize_in_pieces(tokenizer: &dyn Tokenizer, text: &str, size: usize) -> Tokenization {
    let mut whole = Tokenization::default();
    let mut pieces = Pieces::new(tokenizer, text, size);
    while let Some((offset, piece)) = pieces.next() {
        let tokens = tokenizer.tokenize_piece(piece, pieces.carry());
        let first = whole.tokens.len();
        whole
            .sentence_ends
            .extend(tokens.sentence_ends.iter().map(|&end| first + end));
        whole
            .tokens
            .extend(tokens.tokens.into_iter().map(|t| t.shifted(offset)));
    }
    whole
}

/// The ids of `text` appended to `ids`, piece by piece as [`tokenize_in_pieces`] cuts it; the
/// first place where the engine gave up, in offsets of the whole text.
pub fn ids_in_pieces(
    tokenizer: &dyn Tokenizer,
    text: &str,
    size: usize,
    ids: &mut Vec<u32>,
) -> Option<GaveUp> {
    let mut gave_up = None;
    let mut pieces = Pieces::new(tokenizer, text, size);
    while let Some((offset, piece)) = pieces.next() {
        let at = tokenizer.ids_into_piece(piece, pieces.carry(), ids);
        gave_up = gave_up.or(at.map(|g| shift_gave_up(g, offset)));
    }
    gave_up
}

/// The first ASCII space at or after `from` with an ASCII letter on each side: where engines
/// whose rules look at a few characters around a space (and at the ends of the text only for
/// punctuation, quotes and spaces) may cut a text, since neither end of a piece cut there is
/// one those rules look for.
pub fn space_between_ascii_letters(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let letter = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_alphabetic);
    (from.max(1)..bytes.len().saturating_sub(1))
        .find(|&at| bytes[at] == b' ' && letter(at - 1) && letter(at + 1))
}

/// The first character boundary at or after `from`, inside `text`, where `apart(before, at)`
/// holds for the characters on either side: where engines that end a word before some
/// characters whatever precedes them (BERT's CJK ideographs and punctuation) may cut a text
/// without spaces. Each engine's `apart` says what its normalizer, word splitter and special
/// tokens allow; it depends on the two characters alone, so its answers for the pairs seen
/// last are remembered ([`PAIRS`] of them), which makes a long text without a cut (a run of
/// one letter) cost a lookup a character.
pub fn char_boundary_where(
    text: &str,
    from: usize,
    mut apart: impl FnMut(char, char) -> bool,
) -> Option<usize> {
    let mut at = from.max(1);
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    let mut before = text.get(..at)?.chars().next_back()?;
    let mut seen: [Option<(char, char, bool)>; PAIRS] = [None; PAIRS];
    for (i, c) in text[at..].char_indices() {
        let hash =
            (u32::from(before).wrapping_mul(0x9E37_79B1) ^ u32::from(c)).wrapping_mul(0x85EB_CA6B);
        let slot = &mut seen[(hash >> 23) as usize % PAIRS];
        let cuts = match *slot {
            Some((b, a, cuts)) if b == before && a == c => cuts,
            _ => {
                let cuts = apart(before, c);
                *slot = Some((before, c, cuts));
                cuts
            }
        };
        if cuts {
            return Some(at + i);
        }
        before = c;
    }
    None
}

/// How many pairs of characters [`char_boundary_where`] remembers the answer for.
const PAIRS: usize = 512;

/// A rule for [`nearest_cut`]: the first cut it names in a text at or after an offset.
pub type CutRule<'r> = &'r dyn Fn(&str, usize) -> Option<usize>;

/// How many bytes past `from` [`nearest_cut`] first asks its rules about; each round doubles.
const FIRST_REACH: usize = 1 << 12;

/// The nearest cut at or after `from` that any of `rules` names, each rule asked about ever
/// longer beginnings of `text` (4 KB past `from`, then twice as far, …): a rule that finds
/// nothing near `from` scans no further than the distance to the cut another finds, so the work
/// is linear in that distance, and a text no rule cuts is scanned once. Each rule must give
/// only cuts strictly inside the text it is given that hold for any text that begins with it,
/// as rules that look at the characters beside a cut do.
pub fn nearest_cut(text: &str, from: usize, rules: &[CutRule]) -> Option<usize> {
    let mut reach = FIRST_REACH;
    loop {
        let mut end = from.saturating_add(reach).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let found = rules
            .iter()
            .filter_map(|rule| rule(&text[..end], from))
            .min();
        if found.is_some() || end == text.len() {
            return found;
        }
        reach = reach.saturating_mul(2);
    }
}

/// Whether a text has a grapheme cluster boundary between `before` and `after` whatever
/// comes before and after them. The pair alone says so for the rules that look at two
/// characters; the rules that look further back need a joiner before (emoji sequences), a
/// regional indicator on either side (flags, counted in pairs) or a letter after (Hangul
/// syllables, Indic conjuncts), which are refused.
pub fn breaks_between(before: char, after: char) -> bool {
    let regional = |c: char| ('\u{1F1E6}'..='\u{1F1FF}').contains(&c);
    if before == '\u{200D}' || regional(before) || regional(after) || after.is_alphabetic() {
        return false;
    }
    let mut buffer = [0u8; 8];
    let split = before.encode_utf8(&mut buffer).len();
    let end = split + after.encode_utf8(&mut buffer[split..]).len();
    std::str::from_utf8(&buffer[..end]).is_ok_and(|pair| pair.graphemes(true).nth(1).is_some())
}

/// `gave_up` of a piece that starts at `offset`, in offsets of the whole text.
pub fn shift_gave_up(gave_up: GaveUp, offset: usize) -> GaveUp {
    GaveUp {
        span: Span::new(gave_up.span.start + offset, gave_up.span.end + offset),
        ..gave_up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokenizer_without_cut_points_gets_the_whole_text() {
        let tokenizer = crate::load(r"regex:\w+").unwrap();
        let text = "one two three four";
        let pieces: Vec<_> = Pieces::new(tokenizer.as_ref(), text, 2).collect();
        assert_eq!(pieces, [(0, text)]);
        let empty: Vec<_> = Pieces::new(tokenizer.as_ref(), "", 2).collect();
        assert_eq!(empty, [(0, "")]);
    }

    #[test]
    fn the_carry_marks_each_piece_after_the_first_and_brings_what_the_one_before_left() {
        let tokenizer = crate::load("ws").unwrap();
        let mut pieces = Pieces::new(tokenizer.as_ref(), "aa bb cc dd", 2);
        let mut seen = Vec::new();
        while let Some((offset, _)) = pieces.next() {
            let carry = pieces.carry();
            seen.push((offset, carry.continued(), carry.take::<usize>()));
            carry.put(offset);
        }
        assert_eq!(
            seen,
            [
                (0, false, None),
                (2, true, Some(0)),
                (5, true, Some(2)),
                (8, true, Some(5))
            ]
        );
        let mut carry = Carry::new(true);
        carry.put(1u8);
        assert_eq!(
            carry.take::<u16>(),
            None,
            "a state of another type is not handed out"
        );
        assert_eq!(
            carry.take::<u8>(),
            None,
            "taken once, even as the wrong type"
        );
    }

    #[test]
    fn a_char_boundary_is_found_between_the_characters_asked_about() {
        let apart = |_: char, at: char| at == '、';
        assert_eq!(char_boundary_where("あ、い、", 0, apart), Some(3));
        // From inside a character: the next boundary on.
        assert_eq!(char_boundary_where("あ、い、", 4, apart), Some(9));
        assert_eq!(char_boundary_where("、あ", 0, apart), None);
        assert_eq!(char_boundary_where("あい", 9, apart), None);
    }

    #[test]
    fn the_nearest_cut_is_found_without_scanning_past_it() {
        let text = format!("{}|{}", "a".repeat(20_000), "b".repeat(200_000));
        let longest = std::cell::Cell::new(0);
        let bar = |t: &str, from: usize| t[from..].find('|').map(|at| from + at);
        let never = |t: &str, _: usize| {
            longest.set(longest.get().max(t.len()));
            None
        };
        assert_eq!(nearest_cut(&text, 10, &[&never, &bar]), Some(20_000));
        // The rule that finds nothing saw no more than twice the way to the cut.
        assert!(longest.get() <= 40_010, "{}", longest.get());
        assert_eq!(nearest_cut(&text, 20_001, &[&never, &bar]), None);
        assert_eq!(longest.get(), text.len());
    }

    #[test]
    fn pieces_tile_the_text_and_are_at_least_the_size() {
        let tokenizer = crate::load("ws").unwrap();
        let text = "aaaa bb  c dddddd e f";
        let pieces: Vec<_> = Pieces::new(tokenizer.as_ref(), text, 3).collect();
        let joined: String = pieces.iter().map(|(_, p)| *p).collect();
        assert_eq!(joined, text);
        for (i, (offset, piece)) in pieces.iter().enumerate() {
            assert_eq!(&text[*offset..*offset + piece.len()], *piece);
            if i + 1 < pieces.len() {
                assert!(piece.len() >= 3, "{pieces:?}");
            }
        }
        assert!(pieces.len() > 2, "{pieces:?}");
        assert_eq!(
            tokenize_in_pieces(tokenizer.as_ref(), text, 3),
            tokenizer.tokenize(text)
        );
    }
}
