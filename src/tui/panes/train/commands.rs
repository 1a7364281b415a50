//! The lesson commands: play speed and the maximised pane (settings in [`super::super::teach`]),
//! the training view's scope and pre-tokenization, and the model being trained as a row of the
//! side-by-side view (kept up to date as the lesson steps) that can be saved.

use crate::tui::panes::teach::SPEEDS;
use std::sync::Arc;

use crate::tui::app::rows::Engine;
use crate::tui::app::{Action, App, Effect, Mode, Prompt, PromptKind, Row, RowSetup};
use crate::tui::panes::View;
use crate::tui::panes::train::TrainCommand;
use crate::tui::panes::train::unigram::Algorithm;
use toklab::core::tokenizer::Tokenizer;
use toklab::engines::subword::spm::SpmTokenizer;
use toklab::engines::subword::train::TrainedTokenizer;

/// The spec of the row that shows the model being trained: not a spec any loader knows, so
/// the row is never saved into a workspace or reloaded.
pub const TRAINED_SPEC: &str = "(trained in the workbench)";

impl App {
    /// The teaching actions.
    pub(crate) fn teach(&mut self, action: Action) {
        let teach = &mut self.panes.teach;
        match action {
            Action::PlaySlower | Action::PlayFaster => {
                teach.speed = if action == Action::PlayFaster {
                    (teach.speed + 1).min(SPEEDS.len() - 1)
                } else {
                    teach.speed.saturating_sub(1)
                };
                let speed = teach.describe();
                self.flash(format!("play speed {speed} ({{ slower, }} faster)"));
            }
            Action::ToggleMaximise => teach.maximised = !teach.maximised,
            Action::Train(TrainCommand::SaveModel) => self.ask_model_folder(),
            Action::Train(TrainCommand::ToggleRow) => {
                self.panes.train.as_row = !self.panes.train.as_row;
                self.show_view(View::Train);
                self.refresh_pane();
                if !self.panes.train.as_row {
                    self.flash("the trained model's row is gone (R shows it again)");
                }
            }
            _ => {
                self.show_view(View::Train);
                self.pane_action(View::Train, action);
            }
        }
    }

    /// Asks the event loop to write the model being trained into `dir`.
    pub(crate) fn save_model(&mut self, dir: std::path::PathBuf) {
        self.queue(Effect::SaveModel(dir));
    }

    /// Opens the prompt for the folder to save the trained model in.
    fn ask_model_folder(&mut self) {
        self.mode = Mode::Prompt(Prompt::new(PromptKind::SaveModel, "trained-model"));
    }

    /// Keeps the row of the model being trained in step with the training view: added when
    /// `R` asked for it, its tokenizer replaced after every merge, removed when not wanted.
    pub(crate) fn sync_trained_row(&mut self) {
        let at = self.rows.iter().position(|r| r.setup.spec == TRAINED_SPEC);
        let train = &self.panes.train;
        // The version shown and, unless the row shows it already, the new tokenizer.
        let wanted =
            train
                .as_row
                .then(|| trained_model(train))
                .flatten()
                .map(|(version, label, make)| {
                    let version = Some((train.algorithm, version));
                    let shown = at.is_some() && self.panes.teach.row_version == version;
                    (version, label, if shown { None } else { make() })
                });
        let Some((version, label, tokenizer)) = wanted else {
            if let Some(at) = at {
                self.rows.remove(at);
                self.panes.teach.row_version = None;
                self.retokenize(false);
            }
            return;
        };
        let Some(tokenizer) = tokenizer else {
            return;
        };
        self.panes.teach.row_version = version;
        match at {
            Some(at) => {
                self.rows[at].engine = Engine::Ready(tokenizer);
                self.rows[at].setup.label = label;
            }
            None => {
                let setup = RowSetup {
                    label,
                    spec: TRAINED_SPEC.into(),
                    colour: Some("lightgreen".into()),
                    folder: None,
                };
                self.rows.push(Row::ready(setup, tokenizer));
            }
        }
        self.retokenize(false);
    }
}

/// A maker of the row's tokenizer: run only when the row must change.
type MakeTokenizer<'a> = Box<dyn FnOnce() -> Option<Arc<dyn Tokenizer>> + 'a>;

/// The model the training view shows, for its row: the demo's version, the row's label, and
/// a maker of its tokenizer (BPE's merges so far; the unigram vocabulary of the step shown,
/// as the SentencePiece model it would be saved as).
fn trained_model(train: &crate::tui::panes::TrainPane) -> Option<(u64, String, MakeTokenizer<'_>)> {
    match train.algorithm {
        Algorithm::Bpe => {
            let demo = train.current()?;
            let label = format!("trained ({})", demo.trainer.merges().len());
            let name = label.clone();
            let make: MakeTokenizer = Box::new(move || {
                Some(Arc::new(TrainedTokenizer::new(name, &demo.trainer)) as Arc<dyn Tokenizer>)
            });
            Some((demo.version, label, make))
        }
        Algorithm::Unigram => {
            let demo = train.current_unigram()?;
            let trainer = demo.trainer.as_ref().ok()?;
            let label = format!("trained unigram ({})", trainer.pieces().len());
            let name = label.clone();
            let make: MakeTokenizer = Box::new(move || {
                let model = demo.model()?;
                Some(Arc::new(SpmTokenizer::from_model(name, model)) as Arc<dyn Tokenizer>)
            });
            Some((demo.version, label, make))
        }
    }
}
