//! Token alignment of two tokenizations by edit distance over their output forms: what pairs
//! with what when an engine rewrote a form (`won't` → `will n't`), where spans alone cannot
//! say which token corresponds to which.

use super::boundary::Skeleton;
use crate::analysis::align::{self, AlignedPair, Alignment, Costs, Interner};
use crate::core::token::Tokenization;

/// The alignment of the tokens of `a` (of `text_a`) with those of `b` (of `text_b`): each pair
/// says match, substitution, insertion or deletion, with token indices. Linear memory, so two
/// 10,000-token lines align as well as two short ones.
///
/// When both tokenize the same text, the spans are used first: wherever both tokenizations
/// cut the text at the same place the alignment is cut too, so a token is only ever paired
/// with one over the same stretch of text, and the edit distance over forms decides within
/// each stretch. Among equally cheap alignments the one pairing tokens earliest is taken
/// (`won't` with `will`, then `n't` inserted).
pub fn align_tokens(
    text_a: &str,
    a: &Tokenization,
    text_b: &str,
    b: &Tokenization,
    costs: Costs,
) -> Alignment {
    let mut interner = Interner::new();
    let x: Vec<u32> = a
        .tokens
        .iter()
        .map(|t| interner.intern(t.form(text_a)))
        .collect();
    let y: Vec<u32> = b
        .tokens
        .iter()
        .map(|t| interner.intern(t.form(text_b)))
        .collect();
    let cuts = if text_a == text_b {
        shared_cuts(text_a, a, b)
    } else {
        Vec::new()
    };
    let mut pairs = Vec::with_capacity(x.len().max(y.len()));
    let mut from = (0, 0);
    for to in cuts.into_iter().chain([(x.len(), y.len())]) {
        align_earliest(&x[from.0..to.0], &y[from.1..to.1], costs, from, &mut pairs);
        from = to;
    }
    let cost = pairs.iter().map(|p| costs.of(p.op)).sum();
    Alignment { pairs, cost }
}

/// Aligns a stretch, preferring to pair early tokens: the backtrace prefers the diagonal from
/// the end, so the stretch is aligned reversed and the result turned around.
fn align_earliest(
    x: &[u32],
    y: &[u32],
    costs: Costs,
    offset: (usize, usize),
    out: &mut Vec<AlignedPair>,
) {
    let rx: Vec<u32> = x.iter().rev().copied().collect();
    let ry: Vec<u32> = y.iter().rev().copied().collect();
    let reversed = align::align(&rx, &ry, costs);
    out.extend(reversed.pairs.iter().rev().map(|p| AlignedPair {
        op: p.op,
        a: p.a.map(|i| offset.0 + x.len() - 1 - i),
        b: p.b.map(|j| offset.1 + y.len() - 1 - j),
    }));
}

/// Token indices `(i, j)` where both tokenizations cut the text at the same place: everything
/// before token `i` of `a` and before token `j` of `b` lies on one side, the rest on the other.
/// A cut between two tokens stretches over the text neither covers (whitespace, dropped text).
fn shared_cuts(text: &str, a: &Tokenization, b: &Tokenization) -> Vec<(usize, usize)> {
    let skeleton = Skeleton::new(text);
    let cuts = |t: &Tokenization| -> Vec<(usize, usize, usize)> {
        (1..t.tokens.len())
            .map(|i| {
                let low = skeleton.position(t.tokens[i - 1].span.end);
                let high = skeleton.position(t.tokens[i].span.start);
                (low, high, i)
            })
            .collect()
    };
    let (ca, cb) = (cuts(a), cuts(b));
    let (mut i, mut j) = (0, 0);
    let mut shared = Vec::new();
    while i < ca.len() && j < cb.len() {
        let (alow, ahigh, ai) = ca[i];
        let (blow, bhigh, bj) = cb[j];
        if alow <= bhigh && blow <= ahigh {
            shared.push((ai, bj));
            i += 1;
            j += 1;
        } else if ahigh < blow {
            i += 1;
        } else {
            j += 1;
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::align::Op;
    use crate::core::token::{Span, Token, TokenKind};

    fn tok(s: usize, e: usize) -> Token {
        Token::new(Span::new(s, e), TokenKind::Word)
    }

    #[test]
    fn a_contraction_against_its_expansion() {
        let text = "I won't go";
        let plain = Tokenization::new(vec![tok(0, 1), tok(2, 7), tok(8, 10)]);
        let expanded = Tokenization::new(vec![
            tok(0, 1),
            tok(2, 4).with_form("will"),
            tok(4, 7),
            tok(8, 10),
        ]);
        let alignment = align_tokens(text, &plain, text, &expanded, Costs::LEVENSHTEIN);
        let ops: Vec<Op> = alignment.pairs.iter().map(|p| p.op).collect();
        assert_eq!(ops, [Op::Match, Op::Sub, Op::Ins, Op::Match]);
        assert_eq!(
            (alignment.pairs[1].a, alignment.pairs[1].b),
            (Some(1), Some(1))
        );
        assert_eq!(alignment.pairs[2].b, Some(2));
        assert_eq!(alignment.cost, 2);
        let (x, y) = (
            plain
                .tokens
                .iter()
                .map(|t| t.form(text))
                .collect::<Vec<_>>(),
            expanded
                .tokens
                .iter()
                .map(|t| t.form(text))
                .collect::<Vec<_>>(),
        );
        assert_eq!((x.len(), y.len()), (3, 4));
    }

    #[test]
    fn stretches_between_shared_cuts_pair_earliest() {
        // "the cat the": a splits "cat" in two; within that stretch "c" pairs with "cat" and
        // "at" is deleted, and the two "the" stay with their own.
        let text = "the cat the";
        let a = Tokenization::new(vec![tok(0, 3), tok(4, 5), tok(5, 7), tok(8, 11)]);
        let b = Tokenization::new(vec![tok(0, 3), tok(4, 7), tok(8, 11)]);
        let alignment = align_tokens(text, &a, text, &b, Costs::LEVENSHTEIN);
        let pairs: Vec<(Option<usize>, Option<usize>, Op)> =
            alignment.pairs.iter().map(|p| (p.a, p.b, p.op)).collect();
        assert_eq!(
            pairs,
            [
                (Some(0), Some(0), Op::Match),
                (Some(1), Some(1), Op::Sub),
                (Some(2), None, Op::Del),
                (Some(3), Some(2), Op::Match),
            ]
        );
    }

    #[test]
    fn different_texts_align_by_forms_alone() {
        let a = Tokenization::new(vec![tok(0, 1), tok(2, 3)]);
        let b = Tokenization::new(vec![tok(0, 1)]);
        let alignment = align_tokens("x y", &a, "y", &b, Costs::LEVENSHTEIN);
        assert_eq!(alignment.ops(), "d ");
    }
}
