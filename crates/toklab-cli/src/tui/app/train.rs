//! The training view's state: BPE trained step by step on a small corpus (the text being
//! looked at), with the corpus's current segmentation, the pair counts and the chosen merge.

use std::time::Instant;

use toklab::subword::{
    formal::SymbolUnit,
    train::{PairCount, Pretok, Trainer},
};

/// At most this much of the text is the training corpus, so every step is instant.
pub const CORPUS_LIMIT: usize = 256 * 1024;

/// Pairs shown in the bar chart.
pub const TOP_PAIRS: usize = 12;

/// Training on the current text, one merge at a time.
pub struct TrainDemo {
    corpus: String,
    pub trainer: Trainer,
    /// The most frequent pairs now; the first is the next merge.
    pub pairs: Vec<PairCount>,
    pub playing: Option<Instant>,
    /// How many lines of the text the corpus holds.
    pub lines: usize,
}

impl TrainDemo {
    /// A trainer over `corpus` (characters, GPT-2 pre-tokenization: words carry their
    /// leading space, as in the textbook's `␣r`, `␣re`).
    pub fn new(corpus: String, lines: usize) -> TrainDemo {
        let mut trainer = Trainer::new(&corpus, SymbolUnit::Char, Pretok::Gpt2);
        let pairs = trainer.pair_counts(TOP_PAIRS);
        TrainDemo {
            corpus,
            trainer,
            pairs,
            playing: None,
            lines,
        }
    }

    pub fn corpus_len(&self) -> usize {
        self.corpus.len()
    }

    /// Merges one more pair; false when nothing is left to merge.
    pub fn step(&mut self) -> bool {
        let merged = self.trainer.step().is_some();
        self.pairs = self.trainer.pair_counts(TOP_PAIRS);
        merged
    }

    /// Takes the last merge back (by training again to one step fewer).
    pub fn back(&mut self) {
        let target = self.trainer.merges().len().saturating_sub(1);
        let mut trainer = Trainer::new(&self.corpus, SymbolUnit::Char, Pretok::Gpt2);
        for _ in 0..target {
            trainer.step();
        }
        self.trainer = trainer;
        self.pairs = self.trainer.pair_counts(TOP_PAIRS);
    }

    /// Merges up to `n` more pairs at once.
    pub fn run(&mut self, n: usize) {
        self.trainer.train(n, &mut |_| {});
        self.pairs = self.trainer.pair_counts(TOP_PAIRS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::subword::train::show_token;

    #[test]
    fn textbook_corpus_steps_and_steps_back() {
        let mut demo = TrainDemo::new("set new new renew reset renew".into(), 1);
        let next = &demo.pairs[0];
        assert_eq!(show_token(demo.trainer.token(next.left)), "n");
        assert_eq!(show_token(demo.trainer.token(next.right)), "e");
        assert!(demo.step());
        assert!(demo.step());
        let made: Vec<String> = demo
            .trainer
            .merges()
            .iter()
            .map(|m| show_token(demo.trainer.token(m.new)))
            .collect();
        assert_eq!(made, ["ne", "new"]);
        demo.back();
        assert_eq!(demo.trainer.merges().len(), 1);
        demo.run(100);
        assert!(!demo.step(), "everything merged");
    }
}
