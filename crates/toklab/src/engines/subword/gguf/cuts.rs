//! Where a GGUF tokenizer may cut a long text without changing a token, and what a piece
//! leaves for the piece after a cut: each family's rule ([`Gguf::cut_rule`]) and a unigram
//! vocabulary's cut where its best paths meet ([`Gguf::meeting_cut`]).

use super::ugm::{self, MEETING_WINDOW, UgmCarry};
use super::vocab::{Family, Vocab, attr};
use super::{Fragment, Gguf, split};
use crate::core::pieces::Carry;
use crate::engines::subword::spm::cuts::SpaceCuts;
use crate::engines::subword::unigram::viterbi::Resume;

/// Where a GGUF tokenizer may cut a text without changing a token.
pub(super) enum Cuts {
    Nowhere,
    /// At an ASCII space between two ASCII letters.
    BetweenLetters,
    /// At an ASCII space between two ASCII letters, or before a character a word starts at
    /// whatever precedes it ([`super::engines::starts_word`]) that no special token matched in
    /// text holds (these characters, sorted).
    Words(Vec<char>),
    /// Before a space after one of some ASCII letters and digits (SentencePiece vocabularies).
    AfterAscii(SpaceCuts),
}

/// What a piece leaves in its [`Carry`] for the piece after a cut: whether it ended with a
/// special token (a SentencePiece vocabulary puts a `▁` before text that follows one), and a
/// `t5` vocabulary's search state.
#[derive(Default)]
pub(super) struct PieceCarry {
    pub(super) ended_special: bool,
    pub(super) ugm: UgmCarry,
}

impl Gguf {
    /// Where the tokenizer of `vocab` may cut a text, when no special token matched in text
    /// holds an ASCII letter or digit followed by a space (every cut below is before a space
    /// after one, so no special token crosses it; GPT-NeoX's runs of spaces are no obstacle)
    /// or takes the spaces around it (a special token that ends the first part would take the
    /// space that starts the second):
    /// - byte-level BPE: at a space between ASCII letters when its pre-tokenizer makes that a
    ///   boundary of pieces ([`split::cuts_at_spaces`]) and every ASCII letter is a token, so
    ///   the token before the cut has an id and no run of dropped bytes, which becomes one
    ///   token, reaches across it;
    /// - SentencePiece BPE (`llama`): before a space after an ASCII letter or digit `c` that is
    ///   a token and that no token joins to the `▁` after it ([`SpaceCuts::unless_joined`]):
    ///   every merge makes a token, so no symbol reaches across, and a merge's score depends on
    ///   its pair alone, so each side merges as it would alone; the part after the cut starts
    ///   with its space and gets no `▁` in front, unless the part before ended with a special
    ///   token ([`PieceCarry`]);
    /// - WordPiece (`bert`): as `wordpiece:` cuts, at a space between ASCII letters, or before
    ///   a punctuation character or CJK ideograph no special token holds, where a word starts
    ///   whatever precedes it: words end at white space and each is matched alone, and
    ///   characters are normalized one by one; a word that cannot be matched is the unknown
    ///   token, which the vocabulary must have (else its bytes would be dropped, and runs of
    ///   dropped bytes join across words).
    ///
    /// Gemma 4's BPE, which merges a whole line, is not cut here; unigram (`t5`) vocabularies
    /// cut where their best paths meet ([`Gguf::meeting_cut`]).
    pub(super) fn cut_rule(vocab: &Vocab, matched: &[u32]) -> Cuts {
        let specials_stay = matched.iter().all(|&id| {
            let joined = |w: &[u8]| w[0].is_ascii_alphanumeric() && w[1] == b' ';
            !vocab.tokens.bytes(id).windows(2).any(joined)
                && !vocab.has(id, attr::LSTRIP | attr::RSTRIP)
        });
        let token = |c: u8| vocab.id(&char::from(c).to_string()).is_some();
        match vocab.family {
            _ if !specials_stay => Cuts::Nowhere,
            Family::Bpe
                if !split::raw(&vocab.pre)
                    && split::patterns(&vocab.pre)
                        .is_some_and(|(p, _)| split::cuts_at_spaces(&p))
                    && (b'A'..=b'Z').chain(b'a'..=b'z').all(token) =>
            {
                Cuts::BetweenLetters
            }
            Family::Spm => {
                let tokens = vocab.tokens.iter();
                SpaceCuts::unless_joined(token, tokens, "▁".as_bytes())
                    .map_or(Cuts::Nowhere, Cuts::AfterAscii)
            }
            Family::Wpm if vocab.unk.is_some() => {
                let texts = matched.iter().map(|&id| vocab.tokens.text(id));
                let mut held: Vec<char> = texts.flat_map(str::chars).collect();
                held.sort_unstable();
                held.dedup();
                Cuts::Words(held)
            }
            _ => Cuts::Nowhere,
        }
    }

    /// Where a `t5` vocabulary's best paths meet in the text fragment at or after `from`
    /// ([`ugm::Ugm::meeting_cut`]), for the piece that starts at `start`: only the window of
    /// [`MEETING_WINDOW`] bytes past `from` is partitioned and searched, the fragment the piece
    /// starts in going on from the state `carry` holds. The state after the cut is left there.
    pub(super) fn meeting_cut(
        &self,
        ugm: &ugm::Ugm,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        let mut end = from.saturating_add(MEETING_WINDOW).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let window = &text[start..end];
        let trusted = match end == text.len() {
            true => window.len(),
            false => window.len().saturating_sub(ugm.margin()),
        };
        let from = from - start;
        let carried = carry
            .get_mut::<PieceCarry>()
            .and_then(|s| s.ugm.resume.clone());
        let (at, next) = self.partition(window).into_iter().find_map(|fragment| {
            let Fragment::Text(begin, finish) = fragment else {
                return None;
            };
            if finish <= from {
                return None;
            }
            let continued = begin == 0 && start > 0;
            let resume = match continued {
                true => carried.clone()?,
                false => Resume::at(0.0),
            };
            let (cut, next) = ugm.meeting_cut(
                &window[begin..finish],
                continued,
                &resume,
                from.saturating_sub(begin),
                trusted.saturating_sub(begin),
            )?;
            Some((begin + cut, next))
        })?;
        match carry.get_mut::<PieceCarry>() {
            Some(state) => state.ugm.next = Some(next),
            None => carry.put(PieceCarry {
                ended_special: false,
                ugm: UgmCarry {
                    resume: None,
                    next: Some(next),
                },
            }),
        }
        Some(start + at)
    }
}
