//! Two tokenizations of one text side by side by the text they cover, not by their forms: the
//! tokens are grouped into the shortest stretches both cut at the same places, on the
//! whitespace-free skeleton [`BoundaryDiff`](super::BoundaryDiff) compares on. A leading space
//! kept in a token (` 👍`), a marker piece (`▁` then `👍`) or a `##` continuation then costs
//! nothing; only a boundary one side has and the other lacks makes a stretch differ.

use std::ops::Range;

use super::boundary::Skeleton;
use crate::core::token::{Token, Tokenization};

/// One stretch of text and the tokens of each side that cover it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanGroup {
    /// Indices of the first tokenization's tokens in the stretch.
    pub a: Range<usize>,
    /// Indices of the second's.
    pub b: Range<usize>,
    /// Both sides cover the stretch with one token each (tokens over whitespace only, or over
    /// no text, not counted), or with whitespace tokens only: the sides agree here.
    pub agree: bool,
}

/// The stretches `a` and `b` (tokenizations of `text`) agree or disagree on, in text order.
pub fn align_spans(text: &str, a: &Tokenization, b: &Tokenization) -> Vec<SpanGroup> {
    let skeleton = Skeleton::new(text);
    let range = |t: &Token| {
        let clamp = |byte: usize| skeleton.position(byte.min(text.len()));
        (clamp(t.span.start), clamp(t.span.end))
    };
    let ra: Vec<(usize, usize)> = a.tokens.iter().map(range).collect();
    let rb: Vec<(usize, usize)> = b.tokens.iter().map(range).collect();
    let mut groups = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < ra.len() || j < rb.len() {
        let (gi, gj) = (i, j);
        let mut ea = take(&ra, &mut i);
        let mut eb = take(&rb, &mut j);
        while let (Some(x), Some(y)) = (ea, eb) {
            if x == y {
                break;
            }
            let longer = if x < y {
                take(&ra, &mut i)
            } else {
                take(&rb, &mut j)
            };
            match (longer, x < y) {
                (Some(e), true) => ea = Some(e),
                (Some(e), false) => eb = Some(e),
                (None, _) => break,
            }
        }
        // Pieces over no text glued to the stretch's last token (the rest of a character's
        // byte pieces) belong to it.
        absorb(&a.tokens, &mut i);
        absorb(&b.tokens, &mut j);
        let solid = |r: &[(usize, usize)]| r.iter().filter(|(s, e)| s < e).count();
        // A stretch of whitespace tokens alone covers nothing of the skeleton: neither side
        // has a boundary there the other lacks.
        let blank = solid(&ra[gi..i]) == 0 && solid(&rb[gj..j]) == 0;
        let agree = blank
            || solid(&ra[gi..i]) == 1
                && solid(&rb[gj..j]) == 1
                && ra[gi..i].iter().find(|(s, e)| s < e) == rb[gj..j].iter().find(|(s, e)| s < e);
        groups.push(SpanGroup {
            a: gi..i,
            b: gj..j,
            agree,
        });
    }
    groups
}

/// The end of the next token of a side, taking it.
fn take(ranges: &[(usize, usize)], i: &mut usize) -> Option<usize> {
    let end = ranges.get(*i)?.1;
    *i += 1;
    Some(end)
}

fn absorb(tokens: &[Token], i: &mut usize) {
    while *i > 0
        && tokens
            .get(*i)
            .is_some_and(|t| t.span.is_empty() && t.span.start == tokens[*i - 1].span.end)
    {
        *i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::word_tokens as tokens;

    #[test]
    fn conventions_cost_nothing_and_splits_show() {
        // A keeps the space in " 👍"; B has an empty marker piece, then "👍".
        let text = "ok 👍 We're";
        let a = tokens(&[(0, 2), (2, 7), (8, 13)]);
        let b = tokens(&[(0, 2), (3, 3), (3, 7), (8, 10), (10, 13)]);
        let groups = align_spans(text, &a, &b);
        assert_eq!(
            groups,
            [
                SpanGroup {
                    a: 0..1,
                    b: 0..1,
                    agree: true
                },
                SpanGroup {
                    a: 1..2,
                    b: 1..3,
                    agree: true
                },
                SpanGroup {
                    a: 2..3,
                    b: 3..5,
                    agree: false
                },
            ]
        );
    }

    #[test]
    fn byte_pieces_stay_with_their_character_and_one_side_may_run_out() {
        let text = "苹果 x";
        let a = tokens(&[(0, 6)]);
        let b = tokens(&[(0, 3), (3, 3), (3, 3), (3, 6), (7, 8)]);
        let groups = align_spans(text, &a, &b);
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!((groups[0].a.clone(), groups[0].b.clone()), (0..1, 0..4));
        assert!(!groups[0].agree);
        assert_eq!((groups[1].a.clone(), groups[1].b.clone()), (1..1, 4..5));
        assert!(!groups[1].agree);
    }

    #[test]
    fn whitespace_tokens_both_sides_keep_agree() {
        // Both sides keep the spaces as tokens, the same ones: every stretch agrees.
        let text = "ab  cd e";
        let a = tokens(&[(0, 2), (2, 4), (4, 6), (6, 7), (7, 8)]);
        let groups = align_spans(text, &a, &a);
        assert!(groups.iter().all(|g| g.agree), "{groups:?}");
        // One side keeps a trailing space the other drops: nothing of the text differs.
        let b = tokens(&[(0, 2), (4, 6), (7, 8)]);
        let groups = align_spans("ab  cd e ", &tokens(&[(0, 2), (4, 6), (7, 8), (8, 9)]), &b);
        assert!(groups.iter().all(|g| g.agree), "{groups:?}");
    }
}
