//! BERT WordPiece (`wordpiece:vocab.txt`): the basic tokenizer's words, each split greedily
//! into the longest vocabulary pieces from the left, continuations written `##piece`; a word
//! with no split (or longer than 100 characters) is `[UNK]`. Special tokens (`[CLS]`, `[SEP]`,
//! …) are matched in the text as HuggingFace's BERT tokenizer does.
//!
//! ```
//! let bert = toklab::load("wordpiece:../../samples/bpe/sample-wordpiece.txt").unwrap();
//! let ids: Vec<u32> = bert.tokenize("Unaffable runners").iter().filter_map(|t| t.id).collect();
//! assert_eq!(ids, [282, 143, 134, 134, 235, 196, 343, 123, 295]);
//! let pieces: Vec<String> = ids.iter().filter_map(|&id| bert.piece(id)).collect();
//! assert_eq!(pieces, ["un", "##a", "##f", "##f", "##ab", "##le", "run", "##n", "##ers"]);
//! ```

pub(crate) mod basic;

use crate::core::registry::Registry;
use crate::core::trace::{Observer, Quiet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};
use crate::engines::subword::bpe::specials::Specials;
use crate::engines::subword::bpe::vocab::Vocab;

use crate::core::normalized::NormalizedString;
use crate::core::pieces::{char_boundary_where, nearest_cut, space_between_ascii_letters};

/// Words longer than this many characters are `[UNK]` (BERT's `max_input_chars_per_word`).
pub const MAX_WORD_CHARS: usize = 100;

/// The special tokens BERT vocabularies define, matched in text when present.
const SPECIAL_TOKENS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// A WordPiece vocabulary and its options.
pub struct WordPiece {
    /// The pieces and their ids; continuations carry their `##`.
    pub vocab: Vocab,
    /// Id of `[UNK]`, for words that cannot be split.
    pub unk: u32,
    /// Whether text is lower-cased first (uncased models).
    pub lowercase: bool,
    /// Whether accents are stripped first (by default as `lowercase`, as BERT's).
    pub strip_accents: bool,
    /// How normalized text is cut into words.
    pub words: WordSplit,
    /// Special tokens of the vocabulary, matched whole in the text.
    pub specials: Specials,
}

/// The pre-tokenizer that cuts normalized text into the words WordPiece splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordSplit {
    /// BERT's (`BertPreTokenizer`): whitespace separates words, every punctuation character
    /// and CJK ideograph is a word.
    Bert,
    /// HuggingFace's `Whitespace`: `\w+|[^\w\s]+`, so runs of punctuation stay together.
    Whitespace,
}

/// What `tokenize_with` reports: a word and its pieces (`None`: no split, so `[UNK]`), or a
/// special token with its id.
pub enum WordOrSpecial<'a> {
    /// A word and its pieces (`None`: it cannot be split, so it is `[UNK]`).
    Word(Span, Option<&'a [SubToken]>),
    /// A special token such as `[CLS]`, with its id.
    Special(Span, u32),
}

/// One piece of a word: its id (`None` if the word is unknown) and its normalized form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubToken {
    /// The piece's vocabulary id.
    pub id: u32,
    /// The piece as the vocabulary writes it (with `##` when it continues a word).
    pub form: String,
    /// Range of the word's normalized characters.
    pub chars: (usize, usize),
}

impl WordPiece {
    /// Reads `vocab.txt`: one piece per line, id = line number − 1.
    pub fn load(path: &Path, lowercase: bool) -> Result<WordPiece> {
        Self::load_with(path, lowercase, lowercase, WordSplit::Bert)
    }

    /// Reads `vocab.txt` with the normalizer's flags and the pre-tokenizer given.
    pub fn load_with(
        path: &Path,
        lowercase: bool,
        strip_accents: bool,
        words: WordSplit,
    ) -> Result<WordPiece> {
        let text = crate::engines::subword::bpe::load::read_text(path)?;
        let mut vocab = Vocab::with_capacity(32_000, text.len());
        // As tokenizers reads it: lines cut at `\n` only, trailing Unicode whitespace trimmed,
        // and every line an id, so a line that is only U+2028 (Chinese BERT vocabularies have
        // one) is the empty piece, which no word matches, and the ids after it stay in step.
        for (index, line) in text.split_terminator('\n').enumerate() {
            let piece = line.trim_end();
            let bad = |m: String| Error::format(path, Some(index + 1), m);
            vocab
                .insert(index as u32, piece.as_bytes())
                .map_err(|_| bad(format!("piece {piece:?} appears twice")))?;
        }
        let unk = vocab
            .id(b"[UNK]")
            .ok_or_else(|| Error::format(path, None, "the vocabulary has no [UNK] piece"))?;
        let specials = Specials::new(
            SPECIAL_TOKENS
                .iter()
                .filter_map(|t| Some((t.to_string(), vocab.id(t.as_bytes())?)))
                .collect(),
        );
        Ok(WordPiece {
            vocab,
            unk,
            lowercase,
            strip_accents,
            words,
            specials,
        })
    }

    /// Whether a word starts at the character `c` of a text whatever precedes it, and no
    /// special token holds `c` (so none is matched across a cut before it or starts there):
    /// what lets a text without spaces be cut before `c`. BERT's splitting makes each CJK
    /// ideograph a word, and, but for `words=whitespace`, each punctuation character; what
    /// either normalizes to, unless it is removed (unassigned code points in the ideograph
    /// blocks), is again one (`basic`'s tests check every character).
    pub fn starts_word(&self, c: char) -> bool {
        !self.specials.holds(c)
            && !basic::is_removed(c)
            && (basic::is_cjk(c) || (self.words == WordSplit::Bert && basic::is_punctuation(c)))
    }

    /// Greedy longest-match-first over one word. `None` means no split exists: the word is
    /// `[UNK]`.
    pub fn split(&self, word: &str) -> Option<Vec<SubToken>> {
        longest_match_first(&self.vocab, word, "##", MAX_WORD_CHARS, &mut |_, _| {})
    }

    /// Tokens of `text` with spans in it; `trace` receives each word (its span and pieces,
    /// `None` when it is `[UNK]`) and each special token.
    pub fn tokenize_with(
        &self,
        text: &str,
        trace: &mut impl for<'w> Observer<WordOrSpecial<'w>>,
    ) -> Vec<Token> {
        let mut tokens = Vec::new();
        let mut words = Vec::new();
        let mut at = 0;
        loop {
            let special = self.specials.find(text, at);
            let end = special.map_or(text.len(), |(s, _)| s.start);
            let normalized = basic::normalize(&text[at..end], self.lowercase, self.strip_accents);
            let norm = normalized.normalized();
            words.clear();
            match self.words {
                WordSplit::Bert => basic::words(norm, &mut words),
                WordSplit::Whitespace => basic::whitespace_words(norm, &mut words),
            }
            for word in &words {
                let word_span = owned_span(&normalized, at, word.clone());
                let split = self.split(&norm[word.clone()]);
                trace.observe(WordOrSpecial::Word(word_span, split.as_deref()));
                match split {
                    Some(pieces) => {
                        let mut offsets = norm[word.clone()]
                            .char_indices()
                            .map(|(i, _)| word.start + i)
                            .chain([word.end]);
                        let mut piece_start = word.start;
                        let mut next_char = 0;
                        for p in pieces {
                            // Byte offsets of the piece's characters in the normalized text.
                            let start = piece_start;
                            let end = offsets.nth(p.chars.1 - next_char).unwrap_or(word.end);
                            next_char = p.chars.1 + 1;
                            piece_start = end;
                            let span = owned_span(&normalized, at, start..end);
                            let mut token = Token::new(span, TokenKind::Subword)
                                .with_id(p.id)
                                .with_origin(Origin::Subword {
                                    id: p.id,
                                    rank: None,
                                });
                            if p.form != span.slice(text) {
                                token = token.with_form(p.form);
                            }
                            tokens.push(token);
                        }
                    }
                    None => tokens.push(
                        Token::new(word_span, TokenKind::Unknown)
                            .with_id(self.unk)
                            .with_origin(Origin::Subword {
                                id: self.unk,
                                rank: None,
                            })
                            .with_form("[UNK]"),
                    ),
                }
            }
            let Some((span, id)) = special else { break };
            tokens.push(
                Token::new(span, TokenKind::Special)
                    .with_id(id)
                    .with_origin(Origin::Subword { id, rank: None }),
            );
            trace.observe(WordOrSpecial::Special(span, id));
            at = span.end;
        }
        tokens
    }
}

/// Greedy longest-match-first over one word, continuations marked by `prefix`: from the
/// left, the longest vocabulary piece each time. `None` when some position has no piece or the
/// word is longer than `max_chars` characters (the whole word is then the unknown token).
/// `attempt` sees every candidate tried and whether the vocabulary has it (its id).
pub fn longest_match_first(
    vocab: &Vocab,
    word: &str,
    prefix: &str,
    max_chars: usize,
    attempt: &mut dyn FnMut(&str, Option<u32>),
) -> Option<Vec<SubToken>> {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() > max_chars {
        return None;
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut candidate = String::new();
    while start < chars.len() {
        let mut found = None;
        for end in (start + 1..=chars.len()).rev() {
            candidate.clear();
            if start > 0 {
                candidate.push_str(prefix);
            }
            candidate.extend(&chars[start..end]);
            let id = vocab.id(candidate.as_bytes());
            attempt(&candidate, id);
            if let Some(id) = id {
                found = Some((id, end));
                break;
            }
        }
        let (id, end) = found?;
        pieces.push(SubToken {
            id,
            form: candidate.clone(),
            chars: (start, end),
        });
        start = end;
    }
    Some(pieces)
}

/// The span (in the text, the normalized stretch starting at byte `base`) of normalized bytes
/// `range`: the original characters whose last normalized character lies inside, or an empty
/// span where the first one starts.
fn owned_span(normalized: &NormalizedString, base: usize, range: Range<usize>) -> Span {
    let span = normalized
        .original_span_owned(range.clone())
        .unwrap_or_else(|| {
            let at = normalized.original_offset(range.start);
            Span::new(at, at)
        });
    Span::new(base + span.start, base + span.end)
}

/// The explanation of a WordPiece tokenization: each word and the pieces it was split into.
/// Lines are built at explain time, as the split is all there is to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordPieceTrace {
    /// A `word` line per word (or `special` line), each followed by its `pieces` line.
    pub lines: Vec<TraceLine>,
}

/// `wordpiece:vocab.txt` as a [`Tokenizer`].
pub struct WordPieceTokenizer {
    name: String,
    model: WordPiece,
    sources: Vec<PathBuf>,
}

impl WordPieceTokenizer {
    /// The vocabulary and options, for views that look pieces up.
    pub fn model(&self) -> &WordPiece {
        &self.model
    }

    /// Each word and the pieces it was split into.
    pub fn trace(&self, text: &str) -> WordPieceTrace {
        let mut lines = crate::core::trace::LineBudget::default();
        self.model
            .tokenize_with(text, &mut |unit: WordOrSpecial<'_>| match unit {
                WordOrSpecial::Special(span, id) => lines.push_with(|| {
                    TraceLine::new(0, Some(span))
                        .part(Role::Label, "special ")
                        .part(Role::Detail, format!("{:>9} ", span.to_string()))
                        .part(Role::Token, quote(span.slice(text)))
                        .part(Role::Detail, format!(":{id}"))
                }),
                WordOrSpecial::Word(span, pieces) => {
                    lines.push_with(|| {
                        TraceLine::new(0, Some(span))
                            .part(Role::Label, "word    ")
                            .part(Role::Detail, format!("{:>9} ", span.to_string()))
                            .part(Role::Token, quote(span.slice(text)))
                    });
                    let line = || TraceLine::new(1, Some(span)).part(Role::Label, "pieces ");
                    lines.push_with(|| match pieces {
                        Some(pieces) => pieces.iter().enumerate().fold(line(), |line, (i, p)| {
                            line.part(Role::Plain, if i > 0 { " " } else { "" })
                                .part(Role::Token, quote(&p.form))
                                .part(Role::Detail, format!(":{}", p.id))
                        }),
                        None => line().part(
                            Role::Backtrack,
                            "no longest-match split (or over 100 characters): [UNK]",
                        ),
                    });
                }
            });
        WordPieceTrace {
            lines: lines.into_lines(),
        }
    }
}

impl Tokenizer for WordPieceTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        Tokenization::new(self.model.tokenize_with(text, &mut Quiet))
    }

    /// An ASCII space between ASCII letters, when no special token (matched first, in the
    /// raw text) holds whitespace, or, in a text without spaces, before a character a word
    /// always starts at ([`WordPiece::starts_word`]): whitespace ends a word, each word is
    /// split alone, and normalizing (clean-up, lower case, accents) goes character by
    /// character. The nearer of the two ([`nearest_cut`]).
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let spaced = |(t, _): (&str, u32)| t.contains(char::is_whitespace);
        let at_spaces = !self.model.specials.iter().any(spaced);
        let spaces = |text: &str, from: usize| match at_spaces {
            true => space_between_ascii_letters(text, from),
            false => None,
        };
        let words = |text: &str, from: usize| {
            char_boundary_where(text, from, |_, at| self.model.starts_word(at))
        };
        nearest_cut(text, from, &[&spaces, &words])
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines)
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }

    /// HuggingFace's WordPiece decoder: pieces joined by spaces, a `##` continuation glued to
    /// the piece before, then its clean-up (no space before `.` `,` `!` `?`, and in `n't`
    /// `'m` `'s` `'ve` `'re`). What normalization removed (case, accents) does not come back.
    fn decode(&self, ids: &[u32]) -> Result<String> {
        let mut out = String::new();
        for (index, &id) in ids.iter().enumerate() {
            let piece =
                self.model.vocab.bytes(id).ok_or_else(|| {
                    crate::engines::subword::bytes::unknown_id(&self.name, id, index)
                })?;
            let piece = std::str::from_utf8(piece).expect("vocab.txt is UTF-8");
            match piece.strip_prefix("##") {
                Some(rest) => out.push_str(rest),
                None => {
                    if !out.is_empty() {
                        out.push(' ');
                    }
                    out.push_str(piece);
                }
            }
        }
        for (from, to) in [
            (" .", "."),
            (" ?", "?"),
            (" !", "!"),
            (" ,", ","),
            (" ' ", "'"),
            (" n't", "n't"),
            (" 'm", "'m"),
            (" 's", "'s"),
            (" 've", "'ve"),
            (" 're", "'re"),
        ] {
            out = out.replace(from, to);
        }
        Ok(out)
    }

    fn piece(&self, id: u32) -> Option<String> {
        let bytes = self.model.vocab.bytes(id)?;
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// Pieces as `vocab.txt` writes them (`##ing` continues a word), through their ids and
    /// `decode`.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| {
            self.model.vocab.id(t.as_bytes())
        })
    }
}

/// `wordpiece:vocab.txt`: BERT's WordPiece.
pub const KIND: Kind = Kind::new(
    "wordpiece",
    "wordpiece:vocab.txt",
    "BERT WordPiece: basic pre-split, greedy longest match with ##; ?lowercase=true|false&accents=strip|keep (default strip when lowercase)&words=bert|whitespace&special=all|none",
    load,
)
.with_options();

/// Loads `wordpiece:vocab.txt[?lowercase=true|false&special=all|none]`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let lowercase = spec.take_flag("lowercase", true)?;
    let special = crate::engines::subword::hf::Specials::take_matching(&mut spec)?;
    let strip_accents = match spec.take_option("accents").as_deref() {
        None => lowercase,
        Some("strip") => true,
        Some("keep") => false,
        Some(other) => {
            return Err(spec.bad(format!(
                "option `accents` wants strip or keep, not `{other}`"
            )));
        }
    };
    let words = match spec.take_option("words").as_deref() {
        None | Some("bert") => WordSplit::Bert,
        Some("whitespace") => WordSplit::Whitespace,
        Some(other) => {
            return Err(spec.bad(format!(
                "option `words` wants bert or whitespace, not `{other}`"
            )));
        }
    };
    spec.finish(&["lowercase", "accents", "words", "special"])?;
    let path = spec.path();
    let mut model = WordPiece::load_with(&path, lowercase, strip_accents, words)?;
    if !special {
        model.specials = Specials::default();
    }
    Ok(Box::new(WordPieceTokenizer {
        name: spec.text.trim().to_string(),
        model,
        sources: vec![path],
    }))
}
