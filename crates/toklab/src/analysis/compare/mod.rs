//! Comparing tokenizations of the same text. Every engine returns spans of the original text,
//! so boundaries compare as positions without any alignment ([`BoundaryDiff`]); rewritten
//! forms are paired by an edit-distance alignment of the tokens ([`align_tokens`]); scores are
//! boundary precision, recall and F1 for tokens and sentence ends ([`Scores`]), against another
//! tokenizer or against gold read from a file ([`Gold`]).
//!
//! ```
//! let text = "Don't stop.";
//! let gold = toklab::load("ptb").unwrap().tokenize(text);
//! let ws = toklab::load("ws").unwrap().tokenize(text);
//! let scores = toklab::analysis::compare::score(text, &gold, &ws);
//! // No whitespace token is a Treebank token: 2 extra, all 4 missed.
//! let t = scores.tokens;
//! assert_eq!((t.hits, t.extra, t.missed), (0, 2, 4));
//! ```

mod boundary;
mod gold;
mod inline;
mod placement;
mod scores;
mod spans;
mod summary;
mod tokens;

pub use self::boundary::{
    Boundary, BoundaryDiff, CoverageDiff, Presence, Rewrite, RewriteDiff, Segmentation, Skeleton,
};
pub use self::gold::{Gold, GoldFormat, GoldText, Projection, project};
pub use self::inline::{legend, render_inline};
pub use self::scores::{Counts, Scores};
pub use self::spans::{SpanGroup, align_spans};
pub use self::summary::{Comparison, Disagreement, Tally};
pub use self::tokens::align_tokens;

use crate::core::token::Tokenization;

/// The scores of `candidate` against `gold`, two tokenizations of `text`.
pub fn score(text: &str, gold: &Tokenization, candidate: &Tokenization) -> Scores {
    let skeleton = Skeleton::new(text);
    Scores::between(
        &Segmentation::new(text, &skeleton, gold),
        &Segmentation::new(text, &skeleton, candidate),
    )
}

/// Test tokenizations made of plain word tokens at the given byte spans.
#[cfg(test)]
pub(crate) fn word_tokens(spans: &[(usize, usize)]) -> Tokenization {
    use crate::core::token::{Span, Token, TokenKind};
    Tokenization::new(
        spans
            .iter()
            .map(|&(s, e)| Token::new(Span::new(s, e), TokenKind::Word))
            .collect(),
    )
}
