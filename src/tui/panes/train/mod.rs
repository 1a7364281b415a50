//! The training view: BPE or a unigram model (`U` switches) learned step by step from the
//! current line, a marked range of lines or the whole text (`t` cycles), BPE with GPT-2's or
//! the textbook's pre-tokenization (`T`); the demo starts again when what it trains on changes.

pub mod bpe;
mod commands;

pub use commands::TRAINED_SPEC;
pub mod draw;
mod draw_unigram;
pub mod keys;
pub mod unigram;

use std::time::Instant;

use self::bpe::{CORPUS_LIMIT, Corpus, Stepping, TrainDemo, TrainScope, other_pretok};
use self::unigram::{Algorithm, UnigramDemo};
use ratatui::Frame;
use ratatui::layout::Rect;

use super::lattice::selected_word;
use super::{Context, Pane, Reply};
use crate::tui::app::{Action, step_due};
use crate::tui::theme::Theme;
use std::path::Path;

use toklab::engines::subword::train::unigram::{META_PIECES, model_bytes};
use toklab::engines::subword::train::{Pretok, write_gpt2_named};

/// The training view's commands (keys `t`, `T`, `U`, `V`, `R`, `M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainCommand {
    /// Train on the line, the selection or the file.
    Scope,
    /// Pre-tokenize as GPT-2 or as the textbook.
    Pretok,
    /// Train BPE or a unigram model.
    Algorithm,
    /// Mark a line: the selection runs from it to the cursor.
    MarkLine,
    /// The model being trained as a row, on or off.
    ToggleRow,
    /// Save the trained model.
    SaveModel,
}

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
    /// BPE or unigram (`U`).
    pub algorithm: Algorithm,
    /// The unigram lattice's positions in bytes instead of characters (`B`).
    pub lattice_bytes: bool,
    run: Option<(Source, TrainDemo)>,
    unigram: Option<(Source, UnigramDemo)>,
}

impl Default for TrainPane {
    fn default() -> Self {
        TrainPane {
            scope: TrainScope::default(),
            pretok: Pretok::Gpt2,
            mark: None,
            as_row: false,
            algorithm: Algorithm::default(),
            lattice_bytes: false,
            run: None,
            unigram: None,
        }
    }
}

/// A run's demo when it was started on `source` (a run on other text is stale).
fn started_on<'a, S: PartialEq, D>(run: &'a Option<(S, D)>, source: &S) -> Option<&'a D> {
    run.as_ref()
        .filter(|(started, _)| started == source)
        .map(|(_, demo)| demo)
}

impl TrainPane {
    /// The demo, when it was started on what is asked for now.
    pub fn demo(&self, cx: &Context) -> Option<&TrainDemo> {
        started_on(&self.run, &self.source(cx))
    }

    /// The demo as it is, whatever it was started on (to save or show as a row).
    pub fn current(&self) -> Option<&TrainDemo> {
        self.run.as_ref().map(|(_, d)| d)
    }

    /// The unigram demo, when it was started on what is asked for now.
    pub fn unigram_demo(&self, cx: &Context) -> Option<&UnigramDemo> {
        started_on(&self.unigram, &self.unigram_source(cx))
    }

    /// The unigram demo as it is, whatever it was started on.
    pub fn current_unigram(&self) -> Option<&UnigramDemo> {
        self.unigram.as_ref().map(|(_, d)| d)
    }

    /// Whether the demo of the algorithm shown is playing.
    pub fn playing(&self) -> bool {
        match self.algorithm {
            Algorithm::Bpe => self.current().is_some_and(|d| d.playing.is_some()),
            Algorithm::Unigram => self.current_unigram().is_some_and(|d| d.playing.is_some()),
        }
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

    /// The unigram demo, started on what is asked for when first needed. Unigram training
    /// reads whitespace words, so the BPE pre-tokenization is not part of what it was started
    /// on.
    fn unigram_mut(&mut self, cx: &Context) -> &mut UnigramDemo {
        if self.unigram_demo(cx).is_none() {
            let source = self.unigram_source(cx);
            let corpus = training_corpus(cx, &source);
            let version = self.unigram.as_ref().map_or(0, |(_, d)| d.version + 1);
            let mut demo = UnigramDemo::new(corpus);
            demo.version = version;
            self.unigram = Some((source, demo));
        }
        let demo = &mut self.unigram.as_mut().expect("just made").1;
        follow_word(demo, cx);
        demo
    }

    /// What the unigram demo is started on: the BPE pre-tokenization plays no part.
    fn unigram_source(&self, cx: &Context) -> Source {
        Source {
            pretok: Pretok::None,
            ..self.source(cx)
        }
    }

    /// The demo of the algorithm shown, started when needed.
    fn active_mut(&mut self, cx: &Context) -> &mut dyn Stepping {
        match self.algorithm {
            Algorithm::Bpe => self.demo_mut(cx),
            Algorithm::Unigram => self.unigram_mut(cx),
        }
    }

    /// Starts or follows the demo of the algorithm shown.
    fn start(&mut self, cx: &Context) {
        self.active_mut(cx);
    }
}

impl TrainPane {
    /// Writes the model being trained into `dir` as GPT-2 `vocab.json` + `merges.txt` (never
    /// over existing ones), and says how it went.
    pub fn save(&self, dir: &Path) -> String {
        if self.algorithm == Algorithm::Unigram {
            return self.save_unigram(dir);
        }
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
        match write_gpt2_named(&demo.trainer, dir, vocab, merges, false) {
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

impl TrainPane {
    /// Writes the unigram model of the step shown into `dir` as `trained.model` (never over
    /// an existing one), and says how it went.
    fn save_unigram(&self, dir: &Path) -> String {
        let Some(demo) = self.current_unigram() else {
            return "nothing trained yet: open the train view (5)".into();
        };
        let trainer = match &demo.trainer {
            Ok(trainer) => trainer,
            Err(e) => return format!("nothing to save: {e}"),
        };
        let path = dir.join("trained.model");
        if path.exists() {
            return format!(
                "{} already exists: M again with another folder",
                path.display()
            );
        }
        let model = trainer.model();
        use toklab::core::files::{Expect, write_bytes};
        let written = std::fs::create_dir_all(dir)
            .map_err(|e| toklab::core::files::WriteError::Io(dir.to_path_buf(), e))
            .and_then(|_| write_bytes(&path, &Expect::Absent, &model_bytes(&model)));
        match written {
            Ok(_) => format!(
                "saved {} pieces ({}) into {}: load it with spm:{}",
                model.pieces.len() + META_PIECES,
                if trainer.is_finished() {
                    "the final vocabulary"
                } else {
                    "training not finished: the vocabulary of this step"
                },
                path.display(),
                path.display()
            ),
            Err(e) => format!("could not save the model: {e}"),
        }
    }
}

impl Pane for TrainPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }

    fn has_demo(&self) -> bool {
        true
    }

    fn shows_selected_row(&self) -> bool {
        false
    }
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        match action {
            Action::DemoStep(forward) => {
                let demo = self.active_mut(cx);
                *demo.playing() = None;
                if forward {
                    demo.step();
                } else {
                    demo.back();
                }
            }
            Action::DemoPlay => {
                let playing = self.active_mut(cx).playing();
                *playing = match playing {
                    Some(_) => None,
                    None => Some(Instant::now()),
                };
            }
            Action::DemoFinish => {
                let demo = self.active_mut(cx);
                *demo.playing() = None;
                demo.finish();
            }
            Action::LatticeBytes => self.lattice_bytes = !self.lattice_bytes,
            Action::Train(TrainCommand::Scope) => self.scope = self.scope.next(),
            // Unigram training reads whitespace words: T changes BPE's pre-tokenization only.
            Action::Train(TrainCommand::Pretok) => self.pretok = other_pretok(self.pretok),
            Action::Train(TrainCommand::Algorithm) => self.algorithm = self.algorithm.other(),
            Action::Train(TrainCommand::MarkLine) => {
                self.mark = match self.mark {
                    Some(_) => None,
                    None => Some(cx.doc.line),
                };
                if self.mark.is_some() {
                    self.scope = TrainScope::Selection;
                }
            }
            _ => return Reply::Ignored,
        }
        // The demo follows what it trains on and, in unigram mode, the model's new lattice.
        self.start(cx);
        Reply::Handled
    }

    /// Starts the demo once the whole text is indexed (a corpus read earlier would miss
    /// lines), and again when what it trains on changed.
    fn refresh(&mut self, cx: &Context) {
        if cx.doc.lines.is_indexed() {
            self.start(cx);
        }
    }

    fn tick(&mut self, cx: &Context) {
        if let Some((_, demo)) = self.run.as_mut() {
            play(demo, cx);
        }
        if let Some((_, demo)) = self.unigram.as_mut() {
            play(demo, cx);
        }
        let source = self.unigram_source(cx);
        if let Some((started_on, demo)) = self.unigram.as_mut()
            && *started_on == source
        {
            follow_word(demo, cx);
        }
    }

    fn busy(&self) -> bool {
        self.run.as_ref().is_some_and(|(_, d)| d.playing.is_some())
            || self
                .unigram
                .as_ref()
                .is_some_and(|(_, d)| d.playing.is_some())
    }
}

/// Brings the unigram demo's lattice to the selected word (the cursor line's word holding the
/// selected token, else its first word).
fn follow_word(demo: &mut UnigramDemo, cx: &Context) {
    let word = selected_word(cx.text(), cx.selected_token().map(|t| t.span.start));
    demo.follow_word(word.map(|w| w.slice(cx.text())));
}

/// Takes the next step of a playing demo when it is due.
fn play(demo: &mut dyn Stepping, cx: &Context) {
    if step_due(*demo.playing(), cx.play_step) {
        let more = demo.step();
        *demo.playing() = more.then(Instant::now);
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
