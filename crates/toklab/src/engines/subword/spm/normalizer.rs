//! SentencePiece's normalizer: the precompiled character map, whitespace clean-up and the `▁`
//! escape, as operations on a [`NormalizedString`], so tokens get spans of the text the user
//! gave. Spans follow SentencePiece: a token runs from where its first character came from to
//! where the next token's did ([`NormalizedString::original_offset`]), so removed text goes
//! to the token before it; stripped leading and trailing whitespace goes to none.

pub use crate::core::normalized::CharsMap;
use crate::core::normalized::NormalizedString;

use std::path::Path;

use aho_corasick::AhoCorasick;

use super::pieces::Pieces;
use super::proto::PieceType;
use crate::core::error::{Error, Result};

/// `▁` (U+2581), SentencePiece's visible space.
pub const SPACE: &str = "\u{2581}";

/// How a model normalizes.
#[derive(Clone, Debug)]
pub struct Normalizer {
    /// The precompiled character rewrites (NFKC and the model's own rules).
    pub map: CharsMap,
    /// Whether a space is put before the text, so a first word looks like any other.
    pub add_dummy_prefix: bool,
    /// Whether leading, trailing and repeated spaces are dropped.
    pub remove_extra_whitespaces: bool,
    /// Whether spaces become `▁`.
    pub escape_whitespaces: bool,
    /// Whether `▁` ends a piece instead of starting one.
    pub treat_whitespace_as_suffix: bool,
    /// User-defined pieces, passed through unnormalized (longest first match).
    pub user_defined: Vec<String>,
}

impl Normalizer {
    /// One normalization step at the start of `input`: the replacement and the input length.
    fn prefix<'a>(&'a self, input: &'a str) -> (&'a str, usize) {
        if let Some(user) = self
            .user_defined
            .iter()
            .filter(|u| input.starts_with(u.as_str()))
            .max_by_key(|u| u.len())
        {
            return (user, user.len());
        }
        if let Some(rule) = self.map.rule(input) {
            return rule;
        }
        let len = input.chars().next().map_or(1, char::len_utf8);
        (&input[..len], len)
    }

    /// Normalizes `input` as SentencePiece does.
    pub fn normalize<'t>(&self, input: &'t str) -> NormalizedString<'t> {
        self.normalize_part(input, false)
    }

    /// Normalizes `input`, which with `continued` is a part of a longer text after its start
    /// cut where [`super::cuts`] allows (after a character that stays itself, before a
    /// space): then no leading space is stripped and no dummy prefix added, so the result is
    /// the whole text's normalization of that part.
    pub fn normalize_part<'t>(&self, input: &'t str, continued: bool) -> NormalizedString<'t> {
        let mut text = NormalizedString::new(input);
        self.normalize_into(input, &mut text, continued);
        text
    }

    /// Normalizes `input` into `out` (cleared first) without the alignments to the original:
    /// what encoding to ids needs, at a fraction of the cost (no origin per byte, no copy of
    /// the text to put the dummy prefix first), into a buffer the caller reuses.
    /// `continued` as for [`Normalizer::normalize_part`].
    pub fn normalize_plain(&self, input: &str, out: &mut String, continued: bool) {
        out.clear();
        let mut text = Plain {
            source: input,
            text: out,
        };
        self.normalize_into(input, &mut text, continued);
    }

    /// [`Normalizer::normalize_plain`], also giving where the text may be cut between two
    /// steps, as `(original offset, normalized offset)` in order: between a step whose output
    /// is not empty and does not end with a space and one whose output is not empty. Cut
    /// there, the part before normalizes to the text before the normalized offset (no rule
    /// reaches past the cut, no trailing space is stripped) and the part after, continued,
    /// to the rest (the step there is the same, and no space is pending before it).
    pub fn normalize_steps(
        &self,
        input: &str,
        out: &mut String,
        continued: bool,
    ) -> Vec<(usize, usize)> {
        out.clear();
        let mut text = Stepped {
            plain: Plain {
                source: input,
                text: out,
            },
            stripped: 0,
            cuts: Vec::new(),
        };
        self.normalize_into(input, &mut text, continued);
        let len = text.plain.text.len();
        text.cuts.retain(|&(_, at)| at < len);
        text.cuts
    }

    /// The steps of normalizing, on either kind of text; `text` starts as `input`, the start
    /// of the text or (`continued`) a part after a character that stays itself.
    fn normalize_into(&self, input: &str, text: &mut impl Target, continued: bool) {
        if self.remove_extra_whitespaces && !continued {
            let (mut leading, mut rest) = (0, input);
            while !rest.is_empty() {
                let (replacement, len) = self.prefix(rest);
                if replacement != " " {
                    break;
                }
                rest = &rest[len..];
                leading += len;
            }
            text.strip_start(leading);
        }
        if text.is_empty() {
            return;
        }
        let space = if self.escape_whitespaces { SPACE } else { " " };
        let mut previous_space = self.remove_extra_whitespaces && !continued;
        // ASCII bytes that no rule and no user-defined piece starts with stay as they are:
        // most of the bytes of most texts, passed without a lookup.
        let user_starts = self
            .user_defined
            .iter()
            .filter_map(|u| u.bytes().next())
            .filter(|&b| b < 128)
            .fold(0u128, |mask, b| mask | 1 << b);
        text.rewrite(|rest, out| {
            let byte = rest.as_bytes()[0];
            if self.map.keeps_ascii(rest.as_bytes()) && user_starts & (1 << byte) == 0 {
                match byte {
                    b' ' if previous_space => {}
                    b' ' => out.push_str(space),
                    _ => out.push(char::from(byte)),
                }
                previous_space = byte == b' ' && self.remove_extra_whitespaces;
                return 1;
            }
            let (replacement, len) = self.prefix(rest);
            let mut piece = replacement;
            while previous_space && piece.starts_with(' ') {
                piece = &piece[1..];
            }
            if !piece.is_empty() {
                for c in piece.chars() {
                    match c {
                        ' ' => out.push_str(space),
                        c => out.push(c),
                    }
                }
                previous_space = piece.ends_with(' ');
            }
            if !self.remove_extra_whitespaces {
                previous_space = false;
            }
            len
        });
        let dummy_prefix = self.add_dummy_prefix && !self.treat_whitespace_as_suffix && !continued;
        if dummy_prefix {
            text.prepend(space);
        }
        if self.remove_extra_whitespaces {
            text.trim_end_matches(&mut |c| space.starts_with(c));
        }
        if self.add_dummy_prefix && self.treat_whitespace_as_suffix {
            text.append(space);
        }
    }
}

/// The operations normalizing performs, on the aligned text (spans) or on plain text (ids).
trait Target {
    fn strip_start(&mut self, len: usize);
    fn is_empty(&self) -> bool;
    /// Replaces the text left to right: `step` writes the replacement of the start of what
    /// is left and returns how many bytes it replaced.
    fn rewrite(&mut self, step: impl FnMut(&str, &mut String) -> usize);
    fn prepend(&mut self, text: &str);
    fn trim_end_matches(&mut self, strip: &mut dyn FnMut(char) -> bool);
    fn append(&mut self, text: &str);
}

impl Target for NormalizedString<'_> {
    fn strip_start(&mut self, len: usize) {
        NormalizedString::strip_start(self, len);
    }
    fn is_empty(&self) -> bool {
        NormalizedString::is_empty(self)
    }
    fn rewrite(&mut self, step: impl FnMut(&str, &mut String) -> usize) {
        NormalizedString::rewrite(self, step);
    }
    fn prepend(&mut self, text: &str) {
        NormalizedString::prepend(self, text);
    }
    fn trim_end_matches(&mut self, strip: &mut dyn FnMut(char) -> bool) {
        NormalizedString::trim_end_matches(self, strip);
    }
    fn append(&mut self, text: &str) {
        NormalizedString::append(self, text);
    }
}

/// Plain normalized text: `source` is the input left to rewrite (what `strip_start`
/// shortens), `text` the result once rewritten.
struct Plain<'a, 's> {
    source: &'s str,
    text: &'a mut String,
}

impl Target for Plain<'_, '_> {
    fn strip_start(&mut self, len: usize) {
        self.source = &self.source[len..];
    }
    fn is_empty(&self) -> bool {
        self.source.is_empty()
    }
    /// As [`NormalizedString::rewrite`] steps: at least one character is taken, and a step
    /// ending inside a character takes the whole of it.
    fn rewrite(&mut self, mut step: impl FnMut(&str, &mut String) -> usize) {
        let source = self.source;
        // Room for `▁`, three bytes for one space, and the dummy prefix.
        self.text.reserve(source.len() + source.len() / 2 + 3);
        let mut at = 0;
        while at < source.len() {
            let rest = &source[at..];
            let mut taken = step(rest, self.text).min(rest.len());
            if taken == 0 {
                taken = rest.chars().next().map_or(1, char::len_utf8);
            }
            while !rest.is_char_boundary(taken) {
                taken += 1;
            }
            at += taken;
        }
    }
    fn prepend(&mut self, text: &str) {
        self.text.insert_str(0, text);
    }
    fn trim_end_matches(&mut self, strip: &mut dyn FnMut(char) -> bool) {
        let kept = self.text.trim_end_matches(strip).len();
        self.text.truncate(kept);
    }
    fn append(&mut self, text: &str) {
        self.text.push_str(text);
    }
}

/// Plain normalized text that notes where its steps may be cut
/// ([`Normalizer::normalize_steps`]).
struct Stepped<'a, 's> {
    plain: Plain<'a, 's>,
    /// Leading bytes stripped before the steps.
    stripped: usize,
    cuts: Vec<(usize, usize)>,
}

impl Target for Stepped<'_, '_> {
    fn strip_start(&mut self, len: usize) {
        self.stripped += len;
        self.plain.strip_start(len);
    }
    fn is_empty(&self) -> bool {
        self.plain.is_empty()
    }
    fn rewrite(&mut self, mut step: impl FnMut(&str, &mut String) -> usize) {
        let (base, total) = (self.stripped, self.plain.source.len());
        let cuts = &mut self.cuts;
        let mut clean_before = false;
        self.plain.rewrite(|rest, out| {
            let written_from = out.len();
            let taken = step(rest, out);
            let written = &out[written_from..];
            if clean_before && !written.is_empty() {
                cuts.push((base + total - rest.len(), written_from));
            }
            clean_before = !written.is_empty() && !written.ends_with([' ', '\u{2581}']);
            taken
        });
    }
    fn prepend(&mut self, text: &str) {
        for cut in &mut self.cuts {
            cut.1 += text.len();
        }
        self.plain.prepend(text);
    }
    fn trim_end_matches(&mut self, strip: &mut dyn FnMut(char) -> bool) {
        self.plain.trim_end_matches(strip);
    }
    fn append(&mut self, text: &str) {
        self.plain.append(text);
    }
}

/// The user-defined pieces, in id order: the normalizer passes them through unchanged.
pub(super) fn user_pieces(pieces: &Pieces) -> Vec<String> {
    pieces
        .ids_of(PieceType::UserDefined)
        .map(|id| pieces.text(id).to_string())
        .collect()
}

/// What finds the user-defined pieces in normalized text, with their ids.
pub(super) type UserMatcher = Option<(AhoCorasick, Vec<u32>)>;

/// The matcher of the user-defined pieces (none when the model has none).
pub(super) fn user_matcher(path: &Path, pieces: &Pieces) -> Result<UserMatcher> {
    let user: Vec<(&[u8], u32)> = pieces
        .ids_of(PieceType::UserDefined)
        .map(|id| (pieces.bytes(id), id as u32))
        .collect();
    if user.is_empty() {
        return Ok(None);
    }
    let texts: Vec<&[u8]> = user.iter().map(|(p, _)| *p).collect();
    let matcher = crate::engines::subword::bpe::specials::literal_matcher(&texts)
        .map_err(|e| Error::format(path, None, format!("user-defined pieces: {e}")))?;
    Ok(Some((matcher, user.iter().map(|(_, id)| *id).collect())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Normalizer {
        Normalizer {
            map: CharsMap::default(),
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
            treat_whitespace_as_suffix: false,
            user_defined: Vec::new(),
        }
    }

    #[test]
    fn spaces_are_collapsed_escaped_and_mapped_back() {
        let n = plain().normalize("  ab   c ");
        assert_eq!(n.normalized(), "▁ab▁c");
        // The dummy prefix points at the first kept character; the inner ▁ at the first space
        // of its run; the end at the start of the trailing space.
        assert_eq!(n.original_offset(0), 2);
        assert_eq!(n.original_offset(3), 2);
        assert_eq!(n.original_offset(5), 4);
        assert_eq!(n.original_offset(8), 7);
        assert_eq!(n.original_offset(n.len()), 8);
    }

    #[test]
    fn only_spaces_normalize_to_nothing() {
        assert_eq!(plain().normalize("   ").normalized(), "");
    }
}
