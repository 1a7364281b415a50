//! The training view: BPE learned step by step from the text being looked at; the demo starts
//! once the text is indexed and starts again when another text is opened.

use std::time::Instant;

use super::{Context, Pane, Reply};
use crate::tui::app::train::{CORPUS_LIMIT, TrainDemo};
use crate::tui::app::{Action, step_due};

/// The training view.
#[derive(Default)]
pub struct TrainPane {
    /// The demo and the document (`DocState::id`) it trains on.
    run: Option<(u64, TrainDemo)>,
}

impl TrainPane {
    /// The demo, when it was started on the current document.
    pub fn demo(&self, cx: &Context) -> Option<&TrainDemo> {
        self.run
            .as_ref()
            .filter(|(doc, _)| *doc == cx.doc.id)
            .map(|(_, demo)| demo)
    }

    /// The demo, started on the current text when first needed.
    fn demo_mut(&mut self, cx: &Context) -> &mut TrainDemo {
        if self.demo(cx).is_none() {
            let (corpus, lines) = training_corpus(cx);
            self.run = Some((cx.doc.id, TrainDemo::new(corpus, lines)));
        }
        &mut self.run.as_mut().expect("just made").1
    }
}

impl Pane for TrainPane {
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        match action {
            Action::DemoStep(forward) => {
                let demo = self.demo_mut(cx);
                demo.playing = None;
                if forward {
                    demo.step();
                } else {
                    demo.back();
                }
            }
            Action::DemoPlay => {
                let demo = self.demo_mut(cx);
                demo.playing = match demo.playing {
                    Some(_) => None,
                    None => Some(Instant::now()),
                };
            }
            Action::DemoFinish => {
                let demo = self.demo_mut(cx);
                demo.playing = None;
                // "To the end" of a training run: the next hundred merges.
                demo.run(100);
            }
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    /// Starts the demo once the whole text is indexed (a corpus read earlier would miss
    /// lines).
    fn refresh(&mut self, cx: &Context) {
        if self.demo(cx).is_none() && cx.doc.lines.is_indexed() {
            self.demo_mut(cx);
        }
    }

    fn tick(&mut self, _cx: &Context) {
        if let Some((_, demo)) = self.run.as_mut()
            && step_due(demo.playing)
        {
            demo.playing = demo.step().then(Instant::now);
        }
    }

    fn busy(&self) -> bool {
        self.run.as_ref().is_some_and(|(_, d)| d.playing.is_some())
    }
}

/// The text to train on: the whole document when it is small, else the lines around the
/// cursor up to `CORPUS_LIMIT` bytes.
fn training_corpus(cx: &Context) -> (String, usize) {
    let doc = &cx.doc.lines;
    let count = doc.line_count();
    let mut corpus = String::new();
    let first = cx.doc.line.saturating_sub(200);
    let mut lines = 0;
    for n in first..count {
        let Some(line) = doc.line(n) else { break };
        if corpus.len() + line.len() > CORPUS_LIMIT && lines > 0 {
            break;
        }
        corpus.push_str(&line);
        corpus.push('\n');
        lines += 1;
    }
    (corpus, lines)
}
