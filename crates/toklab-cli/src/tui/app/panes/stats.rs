//! The statistics view: figures over the whole text, computed in the background when the view
//! is first shown (or on `s`), and dropped when another text is opened.

use std::sync::Arc;

use super::{Context, Pane, Reply};
use crate::tui::app::Action;
use crate::tui::app::stats::{self, StatsRun};

/// The statistics view.
#[derive(Default)]
pub struct StatsPane {
    /// The computation and the document (`DocState::id`) it covers.
    run: Option<(u64, StatsRun)>,
}

impl StatsPane {
    /// The statistics of the current document, computed or being computed.
    pub fn run(&self, cx: &Context) -> Option<&StatsRun> {
        self.run
            .as_ref()
            .filter(|(doc, _)| *doc == cx.doc.id)
            .map(|(_, run)| run)
    }

    /// Cancels the running computation; false when none was running.
    pub fn cancel(&mut self) -> bool {
        match self.run.as_mut().and_then(|(_, r)| r.job.take()) {
            Some(job) => {
                job.cancel();
                true
            }
            None => false,
        }
    }

    /// Computes the statistics again from the start, in the background.
    pub fn compute(&mut self, cx: &Context) {
        self.cancel();
        let tokenizers = cx
            .rows
            .iter()
            .filter_map(|r| Some((r.setup.label.clone(), Arc::clone(r.tokenizer()?))))
            .collect();
        let (job, figures) = stats::start(cx.doc.lines.snapshot(), tokenizers);
        let run = StatsRun {
            job: Some(job),
            figures,
        };
        self.run = Some((cx.doc.id, run));
    }
}

impl Pane for StatsPane {
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        match action {
            Action::ComputeStats => self.compute(cx),
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    /// Shown for the first time on this text: start computing.
    fn refresh(&mut self, cx: &Context) {
        if self.run(cx).is_none() {
            self.compute(cx);
        }
    }

    /// Notices when the computation is done.
    fn tick(&mut self, _cx: &Context) {
        if let Some((_, run)) = &mut self.run
            && run.job.as_ref().is_some_and(|j| j.poll().is_some())
        {
            run.job = None;
        }
    }

    fn busy(&self) -> bool {
        self.run.as_ref().is_some_and(|(_, r)| r.job.is_some())
    }
}
