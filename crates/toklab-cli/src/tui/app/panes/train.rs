//! The training view: BPE learned step by step from the current line, a marked range of lines
//! or the whole text (`t` cycles), with GPT-2's or the textbook's pre-tokenization (`T`); the
//! demo starts again when what it trains on changes.

use std::time::Instant;

use super::{Context, Pane, Reply};
use crate::tui::app::train::{CORPUS_LIMIT, Corpus, TrainDemo, TrainScope, other_pretok};
use crate::tui::app::{Action, step_due};
use std::path::Path;

use toklab::subword::train::{Pretok, write_gpt2_named};

/// What a demo was started on: when any of it changes, training starts again.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Source {
    doc: u64,
    scope: TrainScope,
    pretok: Pretok,
    /// The lines the scope covers (for the line scope, also its text, which edits change).
    lines: (usize, usize),
    line_text: Option<String>,
}

/// The training view.
pub struct TrainPane {
    pub scope: TrainScope,
    pub pretok: Pretok,
    /// The line `V` marked: the selection runs from it to the cursor line.
    pub mark: Option<usize>,
    /// Whether the model being trained is shown as a row (`R`).
    pub as_row: bool,
    run: Option<(Source, TrainDemo)>,
}

impl Default for TrainPane {
    fn default() -> Self {
        TrainPane {
            scope: TrainScope::default(),
            pretok: Pretok::Gpt2,
            mark: None,
            as_row: false,
            run: None,
        }
    }
}

impl TrainPane {
    /// The demo, when it was started on what is asked for now.
    pub fn demo(&self, cx: &Context) -> Option<&TrainDemo> {
        let source = self.source(cx);
        self.run
            .as_ref()
            .filter(|(s, _)| *s == source)
            .map(|(_, demo)| demo)
    }

    /// The demo as it is, whatever it was started on (to save or show as a row).
    pub fn current(&self) -> Option<&TrainDemo> {
        self.run.as_ref().map(|(_, d)| d)
    }

    /// The selected lines (first, last), both included.
    pub fn selection(&self, cx: &Context) -> (usize, usize) {
        let line = cx.doc.line;
        let mark = self.mark.unwrap_or(line);
        (mark.min(line), mark.max(line))
    }

    fn source(&self, cx: &Context) -> Source {
        let line = cx.doc.line;
        let (lines, line_text) = match self.scope {
            TrainScope::Line => ((line, line), Some(cx.doc.text.clone())),
            TrainScope::Selection => (self.selection(cx), None),
            TrainScope::File => ((0, usize::MAX), None),
        };
        Source {
            doc: cx.doc.id,
            scope: self.scope,
            pretok: self.pretok,
            lines,
            line_text,
        }
    }

    /// The demo, started on what is asked for when first needed.
    fn demo_mut(&mut self, cx: &Context) -> &mut TrainDemo {
        if self.demo(cx).is_none() {
            let source = self.source(cx);
            let corpus = training_corpus(cx, &source);
            let version = self.run.as_ref().map_or(0, |(_, d)| d.version + 1);
            let mut demo = TrainDemo::new(corpus, self.pretok);
            demo.version = version;
            self.run = Some((source, demo));
        }
        &mut self.run.as_mut().expect("just made").1
    }
}

impl TrainPane {
    /// Writes the model being trained into `dir` as GPT-2 `vocab.json` + `merges.txt` (never
    /// over existing ones), and says how it went.
    pub fn save(&self, dir: &Path) -> String {
        let Some(demo) = self.current() else {
            return "nothing trained yet: open the train view (5)".into();
        };
        let (vocab, merges) = ("vocab.json", "merges.txt");
        if dir.join(vocab).exists() || dir.join(merges).exists() {
            return format!(
                "{} already holds a {vocab} or {merges}: S again with another folder",
                dir.display()
            );
        }
        match write_gpt2_named(&demo.trainer, dir, vocab, merges) {
            Ok(written) => {
                let marker = if demo.pretok == Pretok::Textbook {
                    " (textbook words: the _ marker is part of the merges)"
                } else {
                    ""
                };
                format!(
                    "saved {} merges ({} tokens) into {}: load it with bpe:{}{marker}",
                    written.merges,
                    written.tokens,
                    dir.display(),
                    dir.display()
                )
            }
            Err(e) => format!("could not save the model: {e}"),
        }
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
            Action::TrainScope => {
                self.scope = self.scope.next();
                self.demo_mut(cx);
            }
            Action::TrainPretok => {
                self.pretok = other_pretok(self.pretok);
                self.demo_mut(cx);
            }
            Action::MarkLine => {
                self.mark = match self.mark {
                    Some(_) => None,
                    None => Some(cx.doc.line),
                };
                if self.mark.is_some() {
                    self.scope = TrainScope::Selection;
                }
                self.demo_mut(cx);
            }
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    /// Starts the demo once the whole text is indexed (a corpus read earlier would miss
    /// lines), and again when what it trains on changed.
    fn refresh(&mut self, cx: &Context) {
        if self.demo(cx).is_none() && cx.doc.lines.is_indexed() {
            self.demo_mut(cx);
        }
    }

    fn tick(&mut self, cx: &Context) {
        if let Some((_, demo)) = self.run.as_mut()
            && step_due(demo.playing, cx.play_step)
        {
            demo.playing = demo.step().then(Instant::now);
        }
    }

    fn busy(&self) -> bool {
        self.run.as_ref().is_some_and(|(_, d)| d.playing.is_some())
    }
}

/// The text to train on: the line (as edited), the selected lines, or the whole text, each
/// up to `CORPUS_LIMIT` bytes (whole lines; at least one).
fn training_corpus(cx: &Context, source: &Source) -> Corpus {
    if let Some(text) = &source.line_text {
        let mut text = text.clone();
        text.push('\n');
        return Corpus {
            text,
            first: source.lines.0,
            lines: 1,
            wanted: 1,
        };
    }
    let doc = &cx.doc.lines;
    let (first, last) = source.lines;
    let end = last.saturating_add(1).min(doc.line_count());
    let mut corpus = Corpus {
        first,
        wanted: end.saturating_sub(first),
        ..Corpus::default()
    };
    for n in first..end {
        let Some(line) = doc.line(n) else { break };
        if corpus.text.len() + line.len() > CORPUS_LIMIT && corpus.lines > 0 {
            break;
        }
        corpus.text.push_str(&line);
        corpus.text.push('\n');
        corpus.lines += 1;
    }
    corpus
}
