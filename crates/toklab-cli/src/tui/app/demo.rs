//! The teaching demos share their keys: `.` one step, `,` one back, `p` play, `f` to the
//! end. What a step is depends on the view: a cell of the DP matrix (alignment), a merge of
//! the selected word (merges), a merge learned from the corpus (training).

use std::time::{Duration, Instant};

use super::train::{CORPUS_LIMIT, TrainDemo};
use super::{App, View};

/// How often a playing demo takes a step.
pub const PLAY_STEP: Duration = Duration::from_millis(150);

impl App {
    /// The view a demo key acts on: the one shown if it has a demo, else the alignment matrix.
    fn demo_view(&self) -> View {
        match self.views.current {
            View::Merges | View::Train => self.views.current,
            _ => View::Align,
        }
    }

    pub(super) fn demo_step(&mut self, forward: bool) {
        match self.demo_view() {
            View::Merges => {
                self.merges.playing = None;
                let steps = self.merge_steps();
                self.merges.step = if forward {
                    (self.merges.step + 1).min(steps)
                } else {
                    self.merges.step.saturating_sub(1)
                };
            }
            View::Train => {
                let demo = self.train_demo();
                demo.playing = None;
                if forward {
                    demo.step();
                } else {
                    demo.back();
                }
            }
            _ => self.matrix_step(forward),
        }
    }

    pub(super) fn demo_play(&mut self) {
        match self.demo_view() {
            View::Merges => {
                if self.merges.playing.take().is_none() {
                    if self.merges.step >= self.merge_steps() {
                        self.merges.step = 0;
                    }
                    self.merges.playing = Some(Instant::now());
                }
            }
            View::Train => {
                let demo = self.train_demo();
                demo.playing = if demo.playing.is_some() {
                    None
                } else {
                    Some(Instant::now())
                };
            }
            _ => {
                self.show_view(View::Align);
                self.align.matrix = true;
                if self.align.playing.take().is_none() {
                    if self.align.step.is_none() || self.matrix_fill_done() {
                        self.align.step = Some(0);
                    }
                    self.align.playing = Some(Instant::now());
                }
            }
        }
    }

    pub(super) fn demo_finish(&mut self) {
        match self.demo_view() {
            View::Merges => {
                self.merges.playing = None;
                self.merges.step = self.merge_steps();
            }
            View::Train => {
                let demo = self.train_demo();
                demo.playing = None;
                // "To the end" of a training run: the next hundred merges.
                demo.run(100);
            }
            _ => {
                self.align.step = None;
                self.align.playing = None;
            }
        }
    }

    pub(super) fn demo_playing(&self) -> bool {
        self.align.playing.is_some()
            || self.merges.playing.is_some()
            || self.train.as_ref().is_some_and(|t| t.playing.is_some())
    }

    /// Advances playing demos by one step each `PLAY_STEP`.
    pub(super) fn demo_tick(&mut self) {
        let due = |t: Option<Instant>| t.is_some_and(|t| t.elapsed() >= PLAY_STEP);
        if due(self.align.playing) {
            if self.matrix_fill_done() {
                self.align.playing = None;
            } else {
                self.align.step = Some(self.align.step.unwrap_or(0) + 1);
                self.align.playing = Some(Instant::now());
            }
        }
        if due(self.merges.playing) {
            if self.merges.step >= self.merge_steps() {
                self.merges.playing = None;
            } else {
                self.merges.step += 1;
                self.merges.playing = Some(Instant::now());
            }
        }
        if let Some(demo) = self.train.as_mut()
            && due(demo.playing)
        {
            demo.playing = demo.step().then(Instant::now);
        }
    }

    /// Starts the training demo once the whole text is indexed (a corpus read earlier would
    /// miss lines).
    pub(super) fn start_training(&mut self) {
        if self.train.is_none() && self.doc.is_indexed() {
            self.train_demo();
        }
    }

    /// The training demo, started on the current text when first needed.
    pub(super) fn train_demo(&mut self) -> &mut TrainDemo {
        if self.train.is_none() {
            let (corpus, lines) = self.training_corpus();
            self.train = Some(TrainDemo::new(corpus, lines));
        }
        self.train.as_mut().expect("just made")
    }

    /// The text to train on: the whole document when it is small, else the lines around the
    /// cursor up to `CORPUS_LIMIT` bytes.
    fn training_corpus(&self) -> (String, usize) {
        let count = self.doc.line_count();
        let mut corpus = String::new();
        let first = self.line.saturating_sub(200);
        let mut lines = 0;
        for n in first..count {
            let Some(line) = self.doc.line(n) else { break };
            if corpus.len() + line.len() > CORPUS_LIMIT && lines > 0 {
                break;
            }
            corpus.push_str(&line);
            corpus.push('\n');
            lines += 1;
        }
        (corpus, lines)
    }
}
