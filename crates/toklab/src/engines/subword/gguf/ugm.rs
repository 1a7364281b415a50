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
use crate::core::normalized::{CharsMap, CharsMapError, NormalizedString};
use crate::engines::subword::unigram::trie::PieceTrie;
use crate::engines::subword::unigram::viterbi::{Viterbi, best_path};

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
}

impl Ugm {
    /// The tokenizer of `vocab`; the error says why its character map cannot be read.
    pub fn new(vocab: &Vocab) -> Result<Ugm, CharsMapError> {
        let map = match vocab.charsmap.is_empty() {
            true => None,
            false => Some(CharsMap::parse(&vocab.charsmap)?),
        };
        let ids = 0..vocab.tokens.len() as u32;
        let min_score = ids
            .clone()
            .filter(|&id| vocab.has(id, attr::NORMAL))
            .map(|id| vocab.scores[id as usize])
            .fold(f32::MAX, f32::min);
        let pieces = PieceTrie::new(ids.clone().filter_map(|id| {
            let score = if vocab.has(id, attr::USER_DEFINED) {
                0.0
            } else if vocab.has(id, attr::NORMAL | attr::UNUSED) {
                vocab.scores[id as usize]
            } else {
                return None;
            };
            Some((vocab.tokens[id as usize].as_bytes(), id, score))
        }));
        let user_defined = PieceTrie::new(
            ids.filter(|&id| vocab.has(id, attr::USER_DEFINED))
                .map(|id| (vocab.tokens[id as usize].as_bytes(), id, 0.0)),
        );
        // The penalty is taken in `f32`, as llama.cpp's `float` fields do.
        let unknown_score = f64::from(min_score - UNKNOWN_PENALTY);
        Ok(Ugm {
            pieces,
            user_defined,
            map,
            unknown: (vocab.unk.unwrap_or(NO_UNKNOWN), unknown_score),
            prefix_space: vocab.add_space_prefix,
            merge_spaces: vocab.remove_extra_whitespaces,
        })
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
    fn normalize<'t>(&self, text: &'t str) -> NormalizedString<'t> {
        let mut normalized = NormalizedString::new(text);
        let (mut in_word, mut prefixed, mut run_marked) = (false, false, false);
        normalized.rewrite(|rest, out| {
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
            length
        });
        if run_marked {
            normalized.strip_end('▁'.len_utf8());
        }
        normalized
    }

    /// The tokens of `text[range]`: the best path over the normalized text, each run of
    /// unknown characters one unknown token, with spans in `text`.
    pub fn encode(&self, text: &str, range: Range<usize>, out: &mut Vec<Emit>) {
        let normalized = self.normalize(&text[range.clone()]);
        let s = normalized.normalized();
        if s.is_empty() {
            return;
        }
        let options = Viterbi {
            unknown: Some(self.unknown),
            reset: None,
            record: false,
        };
        let path = best_path(s, &options, |search| {
            self.pieces
                .prefixes(&s.as_bytes()[search.start()..], |length, id, score| {
                    search.offer(length, id, f64::from(score))
                })
        })
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
        let tokens: Vec<String> = all.iter().map(|p| p.0.to_string()).collect();
        Vocab {
            family: Family::Ugm,
            pre: "default".into(),
            ids: super::super::vocab::TokenIds::index(&tokens),
            tokens,
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
