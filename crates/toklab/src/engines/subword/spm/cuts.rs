//! Where a SentencePiece model may cut a long text: just before a space that follows an
//! ASCII letter or digit `c`, when nothing the model does can reach across that point. The
//! part after the cut is normalized and encoded as the middle of a text
//! ([`super::Normalizer::normalize_part`]): its space becomes the `▁` it is in the whole
//! text, with no dummy prefix, so its tokens are the whole text's, shifted.
//!
//! Why the cut is exact, step by step:
//! - normalizing: no character-map rule has a space after its first byte, and no
//!   user-defined piece has one, so no rewrite starting before the cut covers it; `c` starts
//!   no rule and no user-defined piece, so it stays `c` and the space is not dropped as a
//!   repeat of the one before;
//! - encoding BPE: merges join neighbours into pieces of the vocabulary, so a token across
//!   the cut would be a piece holding `c▁`: when no piece does, the merges on each side are
//!   those of that side alone (a merge's rank depends on its pair only). `c` and `▁` are
//!   pieces, so neither is an unknown character, which would join the unknown ones next to
//!   it;
//! - encoding unigram: a lattice node across the cut would be a piece holding `c▁`, so when
//!   no piece does, every path passes through the cut, and the best path over the whole text
//!   is the best path up to the cut followed by the best path after it that starts from the
//!   total the first ended with. The search's totals are `f32` sums from the text's start (and
//!   shifted to zero past ±100,000, which at the cut touches only the cut's own total): the
//!   piece after the cut is searched from that total, which its [`super::Carry`] brings
//!   ([`UnigramCarry`]), so every sum is the same float and every choice the same. `c` and
//!   `▁` are pieces of the lattice (normal ones), so neither is an unknown character, whose
//!   runs are fused into one token.
//!
//! Models that put `▁` at the end of a piece name no cut, nor do sampling tokenizers, or
//! models that fail a condition above.
//!
//! A unigram model also cuts where no space is ([`meeting_cut`]): the search runs on past
//! where the piece may end, and where the best paths to every end it can still extend meet,
//! every later path passes through, the whole text's best path too. The piece after such a
//! cut takes the search up in the state the whole text's had (its totals at the ends already
//! reached past the cut, [`UnigramCarry`]), so its sums, resets and choices are the
//! whole text's. The cut is on the original text where normalizing may be cut too
//! ([`super::Normalizer::normalize_steps`]), and never after an unknown piece, which the
//! next one could be fused with.

use super::normalizer::SPACE;
use super::proto::PieceType;
use super::{SpmModel, SpmToken};
use crate::core::pieces::Carry;
use crate::core::token::Tokenization;
use crate::engines::subword::unigram::viterbi::Resume;

/// What a unigram model leaves in a [`Carry`] at a cut: where the search of the text after it
/// takes up the whole text's search (at a cut no piece spans, the total of the best path up
/// to it), and, once [`meeting_cut`] has found where the piece ends, the same for the
/// piece after it with the normalized length of the piece it follows.
#[derive(Default)]
pub(super) struct UnigramCarry {
    pub(super) resume: Option<Resume<f32>>,
    pub(super) next: Option<(usize, Resume<f32>)>,
}

/// How far past where a piece may end a unigram model looks for where its paths meet, in bytes
/// of the original text: further, the piece would hold more than a cut saves.
pub const MEETING_WINDOW: usize = 1 << 16;

/// Bytes at the end of the window searched for a meeting that are not trusted to normalize as
/// in the whole text (a rule or user-defined piece reaching past the window's end).
const MARGIN: usize = 1 << 10;

/// Where a unigram model cuts a long text: before a space it may cut before (`spaces`) within
/// [`MEETING_WINDOW`] bytes of `from`, else where its best paths meet ([`meeting_cut`]), else
/// at a space further on.
pub(super) fn unigram_cut(
    model: &SpmModel,
    spaces: Option<&SpaceCuts>,
    text: &str,
    start: usize,
    from: usize,
    carry: &mut Carry,
) -> Option<usize> {
    let near = from.saturating_add(MEETING_WINDOW);
    let space = |from, until| spaces?.cut_point(text, from, until);
    space(from, near)
        .or_else(|| meeting_cut(model, text, start, from, carry))
        .or_else(|| space(near, text.len()))
}

/// Where the best paths of a unigram model over `text` meet at or after `from`, for the piece
/// that starts at `start` (its search taken up from what `carry` holds); the state the piece
/// after the cut takes up is left in `carry`. `None` when they do not meet within
/// [`MEETING_WINDOW`] bytes, at a place normalizing may be cut, after a known piece.
pub(super) fn meeting_cut(
    model: &SpmModel,
    text: &str,
    start: usize,
    from: usize,
    carry: &mut Carry,
) -> Option<usize> {
    let unigram = model.unigram.as_ref()?;
    if model.normalizer.treat_whitespace_as_suffix || from >= text.len() {
        return None;
    }
    let mut end = from.saturating_add(MEETING_WINDOW).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let window = &text[start..end];
    let mut norm = String::new();
    let steps = model
        .normalizer
        .normalize_steps(window, &mut norm, start > 0);
    let step_at = |raw: usize| steps.partition_point(|&(at, _)| at < raw);
    let trusted = match end == text.len() {
        true => norm.len(),
        false => {
            let margin = MARGIN.max(2 * unigram.max_len);
            let raw = window.len().saturating_sub(margin);
            let norm = steps.get(step_at(raw)).map_or(0, |&(_, n)| n);
            norm.saturating_sub(unigram.max_len)
        }
    };
    let from_norm = steps.get(step_at(from - start))?.1;
    let resume = carry
        .get_mut::<UnigramCarry>()
        .and_then(|state| state.resume.clone())
        .unwrap_or(Resume::at(0.0));
    let step_of = |norm: usize| steps.binary_search_by_key(&norm, |&(_, n)| n).ok();
    let (cut, next) =
        unigram.meeting_cut(model, &resume, &norm, from_norm, trusted, |at, id| {
            Some(id) != model.bpe.unk && step_of(at).is_some()
        })?;
    let raw = steps[step_of(cut)?].0;
    match carry.get_mut::<UnigramCarry>() {
        Some(state) => state.next = Some((cut, next)),
        None => carry.put(UnigramCarry {
            resume: None,
            next: Some((cut, next)),
        }),
    }
    Some(start + raw)
}

/// What the model allows: the ASCII bytes after which a space may be cut.
#[derive(Debug)]
pub struct SpaceCuts {
    /// Bit `c` set: a space after the ASCII byte `c` may be cut before.
    before_space: u128,
}

impl SpaceCuts {
    /// The cut rule of `model`, or `None` when it may not be cut anywhere.
    pub fn of(model: &SpmModel) -> Option<SpaceCuts> {
        let normalizer = &model.normalizer;
        if normalizer.treat_whitespace_as_suffix {
            return None;
        }
        // A unigram lattice holds only its normal and user-defined pieces; other kinds of piece
        // in the vocabulary are unknown characters to it.
        let piece = |bytes: &[u8]| {
            model.bpe.vocab.id(bytes).is_some_and(|id| {
                model.unigram.is_none() || model.pieces.kind(id as usize) == PieceType::Normal
            })
        };
        let inside_rules = normalizer.map.ascii_inside_rules();
        let user_space = normalizer
            .user_defined
            .iter()
            .any(|u| u.bytes().skip(1).any(|b| b == b' '));
        if inside_rules & (1 << b' ') != 0 || user_space {
            return None;
        }
        let space = if normalizer.escape_whitespaces {
            SPACE
        } else {
            " "
        };
        piece(space.as_bytes()).then_some(())?;
        let kept = |c: u8| {
            normalizer.map.keeps_ascii(&[c, b' '])
                && inside_rules & (1 << c) == 0
                && !normalizer.user_defined.iter().any(|u| u.as_bytes()[0] == c)
                && piece(&[c])
        };
        let pieces = (0..model.pieces.len()).map(|id| model.pieces.bytes(id));
        SpaceCuts::unless_joined(kept, pieces, space.as_bytes())
    }

    /// The cut rule of a vocabulary whose tokens a text is merged into, spaces written
    /// `space`: a space after the ASCII letter or digit `c` may be cut before when `allowed(c)`
    /// (the engine's own conditions) and no piece holds `c` followed by `space`, so no token
    /// reaches across the cut. `None` when no byte is left. The GGUF kinds' SentencePiece
    /// vocabularies share it.
    pub(crate) fn unless_joined<'a>(
        allowed: impl Fn(u8) -> bool,
        pieces: impl IntoIterator<Item = &'a [u8]>,
        space: &[u8],
    ) -> Option<SpaceCuts> {
        let mut before_space = 0u128;
        for c in (b'0'..=b'9').chain(b'A'..=b'Z').chain(b'a'..=b'z') {
            if allowed(c) {
                before_space |= 1 << c;
            }
        }
        // A piece holding `c▁` could be a token across the cut.
        for piece in pieces {
            for at in memchr::memmem::find_iter(piece, space) {
                if let Some(&c) = piece[..at].last().filter(|c| c.is_ascii()) {
                    before_space &= !(1 << c);
                }
            }
        }
        (before_space != 0).then_some(SpaceCuts { before_space })
    }

    /// The first offset at or after `from` and before `until` where `text` may be cut: a
    /// space after an allowed byte.
    pub fn cut_point(&self, text: &str, from: usize, until: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        (from.max(1)..until.min(bytes.len())).find(|&at| {
            let before = bytes[at - 1];
            bytes[at] == b' ' && before < 128 && self.before_space & (1 << before) != 0
        })
    }
}

impl super::SpmTokenizer {
    /// [`crate::Tokenizer::tokenize_piece`]'s tokens handed to `part` in parts of `size`
    /// tokens, in order (a sampling tokenizer's in one), so a piece no cut reaches into costs
    /// its merge and a part's tokens.
    pub(super) fn tokens_in_parts(
        &self,
        text: &str,
        carry: &mut Carry,
        size: usize,
        part: &mut dyn FnMut(Tokenization),
    ) {
        if let Some((tokens, _)) = self
            .sampler
            .as_ref()
            .and_then(|s| s.tokenize(&self.model, text))
        {
            return part(tokens);
        }
        let model = &self.model;
        if model.unigram.is_some() {
            let (normalized, tokens) = model.encode_part(text, carry);
            for chunk in tokens.chunks(size.max(1)) {
                let chunk = chunk.iter().map(|t| model.token(text, &normalized, t));
                part(Tokenization::new(chunk.collect()));
            }
            if tokens.is_empty() {
                part(Tokenization::default());
            }
            return;
        }
        // A BPE model's tokens made as its stretches are merged, none kept past a part.
        let normalized = model.normalizer.normalize_part(text, carry.continued());
        let norm = normalized.normalized();
        let mut tokens = Vec::new();
        let mut push = |t: SpmToken| {
            if tokens.len() >= size {
                part(Tokenization::new(std::mem::take(&mut tokens)));
            }
            tokens.push(model.token(text, &normalized, &t));
        };
        model.segments(norm, &mut |start, end, user| match user {
            Some(id) => push(SpmToken { id, start, end }),
            None => model.merge_segment(norm, start, end, &mut push),
        });
        part(Tokenization::new(tokens));
    }
}
