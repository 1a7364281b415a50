//! Added tokens (HuggingFace's `added_vocabulary.rs`): strings found in the text before the
//! model runs, each one token. Those marked `normalized: false` are found in the raw text
//! first; the text between them is normalized, and those marked `normalized: true` are found
//! in the normalized text (in their own normalized form). `single_word` keeps a match only
//! between non-word characters; `lstrip` and `rstrip` take the whitespace beside it into
//! the token. `special=none` leaves special tokens unmatched, as the reference's
//! `encode_special_tokens`.

use aho_corasick::AhoCorasick;

use super::json::AddedTokenJson;
use super::normalizers::Normalizer;
use crate::core::normalized::NormalizedString;
use crate::engines::subword::bpe::specials::{TooManyLiterals, literal_matcher};

/// A piece of text on its way through the pipeline: an added token (its id), or text the
/// normalizer, pre-tokenizer and model still have to go through.
#[derive(Clone, Debug)]
pub struct Split<'o> {
    /// The text, aligned to the original.
    pub text: NormalizedString<'o>,
    /// The added token this piece is, if it is one.
    pub added: Option<u32>,
}

/// One set of added tokens and its matcher.
struct Matcher {
    automaton: AhoCorasick,
    /// Index into the tokens, per pattern.
    tokens: Vec<usize>,
    /// The characters of the patterns, sorted.
    chars: Vec<char>,
}

/// The added tokens of a file.
pub struct AddedVocabulary {
    /// The tokens, in file order.
    pub tokens: Vec<AddedTokenJson>,
    /// Tokens matched in the raw text.
    raw: Option<Matcher>,
    /// Tokens matched in the normalized text.
    normalized: Option<Matcher>,
    /// Index into the tokens by id.
    by_id: std::collections::HashMap<u32, usize>,
}

/// Which set a split looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Tokens with `normalized: false`, in the raw text.
    Raw,
    /// Tokens with `normalized: true`, in the normalized text.
    Normalized,
}

impl AddedVocabulary {
    /// The tokens and their matchers; `special` false leaves special tokens out of matching.
    /// An error when the tokens are too large for a matcher.
    pub(crate) fn new(
        tokens: Vec<AddedTokenJson>,
        normalizer: Option<&Normalizer>,
        special: bool,
    ) -> Result<AddedVocabulary, TooManyLiterals> {
        let build = |normalized: bool| -> Result<Option<Matcher>, TooManyLiterals> {
            let mut patterns = Vec::new();
            let mut indices = Vec::new();
            for (index, token) in tokens.iter().enumerate() {
                if token.normalized != normalized || token.content.is_empty() {
                    continue;
                }
                if token.special && !special {
                    continue;
                }
                let pattern = match (normalized, normalizer) {
                    (true, Some(normalizer)) => {
                        let mut text = NormalizedString::new(&token.content);
                        normalizer.apply(&mut text);
                        text.normalized().to_string()
                    }
                    _ => token.content.clone(),
                };
                if pattern.is_empty() {
                    continue;
                }
                patterns.push(pattern);
                indices.push(index);
            }
            if patterns.is_empty() {
                return Ok(None);
            }
            let mut chars: Vec<char> = patterns.iter().flat_map(|p| p.chars()).collect();
            chars.sort_unstable();
            chars.dedup();
            Ok(Some(Matcher {
                automaton: literal_matcher(&patterns)?,
                tokens: indices,
                chars,
            }))
        };
        Ok(AddedVocabulary {
            raw: build(false)?,
            normalized: build(true)?,
            by_id: tokens
                .iter()
                .enumerate()
                .map(|(index, t)| (t.id as u32, index))
                .collect(),
            tokens,
        })
    }

    /// The added token with this id.
    pub fn token(&self, id: u32) -> Option<&AddedTokenJson> {
        self.by_id.get(&id).map(|&index| &self.tokens[index])
    }

    /// Whether some added token the text is searched for (raw, or normalized as it is
    /// searched for) holds the character `c`: where none does, no match can reach across a
    /// cut before `c` or start there.
    pub fn holds(&self, c: char) -> bool {
        [&self.raw, &self.normalized]
            .into_iter()
            .flatten()
            .any(|m| m.chars.binary_search(&c).is_ok())
    }

    /// The id of an added token by its text.
    pub fn id(&self, content: &str) -> Option<u32> {
        self.tokens
            .iter()
            .find(|t| t.content == content)
            .map(|t| t.id as u32)
    }

    /// Cuts `piece` at the added tokens of `stage`, appending the non-empty parts to `out`.
    pub fn split<'o>(&self, stage: Stage, piece: NormalizedString<'o>, out: &mut Vec<Split<'o>>) {
        let matcher = match stage {
            Stage::Raw => &self.raw,
            Stage::Normalized => &self.normalized,
        };
        let Some(matcher) = matcher else {
            if !piece.is_empty() {
                out.push(Split {
                    text: piece,
                    added: None,
                });
            }
            return;
        };
        let text = piece.normalized();
        let mut cuts: Vec<(usize, usize, Option<u32>)> = Vec::new();
        let mut at = 0;
        for found in matcher.automaton.find_iter(text) {
            let token = &self.tokens[matcher.tokens[found.pattern().as_usize()]];
            let (mut start, mut end) = (found.start(), found.end());
            if token.single_word {
                let word_before = text[..start].chars().next_back().is_some_and(is_word);
                let word_after = text[end..].chars().next().is_some_and(is_word);
                if word_before || word_after {
                    continue;
                }
            }
            if token.lstrip {
                let kept = text[..start].trim_end_matches(char::is_whitespace).len();
                start = kept.max(at);
            }
            if token.rstrip {
                end = text.len() - text[end..].trim_start_matches(char::is_whitespace).len();
            }
            if start > at {
                cuts.push((at, start, None));
            }
            cuts.push((start, end, Some(token.id as u32)));
            at = end;
        }
        if cuts.is_empty() {
            if !piece.is_empty() {
                out.push(Split {
                    text: piece,
                    added: None,
                });
            }
            return;
        }
        if at < text.len() {
            cuts.push((at, text.len(), None));
        }
        out.extend(
            cuts.into_iter()
                .filter(|c| c.1 > c.0)
                .map(|(start, end, added)| Split {
                    text: piece.slice(start..end),
                    added,
                }),
        );
    }
}

/// A word character as the reference's `\w` sees it.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || unicode_normalization::char::is_combining_mark(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(content: &str, id: u64, flags: &str) -> AddedTokenJson {
        AddedTokenJson {
            id,
            content: content.into(),
            single_word: flags.contains('w'),
            lstrip: flags.contains('l'),
            rstrip: flags.contains('r'),
            normalized: flags.contains('n'),
            special: flags.contains('s'),
        }
    }

    fn parts(vocab: &AddedVocabulary, text: &str) -> Vec<(String, Option<u32>)> {
        let mut out = Vec::new();
        vocab.split(Stage::Raw, NormalizedString::new(text), &mut out);
        out.iter()
            .map(|s| (s.text.normalized().to_string(), s.added))
            .collect()
    }

    #[test]
    fn strip_and_single_word() {
        let vocab = AddedVocabulary::new(
            vec![token("<m>", 5, "lrs"), token("cat", 6, "w")],
            None,
            true,
        )
        .unwrap();
        assert_eq!(
            parts(&vocab, "a  <m> b"),
            [
                ("a".into(), None),
                ("  <m> ".into(), Some(5)),
                ("b".into(), None)
            ]
        );
        assert_eq!(
            parts(&vocab, "cats cat"),
            [("cats ".into(), None), ("cat".into(), Some(6))]
        );
    }

    #[test]
    fn special_none_leaves_special_tokens_as_text() {
        let vocab =
            AddedVocabulary::new(vec![token("<s>", 1, "s"), token("<x>", 2, "")], None, false)
                .unwrap();
        assert_eq!(
            parts(&vocab, "<s><x>"),
            [("<s>".into(), None), ("<x>".into(), Some(2))]
        );
    }
}
