//! The unigram trainer one step at a time, so a lesson can show each EM iteration and each
//! pruning step as it happens (and [`super::train`] runs the same steps to the end): every
//! step reports its [`UnigramEvent`] and the pieces it took out of the vocabulary.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::{META_PIECES, TrainedUnigram, UnigramConfig, UnigramError, UnigramEvent};
use super::{count_words, em, finalize, prune, rounds_needed, seed};

/// One step of training: what happened, and the pieces it removed.
#[derive(Clone, Debug, PartialEq)]
pub struct UnigramStep {
    /// The EM iteration, the pruning or the final choice of the vocabulary.
    pub event: UnigramEvent,
    /// The pieces this step took out, in vocabulary order: after an EM iteration those
    /// expected less than half a time, after pruning those whose loss cost least, at the end
    /// those beyond the target size.
    pub removed: Vec<String>,
}

/// A unigram training run between two steps. Cloning it keeps a step to go back to.
#[derive(Clone, Debug)]
pub struct UnigramTrainer {
    config: UnigramConfig,
    words: Arc<Vec<(String, u64)>>,
    chars: Arc<Vec<String>>,
    /// The vocabulary now: piece and log-probability.
    pieces: Vec<(String, f64)>,
    /// The size pruning stops at (10% above the target).
    desired: usize,
    seeded: UnigramEvent,
    round: usize,
    /// EM iterations done in this round.
    iteration: usize,
    /// Set when pruning could remove nothing more: training goes on to the final choice.
    stuck: bool,
    finished: Option<Vec<(String, f32)>>,
}

impl UnigramTrainer {
    /// Counts the corpus's words and seeds the vocabulary; an error when the corpus has no
    /// words or `config.vocab_size` cannot hold every character.
    pub fn new(corpus: &str, config: UnigramConfig) -> Result<UnigramTrainer, UnigramError> {
        let words = count_words(corpus);
        if words.is_empty() {
            return Err(UnigramError::NoWords);
        }
        let (chars, pieces) = seed::seed_pieces(&words, &config);
        if config.vocab_size < chars.len() + META_PIECES {
            return Err(UnigramError::TooSmall {
                size: config.vocab_size,
                chars: chars.len(),
            });
        }
        let desired = (config.vocab_size as f64 * 1.1) as usize;
        let seeded = UnigramEvent::Seeded {
            words: words.len(),
            chars: chars.len(),
            pieces: pieces.len(),
            rounds: rounds_needed(pieces.len(), desired, config.shrinking_factor),
        };
        Ok(UnigramTrainer {
            config,
            words: Arc::new(words),
            chars: Arc::new(chars),
            pieces,
            desired,
            seeded,
            round: 1,
            iteration: 0,
            stuck: false,
            finished: None,
        })
    }

    /// Sets the target vocabulary size after seeding (a lesson picks it from the seed's size),
    /// before the first step; an error when it cannot hold every character or training has
    /// begun.
    pub fn retarget(&mut self, vocab_size: usize) -> Result<(), UnigramError> {
        if self.round > 1 || self.iteration > 0 || self.finished.is_some() {
            return Err(UnigramError::Started);
        }
        if vocab_size < self.chars.len() + META_PIECES {
            return Err(UnigramError::TooSmall {
                size: vocab_size,
                chars: self.chars.len(),
            });
        }
        self.config.vocab_size = vocab_size;
        self.desired = (vocab_size as f64 * 1.1) as usize;
        if let UnigramEvent::Seeded { pieces, rounds, .. } = &mut self.seeded {
            *rounds = rounds_needed(*pieces, self.desired, self.config.shrinking_factor);
        }
        Ok(())
    }

    /// The seeding, as reported before the first step.
    pub fn seeded(&self) -> &UnigramEvent {
        &self.seeded
    }

    /// The settings trained with.
    pub fn config(&self) -> &UnigramConfig {
        &self.config
    }

    /// The distinct characters of the corpus (always kept).
    pub fn chars(&self) -> &[String] {
        &self.chars
    }

    /// The vocabulary now, piece and log-probability, in seed order (after the last step, the
    /// final pieces best first).
    pub fn pieces(&self) -> &[(String, f64)] {
        &self.pieces
    }

    /// The round under way (1 = on the seed vocabulary).
    pub fn round(&self) -> usize {
        self.round
    }

    /// Whether the final vocabulary has been chosen.
    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// Runs the next step: an EM iteration, a pruning, or the final choice of the target
    /// size's best pieces; `None` once that is done.
    pub fn step(&mut self) -> Option<UnigramStep> {
        if self.finished.is_some() {
            return None;
        }
        if self.iteration < self.config.em_iterations {
            self.iteration += 1;
            let step = em::em_step(&self.words, &self.pieces, self.config.max_piece_len);
            let next = em::m_step(&self.pieces, &step.expected, &self.chars);
            let removed = removed(&self.pieces, next.iter().map(|(p, _)| p.as_str()));
            self.pieces = next;
            let event = UnigramEvent::Em {
                round: self.round,
                iteration: self.iteration,
                pieces: self.pieces.len(),
                loss: step.loss,
                tokens: step.tokens,
            };
            return Some(UnigramStep { event, removed });
        }
        if self.pieces.len() > self.desired && !self.stuck {
            let from = self.pieces.len();
            let next = prune::prune(
                &self.words,
                &self.pieces,
                &self.chars,
                self.desired,
                &self.config,
            );
            let removed = removed(&self.pieces, next.iter().map(|(p, _)| p.as_str()));
            self.stuck = removed.is_empty();
            self.pieces = next;
            let event = UnigramEvent::Pruned {
                round: self.round,
                from,
                to: self.pieces.len(),
            };
            self.round += 1;
            self.iteration = 0;
            return Some(UnigramStep { event, removed });
        }
        let size = self.config.vocab_size.saturating_sub(META_PIECES);
        let last = finalize(self.pieces.clone(), &self.chars, size);
        let removed = removed(&self.pieces, last.iter().map(|(p, _)| p.as_str()));
        self.pieces = last.iter().map(|(p, s)| (p.clone(), *s as f64)).collect();
        let event = UnigramEvent::Finished { pieces: last.len() };
        self.finished = Some(last);
        Some(UnigramStep { event, removed })
    }

    /// The vocabulary now as a model, best first: the final one after the last step, before
    /// it every piece the trainer still holds (so a lesson can segment with it at any step).
    pub fn model(&self) -> TrainedUnigram {
        let pieces = match &self.finished {
            Some(last) => last.clone(),
            None => {
                let mut sorted: Vec<(String, f32)> = self
                    .pieces
                    .iter()
                    .map(|(p, s)| (p.clone(), *s as f32))
                    .collect();
                sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                sorted
            }
        };
        TrainedUnigram {
            vocab_size: self.config.vocab_size,
            pieces,
        }
    }
}

/// The pieces of `before` that `after` no longer holds.
fn removed<'a>(before: &[(String, f64)], after: impl Iterator<Item = &'a str>) -> Vec<String> {
    let kept: FxHashSet<&str> = after.collect();
    before
        .iter()
        .filter(|(p, _)| !kept.contains(p.as_str()))
        .map(|(p, _)| p.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORPUS: &str = "the cat sat on the mat with the other cat\nthe hat that the cat ate\n";

    #[test]
    fn steps_report_what_they_removed_and_end_at_the_target() {
        let corpus = CORPUS.repeat(20);
        let mut trainer = UnigramTrainer::new(&corpus, UnigramConfig::new(20)).unwrap();
        let UnigramEvent::Seeded { pieces: seed, .. } = *trainer.seeded() else {
            panic!("not a seeding: {:?}", trainer.seeded());
        };
        let mut size = seed;
        let mut steps = Vec::new();
        while let Some(step) = trainer.step() {
            let after = match step.event {
                UnigramEvent::Em { pieces, .. } | UnigramEvent::Finished { pieces } => pieces,
                UnigramEvent::Pruned { from, to, .. } => {
                    assert_eq!(from, size);
                    to
                }
                _ => unreachable!(),
            };
            assert_eq!(size - after, step.removed.len(), "{step:?}");
            for gone in &step.removed {
                assert!(trainer.pieces().iter().all(|(p, _)| p != gone), "{gone}");
            }
            size = after;
            steps.push(step);
        }
        assert!(trainer.is_finished());
        assert_eq!(size, 20 - META_PIECES);
        assert!(matches!(steps[0].event, UnigramEvent::Em { round: 1, .. }));
        assert!(
            steps
                .iter()
                .any(|s| matches!(s.event, UnigramEvent::Pruned { .. }))
        );
        assert!(trainer.step().is_none());
    }

    #[test]
    fn a_target_set_after_seeding_is_the_size_trained_to() {
        let corpus = CORPUS.repeat(20);
        let mut trainer = UnigramTrainer::new(&corpus, UnigramConfig::new(1000)).unwrap();
        assert!(matches!(
            trainer.retarget(3),
            Err(UnigramError::TooSmall { size: 3, .. })
        ));
        trainer.retarget(20).unwrap();
        let mut again = trainer.clone();
        while trainer.step().is_some() {}
        assert_eq!(trainer.model().pieces.len(), 20 - META_PIECES);
        again.step();
        assert!(again.retarget(30).is_err(), "too late");
    }

    #[test]
    fn stepping_trains_what_train_trains() {
        let corpus = CORPUS.repeat(20);
        let config = UnigramConfig::new(20);
        let mut trainer = UnigramTrainer::new(&corpus, config.clone()).unwrap();
        while trainer.step().is_some() {}
        let trained = super::super::train(&corpus, &config, &mut |_| {}).unwrap();
        assert_eq!(trainer.model(), trained);
    }

    #[test]
    fn the_model_at_any_step_segments_the_corpus() {
        let corpus = "banana bandana\n".repeat(4);
        let mut trainer = UnigramTrainer::new(&corpus, UnigramConfig::new(12)).unwrap();
        trainer.step();
        let model = trainer.model().to_model().unwrap();
        let ids = model.encode("banana");
        assert!(!ids.is_empty());
        assert!(!ids.contains(&0), "no <unk>: every character is a piece");
    }
}
