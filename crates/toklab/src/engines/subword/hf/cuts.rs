//! Where a `tokenizer.json` pipeline may cut a long text without changing a token
//! ([`crate::Tokenizer::cut_point`]), by two rules, the nearer cut of the two taken
//! ([`nearest_cut`]):
//! - at an ASCII space between ASCII letters, where pipelines that split at spaces end a piece;
//! - before a character that every stage keeps apart from what precedes it
//!   ([`Pipeline::keeps_apart`]): BERT's pipelines put spaces around each CJK ideograph and
//!   make each punctuation character a piece of its own, so a text without spaces (Japanese,
//!   Chinese) is cut there. The normalizer says what the cut looks like after it
//!   ([`Normalizer::seam`]), the pre-tokenizer whether a piece ends there
//!   ([`PreTokenizer::ends_piece_before`]), and no added token may hold the characters there.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::{
    canonical_combining_class, decompose_canonical, decompose_compatible,
};

use super::json::AddedTokenJson;
use super::normalizers::{
    Normalizer, clean, drop_nonspacing_mark, drop_reference_mark, nmt, pad_chinese,
};
use super::pipeline::{Pipeline, Specials};
use super::pre_tokenizers::PreTokenizer;
use crate::core::normalized::Form;
use crate::core::pieces::{
    breaks_between, char_boundary_where, nearest_cut, space_between_ascii_letters,
};

impl Pipeline {
    /// Where `text` may be cut without changing a token, at or after `from` (see the module
    /// doc); none when a post-processor adds tokens at the ends of the text.
    pub fn cut_point(&self, text: &str, from: usize, specials: Specials) -> Option<usize> {
        if specials == Specials::Add {
            return None;
        }
        let (at_spaces, at_seams) = (self.cuts_at_spaces(), self.cuts_at_seams());
        let spaces = |text: &str, from: usize| match at_spaces {
            true => space_between_ascii_letters(text, from),
            false => None,
        };
        let seams = |text: &str, from: usize| {
            let mut scratch = String::new();
            match at_seams {
                true => char_boundary_where(text, from, |before, at| {
                    self.keeps_apart(before, at, &mut scratch)
                }),
                false => None,
            }
        };
        nearest_cut(text, from, &[&spaces, &seams])
    }

    /// Whether an ASCII space between ASCII letters is a cut: the normalizer is char-local,
    /// the pre-tokenizer ends a piece at such a space (the model then works piece by piece),
    /// and no added token can take the space (none holds a space, none that strips whitespace
    /// has a letter or digit where it would).
    fn cuts_at_spaces(&self) -> bool {
        let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        let takes_a_space = |t: &AddedTokenJson| {
            t.content.contains(' ')
                || (t.lstrip && alnum(t.content.chars().next()))
                || (t.rstrip && alnum(t.content.chars().next_back()))
        };
        let added_keep_spaces = !self.added.tokens.iter().any(takes_a_space);
        self.normalizer
            .as_ref()
            .is_none_or(Normalizer::is_char_local)
            && self
                .pre_tokenizer
                .as_ref()
                .is_some_and(PreTokenizer::splits_at_spaces)
            && added_keep_spaces
    }

    /// Whether [`Pipeline::keeps_apart`] can name a cut at all: there is a pre-tokenizer, and
    /// no added token looks at what is beside it (`single_word`, `lstrip`, `rstrip`), so
    /// an added token ending just before a cut is matched in the part before it as in the
    /// whole text.
    fn cuts_at_seams(&self) -> bool {
        self.pre_tokenizer.is_some()
            && !self
                .added
                .tokens
                .iter()
                .any(|t| t.single_word || t.lstrip || t.rstrip)
    }

    /// Whether a text may be cut between the characters `before` and `at` (given
    /// [`Pipeline::cuts_at_seams`]): the normalizer makes the two parts what it makes of the
    /// whole ([`Normalizer::seam`]), the pre-tokenizer ends a piece before what `at` becomes
    /// ([`PreTokenizer::ends_piece_before`]), and no added token holds `at` or what it becomes,
    /// so none is matched across the cut or starts at it. `scratch` is a buffer to reuse.
    fn keeps_apart(&self, before: char, at: char, scratch: &mut String) -> bool {
        let Some(pre) = &self.pre_tokenizer else {
            return false;
        };
        if self.added.holds(at) {
            return false;
        }
        let seam = Seam {
            before: Some(Image::of(before)),
            after: at,
        };
        let seam = match &self.normalizer {
            Some(normalizer) => normalizer.seam(seam, scratch),
            None => Some(seam),
        };
        seam.is_some_and(|s| !self.added.holds(s.after) && pre.ends_piece_before(s.after))
    }
}

/// The text on either side of a cut, as a stage of the pipeline sees it: what the character
/// before the cut has become (unknown once a stage removed all of it, as nothing then says
/// what precedes the cut, or once it is longer than an [`Image`] holds), and the first
/// character after the cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seam {
    /// What the character before the cut has become, if known.
    pub before: Option<Image>,
    /// The first character after the cut.
    pub after: char,
}

/// The few characters one character of the text has become after some stages (a letter and
/// its accents, a lowercased ligature, an ideograph between spaces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Image {
    chars: [char; Image::MAX],
    len: usize,
}

impl Image {
    /// The most characters an image holds.
    const MAX: usize = 8;

    /// The image of `c` before any stage.
    pub fn of(c: char) -> Image {
        let mut image = Image::default();
        image.chars[0] = c;
        image.len = 1;
        image
    }

    /// The image of the characters `chars`; `None` if there are none or too many.
    fn collect(chars: impl IntoIterator<Item = char>) -> Option<Image> {
        let mut image = Image::default();
        for c in chars {
            *image.chars.get_mut(image.len)? = c;
            image.len += 1;
        }
        (image.len > 0).then_some(image)
    }

    /// The characters, in order.
    pub fn chars(&self) -> impl Iterator<Item = char> + Clone + '_ {
        self.chars[..self.len].iter().copied()
    }

    /// The last character.
    fn last(&self) -> char {
        self.chars[self.len - 1]
    }
}

impl Normalizer {
    /// The cut `seam` after this normalizer, if the two parts of any text cut there,
    /// normalized one after the other, give the text and alignment the whole text's
    /// normalization gives; `None` if that is not sure, or the character after the cut is
    /// removed. Stages that change each character on its own keep every cut; Unicode forms,
    /// applied grapheme by grapheme, keep a cut at a grapheme boundary (the decomposing forms
    /// only: composing ones may join a character to the one before). Stages that look across
    /// characters or at the ends of the text (`Replace`, `Strip`, `Prepend`, `Precompiled`)
    /// keep none. `scratch` is a buffer to reuse.
    pub fn seam(&self, seam: Seam, scratch: &mut String) -> Option<Seam> {
        match self {
            Normalizer::Sequence(all) => all.iter().try_fold(seam, |s, n| n.seam(s, scratch)),
            Normalizer::Unicode(form) => unicode_seam(*form, seam),
            Normalizer::Lowercase => per_char(seam, scratch, lowercase),
            Normalizer::StripAccents => per_char(seam, scratch, drop_reference_mark),
            Normalizer::Nmt => per_char(seam, scratch, nmt),
            Normalizer::ByteLevel => Some(seam),
            Normalizer::Bert {
                clean_text,
                handle_chinese_chars,
                strip_accents,
                lowercase: lower,
            } => {
                let mut seam = seam;
                if *clean_text {
                    seam = per_char(seam, scratch, clean)?;
                }
                if *handle_chinese_chars {
                    seam = per_char(seam, scratch, pad_chinese)?;
                }
                if *strip_accents {
                    seam = unicode_seam(Form::Nfd, seam)?;
                    seam = per_char(seam, scratch, drop_nonspacing_mark)?;
                }
                if *lower {
                    seam = per_char(seam, scratch, lowercase)?;
                }
                Some(seam)
            }
            Normalizer::Replace { .. }
            | Normalizer::Strip { .. }
            | Normalizer::Prepend(_)
            | Normalizer::Precompiled(_) => None,
        }
    }
}

/// `Lowercase` of one character, as [`crate::NormalizedString::lowercase`] does it.
fn lowercase(c: char, out: &mut String) {
    out.extend(c.to_lowercase());
}

/// `seam` after a stage that replaces each character by what `each` writes for it.
fn per_char(
    seam: Seam,
    scratch: &mut String,
    mut each: impl FnMut(char, &mut String),
) -> Option<Seam> {
    scratch.clear();
    each(seam.after, scratch);
    let after = scratch.chars().next()?;
    let before = seam.before.and_then(|image| {
        scratch.clear();
        image.chars().for_each(|c| each(c, scratch));
        Image::collect(scratch.chars())
    });
    Some(Seam { before, after })
}

/// `seam` after a decomposing Unicode form, which [`crate::NormalizedString::unicode`]
/// applies grapheme by grapheme: the cut must be a grapheme boundary whatever surrounds it
/// ([`breaks_between`](crate::core::pieces::breaks_between)), so both parts have the whole text's graphemes. The character after is
/// the first of its decomposition, which must be a starter (canonical ordering moves no
/// starter); what the one before became is decomposed with it when that starts with a starter
/// (else it may be reordered with the marks before it: unknown).
fn unicode_seam(form: Form, seam: Seam) -> Option<Seam> {
    let compatible = match form {
        Form::Nfd => false,
        Form::Nfkd => true,
        _ => return None,
    };
    let before = seam.before?;
    if !breaks_between(before.last(), seam.after) {
        return None;
    }
    let after = first_decomposed(seam.after, compatible)?;
    let decomposed = match compatible {
        true => Image::collect(before.chars().nfkd()),
        false => Image::collect(before.chars().nfd()),
    };
    let before = decomposed.filter(|image| canonical_combining_class(image.chars[0]) == 0);
    Some(Seam { before, after })
}

/// The first character of `c` decomposed (canonically or for compatibility), when it is a
/// starter.
fn first_decomposed(c: char, compatible: bool) -> Option<char> {
    let mut first = None;
    let mut put = |d: char| {
        first.get_or_insert(d);
    };
    match compatible {
        true => decompose_compatible(c, &mut put),
        false => decompose_canonical(c, &mut put),
    }
    first.filter(|&d| canonical_combining_class(d) == 0)
}

#[cfg(test)]
#[path = "cuts_tests.rs"]
mod tests;
