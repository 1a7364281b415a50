//! Where two tokenizations of the same text cut it differently. Every engine returns spans of
//! the same text, so no alignment is needed: boundaries are compared as positions.
//!
//! Positions are counted in non-whitespace characters (the "skeleton" of the text), so a
//! tokenizer that keeps a leading space in its tokens (GPT-2's ` dogs`) and one that drops
//! whitespace (`dogs`) agree on where the token starts, and the end of one token and the start
//! of the next across a space are one boundary, as in the EmpiriST and CoNLL 2018 evaluations.

use crate::core::token::{Span, Tokenization};

/// The text's non-whitespace characters and where they are, the coordinate system of every
/// comparison.
#[derive(Clone, Debug)]
pub struct Skeleton {
    /// For every byte offset `0..=len`, how many non-whitespace characters come before it.
    before: Vec<u32>,
    /// Byte span of each non-whitespace character.
    chars: Vec<Span>,
    len: usize,
}

impl Skeleton {
    /// The skeleton of `text`: one pass, a position per byte.
    pub fn new(text: &str) -> Skeleton {
        let mut before = Vec::with_capacity(text.len() + 1);
        let mut chars = Vec::new();
        for (offset, c) in text.char_indices() {
            for _ in 0..c.len_utf8() {
                before.push(chars.len() as u32);
            }
            if !c.is_whitespace() {
                chars.push(Span::new(offset, offset + c.len_utf8()));
            }
        }
        before.push(chars.len() as u32);
        Skeleton {
            before,
            chars,
            len: text.len(),
        }
    }

    /// How many non-whitespace characters the text has.
    pub fn count(&self) -> usize {
        self.chars.len()
    }

    /// The skeleton position of byte offset `byte`: the non-whitespace characters before it.
    pub fn position(&self, byte: usize) -> usize {
        self.before[byte] as usize
    }

    /// Byte span of the `k`-th non-whitespace character.
    pub fn char_span(&self, k: usize) -> Span {
        self.chars[k]
    }

    /// The byte offset where skeleton position `k` starts (the `k`-th non-whitespace
    /// character, or the end of the text).
    pub fn byte_of(&self, k: usize) -> usize {
        self.chars.get(k).map_or(self.len, |s| s.start)
    }

    /// The whitespace between the `(k-1)`-th and `k`-th non-whitespace characters: where a
    /// boundary at position `k` lies in the text (empty when they touch).
    pub fn gap(&self, k: usize) -> Span {
        let start = if k == 0 { 0 } else { self.chars[k - 1].end };
        Span::new(start, self.byte_of(k))
    }
}

/// A token whose output form is not its surface (`won't` → `will` + `n't`, a BPE piece in its
/// byte alphabet), placed on the skeleton.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rewrite {
    /// Skeleton range the token covers (empty for a token inserted without text).
    pub start: usize,
    /// End of the skeleton range.
    pub end: usize,
    /// The token's span in the text.
    pub span: Span,
    /// The token's output form.
    pub form: String,
}

/// One tokenization seen on the skeleton: what the comparisons and scores need.
#[derive(Clone, Debug, Default)]
pub struct Segmentation {
    /// Skeleton positions strictly inside the text where a token starts or ends, ascending.
    pub boundaries: Vec<usize>,
    /// Skeleton ranges of the tokens that cover any non-whitespace text, in order.
    pub tokens: Vec<(usize, usize)>,
    /// Skeleton positions of sentence ends, the last sentence (closed by the end of the text)
    /// left out since every tokenization has it.
    pub sentence_ends: Vec<usize>,
    /// Per non-whitespace character: whether some token covers it.
    pub covered: Vec<bool>,
    /// Tokens whose form is not their surface.
    pub rewrites: Vec<Rewrite>,
}

impl Segmentation {
    /// `tokenization` of `text` placed on `skeleton` (the text's, made once for all tokenizers).
    pub fn new(text: &str, skeleton: &Skeleton, tokenization: &Tokenization) -> Segmentation {
        let n = skeleton.count();
        let mut seg = Segmentation {
            covered: vec![false; n],
            ..Segmentation::default()
        };
        for token in &tokenization.tokens {
            let start = skeleton.position(token.span.start);
            let end = skeleton.position(token.span.end);
            if start < end {
                seg.tokens.push((start, end));
                seg.boundaries
                    .extend([start, end].into_iter().filter(|&p| p > 0 && p < n));
                seg.covered[start..end].iter_mut().for_each(|c| *c = true);
            }
            let form = token.form(text);
            if token.rewritten.is_some() && form != token.surface(text) {
                seg.rewrites.push(Rewrite {
                    start,
                    end,
                    span: token.span,
                    form: form.to_string(),
                });
            }
        }
        seg.boundaries.sort_unstable();
        seg.boundaries.dedup();
        let sentences = tokenization.sentence_ranges();
        for range in sentences.iter().take(sentences.len().saturating_sub(1)) {
            let last = &tokenization.tokens[range.end - 1];
            seg.sentence_ends.push(skeleton.position(last.span.end));
        }
        seg.sentence_ends.dedup();
        seg
    }
}

/// Which of the two tokenizations has something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Presence {
    /// Both tokenizations agree on it.
    Both,
    /// Only the first (the reference in `toklab compare`).
    OnlyA,
    /// Only the second (the tokenizer shown).
    OnlyB,
}

/// A boundary position of either tokenization and who has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// Skeleton position: the number of non-whitespace characters before the boundary.
    pub position: usize,
    /// Byte offset of the first non-whitespace character after the boundary.
    pub at: usize,
    /// The whitespace the boundary lies in (empty when it falls between two characters).
    pub gap: Span,
    /// Who has the boundary.
    pub side: Presence,
}

/// Non-whitespace text covered by the tokens of one side only (the other dropped it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverageDiff {
    /// The text one side covers and the other does not.
    pub span: Span,
    /// The side that covers it.
    pub side: Presence,
}

/// A rewritten form one side has and the other does not have for the same text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RewriteDiff {
    /// The side that has the form.
    pub side: Presence,
    /// The rewritten token.
    pub rewrite: Rewrite,
}

/// The boundary diff of two tokenizations of one text: every boundary with who has it, text
/// only one side covers, rewritten forms only one side has. The workbench marks disagreeing
/// boundaries in the side-by-side rows from it ([`BoundaryDiff::boundary_at`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundaryDiff {
    /// Every boundary either side has, in text order.
    pub boundaries: Vec<Boundary>,
    /// Runs of text one side covers and the other drops.
    pub coverage: Vec<CoverageDiff>,
    /// Rewritten forms not shared by both sides.
    pub rewrites: Vec<RewriteDiff>,
}

impl BoundaryDiff {
    /// The diff of `a` and `b`, two tokenizations of `text`.
    pub fn new(text: &str, a: &Tokenization, b: &Tokenization) -> BoundaryDiff {
        let skeleton = Skeleton::new(text);
        let sa = Segmentation::new(text, &skeleton, a);
        let sb = Segmentation::new(text, &skeleton, b);
        BoundaryDiff::between(&skeleton, &sa, &sb)
    }

    /// The diff of two segmentations already placed on `skeleton`.
    pub fn between(skeleton: &Skeleton, a: &Segmentation, b: &Segmentation) -> BoundaryDiff {
        let mut diff = BoundaryDiff::default();
        let boundary = |position, side| Boundary {
            position,
            at: skeleton.byte_of(position),
            gap: skeleton.gap(position),
            side,
        };
        let (mut i, mut j) = (0, 0);
        while i < a.boundaries.len() || j < b.boundaries.len() {
            let (x, y) = (a.boundaries.get(i), b.boundaries.get(j));
            let (position, side) = match (x, y) {
                (Some(&x), Some(&y)) if x == y => (x, Presence::Both),
                (Some(&x), Some(&y)) if x < y => (x, Presence::OnlyA),
                (Some(&x), None) => (x, Presence::OnlyA),
                (_, Some(&y)) => (y, Presence::OnlyB),
                (None, None) => unreachable!("loop condition"),
            };
            i += usize::from(side != Presence::OnlyB);
            j += usize::from(side != Presence::OnlyA);
            diff.boundaries.push(boundary(position, side));
        }
        let mut k = 0;
        while k < skeleton.count() {
            if a.covered[k] == b.covered[k] {
                k += 1;
                continue;
            }
            let first = k;
            while k < skeleton.count()
                && a.covered[k] != b.covered[k]
                && a.covered[k] == a.covered[first]
            {
                k += 1;
            }
            diff.coverage.push(CoverageDiff {
                span: Span::new(
                    skeleton.char_span(first).start,
                    skeleton.char_span(k - 1).end,
                ),
                side: if a.covered[first] {
                    Presence::OnlyA
                } else {
                    Presence::OnlyB
                },
            });
        }
        let key = |r: &Rewrite| (r.start, r.end, r.form.clone());
        let b_keys: std::collections::HashSet<_> = b.rewrites.iter().map(key).collect();
        let a_keys: std::collections::HashSet<_> = a.rewrites.iter().map(key).collect();
        for (rewrites, others, side) in [
            (&a.rewrites, &b_keys, Presence::OnlyA),
            (&b.rewrites, &a_keys, Presence::OnlyB),
        ] {
            for rewrite in rewrites.iter().filter(|r| !others.contains(&key(r))) {
                diff.rewrites.push(RewriteDiff {
                    side,
                    rewrite: rewrite.clone(),
                });
            }
        }
        diff
    }

    /// Boundaries only `a` has.
    pub fn only_a(&self) -> usize {
        self.boundaries
            .iter()
            .filter(|b| b.side == Presence::OnlyA)
            .count()
    }

    /// Boundaries only `b` has.
    pub fn only_b(&self) -> usize {
        self.boundaries
            .iter()
            .filter(|b| b.side == Presence::OnlyB)
            .count()
    }

    /// Whether both cut the text alike: the same boundaries and the same text covered.
    pub fn segmentation_agrees(&self) -> bool {
        self.coverage.is_empty() && self.boundaries.iter().all(|b| b.side == Presence::Both)
    }

    /// Whether they also output the same forms.
    pub fn agrees(&self) -> bool {
        self.segmentation_agrees() && self.rewrites.is_empty()
    }

    /// The boundary that byte offset `byte` belongs to: inside its whitespace gap or at the
    /// character that follows it. For the workbench's per-column boundary marks.
    pub fn boundary_at(&self, byte: usize) -> Option<&Boundary> {
        let index = self.boundaries.partition_point(|b| b.at < byte);
        self.boundaries
            .get(index)
            .filter(|b| b.gap.start <= byte && byte <= b.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::word_tokens as tokens;

    #[test]
    fn leading_space_and_dropped_space_agree() {
        // "Hi dogs": words-style [Hi][dogs] and GPT-2-style [Hi][ dogs].
        let text = "Hi dogs";
        let diff = BoundaryDiff::new(text, &tokens(&[(0, 2), (3, 7)]), &tokens(&[(0, 2), (2, 7)]));
        assert!(diff.agrees(), "{diff:?}");
        assert_eq!(diff.boundaries.len(), 1);
        assert_eq!(diff.boundaries[0].position, 2);
        assert_eq!(diff.boundaries[0].gap, Span::new(2, 3));
    }

    #[test]
    fn one_sided_boundaries_and_coverage() {
        let text = "dogs! New York";
        // A: dogs ! New York (two tokens for the name); B: dogs! (one) and "New York" (one),
        // and B drops nothing.
        let a = tokens(&[(0, 4), (4, 5), (6, 9), (10, 14)]);
        let b = tokens(&[(0, 5), (6, 14)]);
        let diff = BoundaryDiff::new(text, &a, &b);
        let sides: Vec<(usize, Presence)> = diff
            .boundaries
            .iter()
            .map(|b| (b.position, b.side))
            .collect();
        assert_eq!(
            sides,
            [
                (4, Presence::OnlyA),
                (5, Presence::Both),
                (8, Presence::OnlyA)
            ]
        );
        assert_eq!((diff.only_a(), diff.only_b()), (2, 0));
        assert!(!diff.agrees());
        assert_eq!(diff.boundary_at(9).map(|b| b.position), Some(8));
        assert_eq!(diff.boundary_at(10).map(|b| b.position), Some(8));
        assert_eq!(diff.boundary_at(4).map(|b| b.side), Some(Presence::OnlyA));
        assert!(diff.boundary_at(2).is_none());
        // B drops the "!".
        let b = tokens(&[(0, 4), (6, 9), (10, 14)]);
        let diff = BoundaryDiff::new(text, &a, &b);
        assert_eq!(
            diff.coverage,
            [CoverageDiff {
                span: Span::new(4, 5),
                side: Presence::OnlyA
            }]
        );
        assert!(!diff.segmentation_agrees());
    }

    #[test]
    fn rewrites_are_compared_by_form() {
        let text = "won't";
        let plain = tokens(&[(0, 5)]);
        let mut split = tokens(&[(0, 2), (2, 5)]);
        split.tokens[0] = split.tokens[0].clone().with_form("will");
        let diff = BoundaryDiff::new(text, &plain, &split);
        assert_eq!(diff.only_b(), 1);
        assert_eq!(diff.rewrites.len(), 1);
        assert_eq!(diff.rewrites[0].side, Presence::OnlyB);
        assert_eq!(diff.rewrites[0].rewrite.form, "will");
        assert!(BoundaryDiff::new(text, &split, &split.clone()).agrees());
    }

    #[test]
    fn sentence_ends_leave_out_the_last() {
        let text = "A b. C d.";
        let mut t = tokens(&[(0, 1), (2, 3), (3, 4), (5, 6), (7, 8), (8, 9)]);
        t.sentence_ends = vec![2];
        let seg = Segmentation::new(text, &Skeleton::new(text), &t);
        assert_eq!(seg.sentence_ends, [3]);
        assert_eq!(seg.boundaries, [1, 2, 3, 4, 5]);
    }
}
