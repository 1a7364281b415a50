//! Where a `tokenizer.json` Unigram model cuts a long text without spaces: inside a
//! pre-token, where the best paths of the model's search meet ([`find_cut`]), as `spm:`
//! and GGUF `t5` vocabularies cut. Every later path passes through such a point, so the whole
//! pre-token's best path does, and the part after the cut, searched from the state the whole
//! pre-token's search had there ([`Resume`]), makes the same sums and choices.
//!
//! The rest of the pipeline must treat the two parts as it treats the whole
//! ([`Pipeline::meets`]): the normalizer changes each character on its own
//! ([`super::normalizers::Normalizer::cuts_between_chars`]); the pre-tokenizer is `Metaspace`
//! or none, and the part after the cut gets no replacement in front
//! ([`super::pre_tokenizers::PreTokenizer::apply_continued`]); no added token looks at
//! what is next to it (`single_word`, `lstrip`, `rstrip`), so a match in either part is one in
//! the whole (a match across the cut would have made the cut fall in an added token, not a
//! pre-token); and no post-processor adds tokens at the ends. The cut itself is between two
//! characters that are not white space (so no run of spaces is replaced across it), the
//! normalized text of each coming from its own characters, after a known piece (an unknown
//! one would be fused with one after it).
//!
//! [`find_cut`]: crate::engines::subword::unigram::viterbi::find_cut

use super::added::Split;
use super::models::{Model, Piece, Steps};
use super::normalizers::Normalizer;
use super::pipeline::{Pipeline, Specials};
use super::pre_tokenizers::PreTokenizer;
use crate::core::normalized::NormalizedString;
use crate::core::pieces::Carry;
use crate::engines::subword::unigram::viterbi::Resume;

/// How far past where a piece may end the search looks for where its paths meet, in bytes of
/// the original text: further, the piece would hold more than a cut saves.
pub const MEETING_WINDOW: usize = 1 << 16;

/// Bytes at the end of a window searched for a meeting that are not trusted to pre-tokenize
/// as in the whole text (an added token reaching past the window's end).
const MARGIN: usize = 1 << 10;

/// What a piece of a text cut where the paths meet leaves in its [`Carry`]: where the search
/// of its first pre-token takes up the whole pre-token's (none at a text's start or after a
/// cut between pre-tokens), and, once [`Pipeline::meeting_cut`] has found where the piece ends,
/// the same for the piece after it.
#[derive(Default)]
pub struct HfCarry {
    /// The search state at the piece's start.
    pub resume: Option<Resume<f64>>,
    /// The search state at the cut that ends the piece.
    pub next: Option<Resume<f64>>,
}

impl Pipeline {
    /// Whether the pipeline lets its model cut inside a pre-token (see the module doc).
    pub fn meets(&self, specials: Specials) -> bool {
        matches!(self.model, Model::Unigram(_))
            && specials != Specials::Add
            && self
                .normalizer
                .as_ref()
                .is_none_or(Normalizer::cuts_between_chars)
            && PreTokenizer::cuts_inside_pieces(self.pre_tokenizer.as_ref())
            && !self
                .added
                .tokens
                .iter()
                .any(|t| t.single_word || t.lstrip || t.rstrip)
    }

    /// The model's tokens of one pre-token, its search taken up from `resume` when it goes on
    /// from a cut where the paths met.
    pub(super) fn tokenize_split(
        &self,
        norm: &str,
        resume: Option<&Resume<f64>>,
        out: &mut Vec<Piece>,
        steps: Option<&mut Steps>,
    ) {
        match (&self.model, resume) {
            (Model::Unigram(model), Some(resume)) if !norm.is_empty() => {
                model.tokenize_resumed(resume, norm, out, steps)
            }
            _ => self.model.tokenize(norm, out, steps),
        }
    }

    /// Where the best paths of the model meet inside a pre-token of `text`, at or after
    /// `from`, for the piece that starts at `start` (its first pre-token's search taken up from
    /// what `carry` holds); only [`MEETING_WINDOW`] bytes past `from` are looked at. The state
    /// the piece after the cut takes up is left in `carry`.
    pub fn meeting_cut(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        let Model::Unigram(model) = &self.model else {
            return None;
        };
        let mut end = from.saturating_add(MEETING_WINDOW).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let window = &text[start..end];
        let carried = carry.get_mut::<HfCarry>().and_then(|c| c.resume.clone());
        let (splits, gave_up) = self.pre_tokens_part(window, carried.is_some(), None);
        if gave_up.is_some() {
            return None;
        }
        let limit = match end == text.len() {
            true => window.len(),
            false => window.len().saturating_sub(MARGIN.max(2 * model.max_len)),
        };
        let from = from - start;
        for (i, split) in splits.iter().enumerate() {
            let piece = &split.text;
            let extent = piece.extent();
            if split.added.is_some() || extent.end <= from {
                continue;
            }
            if extent.start >= limit {
                return None;
            }
            let norm = piece.normalized();
            let trusted = match extent.end <= limit {
                true => norm.len(),
                false => first_at(piece, limit).saturating_sub(model.max_len),
            };
            let resume = match (i, &carried) {
                (0, Some(resume)) if extent.start == 0 => resume.clone(),
                _ => Resume::at(0.0),
            };
            let found = model.meeting_cut(&resume, norm, first_at(piece, from), trusted, |at| {
                clean_cut(piece, window, at)
            });
            if let Some((cut, next)) = found {
                let cut = start + piece.original_offset(cut);
                match carry.get_mut::<HfCarry>() {
                    Some(state) => state.next = Some(next),
                    None => carry.put(HfCarry {
                        resume: None,
                        next: Some(next),
                    }),
                }
                return Some(cut);
            }
        }
        None
    }
}

/// The first normalized offset of `piece` whose character comes from at or after original
/// offset `at` (of the text the piece was cut from), or the piece's length.
fn first_at(piece: &NormalizedString, at: usize) -> usize {
    let norm = piece.normalized();
    // `low` stays a character boundary at or before the answer, `high` one at or after it.
    let (mut low, mut high) = (0, norm.len());
    while low < high {
        let mut mid = (low + high) / 2;
        while !norm.is_char_boundary(mid) {
            mid -= 1;
        }
        match piece.original_offset(mid) < at {
            true => low = mid + norm[mid..].chars().next().map_or(1, char::len_utf8),
            false => high = mid,
        }
    }
    low
}

/// Whether normalized offset `at` inside `piece` is a place the pipeline may cut: the
/// characters on each side come from original characters on that side only, and neither
/// they nor the original characters there are white space or the `Metaspace` replacement.
fn clean_cut(piece: &NormalizedString, original: &str, at: usize) -> bool {
    let norm = piece.normalized();
    if at == 0 || at >= norm.len() || !norm.is_char_boundary(at) {
        return false;
    }
    let before = norm[..at].chars().next_back();
    let after = norm[at..].chars().next();
    let spacing = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || c == '▁');
    if spacing(before) || spacing(after) {
        return false;
    }
    let previous = at - before.map_or(1, char::len_utf8);
    let cut = piece.original_offset(at);
    if piece.original_span(previous..at).end > cut {
        return false;
    }
    !spacing(original[..cut].chars().next_back()) && !spacing(original[cut..].chars().next())
}

/// The search state a pre-token of a part after a cut inside a pre-token takes up: the first
/// one's, when it is the model's and starts the part.
pub(super) fn first_resume<'r>(
    splits: &[Split],
    split: &Split,
    resume: Option<&'r Resume<f64>>,
) -> Option<&'r Resume<f64>> {
    let first = std::ptr::eq(split, &splits[0]) && split.added.is_none();
    resume.filter(|_| first && split.text.extent().start == 0)
}
