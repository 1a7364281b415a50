//! Herdan's or Heaps' law (Jurafsky & Martin §2.2): the number of types |V| grows with the
//! number of tokens N as |V| = k·N^β. How fast depends on the tokenizer (a subword model's
//! vocabulary saturates, a word tokenizer's keeps growing), so the workbench plots the growth
//! of each row and fits k and β.
//!
//! Types are distinct token forms, compared exactly (case-sensitive). The growth is sampled at
//! every token up to N = 10, then whenever N has grown by 5 %, so the samples lie evenly on
//! the log axis; the fit is least squares of ln |V| on ln N over the samples with N ≥ 10
//! (the first handful of tokens are nearly all new types and say nothing about the law), or
//! over all samples when fewer than two reach 10.
//!
//! ```
//! use toklab::analysis::VocabularyGrowth;
//!
//! let ws = toklab::load("ws").unwrap();
//! let mut growth = VocabularyGrowth::default();
//! for text in ["the cat saw the dog", "the dog saw a cat"] {
//!     growth.add(text, &ws.tokenize(text));
//! }
//! assert_eq!((growth.tokens(), growth.types()), (10, 5));
//! ```

use std::collections::HashSet;

use crate::core::token::Tokenization;

/// Below this many tokens every sample is kept and no sample enters the fit (see the module).
const DENSE_UNTIL: u64 = 10;
/// The growth of N between two samples past [`DENSE_UNTIL`].
const STEP: f64 = 1.05;

/// The vocabulary of one tokenizer as texts are read in order: the types seen and the
/// (tokens, types) samples.
#[derive(Clone, Debug, Default)]
pub struct VocabularyGrowth {
    types: HashSet<Box<str>>,
    tokens: u64,
    curve: HeapsCurve,
    next_sample: u64,
}

/// The samples of a vocabulary's growth and their fit: what views draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeapsCurve {
    /// (tokens N, types |V|) after each sampled token, ascending in N; the last is the
    /// current count.
    pub points: Vec<(u64, u64)>,
}

/// A fit of |V| = k·N^β.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeapsFit {
    /// The factor k.
    pub k: f64,
    /// The exponent β.
    pub beta: f64,
    /// The share of the variance of ln |V| the fit explains (R²), 1 for a perfect line.
    pub r_squared: f64,
    /// How many samples entered the fit.
    pub samples: usize,
}

impl VocabularyGrowth {
    /// Adds the tokens of one text, in order.
    pub fn add(&mut self, text: &str, tokens: &Tokenization) {
        for token in &tokens.tokens {
            let form = token.form(text);
            if !self.types.contains(form) {
                self.types.insert(form.into());
            }
            self.tokens += 1;
            if self.tokens >= self.next_sample {
                self.curve
                    .points
                    .push((self.tokens, self.types.len() as u64));
                self.next_sample = if self.tokens < DENSE_UNTIL {
                    self.tokens + 1
                } else {
                    ((self.tokens as f64 * STEP).ceil() as u64).max(self.tokens + 1)
                };
            }
        }
    }

    /// Tokens read so far.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// Distinct forms among them.
    pub fn types(&self) -> u64 {
        self.types.len() as u64
    }

    /// The samples so far, ending with the current count.
    pub fn curve(&self) -> HeapsCurve {
        let mut curve = self.curve.clone();
        if self.tokens > 0 && curve.points.last().map(|p| p.0) != Some(self.tokens) {
            curve.points.push((self.tokens, self.types()));
        }
        curve
    }
}

impl HeapsCurve {
    /// The least-squares fit of ln |V| = ln k + β ln N (see the module for which samples);
    /// `None` with fewer than two distinct N.
    pub fn fit(&self) -> Option<HeapsFit> {
        let late: Vec<(u64, u64)> = self
            .points
            .iter()
            .copied()
            .filter(|&(n, _)| n >= DENSE_UNTIL)
            .collect();
        let points = if late.len() >= 2 { &late } else { &self.points };
        fit(points)
    }
}

/// Least squares of ln v on ln n over `points`; `None` when fewer than two distinct n.
pub fn fit(points: &[(u64, u64)]) -> Option<HeapsFit> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|&&(n, v)| n > 0 && v > 0)
        .map(|&(n, v)| ((n as f64).ln(), (v as f64).ln()))
        .collect();
    let count = logs.len() as f64;
    let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / count;
    let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / count;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let syy: f64 = logs.iter().map(|p| (p.1 - mean_y).powi(2)).sum();
    if logs.len() < 2 || sxx <= 0.0 {
        return None;
    }
    let beta = sxy / sxx;
    let intercept = mean_y - beta * mean_x;
    let r_squared = if syy > 0.0 {
        sxy * sxy / (sxx * syy)
    } else {
        1.0
    };
    Some(HeapsFit {
        k: intercept.exp(),
        beta,
        r_squared,
        samples: logs.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_power_law_is_recovered() {
        let points: Vec<(u64, u64)> = [100u64, 1_000, 10_000, 100_000]
            .iter()
            .map(|&n| (n, (3.0 * (n as f64).powf(0.5)).round() as u64))
            .collect();
        let fit = fit(&points).unwrap();
        assert!((fit.beta - 0.5).abs() < 1e-3, "{fit:?}");
        assert!((fit.k - 3.0).abs() < 0.01, "{fit:?}");
        assert!(fit.r_squared > 0.9999);
    }

    #[test]
    fn growth_samples_densely_then_geometrically() {
        let tokenizer = crate::load("ws").unwrap();
        let mut growth = VocabularyGrowth::default();
        let text: String = (0..200).map(|i| format!("w{} the ", i % 50)).collect();
        growth.add(&text, &tokenizer.tokenize(&text));
        assert_eq!((growth.tokens(), growth.types()), (400, 51));
        let curve = growth.curve();
        assert_eq!(&curve.points[..3], [(1, 1), (2, 2), (3, 3)]);
        assert_eq!(curve.points.last(), Some(&(400, 51)));
        assert!(curve.points.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(curve.points.len() < 100, "{}", curve.points.len());
        let fit = curve.fit().unwrap();
        assert!(fit.beta > 0.0 && fit.beta < 1.0, "{fit:?}");
    }

    #[test]
    fn too_few_samples_have_no_fit() {
        assert!(fit(&[]).is_none());
        assert!(fit(&[(5, 5)]).is_none());
        assert!(HeapsCurve::default().fit().is_none());
    }
}
