//! The training view's unigram mode (`U`): a unigram language model trained step by step on
//! the same corpus as BPE — one EM iteration, one pruning step or the final choice per step —
//! with the loss of every EM iteration so far, the vocabulary size and the pieces each step
//! removed, and the Viterbi lattice of the selected word under the model as it is now.

use std::time::Instant;

use toklab::engines::subword::spm::SpmModel;
use toklab::engines::subword::train::unigram::{
    META_PIECES, UnigramConfig, UnigramEvent, UnigramStep, UnigramTrainer,
};
use toklab::engines::subword::unigram::lesson::ViterbiLesson;

use super::bpe::Corpus;

/// The lesson's target beyond the characters and meta pieces: one piece for every this many
/// distinct words, so whole words cannot all stay and pieces must be shared (EM alone tends
/// to keep every frequent word whole).
pub const WORDS_PER_PIECE: usize = 4;

/// Which algorithm the training view runs; `U` switches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Byte-pair encoding, one merge per step.
    #[default]
    Bpe,
    /// A unigram language model, one EM iteration or pruning per step.
    Unigram,
}

impl Algorithm {
    pub fn other(self) -> Algorithm {
        match self {
            Algorithm::Bpe => Algorithm::Unigram,
            Algorithm::Unigram => Algorithm::Bpe,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bpe => "BPE",
            Algorithm::Unigram => "unigram",
        }
    }
}

/// The Viterbi lattice of a word under the model of one step.
pub struct WordLattice {
    /// The word as written in the text.
    pub word: String,
    /// The demo's version it was computed at.
    version: u64,
    /// `None` when the word has nothing to segment.
    pub lesson: Option<ViterbiLesson>,
}

/// Unigram training on a corpus, one step at a time.
pub struct UnigramDemo {
    pub corpus: Corpus,
    /// The trainer now, or why the corpus cannot be trained on.
    pub trainer: Result<UnigramTrainer, String>,
    /// The trainer before each step taken, to step back to.
    history: Vec<UnigramTrainer>,
    /// Every step taken, oldest first.
    pub log: Vec<UnigramStep>,
    pub playing: Option<Instant>,
    /// Changes whenever the model changes, so its row and lattice follow.
    pub version: u64,
    pub lattice: Option<WordLattice>,
}

impl UnigramDemo {
    /// A trainer seeded from `corpus`, its target the characters, the meta pieces and one
    /// piece per [`WORDS_PER_PIECE`] distinct words (at least one).
    pub fn new(corpus: Corpus) -> UnigramDemo {
        let trainer = UnigramTrainer::new(&corpus.text, UnigramConfig::new(usize::MAX / 2))
            .and_then(|mut trainer| {
                let words = match trainer.seeded() {
                    UnigramEvent::Seeded { words, .. } => *words,
                    _ => 0,
                };
                let more = (words / WORDS_PER_PIECE).max(1);
                trainer.retarget(trainer.chars().len() + META_PIECES + more)?;
                Ok(trainer)
            })
            .map_err(|e| e.to_string());
        UnigramDemo {
            corpus,
            trainer,
            history: Vec::new(),
            log: Vec::new(),
            playing: None,
            version: 0,
            lattice: None,
        }
    }

    /// The next step; false when training is over (or could not start).
    pub fn step(&mut self) -> bool {
        let Ok(trainer) = &mut self.trainer else {
            return false;
        };
        let before = trainer.clone();
        let Some(step) = trainer.step() else {
            return false;
        };
        self.history.push(before);
        self.log.push(step);
        self.version += 1;
        true
    }

    /// Takes the last step back.
    pub fn back(&mut self) {
        if let Some(before) = self.history.pop() {
            self.trainer = Ok(before);
            self.log.pop();
            self.version += 1;
        }
    }

    /// Runs up to `n` more steps.
    pub fn run(&mut self, n: usize) {
        for _ in 0..n {
            if !self.step() {
                break;
            }
        }
    }

    /// The loss of every EM iteration so far: (round, iteration, loss).
    pub fn losses(&self) -> Vec<(usize, usize, f64)> {
        self.log
            .iter()
            .filter_map(|s| match s.event {
                UnigramEvent::Em {
                    round,
                    iteration,
                    loss,
                    ..
                } => Some((round, iteration, loss)),
                _ => None,
            })
            .collect()
    }

    /// The model of the step shown, as SentencePiece would load it.
    pub fn model(&self) -> Option<SpmModel> {
        self.trainer.as_ref().ok()?.model().to_model().ok()
    }

    /// Brings the lattice up to `word` under the model now.
    pub fn follow_word(&mut self, word: Option<&str>) {
        let Some(word) = word else {
            self.lattice = None;
            return;
        };
        if self
            .lattice
            .as_ref()
            .is_some_and(|l| l.word == word && l.version == self.version)
        {
            return;
        }
        let lesson = self
            .model()
            .and_then(|model| ViterbiLesson::new(&model, word));
        self.lattice = Some(WordLattice {
            word: word.to_string(),
            version: self.version,
            lesson,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_log_losses_and_step_back() {
        let text = "the cat sat on the mat with the other cat the hat that the cat ate\n";
        let mut demo = UnigramDemo::new(Corpus::one_line(&text.repeat(10)));
        assert!(demo.step());
        assert!(demo.step());
        let losses = demo.losses();
        assert_eq!(losses.len(), 2);
        assert!(losses[1].2 <= losses[0].2 + 1e-9, "{losses:?}");
        demo.follow_word(Some("cat"));
        let lattice = demo.lattice.as_ref().unwrap();
        let lesson = lattice.lesson.as_ref().unwrap();
        assert_eq!(lesson.text, "▁cat");
        let seen = demo.version;
        demo.back();
        assert_eq!(demo.log.len(), 1);
        demo.follow_word(Some("cat"));
        assert_ne!(seen, demo.version, "the lattice follows the step back");
        demo.run(1000);
        let Ok(trainer) = &demo.trainer else {
            panic!("{:?}", demo.trainer.err())
        };
        assert!(trainer.is_finished());
        assert!(!demo.step());
    }

    #[test]
    fn an_empty_corpus_says_so() {
        let mut demo = UnigramDemo::new(Corpus::one_line("   \n"));
        assert!(demo.trainer.as_ref().unwrap_err().contains("no words"));
        assert!(!demo.step());
    }
}
