//! llama.cpp's unigram tokenizer (`tokenizer.ggml.model` = `t5`, llama.cpp's UGM): the text is
//! normalized with the vocabulary's precompiled character map, then cut by the one Viterbi
//! search of [`crate::engines::subword::unigram`]. It is SentencePiece's unigram model as
//! llama.cpp rewrote it (`llm_tokenizer_ugm`), and where the two differ this follows llama.cpp,
//! the reference for GGUF files:
//! - white space: with `remove_extra_whitespaces`, spaces are dropped and *every* word gets a
//!   `▁` in front, the first one too, whatever `add_space_prefix` says (SentencePiece adds the
//!   first only with its dummy prefix); without it, each space is a `▁` and `add_space_prefix`
//!   puts one before the first word, not before the text (so leading spaces come first);
//! - user-defined tokens score 0 (SentencePiece scores them by length, above every piece),
//!   and unused tokens are pieces like any other (SentencePiece leaves them out);
//! - path totals are `f64` sums and never shifted back to zero (SentencePiece adds `f32` and
//!   shifts at ±100,000), so equal-looking paths are told apart as llama.cpp does.
//!
//! llama.cpp never reads `escape_whitespaces` or `treat_whitespace_as_suffix` from a GGUF file:
//! for `t5` spaces are always escaped as `▁` and a `▁` always starts a piece.
//!
//! Every normalized byte remembers where in the original it came from
//! ([`NormalizedString`]), so tokens get spans of the text as given: a `▁` stands for the
//! spaces before its word (or, put before a word no space precedes, for nothing), and text
//! the map removes goes to the token before it (SentencePiece's convention, as the `llama`
//! family's spans have it).

use std::ops::Range;

use super::engines::Emit;
use super::vocab::{Vocab, attr};
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::core::normalized::{CharsMap, CharsMapError, NormalizedString};
use crate::engines::subword::unigram::trie::PieceTrie;
use crate::engines::subword::unigram::viterbi::{
    Resume, Search, Viterbi, best_path_resumed, find_cut,
};

/// What llama.cpp subtracts from the lowest normal score to score an unknown character.
const UNKNOWN_PENALTY: f32 = 10.0;

/// The id the search gives a character no piece covers when the vocabulary has no unknown
/// token (llama.cpp then writes the invalid id -1; here such text gets no id).
const NO_UNKNOWN: u32 = u32::MAX;

/// A `t5` vocabulary made ready to tokenize.
pub struct Ugm {
    /// The tokens a path may use (normal, user-defined, unused) with the score each adds.
    pieces: PieceTrie,
    /// The user-defined tokens, which normalization passes through unchanged.
    user_defined: PieceTrie,
    /// `tokenizer.ggml.precompiled_charsmap`, when the file has one.
    map: Option<CharsMap>,
    /// The unknown token and the score of an unknown character.
    unknown: (u32, f64),
    /// `add_space_prefix`: a `▁` before the first word.
    prefix_space: bool,
    /// `remove_extra_whitespaces`: spaces dropped, a `▁` before every word.
    merge_spaces: bool,
    /// The longest token, in bytes: how far past a start the search looks.
    max_len: usize,
}

/// The tries a `t5` vocabulary is searched with: made from the vocabulary at a first load
/// (most of its time) and kept in the model cache, so a second load reads them as they are.
pub struct Tries {
    pieces: PieceTrie,
    user_defined: PieceTrie,
}

impl Tries {
    /// The tokens a path may use (normal, user-defined, unused) with the score each adds, and
    /// the user-defined ones.
    pub fn new(vocab: &Vocab) -> Tries {
        let ids = 0..vocab.tokens.len() as u32;
        let pieces = PieceTrie::new(ids.clone().filter_map(|id| {
            let score = if vocab.has(id, attr::USER_DEFINED) {
                0.0
            } else if vocab.has(id, attr::NORMAL | attr::UNUSED) {
                vocab.scores[id as usize]
            } else {
                return None;
            };
            Some((vocab.tokens.bytes(id), id, score))
        }));
        let user_defined = PieceTrie::new(
            ids.filter(|&id| vocab.has(id, attr::USER_DEFINED))
                .map(|id| (vocab.tokens.bytes(id), id, 0.0)),
        );
        Tries {
            pieces,
            user_defined,
        }
    }

    /// Reads what [`Ugm::write_tries`] wrote, for a vocabulary of `tokens` tokens; `None`
    /// when a trie does not hold.
    pub fn read_flat(r: &mut FlatReader, tokens: usize) -> Option<Tries> {
        let bound = u32::try_from(tokens).ok()?;
        Some(Tries {
            pieces: PieceTrie::read_flat(r, bound)?,
            user_defined: PieceTrie::read_flat(r, bound)?,
        })
    }
}

/// What a `t5` vocabulary leaves in a [`crate::core::pieces::Carry`] at a cut inside a text
/// fragment ([`Ugm::meeting_cut`]): where the search of the text after it takes up the whole
/// text's search, and, once the cut ending a piece is found, the same for the piece after it
/// with the normalized length of the fragment that ends there.
#[derive(Default)]
pub struct UgmCarry {
    /// The search state at the piece's start.
    pub resume: Option<Resume<f64>>,
    /// The search state at the cut that ends the piece.
    pub next: Option<(usize, Resume<f64>)>,
}

/// How far past where a piece may end the search looks for where its paths meet, in bytes of
/// the original text.
pub const MEETING_WINDOW: usize = 1 << 16;

impl Ugm {
    /// The tokenizer of `vocab`; the error says why its character map cannot be read.
    #[cfg(test)]
    pub fn new(vocab: &Vocab) -> Result<Ugm, CharsMapError> {
        Ugm::with_tries(vocab, Tries::new(vocab))
    }

    /// The tokenizer of `vocab` with its tries made before (read from the model cache).
    pub fn with_tries(vocab: &Vocab, tries: Tries) -> Result<Ugm, CharsMapError> {
        let map = match vocab.charsmap.is_empty() {
            true => None,
            false => Some(CharsMap::parse(&vocab.charsmap)?),
        };
        let min_score = (0..vocab.tokens.len() as u32)
            .filter(|&id| vocab.has(id, attr::NORMAL))
            .map(|id| vocab.scores[id as usize])
            .fold(f32::MAX, f32::min);
        let Tries {
            pieces,
            user_defined,
        } = tries;
        // The penalty is taken in `f32`, as llama.cpp's `float` fields do.
        let unknown_score = f64::from(min_score - UNKNOWN_PENALTY);
        Ok(Ugm {
            pieces,
            user_defined,
            map,
            unknown: (vocab.unk.unwrap_or(NO_UNKNOWN), unknown_score),
            prefix_space: vocab.add_space_prefix,
            merge_spaces: vocab.remove_extra_whitespaces,
            max_len: vocab.tokens.max_len().max(1),
        })
    }

    /// Writes its tries for [`Tries::read_flat`].
    pub fn write_tries(&self, w: &mut FlatWriter) {
        self.pieces.write_flat(w);
        self.user_defined.write_flat(w);
    }

    /// One normalization step at the start of `rest`: the longest user-defined token as it
    /// is, else the longest rule of the character map, else the first character unchanged;
    /// the text it becomes and the length it replaces.
    fn prefix<'a>(&'a self, rest: &'a str) -> (&'a str, usize) {
        let mut user = 0;
        self.user_defined
            .prefixes(rest.as_bytes(), |length, _, _| user = length);
        if user > 0 {
            return (&rest[..user], user);
        }
        // llama.cpp takes a rule's bytes as they are; a map whose rule ends inside a
        // character or writes invalid UTF-8 (none of SentencePiece's do) keeps the character.
        if let Some((replacement, length)) = self.map.as_ref().and_then(|map| map.rule(rest)) {
            return (replacement, length);
        }
        let length = rest.chars().next().map_or(1, char::len_utf8);
        (&rest[..length], length)
    }

    /// `text` normalized as llama.cpp's UGM session does (see the module doc). With merged
    /// spaces, the `▁` before a word that follows spaces is written for the first of them, so
    /// it stands for them in the spans, and one after the last word is stripped: the text is
    /// llama.cpp's, and spans follow the `llama` family's (a run of spaces goes with its
    /// `▁`, leading and trailing ones with no token).
    #[cfg(test)]
    fn normalize<'t>(&self, text: &'t str) -> NormalizedString<'t> {
        self.normalize_part(text, false, None)
    }

    /// [`Ugm::normalize`] of `text`, or (`continued`) of the part of a fragment after a cut
    /// inside a word ([`Ugm::meeting_cut`]): no `▁` is put before it. With `steps`, notes
    /// where the text may be cut, as `(original offset, normalized offset)`: between two steps
    /// that write something, the first ending inside a word (so the part after it, continued,
    /// normalizes as the whole text does there).
    fn normalize_part<'t>(
        &self,
        text: &'t str,
        continued: bool,
        mut steps: Option<&mut Vec<(usize, usize)>>,
    ) -> NormalizedString<'t> {
        let mut normalized = NormalizedString::new(text);
        let (mut in_word, mut prefixed, mut run_marked) = (false, false, false);
        if continued {
            (in_word, prefixed) = (true, self.prefix_space || self.merge_spaces);
        }
        let (mut written, mut clean_before) = (0, false);
        normalized.rewrite(|rest, out| {
            let written_from = out.len();
            let (replacement, length) = self.prefix(rest);
            for c in replacement.chars() {
                if c == ' ' {
                    in_word = false;
                    if !self.merge_spaces || (prefixed && !run_marked) {
                        out.push('▁');
                        run_marked = self.merge_spaces;
                    }
                    continue;
                }
                if !in_word {
                    in_word = true;
                    let marked = std::mem::take(&mut run_marked);
                    if (self.prefix_space && !prefixed) || (self.merge_spaces && !marked) {
                        out.push('▁');
                    }
                    prefixed |= self.prefix_space || self.merge_spaces;
                }
                out.push(c);
            }
            let wrote = out.len() - written_from;
            if let Some(steps) = steps.as_deref_mut()
                && clean_before
                && wrote > 0
            {
                steps.push((text.len() - rest.len(), written));
            }
            clean_before = wrote > 0 && in_word && !run_marked;
            written += wrote;
            length
        });
        if run_marked {
            normalized.strip_end('▁'.len_utf8());
        }
        normalized
    }

    /// The tokens of `text[range]`: the best path over the normalized text, each run of
    /// unknown characters one unknown token, with spans in `text`.
    #[cfg(test)]
    pub fn encode(&self, text: &str, range: Range<usize>, out: &mut Vec<Emit>) {
        self.encode_resumed(text, range, false, &Resume::at(0.0), out);
    }

    /// How llama.cpp searches: `f64` totals, never shifted, the unknown token where no piece
    /// covers a character alone.
    fn options(&self) -> Viterbi<f64> {
        Viterbi {
            unknown: Some(self.unknown),
            reset: None,
            record: false,
        }
    }

    /// The pieces of the vocabulary at each start of normalized text `s`.
    fn candidates(&self, s: &str) -> impl FnMut(&mut Search<f64>) {
        move |search: &mut Search<f64>| {
            self.pieces
                .prefixes(&s.as_bytes()[search.start()..], |length, id, score| {
                    search.offer(length, id, f64::from(score))
                })
        }
    }

    /// [`Ugm::encode`] of a fragment's part, after a cut inside it when `continued`, its search
    /// taken up where `resume` says the whole fragment's was there; returns the normalized
    /// length.
    pub fn encode_resumed(
        &self,
        text: &str,
        range: Range<usize>,
        continued: bool,
        resume: &Resume<f64>,
        out: &mut Vec<Emit>,
    ) -> usize {
        let normalized = self.normalize_part(&text[range.clone()], continued, None);
        let s = normalized.normalized();
        if s.is_empty() {
            return 0;
        }
        let path = best_path_resumed(resume, s, &self.options(), self.candidates(s))
            .expect("the unknown piece reaches every character boundary");
        let mut previous_unknown = false;
        for (start, end, id) in path.pieces {
            let unknown = id == self.unknown.0;
            let end = range.start + normalized.original_offset(end);
            if unknown && previous_unknown {
                out.last_mut().expect("the unknown token before").end = end;
                continue;
            }
            previous_unknown = unknown;
            out.push(Emit {
                id: (id != NO_UNKNOWN).then_some(id),
                start: range.start + normalized.original_offset(start),
                end,
            });
        }
        s.len()
    }

    /// Where the best paths over `fragment` (a text fragment, or its part after a cut when
    /// `continued`, searched from `resume`) meet at or after original offset `from`, inside a
    /// word and after a known piece ([`find_cut`]); the fragment's text past `trusted` may be
    /// cut short. The original offset of the cut, and the normalized length before it and the
    /// state the part after it takes up.
    pub fn meeting_cut(
        &self,
        fragment: &str,
        continued: bool,
        resume: &Resume<f64>,
        from: usize,
        trusted: usize,
    ) -> Option<(usize, (usize, Resume<f64>))> {
        let mut steps = Vec::new();
        let normalized = self.normalize_part(fragment, continued, Some(&mut steps));
        let s = normalized.normalized();
        steps.retain(|&(_, at)| at < s.len());
        let step_at = |raw: usize| steps.partition_point(|&(at, _)| at < raw);
        let trusted = match trusted >= fragment.len() {
            true => s.len(),
            false => {
                let norm = steps.get(step_at(trusted)).map_or(0, |&(_, n)| n);
                norm.saturating_sub(self.max_len)
            }
        };
        let from = steps.get(step_at(from))?.1;
        let step_of = |norm: usize| steps.binary_search_by_key(&norm, |&(_, n)| n).ok();
        let (cut, next) = find_cut(
            resume,
            s,
            &self.options(),
            self.candidates(s),
            from,
            trusted,
            |at, id| id != self.unknown.0 && step_of(at).is_some(),
        )?;
        Some((steps[step_of(cut)?].0, (cut, next)))
    }

    /// The bytes at the end of a window searched for a meeting that are not trusted to be
    /// partitioned and normalized as in the whole text.
    pub fn margin(&self) -> usize {
        (1 << 10).max(2 * self.max_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::gguf::vocab::Family;

    /// A `t5` vocabulary of `<pad>`, `</s>`, `<unk>` and `pieces` (text, score, attribute),
    /// without a character map.
    fn vocab(pieces: &[(&str, f32, u16)], add_space_prefix: bool, merge: bool) -> Vocab {
        let mut all = vec![
            ("<pad>", 0.0, attr::CONTROL),
            ("</s>", 0.0, attr::CONTROL),
            ("<unk>", 0.0, attr::UNKNOWN),
        ];
        all.extend_from_slice(pieces);
        Vocab {
            family: Family::Ugm,
            pre: "default".into(),
            tokens: super::super::tokens::Tokens::new(all.iter().map(|p| p.0)),
            scores: all.iter().map(|p| p.1).collect(),
            attrs: all.iter().map(|p| p.2).collect(),
            merges: Vec::new(),
            specials: Vec::new(),
            unk: Some(2),
            add_space_prefix,
            remove_extra_whitespaces: merge,
            charsmap: Vec::new(),
            max_token_len: 8,
        }
    }

    fn encode(ugm: &Ugm, text: &str) -> Vec<(Option<u32>, &'static str)> {
        let mut out = Vec::new();
        ugm.encode(text, 0..text.len(), &mut out);
        let text: &'static str = text.to_string().leak();
        out.iter().map(|e| (e.id, &text[e.start..e.end])).collect()
    }

    const N: u16 = attr::NORMAL;

    #[test]
    fn merged_spaces_put_a_mark_before_every_word_even_without_the_prefix_option() {
        let pieces = [
            ("▁a", -1.0, N),
            ("▁b", -1.0, N),
            ("a", -2.0, N),
            ("▁", -3.0, N),
        ];
        let ugm = Ugm::new(&vocab(&pieces, false, true)).unwrap();
        assert_eq!(ugm.normalize("  a   b ").normalized(), "▁a▁b");
        // A run of spaces goes with its `▁`, leading and trailing ones with no token.
        assert_eq!(
            encode(&ugm, "  a   b "),
            [(Some(3), "a"), (Some(4), "   b")]
        );
        assert_eq!(ugm.normalize(" ").normalized(), "");
        assert_eq!(ugm.normalize("a ").normalized(), "▁a");
        let ugm = Ugm::new(&vocab(&pieces, false, false)).unwrap();
        assert_eq!(ugm.normalize(" a b").normalized(), "▁a▁b");
        assert_eq!(ugm.normalize("a  b").normalized(), "a▁▁b");
        let ugm = Ugm::new(&vocab(&pieces, true, false)).unwrap();
        // The prefix goes before the first word, after any leading spaces.
        assert_eq!(ugm.normalize("  a b").normalized(), "▁▁▁a▁b");
    }

    #[test]
    fn user_defined_tokens_score_zero_and_unused_ones_are_pieces() {
        let pieces = [
            ("a", -1.0, N),
            ("b", -1.0, N),
            ("ab", -5.0, attr::USER_DEFINED),
            ("ba", -0.5, attr::UNUSED),
        ];
        let ugm = Ugm::new(&vocab(&pieces, false, false)).unwrap();
        // `ab` at 0 beats `a` + `b` at -2, and `ba` (-0.5) beats `b` + `a`; in `bab`,
        // `b` + `ab` (-1) beats `ba` + `b` (-1.5).
        assert_eq!(encode(&ugm, "ab"), [(Some(5), "ab")]);
        assert_eq!(encode(&ugm, "ba"), [(Some(6), "ba")]);
        assert_eq!(encode(&ugm, "bab"), [(Some(4), "b"), (Some(5), "ab")]);
    }

    #[test]
    fn runs_of_unknown_characters_are_one_unknown_token() {
        let pieces = [("a", -1.0, N), ("▁", -1.0, N)];
        let ugm = Ugm::new(&vocab(&pieces, false, false)).unwrap();
        assert_eq!(
            encode(&ugm, "aé語a"),
            [(Some(3), "a"), (Some(2), "é語"), (Some(3), "a")]
        );
        assert_eq!(ugm.unknown.1, -11.0);
    }
}
