//! The unigram model beyond its best path: the n best segmentations with their scores
//! (`?nbest=N`, SentencePiece's `NBestEncode`) and sampled segmentations for subword
//! regularisation (`?alpha=A&nbest=L&seed=S`, SentencePiece's `SampleEncode`), with the trace
//! lines `explain` shows for them and for the whole lattice (`?lattice=true`).

use std::sync::Mutex;

use super::lattice::{Lattice, LatticePath, SplitMix64};
use super::{SpmModel, SpmToken};
use crate::core::error::Result;
use crate::core::normalized::NormalizedString;
use crate::core::spec::Spec;
use crate::core::token::{Span, Tokenization};
use crate::core::trace::{MAX_TRACE_LINES, Role, TraceLine, omitted_items, quote};

/// How segmentations are sampled, as SentencePiece's `SampleEncode(text, nbest_size, alpha)`:
/// `nbest ≤ 0` draws from every path of the lattice (forward-filtering backward-sampling),
/// `nbest > 1` from the `nbest` best, each path with probability ∝ `exp(alpha × score)`;
/// `nbest = 1` is the best path (no sampling).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// The smoothing exponent (SentencePiece's `alpha`, α in Kudo 2018).
    pub alpha: f64,
    /// The number of best paths drawn from; zero or negative for the whole lattice.
    pub nbest: i64,
}

/// The unigram options of an `spm:` spec.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UnigramOptions {
    /// `?nbest=N` without `alpha`: `explain` lists the N best segmentations.
    pub nbest: Option<usize>,
    /// `?alpha=A` (with `nbest=L`): tokenize by sampling.
    pub sampling: Option<Sampling>,
    /// `?seed=S`: the sampler's seed (0 when absent).
    pub seed: u64,
    /// `?lattice=true`: `explain` lists every candidate piece of the lattice.
    pub lattice: bool,
}

/// The largest `nbest` accepted (SentencePiece caps its n-best at 1024 too).
pub const MAX_NBEST: i64 = 1024;

impl UnigramOptions {
    /// Takes `nbest`, `alpha`, `seed` and `lattice` from a spec.
    pub fn take(spec: &mut Spec) -> Result<UnigramOptions> {
        let number = |spec: &mut Spec, key: &str| -> Result<Option<f64>> {
            match spec.take_option(key) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<f64>()
                    .map(Some)
                    .map_err(|_| spec.bad(format!("option `{key}` wants a number, not `{v}`"))),
            }
        };
        let nbest = number(spec, "nbest")?;
        let alpha = number(spec, "alpha")?;
        let seed = number(spec, "seed")?;
        let lattice = spec.take_flag("lattice", false)?;
        let whole = |v: f64, key: &str, spec: &Spec| -> Result<i64> {
            if v.fract() != 0.0 || v.abs() > MAX_NBEST as f64 && key == "nbest" {
                return Err(spec.bad(format!(
                    "option `{key}` wants a whole number{}, not `{v}`",
                    if key == "nbest" { " up to 1024" } else { "" }
                )));
            }
            Ok(v as i64)
        };
        let nbest = nbest.map(|v| whole(v, "nbest", spec)).transpose()?;
        let seed = match seed {
            Some(v) if v < 0.0 => return Err(spec.bad("option `seed` wants a number ≥ 0")),
            Some(v) => whole(v, "seed", spec)? as u64,
            None => 0,
        };
        let sampling = match (alpha, nbest) {
            (Some(alpha), nbest) if alpha.is_finite() && alpha > 0.0 => Some(Sampling {
                alpha,
                nbest: nbest.unwrap_or(-1),
            }),
            (Some(alpha), _) => {
                return Err(spec.bad(format!("option `alpha` wants a number > 0, not `{alpha}`")));
            }
            (None, _) => None,
        };
        let nbest = match (sampling, nbest) {
            (None, Some(n)) if n < 1 => {
                return Err(spec.bad(format!(
                    "option `nbest` lists the N best segmentations: it wants 1 or more (or `alpha` to sample), not {n}"
                )));
            }
            (None, Some(n)) => Some(n as usize),
            _ => None,
        };
        Ok(UnigramOptions {
            nbest,
            sampling,
            seed,
            lattice,
        })
    }

    /// Whether any option asks for more than the Viterbi path.
    pub fn any(&self) -> bool {
        self.nbest.is_some() || self.sampling.is_some() || self.lattice
    }
}

/// A segmentation of normalized text: its tokens (unknown runs fused, byte fallback applied)
/// and its total score.
#[derive(Clone, Debug, PartialEq)]
pub struct Segmentation {
    /// The tokens, ranges of the normalized text.
    pub tokens: Vec<SpmToken>,
    /// The sum of the pieces' scores.
    pub score: f32,
}

impl SpmModel {
    /// The lattice of `text` after normalization; `None` for a BPE model.
    pub fn lattice<'t>(&self, text: &'t str) -> Option<(NormalizedString<'t>, Lattice)> {
        let normalized = self.normalizer.normalize(text);
        let lattice = Lattice::new(self, normalized.normalized())?;
        Some((normalized, lattice))
    }

    fn segmentation(&self, norm: &str, lattice: &Lattice, path: &LatticePath) -> Segmentation {
        let mut tokens = Vec::new();
        let unigram = self
            .unigram
            .as_ref()
            .expect("a lattice means a unigram model");
        unigram.emit(self, norm, 0, &lattice.pieces(path), &mut tokens);
        Segmentation {
            tokens,
            score: path.score,
        }
    }

    /// The `n` best segmentations of `text`, best first (SentencePiece's `NBestEncode`);
    /// `None` for a BPE model.
    pub fn nbest<'t>(
        &self,
        text: &'t str,
        n: usize,
    ) -> Option<(NormalizedString<'t>, Vec<Segmentation>)> {
        let (normalized, lattice) = self.lattice(text)?;
        let norm = normalized.normalized();
        let best = lattice
            .nbest(n)
            .iter()
            .map(|p| self.segmentation(norm, &lattice, p))
            .collect();
        Some((normalized, best))
    }

    /// A sampled segmentation of `text` (SentencePiece's `SampleEncode`); `None` for a BPE model.
    pub fn sample<'t>(
        &self,
        text: &'t str,
        sampling: Sampling,
        rng: &mut SplitMix64,
    ) -> Option<(NormalizedString<'t>, Segmentation)> {
        let (normalized, lattice) = self.lattice(text)?;
        let norm = normalized.normalized();
        let path = match sampling.nbest {
            n if n <= 0 => lattice.sample(sampling.alpha, rng),
            1 => lattice.nbest(1).pop()?,
            n => lattice.sample_nbest(n as usize, sampling.alpha, rng),
        };
        let segmentation = self.segmentation(norm, &lattice, &path);
        Some((normalized, segmentation))
    }
}

/// The sampler of a tokenizer: the options and the generator, whose stream continues from
/// call to call (as a seeded SentencePiece processor's does), so successive lines get
/// independent samples and a run is reproducible from its seed.
pub struct Sampler {
    /// How to sample.
    pub sampling: Sampling,
    rng: Mutex<SplitMix64>,
}

impl Sampler {
    /// A sampler seeded with `seed`.
    pub fn new(sampling: Sampling, seed: u64) -> Sampler {
        Sampler {
            sampling,
            rng: Mutex::new(SplitMix64::new(seed)),
        }
    }

    /// A sample of `text` under `model`, as tokens of the original text.
    pub fn tokenize(&self, model: &SpmModel, text: &str) -> Option<(Tokenization, f32)> {
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        let (normalized, sample) = model.sample(text, self.sampling, &mut rng)?;
        let tokens = sample
            .tokens
            .iter()
            .map(|t| model.token(text, &normalized, t))
            .collect();
        Some((Tokenization::new(tokens), sample.score))
    }
}

/// The forms of a segmentation, as they are shown: `▁he ll o`.
fn forms(model: &SpmModel, text: &str, normalized: &NormalizedString, s: &Segmentation) -> String {
    s.tokens
        .iter()
        .map(|t| model.token(text, normalized, t).form(text).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The explain lines of the n best segmentations.
pub fn nbest_lines(model: &SpmModel, text: &str, n: usize) -> Vec<TraceLine> {
    let Some((normalized, best)) = model.nbest(text, n) else {
        return Vec::new();
    };
    let whole = Span::new(0, text.len());
    let mut lines = vec![
        TraceLine::new(0, Some(whole))
            .part(Role::Label, "n-best ")
            .part(
                Role::Plain,
                format!("the {} best segmentations, best first", best.len()),
            ),
    ];
    for (rank, s) in best.iter().enumerate() {
        lines.push(
            TraceLine::new(1, Some(whole))
                .part(Role::Label, format!("{:>4}. ", rank + 1))
                .part(Role::Detail, format!("{:>10.4}  ", s.score))
                .part(Role::Token, forms(model, text, &normalized, s)),
        );
    }
    lines
}

/// The explain line of a sampled segmentation.
pub fn sample_lines(
    sampling: Sampling,
    score: f32,
    tokens: &Tokenization,
    text: &str,
) -> TraceLine {
    let source = match sampling.nbest {
        n if n <= 0 => "every path of the lattice".to_string(),
        1 => "the best path only (nbest=1 does not sample)".to_string(),
        n => format!("the {n} best paths"),
    };
    let forms = tokens.forms(text);
    TraceLine::new(0, Some(Span::new(0, text.len())))
        .part(Role::Label, "sampled ")
        .part(
            Role::Plain,
            format!("from {source}, P ∝ exp({} × score): ", sampling.alpha),
        )
        .part(Role::Token, forms.join(" "))
        .part(Role::Detail, format!("  score {score:.4}"))
}

/// The explain lines of the lattice: per start position every candidate piece with its
/// log-probability, marked `*` when it is on the best path.
pub fn lattice_lines(model: &SpmModel, text: &str) -> Vec<TraceLine> {
    let Some((normalized, lattice)) = model.lattice(text) else {
        return Vec::new();
    };
    let best: Vec<usize> = lattice.nbest(1).pop().map(|p| p.nodes).unwrap_or_default();
    let mut lines = vec![TraceLine::new(0, None).part(Role::Label, "lattice ").part(
        Role::Plain,
        format!(
            "{} candidate pieces; * marks the best path",
            lattice.nodes.len()
        ),
    )];
    for (k, node) in lattice.nodes.iter().enumerate() {
        if lines.len() >= MAX_TRACE_LINES {
            lines.push(omitted_items(lattice.nodes.len() - k, "candidate pieces"));
            break;
        }
        let span = Span::new(
            normalized.original_offset(node.start),
            normalized.original_offset(node.end),
        );
        let piece = model.pieces.text(node.id as usize);
        let on_best = best.contains(&k);
        lines.push(
            TraceLine::new(1, Some(span))
                .part(
                    if on_best { Role::Token } else { Role::Plain },
                    format!("{} ", if on_best { '*' } else { ' ' }),
                )
                .part(Role::Detail, format!("{:>4}..{:<4} ", node.start, node.end))
                .part(
                    if on_best { Role::Token } else { Role::Plain },
                    quote(piece),
                )
                .part(Role::Detail, format!("  log p {:.4}", node.score)),
        );
    }
    lines
}
