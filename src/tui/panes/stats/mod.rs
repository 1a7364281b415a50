//! The statistics view: figures over the whole text, computed in the background when the view
//! is first shown (or on `s`), and dropped when another text is opened.

pub mod draw;
pub mod run;

use std::sync::Arc;

use self::run::StatsRun;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Context, Pane, Reply};
use crate::tui::app::Action;
use crate::tui::theme::Theme;
use toklab::analysis::TokenStats;
use toklab::core::tokenizer::Tokenizer;

/// The statistics view.
#[derive(Default)]
pub struct StatsPane {
    /// The computation and the document (`DocState::id`) it covers.
    run: Option<(u64, StatsRun)>,
    /// The current line's figures per row, with the `Row::tokens_id` they are of: counted
    /// again only when a row's tokens (or the text under them) change, not on every frame.
    line: Vec<(u64, TokenStats)>,
}

impl StatsPane {
    /// The statistics of the current document, computed or being computed.
    pub fn run(&self, cx: &Context) -> Option<&StatsRun> {
        self.run
            .as_ref()
            .filter(|(doc, _)| *doc == cx.doc.id)
            .map(|(_, run)| run)
    }

    /// Row `row`'s figures of the current line.
    pub fn line_stats(&self, cx: &Context, row: usize) -> std::borrow::Cow<'_, TokenStats> {
        let tokens = &cx.rows[row];
        match self.line.get(row) {
            Some((id, stats)) if *id == tokens.tokens_id => std::borrow::Cow::Borrowed(stats),
            _ => std::borrow::Cow::Owned(TokenStats::of(cx.text(), &tokens.tokens)),
        }
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
        let tokenizers = loaded(cx);
        let covers = identities(cx).map(|(l, p)| (l.to_owned(), p)).collect();
        let (job, figures) = run::start(cx.doc.lines.snapshot(), tokenizers);
        let run = StatsRun {
            job: Some(job),
            figures,
            covers,
        };
        self.run = Some((cx.doc.id, run));
    }
}

/// The rows' tokenizers that have loaded, with their labels: what a computation covers.
fn loaded(cx: &Context) -> Vec<(String, Arc<dyn Tokenizer>)> {
    cx.rows
        .iter()
        .filter_map(|r| Some((r.setup.label.clone(), Arc::clone(r.tokenizer()?))))
        .collect()
}

/// Which tokenizers a computation covers, by label and instance: a row that loads (or
/// reloads) after the computation started makes the list differ, so the figures are computed
/// again rather than leaving that row without them. An iterator, so the check made on every
/// tick allocates nothing.
fn identities<'a>(cx: &Context<'a>) -> impl Iterator<Item = (&'a str, usize)> + 'a {
    cx.rows.iter().filter_map(|r| {
        let tokenizer = r.tokenizer()?;
        Some((r.setup.label.as_str(), Arc::as_ptr(tokenizer) as *const () as usize))
    })
}

impl Pane for StatsPane {
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme) {
        draw::draw(frame, area, self, cx, theme)
    }

    fn shows_selected_row(&self) -> bool {
        false
    }
    fn handle(&mut self, action: Action, cx: &Context) -> Reply {
        match action {
            Action::ComputeStats => self.compute(cx),
            _ => return Reply::Ignored,
        }
        Reply::Handled
    }

    /// Shown for the first time on this text, or a row loaded or reloaded since the figures
    /// were started: start computing.
    fn refresh(&mut self, cx: &Context) {
        let stale = self
            .run(cx)
            .is_none_or(|run| !run.covers.iter().map(|(l, p)| (l.as_str(), *p)).eq(identities(cx)));
        if stale {
            self.compute(cx);
        }
        self.line.truncate(cx.rows.len());
        for (i, row) in cx.rows.iter().enumerate() {
            if self.line.get(i).is_none_or(|(id, _)| *id != row.tokens_id) {
                let figures = (
                    row.tokens_id,
                    TokenStats::of(cx.rows.text_of(i), &row.tokens),
                );
                match self.line.get_mut(i) {
                    Some(slot) => *slot = figures,
                    None => self.line.push(figures),
                }
            }
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
