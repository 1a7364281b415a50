//! Jung's lexicalized segmenter (seeds/jung-lexicalizing-bert-tokenizer.md): a POS
//! vocabulary built from a word set by wordmaps (Algorithm 1, `toklab lex vocab`), and words
//! segmented over it by every complete left-to-right segmentation (Algorithm 2) and the
//! maximisation function (3.1).
//!
//! Spec: `lex:VOCAB?root=count|length`. Text is split into words (runs of letters, marks and
//! digits) and single other characters; whitespace is dropped. Each word is lower-cased
//! character by character for matching, so spans stay those of the original text.
//!
//! ```
//! // The German verb vocabulary `toklab lex vocab` built from samples/lex/de-verbs.txt.
//! let lex = toklab::load("lex:../../samples/lex/de-verbs.vocab").unwrap();
//! let text = "Sie verkauften das Haus.";
//! let forms: Vec<&str> = lex.tokenize(text).iter().map(|t| t.span.slice(text)).collect();
//! assert_eq!(forms, ["Sie", "ver", "kauf", "te", "n", "das", "Haus", "."]);
//! ```

mod segment;
mod trace;
mod vocab;
pub mod wordmap;

pub use segment::{MAX_SEGMENTATIONS, Morphemes, Node, Root, Segmentation, score, segment};
pub use trace::{LexTrace, WordTrace};
pub use vocab::{BuildOptions, Vocabulary, WordAnalysis, analyse, load_words};
pub use wordmap::{Cleaning, MatchCase, Wordmap};

use std::path::PathBuf;

use crate::core::error::Result;
use crate::core::pieces::char_boundary_where;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::Trace;

/// The `lex:` tokenizer.
pub struct Lex {
    name: String,
    path: PathBuf,
    morphemes: Morphemes,
    root: Root,
}

impl Lex {
    /// A segmenter over a loaded vocabulary; `name` labels it and `path` is reported in
    /// messages and watched by the workbench.
    pub fn new(name: String, path: PathBuf, vocabulary: &Vocabulary, root: Root) -> Lex {
        Lex {
            name,
            path,
            morphemes: Morphemes::new(vocabulary.entries.iter().map(|(s, _)| s.as_str())),
            root,
        }
    }

    /// Every word's permutation tree, scores and choice (what `tokenize` keeps the choice of).
    pub fn trace(&self, text: &str) -> LexTrace {
        let words = pieces(text)
            .into_iter()
            .map(|(span, is_word)| {
                let bounds = char_bounds(text, span);
                let segmentation = is_word.then(|| {
                    let lower: Vec<char> = span.slice(text).chars().map(lower).collect();
                    segment(&lower, &self.morphemes, self.root)
                });
                WordTrace {
                    span,
                    bounds,
                    segmentation,
                }
            })
            .collect();
        LexTrace {
            root: self.root,
            words,
        }
    }
}

/// A character's lower case when it is one character, else the character (so positions
/// in the word stay positions in the text).
fn lower(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(one), None) => one,
        _ => c,
    }
}

/// Whether `c` belongs in a word: letters, digits and marks.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c)
}

/// Words (runs of alphanumeric characters and marks) and single other non-space characters.
fn pieces(text: &str) -> Vec<(Span, bool)> {
    let mut out: Vec<(Span, bool)> = Vec::new();
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        if c.is_whitespace() {
            continue;
        }
        let word = is_word_char(c);
        match out.last_mut() {
            Some((span, true)) if word && span.end == i => span.end = end,
            _ => out.push((Span::new(i, end), word)),
        }
    }
    out
}

/// Byte offsets of a span's character boundaries, both ends included.
fn char_bounds(text: &str, span: Span) -> Vec<usize> {
    let mut bounds: Vec<usize> = span
        .slice(text)
        .char_indices()
        .map(|(i, _)| span.start + i)
        .collect();
    bounds.push(span.end);
    bounds
}

impl Tokenizer for Lex {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = Vec::new();
        for word in self.trace(text).words {
            let segments = word.chosen_spans();
            let whole = segments.len() == 1;
            for span in segments {
                let kind = if whole {
                    TokenKind::classify(span.slice(text))
                } else {
                    TokenKind::Subword
                };
                tokens.push(Token::new(span, kind));
            }
        }
        Tokenization::new(tokens)
    }

    /// Next to a character that is not in a word (a space, punctuation): each word is
    /// segmented on its own, so a cut that splits no word changes no token.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        char_boundary_where(text, from, |before, at| {
            !is_word_char(before) || !is_word_char(at)
        })
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }

    /// Word spacing: the forms do not say which morphemes made one word, so they come back as
    /// words of their own.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        Ok(crate::engines::simple::Joining::Words.join(tokens))
    }
}

/// `lex:VOCAB?root=count|length`: Jung's lexicalized segmenter.
pub const KIND: Kind = Kind::new(
    "lex",
    "lex:VOCAB?root=count|length",
    "Jung's lexicalized segmenter over a POS vocabulary (toklab lex vocab builds one): every complete segmentation, the best by (3.1)",
    load,
)
.with_options();

/// Loads `lex:VOCAB?root=count|length`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let root = match spec.take_option("root").as_deref() {
        None => Root::Count,
        Some(name) => Root::from_name(name).ok_or_else(|| {
            spec.bad(format!("option `root` wants count or length, not `{name}`"))
        })?,
    };
    spec.finish(&["root"])?;
    if spec.arg.is_empty() {
        return Err(spec.bad("lex: needs a vocabulary file, as in lex:samples/lex/verbs.vocab"));
    }
    let path = spec.path();
    let vocabulary = Vocabulary::load(&path)?;
    let mut name = format!("lex:{}", spec.arg);
    if root != Root::Count {
        name.push_str("?root=length");
    }
    Ok(Box::new(Lex::new(name, path, &vocabulary, root)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(vocab: &str) -> Lex {
        let v = Vocabulary::parse(std::path::Path::new("v"), &vocab.replace(' ', "\n")).unwrap();
        Lex::new("lex:v".into(), "v".into(), &v, Root::Count)
    }

    #[test]
    fn words_are_segmented_and_punctuation_stands_alone() {
        let t = lex("ver steh en ge");
        let text = "Verstehen, gehen!";
        let got: Vec<&str> = t
            .tokenize(text)
            .tokens
            .iter()
            .map(|tok| tok.span.slice(text))
            .collect();
        assert_eq!(got, ["Ver", "steh", "en", ",", "gehen", "!"]);
        let explained = t.explain(text).to_text();
        assert!(explained.contains("chosen"), "{explained}");
    }

    #[test]
    fn cuts_beside_what_is_not_a_word_and_pieces_tokenize_as_the_whole() {
        let t = lex("ver steh en ge");
        assert_eq!(t.cut_point("Verstehen, gehen!", 0), Some("Verstehen".len()));
        assert_eq!(t.cut_point("Verstehen", 0), None);
        let text = "Verstehen, gehen! verstehen  Gehen.. vergehen";
        let pieces = crate::core::pieces::tokenize_in_pieces(&t, text, 1);
        assert_eq!(pieces.tokens, t.tokenize(text).tokens);
    }
}
