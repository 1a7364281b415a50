//! The lower pane's views, each a type that owns its state, handles the actions meant for it
//! and refreshes only when what it depends on changed (gitui's components, without the
//! drawing: that stays in `tui::view`, as functions of a pane's state).

mod align;
mod help;
mod lattice;
mod merges;
mod stats;
mod table;
mod trace;
mod train;

pub use align::{AlignChoice, AlignData, AlignPane, MatrixView, other_row};
pub use help::HelpPane;
pub use lattice::LatticeLesson;
pub use merges::{MergeReplay, MergesPane};
pub use stats::StatsPane;
pub use table::TablePane;
pub use trace::{TraceCache, TracePane};
pub use train::TrainPane;

use super::doc::DocState;
use super::rows::{Row, Rows};
use super::{Action, View};
use toklab::core::token::Token;

/// What a pane may read of the rest of the workbench: the document and the rows.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub doc: &'a DocState,
    pub rows: &'a Rows,
    /// How long a playing demo waits between steps (`{` `}` change it).
    pub play_step: std::time::Duration,
}

impl<'a> Context<'a> {
    /// The current line's text, which every row tokenized.
    pub fn text(&self) -> &'a str {
        &self.doc.text
    }

    pub fn selected_row(&self) -> Option<&'a Row> {
        self.rows.selected_row()
    }

    pub fn selected_token(&self) -> Option<&'a Token> {
        self.rows.selected_token()
    }
}

/// What the workbench must do after a pane handled an action, besides what the pane did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The action is not one of this pane's.
    Ignored,
    Handled,
    /// The pane's cursor is a token of the selected row (the tokens table): select it.
    SelectToken(usize),
}

/// A view of the lower pane.
pub trait Pane {
    /// Handles an action meant for this pane (moving its cursor, its demo).
    fn handle(&mut self, _action: Action, _cx: &Context) -> Reply {
        Reply::Ignored
    }

    /// Brings what the pane shows up to date with `cx`, when (and only when) what it depends
    /// on changed. Called for the pane on screen after every action and tick.
    fn refresh(&mut self, _cx: &Context) {}

    /// Puts the pane's cursor on the selected token after the selection moved.
    fn follow_token(&mut self, _cx: &Context) {}

    /// Called on every turn of the event loop, shown or not: playing demos take their steps,
    /// background work is polled.
    fn tick(&mut self, _cx: &Context) {}

    /// Whether the pane has work running (a playing demo, a background job), so the loop
    /// polls often enough to show it.
    fn busy(&self) -> bool {
        false
    }

    /// Back to the top, when the pane is opened anew.
    fn reset_cursor(&mut self) {}
}

/// The lower pane: which view is shown, how tall, and every view's state.
pub struct Panes {
    pub current: View,
    /// Percent of the screen height the lower pane takes.
    pub split: u16,
    pub trace: TracePane,
    pub table: TablePane,
    pub align: AlignPane,
    pub merges: MergesPane,
    pub train: TrainPane,
    pub stats: StatsPane,
    /// The `?` overlay, drawn over everything rather than in the lower pane.
    pub help: HelpPane,
    /// How fast demos play and whether the lower pane fills the screen (`z`).
    pub teach: super::teach::TeachSettings,
}

impl Default for Panes {
    fn default() -> Self {
        Panes {
            current: View::Trace,
            split: 50,
            trace: TracePane::default(),
            table: TablePane,
            align: AlignPane::default(),
            merges: MergesPane::default(),
            train: TrainPane::default(),
            stats: StatsPane::default(),
            help: HelpPane::default(),
            teach: Default::default(),
        }
    }
}

impl Panes {
    /// The pane of `view`.
    pub fn pane_mut(&mut self, view: View) -> &mut dyn Pane {
        match view {
            View::Trace => &mut self.trace,
            View::Table => &mut self.table,
            View::Align => &mut self.align,
            View::Merges => &mut self.merges,
            View::Train => &mut self.train,
            View::Stats => &mut self.stats,
        }
    }

    /// The interval between two steps of a playing demo.
    pub fn play_step(&self) -> std::time::Duration {
        self.teach.play_step()
    }

    /// The pane on screen.
    pub fn current_mut(&mut self) -> &mut dyn Pane {
        self.pane_mut(self.current)
    }

    /// Every pane, for ticks and the busy check.
    fn all(&self) -> [&dyn Pane; 6] {
        [
            &self.trace,
            &self.table,
            &self.align,
            &self.merges,
            &self.train,
            &self.stats,
        ]
    }

    pub fn busy(&self) -> bool {
        self.all().iter().any(|p| p.busy())
    }

    pub fn tick(&mut self, cx: &Context) {
        for view in View::ALL {
            self.pane_mut(view).tick(cx);
        }
    }

    /// Refreshes the pane on screen (only it: the others refresh when they are shown).
    pub fn refresh(&mut self, cx: &Context) {
        self.current_mut().refresh(cx);
    }

    /// The view a demo key (`.`, `,`, `p`, `f`) acts on: the one shown if it has a demo, else
    /// the alignment matrix.
    pub fn demo_view(&self) -> View {
        match self.current {
            View::Merges | View::Train => self.current,
            _ => View::Align,
        }
    }
}
