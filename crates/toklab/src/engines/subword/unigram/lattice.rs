//! The whole lattice of a unigram model over a text: every candidate piece at every position,
//! kept (where the Viterbi encoder keeps only the best path) so that the n best segmentations
//! can be listed and segmentations sampled, as SentencePiece's `Lattice::NBest` and
//! `Lattice::Sample` do (Kudo 2018, subword regularisation).
//!
//! The nodes are the ones the Viterbi search of the encoder offers ([`super::viterbi`]), so
//! both see the same pieces and scores (unknown characters, user-defined pieces).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::viterbi::{Node, Score};
use crate::engines::subword::spm::SpmModel;

/// One candidate piece of the lattice.
pub type LatticeNode = Node<f32>;

/// A segmentation: the indices of its nodes, left to right, and its total score.
#[derive(Clone, Debug, PartialEq)]
pub struct LatticePath {
    /// Indices into [`Lattice::nodes`].
    pub nodes: Vec<usize>,
    /// The sum of the pieces' scores (a `f32` sum, as SentencePiece adds them).
    pub score: f32,
}

/// Every candidate piece of a text, with the pieces ending at each position. The score type
/// is SentencePiece's `f32` for a model's lattice and `f64` for the trainer's word lattices;
/// the sums over all paths are taken in `f64` for both.
#[derive(Clone, Debug)]
pub struct Lattice<S = f32> {
    /// The candidates, ordered by start, then end.
    pub nodes: Vec<Node<S>>,
    /// `ends_at[p]`: the nodes ending at byte `p`.
    ends_at: Vec<Vec<usize>>,
    len: usize,
}

/// The agenda of the n-best search is cut back to this many hypotheses when it grows past
/// [`MAX_AGENDA`]: SentencePiece bounds it the same way, so that long texts stay tractable.
const MIN_AGENDA: usize = 512;
const MAX_AGENDA: usize = 100_000;

impl<S: Score + Into<f64>> Lattice<S> {
    /// The lattice of nodes over a text of `len` bytes, ordered by start.
    pub fn from_nodes(len: usize, nodes: Vec<Node<S>>) -> Lattice<S> {
        let mut ends_at = vec![Vec::new(); len + 1];
        for (k, node) in nodes.iter().enumerate() {
            ends_at[node.end].push(k);
        }
        Lattice {
            nodes,
            ends_at,
            len,
        }
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The nodes ending at byte `at`.
    pub fn ending_at(&self, at: usize) -> &[usize] {
        &self.ends_at[at]
    }

    /// For every position, the log of the sum over all paths reaching it of
    /// `exp(theta × total score)`: the forward pass of forward-filtering backward-sampling
    /// and of the trainer's expected counts.
    pub fn forward_log_sums(&self, theta: f64) -> Vec<f64> {
        let mut alpha = Vec::new();
        forward_into(&self.nodes, self.len, theta, &mut alpha);
        alpha
    }

    /// For every position, the log of the sum over all paths from it to the end of the text
    /// of `exp(theta × total score)`: the backward pass.
    pub fn backward_log_sums(&self, theta: f64) -> Vec<f64> {
        let mut beta = Vec::new();
        backward_into(&self.nodes, self.len, theta, &mut beta);
        beta
    }

    /// Each node's share of all paths (the probability that a path drawn with weight
    /// `exp(theta × score)` goes through it), and the log of the sum over all paths; `None`
    /// when no path spans the text. This is the E step of unigram training (forward–backward).
    pub fn posteriors(&self, theta: f64) -> Option<(Vec<f64>, f64)> {
        let mut sums = PathSums::default();
        let (shares, z) = sums.posteriors(self.len, &self.nodes, theta)?;
        Some((shares.to_vec(), z))
    }
}

/// The forward–backward sums of [`Lattice::posteriors`] over nodes the caller keeps, in
/// buffers reused from one text to the next: the trainer's E step runs them on every distinct
/// word of a corpus in every iteration, where a lattice and three vectors per word would cost
/// more in allocation than the sums themselves.
#[derive(Clone, Debug, Default)]
pub struct PathSums {
    alpha: Vec<f64>,
    beta: Vec<f64>,
    shares: Vec<f64>,
}

impl PathSums {
    /// [`Lattice::posteriors`] of the lattice of `nodes` (ordered by start, then end) over a
    /// text of `len` bytes.
    pub fn posteriors<S: Score + Into<f64>>(
        &mut self,
        len: usize,
        nodes: &[Node<S>],
        theta: f64,
    ) -> Option<(&[f64], f64)> {
        forward_into(nodes, len, theta, &mut self.alpha);
        let z = self.alpha[len];
        if z == f64::NEG_INFINITY {
            return None;
        }
        backward_into(nodes, len, theta, &mut self.beta);
        let (alpha, beta) = (&self.alpha, &self.beta);
        self.shares.clear();
        self.shares.extend(nodes.iter().map(|node| {
            (alpha[node.start] + theta * node.score.into() + beta[node.end] - z).exp()
        }));
        Some((&self.shares, z))
    }
}

fn forward_into<S: Score + Into<f64>>(
    nodes: &[Node<S>],
    len: usize,
    theta: f64,
    alpha: &mut Vec<f64>,
) {
    alpha.clear();
    alpha.resize(len + 1, f64::NEG_INFINITY);
    alpha[0] = 0.0;
    for node in nodes {
        let term = alpha[node.start] + theta * node.score.into();
        alpha[node.end] = log_add(alpha[node.end], term);
    }
}

fn backward_into<S: Score + Into<f64>>(
    nodes: &[Node<S>],
    len: usize,
    theta: f64,
    beta: &mut Vec<f64>,
) {
    beta.clear();
    beta.resize(len + 1, f64::NEG_INFINITY);
    beta[len] = 0.0;
    for node in nodes.iter().rev() {
        let term = beta[node.end] + theta * node.score.into();
        beta[node.start] = log_add(beta[node.start], term);
    }
}

impl Lattice {
    /// The lattice of `text` (normalized) under the model's unigram pieces; `None` for a BPE model.
    pub fn new(model: &SpmModel, text: &str) -> Option<Lattice> {
        let unigram = model.unigram.as_ref()?;
        Some(Lattice::from_nodes(text.len(), unigram.nodes(model, text)))
    }

    /// For every node, the best total of a path from the start of the text through it (the
    /// node's own score included); and per position the best total of a path reaching it.
    pub fn forward_best(&self) -> (Vec<f32>, Vec<Option<f32>>) {
        let mut at_pos = vec![None; self.len + 1];
        at_pos[0] = Some(0.0f32);
        let mut through = vec![f32::NEG_INFINITY; self.nodes.len()];
        for (k, node) in self.nodes.iter().enumerate() {
            let Some(before) = at_pos[node.start] else {
                continue;
            };
            through[k] = before + node.score;
            if at_pos[node.end].is_none_or(|best| through[k] > best) {
                at_pos[node.end] = Some(through[k]);
            }
        }
        (through, at_pos)
    }

    /// The `n` best segmentations, best first, found as SentencePiece finds them: an A* search
    /// from the end of the text back to its start, each hypothesis scored by the exact total of
    /// the pieces to its right plus the Viterbi best total of everything to its left. Among
    /// equal scores the hypothesis made first is taken first.
    pub fn nbest(&self, n: usize) -> Vec<LatticePath> {
        let mut results = Vec::new();
        if n == 0 {
            return results;
        }
        let (through, at_pos) = self.forward_best();
        let Some(total) = at_pos[self.len] else {
            return results;
        };
        // Hypotheses: a node (or the end of the text) with the path to its right.
        let mut hyps: Vec<Hyp> = vec![Hyp {
            node: None,
            start: self.len,
            next: None,
            gx: 0.0,
        }];
        let mut agenda = BinaryHeap::new();
        agenda.push(Entry { fx: total, hyp: 0 });
        while let Some(top) = agenda.pop() {
            let hyp = hyps[top.hyp];
            if hyp.start == 0 {
                results.push(LatticePath {
                    nodes: self.chain(&hyps, Some(top.hyp)),
                    score: hyp.gx,
                });
                if results.len() == n {
                    break;
                }
                continue;
            }
            for &k in &self.ends_at[hyp.start] {
                if through[k] == f32::NEG_INFINITY {
                    continue;
                }
                let node = &self.nodes[k];
                let gx = node.score + hyp.gx;
                hyps.push(Hyp {
                    node: Some(k),
                    start: node.start,
                    next: Some(top.hyp),
                    gx,
                });
                agenda.push(Entry {
                    fx: through[k] + hyp.gx,
                    hyp: hyps.len() - 1,
                });
            }
            if agenda.len() >= MAX_AGENDA {
                let mut kept = std::mem::take(&mut agenda).into_sorted_vec();
                let keep = kept.len().min(MIN_AGENDA.max(n * 10));
                agenda = kept.split_off(kept.len() - keep).into();
            }
        }
        results
    }

    /// The node indices from hypothesis `first` rightwards.
    fn chain(&self, hyps: &[Hyp], mut first: Option<usize>) -> Vec<usize> {
        let mut nodes = Vec::new();
        while let Some(h) = first {
            if let Some(k) = hyps[h].node {
                nodes.push(k);
            }
            first = hyps[h].next;
        }
        nodes
    }

    /// A segmentation drawn with probability proportional to `exp(theta × score)` over every
    /// path of the lattice: the forward sums, then from the end of the text back to its start
    /// the piece ending here drawn by its share of the sum (SentencePiece's `Lattice::Sample`).
    pub fn sample(&self, theta: f64, rng: &mut SplitMix64) -> LatticePath {
        let alpha = self.forward_log_sums(theta);
        let mut nodes = Vec::new();
        let mut at = self.len;
        let mut weights = Vec::new();
        while at > 0 {
            let ending = &self.ends_at[at];
            weights.clear();
            weights.extend(ending.iter().map(|&k| {
                let node = &self.nodes[k];
                (alpha[node.start] + theta * f64::from(node.score) - alpha[at]).exp()
            }));
            let k = ending[rng.pick(&weights)];
            nodes.push(k);
            at = self.nodes[k].start;
        }
        nodes.reverse();
        let score = nodes.iter().map(|&k| self.nodes[k].score).sum();
        LatticePath { nodes, score }
    }

    /// One of the `n` best segmentations, drawn with probability proportional to
    /// `exp(theta × score)` (SentencePiece's sampling with `nbest_size > 1`).
    pub fn sample_nbest(&self, n: usize, theta: f64, rng: &mut SplitMix64) -> LatticePath {
        let mut best = self.nbest(n);
        let scores: Vec<f64> = best.iter().map(|p| theta * f64::from(p.score)).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        best.swap_remove(rng.pick(&weights))
    }

    /// The `(start, end, id)` of each node of a path.
    pub fn pieces(&self, path: &LatticePath) -> Vec<(usize, usize, u32)> {
        path.nodes
            .iter()
            .map(|&k| {
                let n = &self.nodes[k];
                (n.start, n.end, n.id)
            })
            .collect()
    }
}

#[derive(Clone, Copy)]
struct Hyp {
    node: Option<usize>,
    start: usize,
    next: Option<usize>,
    gx: f32,
}

/// A hypothesis on the agenda: higher `fx` first, then the earlier made.
struct Entry {
    fx: f32,
    hyp: usize,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.fx.total_cmp(&other.fx).then(other.hyp.cmp(&self.hyp))
    }
}

fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// A small seeded random number generator (SplitMix64). It is public because results that
/// draw at random must be reproducible from a seed: unigram sampling from `?seed=`, and the
/// fuzzing harness's iterations from its run seed. One copy serves both, and the library takes
/// no dependency for it.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose stream is fixed by `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index drawn with probability proportional to `weights` (not all zero).
    pub fn pick(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut target = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_add_adds_probabilities() {
        let sum = log_add(0.5f64.ln(), 0.25f64.ln());
        assert!((sum.exp() - 0.75).abs() < 1e-12);
        assert_eq!(log_add(f64::NEG_INFINITY, -1.0), -1.0);
    }

    #[test]
    fn pick_follows_the_weights() {
        let mut rng = SplitMix64::new(7);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[rng.pick(&[1.0, 2.0, 0.0])] += 1;
        }
        assert_eq!(counts[2], 0);
        let share = counts[1] as f64 / 30_000.0;
        assert!((share - 2.0 / 3.0).abs() < 0.02, "{counts:?}");
    }
}
