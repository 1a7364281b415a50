//! The training view's state: BPE trained step by step on a small corpus (the current line, a
//! marked range of lines or the whole text), with the corpus's current segmentation, the pair
//! counts, the chosen merge and how a tie among the most frequent pairs was broken.

use std::time::Instant;

use toklab::engines::subword::{
    formal::SymbolUnit,
    train::{MergeRecord, PairCount, Pretok, Trainer, show_token},
};

/// At most this much of the text is the training corpus, so every step is instant.
pub const CORPUS_LIMIT: usize = 256 * 1024;

/// Pairs shown in the bar chart.
pub const TOP_PAIRS: usize = 12;

/// What the training view trains on; `t` cycles through them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TrainScope {
    /// The cursor line (as edited).
    Line,
    /// The lines from the mark (`V`) to the cursor line.
    Selection,
    /// The whole text (up to [`CORPUS_LIMIT`] bytes: the title says how many lines that is).
    #[default]
    File,
}

impl TrainScope {
    pub fn next(self) -> TrainScope {
        match self {
            TrainScope::Line => TrainScope::Selection,
            TrainScope::Selection => TrainScope::File,
            TrainScope::File => TrainScope::Line,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TrainScope::Line => "line",
            TrainScope::Selection => "selection",
            TrainScope::File => "file",
        }
    }
}

/// The pre-tokenizations the view offers (`T` switches): GPT-2's, where words carry their
/// leading space, and the textbook's whitespace words with an end-of-word `_`.
pub fn pretok_name(pretok: Pretok) -> &'static str {
    match pretok {
        Pretok::Textbook => "textbook (words + _)",
        Pretok::None => "none (a line is a word)",
        _ => "GPT-2",
    }
}

/// The other pre-tokenization of the two the view offers.
pub fn other_pretok(pretok: Pretok) -> Pretok {
    if pretok == Pretok::Textbook {
        Pretok::Gpt2
    } else {
        Pretok::Textbook
    }
}

/// The corpus a demo trains on and where it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    pub text: String,
    /// Lines `first..first + lines` of the text (0-based) are in it.
    pub first: usize,
    pub lines: usize,
    /// Lines the scope asked for; more than `lines` when the size limit cut it.
    pub wanted: usize,
}

#[cfg(test)]
impl Corpus {
    /// A corpus of one line holding all of `text`, for tests.
    pub fn one_line(text: &str) -> Corpus {
        Corpus {
            text: text.into(),
            first: 0,
            lines: 1,
            wanted: 1,
        }
    }
}

/// The last merge made and the pairs that had the same count when it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMerge {
    pub record: MergeRecord,
    /// The other pairs at the same (highest) count, shown as `l+r`; empty when there was no tie.
    pub tied_with: Vec<String>,
}

/// What the demo keys do to a training run, BPE's or unigram's.
pub trait Stepping {
    /// One step forward; false when training is over.
    fn step(&mut self) -> bool;
    /// One step back.
    fn back(&mut self);
    /// `f`: many steps at once.
    fn finish(&mut self);
    /// When the last step was played, while playing.
    fn playing(&mut self) -> &mut Option<Instant>;
}

impl Stepping for TrainDemo {
    fn step(&mut self) -> bool {
        TrainDemo::step(self)
    }
    fn back(&mut self) {
        TrainDemo::back(self)
    }
    fn finish(&mut self) {
        // "To the end" of a training run: the next hundred merges.
        self.run(100)
    }
    fn playing(&mut self) -> &mut Option<Instant> {
        &mut self.playing
    }
}

impl Stepping for super::unigram::UnigramDemo {
    fn step(&mut self) -> bool {
        super::unigram::UnigramDemo::step(self)
    }
    fn back(&mut self) {
        super::unigram::UnigramDemo::back(self)
    }
    fn finish(&mut self) {
        // Training ends by itself: to the final vocabulary.
        self.run(usize::MAX)
    }
    fn playing(&mut self) -> &mut Option<Instant> {
        &mut self.playing
    }
}

/// Training on a corpus, one merge at a time.
pub struct TrainDemo {
    pub corpus: Corpus,
    pub pretok: Pretok,
    pub trainer: Trainer,
    /// The most frequent pairs now; the first is the next merge.
    pub pairs: Vec<PairCount>,
    pub last: Option<LastMerge>,
    pub playing: Option<Instant>,
    /// Changes whenever the merges change, so a row of the model knows to follow.
    pub version: u64,
}

impl TrainDemo {
    /// A trainer over `corpus` on characters with `pretok`.
    pub fn new(corpus: Corpus, pretok: Pretok) -> TrainDemo {
        let mut trainer = Trainer::new(&corpus.text, SymbolUnit::Char, pretok);
        let pairs = trainer.pair_counts(TOP_PAIRS);
        TrainDemo {
            corpus,
            pretok,
            trainer,
            pairs,
            last: None,
            playing: None,
            version: 0,
        }
    }

    pub fn corpus_len(&self) -> usize {
        self.corpus.text.len()
    }

    /// `l+r` for a pair, as the bar chart labels it.
    pub fn pair_label(&self, left: u32, right: u32) -> String {
        format!(
            "{}+{}",
            show_token(self.trainer.token(left)),
            show_token(self.trainer.token(right))
        )
    }

    /// The pairs tied with the next merge (same count), by label, the winner first.
    pub fn next_tie(&self) -> Vec<String> {
        let Some(best) = self.pairs.first() else {
            return Vec::new();
        };
        let tied: Vec<String> = self
            .pairs
            .iter()
            .take_while(|p| p.count == best.count)
            .map(|p| self.pair_label(p.left, p.right))
            .collect();
        if tied.len() > 1 { tied } else { Vec::new() }
    }

    /// Merges one more pair; false when nothing is left to merge.
    pub fn step(&mut self) -> bool {
        let tie = self.next_tie();
        let Some(record) = self.trainer.step() else {
            return false;
        };
        self.last = Some(LastMerge {
            record,
            tied_with: tie.into_iter().skip(1).collect(),
        });
        self.pairs = self.trainer.pair_counts(TOP_PAIRS);
        self.version += 1;
        true
    }

    /// Takes the last merge back (by training again to one step fewer).
    pub fn back(&mut self) {
        let target = self.trainer.merges().len().saturating_sub(1);
        let mut again = TrainDemo::new(std::mem::take(&mut self.corpus), self.pretok);
        for _ in 0..target {
            again.step();
        }
        again.version = self.version + 1;
        again.playing = None;
        *self = again;
    }

    /// Merges up to `n` more pairs at once.
    pub fn run(&mut self, n: usize) {
        for _ in 0..n {
            if !self.step() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_corpus_steps_and_steps_back() {
        let mut demo = TrainDemo::new(
            Corpus::one_line("set new new renew reset renew"),
            Pretok::Gpt2,
        );
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

    #[test]
    fn ties_are_named_with_the_winner_first() {
        // n+e and e+w both occur 4 times; n+e occurs first, in the most frequent word.
        let mut demo = TrainDemo::new(
            Corpus::one_line("set new new renew reset renew"),
            Pretok::Gpt2,
        );
        assert_eq!(demo.next_tie(), ["n+e", "e+w"]);
        demo.step();
        let last = demo.last.as_ref().unwrap();
        assert_eq!(last.tied_with, ["e+w"]);
        assert_eq!(show_token(demo.trainer.token(last.record.new)), "ne");
    }

    #[test]
    fn textbook_pretokenization_marks_word_ends() {
        let demo = TrainDemo::new(Corpus::one_line("low low lower"), Pretok::Textbook);
        let words: Vec<String> = demo
            .trainer
            .words()
            .iter()
            .map(|w| show_token(&w.text))
            .collect();
        assert_eq!(words, ["low_", "lower_"]);
    }
}
