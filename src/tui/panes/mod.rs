//! The lower pane's views, one folder each: the state it owns (`mod.rs`), its drawing
//! (`draw.rs`) and its keys (`keys.rs`, when it has keys of its own). A pane handles the actions
//! meant for it and refreshes only when what it depends on changed (gitui's components). The
//! views are listed once, a line each, below; `list.rs` turns the list into the folders'
//! modules, [`View`] and [`Panes`].

#[macro_use]
pub(crate) mod list;

pub mod changes;
pub mod draw;
pub mod help;
pub mod keys;
pub mod lattice;
pub mod teach;

// The panes, in the order of their tabs and digit keys: `View => folder::PaneType, "name";`.
// A line here and the pane's folder are all a new pane needs.
pane_list! {
    Trace => trace::TracePane, "trace";
    Table => tokens::TablePane, "tokens";
    Align => align::AlignPane, "align";
    Merges => merges::MergesPane, "merges";
    Train => train::TrainPane, "train";
    Stats => stats::StatsPane, "stats";
}

pub use align::{AlignChoice, AlignData, AlignPane, MatrixView, other_row};
pub use help::HelpPane;
pub use lattice::LatticeLesson;
pub use merges::{MergeReplay, MergesPane};
pub use stats::StatsPane;
pub use tokens::TablePane;
pub use trace::{TraceCache, TracePane};
pub use train::TrainPane;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::doc::DocState;
use crate::tui::app::{Action, Row, Rows};
use crate::tui::theme::Theme;
use toklab::core::token::{Span, Token};

/// What a pane may read of the rest of the workbench: the document and the rows.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub doc: &'a DocState,
    pub rows: &'a Rows,
    /// How long a playing demo waits between steps (`{` `}` change it).
    pub play_step: std::time::Duration,
}

impl<'a> Context<'a> {
    /// The text the selected row tokenized: the current line, which every row shares, or in
    /// a conversation the row's own prompt.
    pub fn text(&self) -> &'a str {
        self.rows
            .selected_row()
            .and_then(Row::own_text)
            .unwrap_or(&self.doc.text)
    }

    pub fn selected_row(&self) -> Option<&'a Row> {
        self.rows.selected_row()
    }

    pub fn selected_token(&self) -> Option<&'a Token> {
        self.rows.selected_token()
    }
}

/// How a span of the current line is marked on the rows' ruler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A span a trace marks as a backtrack or failure.
    Backtrack,
    /// What the pane's cursor is on (a trace line, an aligned pair).
    Cursor,
    /// A search match.
    Search,
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
    /// Draws the pane's view in `area` (inside the lower pane's border and tabs).
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, theme: &Theme);

    /// Whether the pane shows something of the selected row (its title then names the row);
    /// lessons over the whole text do not.
    fn shows_selected_row(&self) -> bool {
        true
    }

    /// Whether the demo keys (`.`, `,`, `p`, `f`) step this pane's own lesson; in other panes
    /// they step the alignment's matrix fill.
    fn has_demo(&self) -> bool {
        false
    }

    /// Spans of the current line the pane marks on the rows' ruler, weakest first (the trace's
    /// backtracks and its cursor line, the aligned pair).
    fn marks(&self, _cx: &Context) -> Vec<(Span, Mark)> {
        Vec::new()
    }

    /// The row the pane pairs with the selected one (the alignment's row B), which the rows
    /// mark.
    fn paired_row(&self, _cx: &Context) -> Option<usize> {
        None
    }

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

impl Panes {
    /// The interval between two steps of a playing demo.
    pub fn play_step(&self) -> std::time::Duration {
        self.teach.play_step()
    }

    /// The pane on screen.
    pub fn current_mut(&mut self) -> &mut dyn Pane {
        self.pane_mut(self.current)
    }

    /// The pane on screen.
    pub fn current(&self) -> &dyn Pane {
        self.pane(self.current)
    }

    pub fn busy(&self) -> bool {
        View::ALL.into_iter().any(|view| self.pane(view).busy())
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
        if self.current().has_demo() {
            self.current
        } else {
            View::Align
        }
    }
}
