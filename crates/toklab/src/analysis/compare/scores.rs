//! Precision, recall and F1 of one tokenization against another taken as gold (Diewald 2022,
//! §4.3): for token boundaries, for whole tokens and for sentence ends.

use super::boundary::Segmentation;

/// True positives, false positives and false negatives of one measure, summed over texts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// In both the candidate and the gold.
    pub hits: usize,
    /// In the candidate only.
    pub extra: usize,
    /// In the gold only.
    pub missed: usize,
}

impl Counts {
    /// Counts of two ascending lists without duplicates.
    pub fn of_sorted<T: Ord>(gold: &[T], candidate: &[T]) -> Counts {
        let (mut i, mut j, mut hits) = (0, 0, 0);
        while i < gold.len() && j < candidate.len() {
            match gold[i].cmp(&candidate[j]) {
                std::cmp::Ordering::Equal => {
                    hits += 1;
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
            }
        }
        Counts {
            hits,
            extra: candidate.len() - hits,
            missed: gold.len() - hits,
        }
    }

    /// Adds another text's counts: scores are micro-averaged over all texts.
    pub fn add(&mut self, other: Counts) {
        self.hits += other.hits;
        self.extra += other.extra;
        self.missed += other.missed;
    }

    /// `None` when the candidate has nothing of this kind (0/0).
    pub fn precision(&self) -> Option<f64> {
        ratio(self.hits, self.hits + self.extra)
    }

    /// `None` when the gold has nothing of this kind (0/0).
    pub fn recall(&self) -> Option<f64> {
        ratio(self.hits, self.hits + self.missed)
    }

    /// The harmonic mean of precision and recall; `None` when both sides are empty.
    pub fn f1(&self) -> Option<f64> {
        ratio(2 * self.hits, 2 * self.hits + self.extra + self.missed)
    }
}

fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

/// The three measures of one candidate against the gold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    /// Token boundaries: positions inside the text where a token starts or ends.
    pub boundaries: Counts,
    /// Whole tokens: a token counts when both its ends match a gold token's (CoNLL 2018 style).
    pub tokens: Counts,
    /// Sentence ends, the one at the end of each text left out.
    pub sentences: Counts,
}

impl Scores {
    /// The scores of `candidate` against `gold`, two segmentations of one text.
    pub fn between(gold: &Segmentation, candidate: &Segmentation) -> Scores {
        Scores {
            boundaries: Counts::of_sorted(&gold.boundaries, &candidate.boundaries),
            tokens: Counts::of_sorted(&gold.tokens, &candidate.tokens),
            sentences: Counts::of_sorted(&gold.sentence_ends, &candidate.sentence_ends),
        }
    }

    /// Adds another text's scores.
    pub fn add(&mut self, other: Scores) {
        self.boundaries.add(other.boundaries);
        self.tokens.add(other.tokens);
        self.sentences.add(other.sentences);
    }
}

#[cfg(test)]
mod tests {
    use super::super::boundary::Skeleton;
    use super::*;
    use crate::core::token::{Span, Token, TokenKind, Tokenization};

    #[test]
    fn counts_and_ratios() {
        let c = Counts::of_sorted(&[1, 2, 3, 5], &[2, 3, 4]);
        assert_eq!(
            c,
            Counts {
                hits: 2,
                extra: 1,
                missed: 2
            }
        );
        assert_eq!(c.precision(), Some(2.0 / 3.0));
        assert_eq!(c.recall(), Some(0.5));
        assert!((c.f1().unwrap() - 4.0 / 7.0).abs() < 1e-12);
        assert_eq!(Counts::default().f1(), None);
    }

    #[test]
    fn scores_of_a_merged_token() {
        // Gold "dogs !", candidate "dogs!": one boundary missed, one token of two found wrong.
        let text = "dogs!";
        let gold = Tokenization::new(vec![
            Token::new(Span::new(0, 4), TokenKind::Word),
            Token::new(Span::new(4, 5), TokenKind::Punct),
        ]);
        let candidate = Tokenization::new(vec![Token::new(Span::new(0, 5), TokenKind::Word)]);
        let skeleton = Skeleton::new(text);
        let s = Scores::between(
            &Segmentation::new(text, &skeleton, &gold),
            &Segmentation::new(text, &skeleton, &candidate),
        );
        assert_eq!(
            s.boundaries,
            Counts {
                hits: 0,
                extra: 0,
                missed: 1
            }
        );
        assert_eq!(
            s.tokens,
            Counts {
                hits: 0,
                extra: 1,
                missed: 2
            }
        );
        assert_eq!(s.boundaries.precision(), None);
        assert_eq!(s.boundaries.recall(), Some(0.0));
    }
}
