//! A tokenizer that runs on normalized text, with its tokens put back on the original: what a
//! format needs when its reference library normalizes in code rather than in the model file
//! (`claude.json`'s NFKC, CLIP's clean-up and lowercasing). The inner tokenizer sees only the
//! normalized text; spans go back through the [`NormalizedString`] alignment, the token that
//! holds an original character's last normalized character owning it (so a ligature split
//! into `f` `i` gives one token the `ﬁ` and the other an empty span), and forms that differ
//! from the original text are kept as the token's form.

use std::path::PathBuf;

use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, is_nfkc_quick};

use crate::core::error::Result;
use crate::core::normalized::NormalizedString;
use crate::core::pieces::Carry;
use crate::core::token::{Span, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};

/// A normalization step over a [`NormalizedString`].
pub type NormalizeFn = fn(&mut NormalizedString);

/// Whether a cut at a byte offset of a text keeps the normalization: the normalization of the
/// text cut there is the normalizations of the two parts end to end, and the characters next
/// to the cut are the same before and after normalizing (so inner cut rules, which look at the
/// characters next to a cut, decide alike on both texts). Most look at the three characters
/// around the cut ([`chars_around`]); one that rewrites runs (HTML entities) looks further back.
pub type KeptFn = fn(&str, usize) -> bool;

/// The character before byte `at` of `text` and the two from `at` on, if there are three.
pub fn chars_around(text: &str, at: usize) -> Option<[char; 3]> {
    let before = text.get(..at)?.chars().next_back()?;
    let mut after = text[at..].chars();
    Some([before, after.next()?, after.next()?])
}

/// Whether NFKC (and so NFC, which changes less) writes `c` as itself and composes it with
/// nothing before it: ASCII, or a starter whose quick check passes on its own (a character
/// that may compose with the one before it is a "maybe", one that changes a "no"). What a
/// [`KeptFn`] asks of the characters at a cut.
pub fn nfkc_stable(c: char) -> bool {
    c.is_ascii()
        || (canonical_combining_class(c) == 0
            && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes)
}

/// Whether a text may be cut at all: a normalization that looks at the whole text (CLIP's
/// unescaping, done only when the text holds no `<`) allows cuts only in texts where what it
/// finds there is what each part would find.
pub type WholeFn = fn(&str) -> bool;

/// An inner tokenizer behind a normalization.
pub struct Normalizing<T> {
    name: String,
    normalize: NormalizeFn,
    kept: Option<KeptFn>,
    whole: Option<WholeFn>,
    inner: T,
}

/// Whether the text being cut in pieces may be cut ([`WholeFn`]), asked once per text and
/// carried from piece to piece.
struct WholeAllows(bool);

impl<T: Tokenizer> Normalizing<T> {
    /// `inner` run on the text `normalize` makes, under `name` (the spec).
    pub fn new(name: impl Into<String>, normalize: NormalizeFn, inner: T) -> Self {
        Normalizing {
            name: name.into(),
            normalize,
            kept: None,
            whole: None,
            inner,
        }
    }

    /// The same, cut where the inner tokenizer cuts between characters `kept` says the
    /// normalization keeps a cut between ([`Tokenizer::cut_point`]). Without it the text is never cut, which
    /// is what a normalization that looks further (CLIP's trimming of the text's ends) needs.
    pub fn with_cuts(mut self, kept: KeptFn) -> Self {
        self.kept = Some(kept);
        self
    }

    /// The same, cut only in texts `whole` accepts.
    pub fn only_in(mut self, whole: WholeFn) -> Self {
        self.whole = Some(whole);
        self
    }

    /// The inner tokenizer's cut points on the original text where the character at the cut
    /// and those on each side of it are kept ([`Tokenizer::cut_point`] says why).
    fn kept_cut(&self, text: &str, from: usize) -> Option<usize> {
        let kept = self.kept?;
        let mut from = from;
        loop {
            let cut = self.inner.cut_point(text, from)?;
            if kept(text, cut) {
                return Some(cut);
            }
            from = cut + 1;
        }
    }

    /// The tokenizer of the normalized text.
    pub fn inner(&self) -> &T {
        &self.inner
    }

    /// The normalized text of `text` with its alignment.
    pub fn normalized<'t>(&self, text: &'t str) -> NormalizedString<'t> {
        let mut normalized = NormalizedString::new(text);
        (self.normalize)(&mut normalized);
        normalized
    }
}

/// The original span of normalized `span`: the characters whose last normalized character lies
/// in it, or an empty span where it starts.
fn original(normalized: &NormalizedString, span: Span) -> Span {
    normalized
        .original_span_owned(span.start..span.end)
        .unwrap_or_else(|| {
            let at = normalized.original_offset(span.start);
            Span::new(at, at)
        })
}

impl<T: Tokenizer> Tokenizer for Normalizing<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let normalized = self.normalized(text);
        let norm = normalized.normalized();
        let mut tokenization = self.inner.tokenize(norm);
        // Stripping alone leaves the text unedited but moves it: offsets still go back.
        if !normalized.is_edited() && normalized.extent() == Span::new(0, text.len()) {
            return tokenization;
        }
        for token in &mut tokenization.tokens {
            let span = original(&normalized, token.span);
            let form = token.form(norm).to_string();
            let bytes = token.bytes();
            token.span = span;
            token.set_bytes(Span::new(
                normalized.original_byte(bytes.start),
                normalized.original_byte(bytes.end),
            ));
            if token.rewritten.is_none() && form != span.slice(text) {
                token.rewritten = Some(form.into());
            }
        }
        tokenization
    }

    /// The inner tokenizer's cut points on the original text where the character at the cut
    /// and those on each side of it are kept: the normalized text is the two parts'
    /// normalizations end to end, and the cut falls between the same characters in it, where
    /// the inner rules (which look at the characters next to a cut: a space between letters)
    /// cut the normalized text too. None in a text the [`WholeFn`] refuses.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        if self.whole.is_some_and(|whole| !whole(text)) {
            return None;
        }
        self.kept_cut(text, from)
    }

    /// [`Tokenizer::cut_point`], the [`WholeFn`] asked at the text's first cut only: its
    /// answer travels in the carry, so a huge line is read once for it, not once a piece.
    fn cut_point_carried(
        &self,
        text: &str,
        _start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        if let Some(whole) = self.whole {
            let allows = match carry.get_mut::<WholeAllows>() {
                Some(allows) => allows.0,
                None => {
                    let allows = whole(text);
                    carry.put(WholeAllows(allows));
                    allows
                }
            };
            if !allows {
                return None;
            }
        }
        self.kept_cut(text, from)
    }

    fn explain(&self, text: &str) -> Trace {
        let normalized = self.normalized(text);
        let norm = normalized.normalized();
        let inner = self.inner.explain(norm);
        let mut lines = vec![
            TraceLine::new(0, Some(Span::new(0, text.len())))
                .part(Role::Label, "normalized ")
                .part(Role::Token, quote(norm)),
        ];
        lines.extend(inner.lines().iter().cloned().map(|mut line| {
            line.span = line.span.map(|s| original(&normalized, s));
            line
        }));
        Trace::with_merges(lines, inner.merge_words().to_vec())
            .with_merges_left_out(inner.merges_left_out())
    }

    fn warnings(&self) -> Vec<String> {
        self.inner.warnings()
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.inner.sources()
    }

    fn decode(&self, ids: &[u32]) -> Result<String> {
        self.inner.decode(ids)
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.inner.piece(id)
    }

    /// The inner model's detokenizer: the normalization has no way back.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        self.inner.detokenize(tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::simple::{MatchTokenizer, RegexMatcher};

    fn nfkc(n: &mut NormalizedString) {
        n.nfkc();
    }

    #[test]
    fn spans_go_back_to_the_original_and_forms_stay() {
        let words = MatchTokenizer::new("w", RegexMatcher::new(r"\w").unwrap());
        let t = Normalizing::new("nfkc", nfkc, words);
        let text = "ﬁx";
        let tokens = t.tokenize(text);
        tokens.check(text).unwrap();
        let forms: Vec<(&str, Span)> = tokens
            .tokens
            .iter()
            .map(|t| (t.form(text), t.span))
            .collect();
        assert_eq!(
            forms,
            [
                ("f", Span::new(0, 0)),
                ("i", Span::new(0, 3)),
                ("x", Span::new(3, 4))
            ]
        );
    }

    /// A normalization that only strips leaves the text unedited but moved: the tokens'
    /// spans and exact bytes are still put back where they are in the original.
    #[test]
    fn stripping_alone_still_moves_the_tokens_back() {
        fn strip(n: &mut NormalizedString) {
            let lead = n.normalized().len() - n.normalized().trim_start().len();
            n.strip_start(lead);
        }
        let bytes = MatchTokenizer::new("b", RegexMatcher::new(r"\S").unwrap());
        let text = "  \u{1F1EB}x";
        let tokens = Normalizing::new("strip", strip, bytes).tokenize(text);
        tokens.check(text).unwrap();
        let at: Vec<(Span, Span)> = tokens.iter().map(|t| (t.span, t.bytes())).collect();
        assert_eq!(
            at,
            [
                (Span::new(2, 6), Span::new(2, 6)),
                (Span::new(6, 7), Span::new(6, 7))
            ]
        );
    }

    #[test]
    fn cuts_only_between_kept_characters() {
        let bpe = || MatchTokenizer::new("gpt2", crate::engines::subword::pretok::Gpt2Matcher);
        let text = "ab \u{fb01}x cd e\u{301} fg hi\u{fb01} jk";
        let cuts = |t: &dyn Tokenizer| {
            let mut cuts = Vec::new();
            while let Some(c) = t.cut_point(text, cuts.last().map_or(0, |c| c + 1)) {
                cuts.push(c);
            }
            cuts
        };
        let plain = bpe();
        assert_eq!(cuts(&plain), [2, 7, 10, 17, 23]);
        let nfkc_cut = Normalizing::new("nfkc", nfkc, bpe()).with_cuts(|text, at| {
            chars_around(text, at).is_some_and(|chars| chars.iter().all(char::is_ascii))
        });
        // Not next to a ligature, which NFKC rewrites.
        assert_eq!(cuts(&nfkc_cut), [7, 10, 17]);
        assert!(cuts(&Normalizing::new("nfkc", nfkc, bpe())).is_empty());
    }
}
