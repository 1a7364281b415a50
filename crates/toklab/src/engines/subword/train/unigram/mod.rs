//! Unigram language-model training (Kudo 2018; SentencePiece's unigram trainer): a seed
//! vocabulary of every character and the most frequent substrings of the words, then rounds of
//! EM (expected piece counts over every segmentation of every word, re-estimated with
//! SentencePiece's Bayesian digamma update) each followed by pruning: the pieces whose removal
//! loses least likelihood go, a quarter of the vocabulary per round, until the vocabulary is
//! 10% above the target; the final vocabulary is the target size's best-scored pieces with
//! every character kept. [`write`] writes it as a SentencePiece `.model`.
//!
//! Words are the corpus's whitespace-separated strings with `▁` in front (SentencePiece's
//! dummy prefix and escaped spaces); pieces never cross a word, hold `▁` only at their start,
//! and do not mix letters, digits and other characters (as SentencePiece's default
//! `split_by_unicode_script` and `split_by_number` forbid).

mod em;
mod prune;
mod seed;
mod trainer;
mod write;

pub use trainer::{UnigramStep, UnigramTrainer};
pub use write::model_bytes;

use rustc_hash::FxHashMap;

/// The word-start marker of SentencePiece models.
pub const SPACE: char = '\u{2581}';

/// The trainer's settings, with SentencePiece's defaults.
#[derive(Clone, Debug)]
pub struct UnigramConfig {
    /// The vocabulary size to reach, the three meta pieces (`<unk>`, `<s>`, `</s>`) included.
    pub vocab_size: usize,
    /// The longest piece, in characters.
    pub max_piece_len: usize,
    /// How many substrings seed the vocabulary.
    pub seed_size: usize,
    /// The share of the vocabulary kept by each pruning step.
    pub shrinking_factor: f64,
    /// EM iterations per round.
    pub em_iterations: usize,
}

impl UnigramConfig {
    /// The defaults of `spm_train --model_type=unigram` for a vocabulary of `vocab_size`.
    pub fn new(vocab_size: usize) -> UnigramConfig {
        UnigramConfig {
            vocab_size,
            max_piece_len: 16,
            seed_size: 1_000_000,
            shrinking_factor: 0.75,
            em_iterations: 2,
        }
    }
}

/// The meta pieces written before the learned ones.
pub const META_PIECES: usize = 3;

/// Why a unigram model cannot be trained to the size asked for: the figures a user needs to
/// pick a size that works.
#[derive(Debug, thiserror::Error)]
pub enum UnigramError {
    /// The corpus has no words to count.
    #[error("the corpus has no words")]
    NoWords,
    /// The size cannot hold every character and the meta pieces.
    #[error(
        "vocabulary size {size} is too small: the corpus has {chars} distinct characters, and every \
         character is kept (plus {META_PIECES} meta pieces)"
    )]
    TooSmall {
        /// The size asked for.
        size: usize,
        /// The corpus's distinct characters.
        chars: usize,
    },
    /// The seed vocabulary is smaller than the size, and training only removes pieces.
    #[error(
        "--vocab-size {size} is too large for this corpus: its seed vocabulary has {pieces} \
         pieces (plus {META_PIECES} meta pieces), and training only removes pieces"
    )]
    LargerThanSeed {
        /// The size asked for.
        size: usize,
        /// The seed's pieces.
        pieces: usize,
    },
    /// Training ended with fewer pieces than the size asked for.
    #[error(
        "--vocab-size {size} is too large for this corpus: training ends with {reached} pieces \
         (with {META_PIECES} meta pieces); ask for at most that many"
    )]
    EndsSmaller {
        /// The size asked for.
        size: usize,
        /// The pieces training ended with, meta pieces included.
        reached: usize,
    },
    /// A lesson set the target after training began.
    #[error("the target size is set before the first step")]
    Started,
}

/// What the trainer reports as it goes, for a log line each and a progress bar.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum UnigramEvent {
    /// The corpus is read and the seed vocabulary made.
    Seeded {
        /// Distinct words.
        words: usize,
        /// Distinct characters (always kept).
        chars: usize,
        /// Seed pieces, characters included.
        pieces: usize,
        /// The estimated number of pruning rounds to come.
        rounds: usize,
    },
    /// One EM iteration done.
    Em {
        /// The round (1 = on the seed vocabulary).
        round: usize,
        /// The iteration within the round.
        iteration: usize,
        /// Pieces after the M step (those expected less than half a time are dropped).
        pieces: usize,
        /// The negative log-likelihood per word occurrence, before the M step.
        loss: f64,
        /// The number of tokens of the corpus on its best segmentations.
        tokens: u64,
    },
    /// One pruning step done.
    Pruned {
        /// The round.
        round: usize,
        /// Pieces before.
        from: usize,
        /// Pieces after.
        to: usize,
    },
    /// The final vocabulary is chosen.
    Finished {
        /// Learned pieces (the meta pieces not counted).
        pieces: usize,
    },
}

/// A trained unigram model: the learned pieces with their log-probabilities, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainedUnigram {
    /// Piece and score, in descending order of score.
    pub pieces: Vec<(String, f32)>,
    /// The target vocabulary size, meta pieces included.
    pub vocab_size: usize,
}

/// The corpus as counted words: each distinct word (with `▁` in front) and its frequency,
/// in order of first appearance.
pub fn count_words(corpus: &str) -> Vec<(String, u64)> {
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    let mut words: Vec<(String, u64)> = Vec::new();
    for word in corpus.split_whitespace() {
        match index.get(word) {
            Some(&i) => words[i].1 += 1,
            None => {
                index.insert(word, words.len());
                words.push((format!("{SPACE}{word}"), 1));
            }
        }
    }
    words
}

/// Trains a unigram model on `corpus`, reporting each step to `observe`.
pub fn train(
    corpus: &str,
    config: &UnigramConfig,
    observe: &mut dyn FnMut(&UnigramEvent),
) -> Result<TrainedUnigram, UnigramError> {
    let mut trainer = UnigramTrainer::new(corpus, config.clone())?;
    // Training only removes pieces, so the seed bounds the vocabulary: a larger size could
    // never be reached (and is refused before any round runs).
    if let UnigramEvent::Seeded { pieces, .. } = trainer.seeded()
        && config.vocab_size > pieces + META_PIECES
    {
        return Err(UnigramError::LargerThanSeed {
            size: config.vocab_size,
            pieces: *pieces,
        });
    }
    observe(trainer.seeded());
    while let Some(step) = trainer.step() {
        if let UnigramEvent::Finished { pieces } = step.event
            && pieces + META_PIECES < config.vocab_size
        {
            return Err(UnigramError::EndsSmaller {
                size: config.vocab_size,
                reached: pieces + META_PIECES,
            });
        }
        observe(&step.event);
    }
    Ok(trainer.model())
}

/// How many pruning rounds take `size` pieces down to `desired`.
fn rounds_needed(size: usize, desired: usize, factor: f64) -> usize {
    let mut size = size as f64;
    let mut rounds = 1;
    while size > desired as f64 {
        size = (size * factor).max(desired as f64);
        rounds += 1;
    }
    rounds
}

/// The `size` best-scored pieces, every character among them; best first.
fn finalize(pieces: Vec<(String, f64)>, chars: &[String], size: usize) -> Vec<(String, f32)> {
    let mut sorted = pieces;
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let is_char: rustc_hash::FxHashSet<&str> = chars.iter().map(String::as_str).collect();
    let room = size.saturating_sub(chars.len());
    let mut out: Vec<(String, f32)> = Vec::with_capacity(size.min(sorted.len()));
    let mut others = 0;
    for (piece, score) in &sorted {
        let keep = is_char.contains(piece.as_str()) || others < room;
        if !is_char.contains(piece.as_str()) && keep {
            others += 1;
        }
        if keep {
            out.push((piece.clone(), *score as f32));
        }
    }
    out
}

/// The digamma function ψ(x) for x > 0 (recurrence up to 6, then the asymptotic series).
pub(crate) fn digamma(mut x: f64) -> f64 {
    let mut result = 0.0;
    while x < 6.0 {
        result -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    result + x.ln()
        - 0.5 / x
        - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f / 132.0))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digamma_matches_known_values() {
        // ψ(1) = −γ, ψ(1/2) = −γ − 2 ln 2.
        let gamma = 0.577_215_664_901_532_9;
        assert!((digamma(1.0) + gamma).abs() < 1e-10);
        assert!((digamma(0.5) + gamma + 2.0 * 2f64.ln()).abs() < 1e-10);
    }

    #[test]
    fn training_keeps_every_character_and_reaches_the_size() {
        let corpus =
            "the cat sat on the mat with the other cat\nthe hat that the cat ate\n".repeat(20);
        let config = UnigramConfig::new(20);
        let mut events = Vec::new();
        let model = train(&corpus, &config, &mut |e| events.push(e.clone())).unwrap();
        assert_eq!(model.pieces.len(), 20 - META_PIECES);
        let err = train(&corpus, &UnigramConfig::new(200), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
        for c in corpus.chars().filter(|c| !c.is_whitespace()) {
            assert!(model.pieces.iter().any(|(p, _)| p == &c.to_string()), "{c}");
        }
        assert!(model.pieces.iter().any(|(p, _)| p == "▁the"), "{model:?}");
        assert!(matches!(events[0], UnigramEvent::Seeded { .. }));
        assert!(
            events
                .iter()
                .any(|e| matches!(e, UnigramEvent::Pruned { .. }))
        );
        let losses: Vec<f64> = events
            .iter()
            .filter_map(|e| match e {
                UnigramEvent::Em { round: 1, loss, .. } => Some(*loss),
                _ => None,
            })
            .collect();
        assert!(
            losses[1] <= losses[0] + 1e-9,
            "EM does not lose likelihood: {losses:?}"
        );
    }

    #[test]
    fn too_small_a_vocabulary_is_an_error() {
        let err = train("abc def", &UnigramConfig::new(5), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("too small"), "{err}");
    }
}
