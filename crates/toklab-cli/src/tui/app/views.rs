//! The lower pane's views, as tabs: the selected row's trace, its token table, the alignment
//! with another row, statistics.
//! Later engines add theirs (alignment, merges, training).

/// A view of the lower pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Trace,
    Table,
    Align,
    Merges,
    Train,
    Stats,
}

impl View {
    pub const ALL: [View; 6] = [
        View::Trace,
        View::Table,
        View::Align,
        View::Merges,
        View::Train,
        View::Stats,
    ];

    /// The name on the tab, in workspaces and in the help.
    pub fn name(self) -> &'static str {
        match self {
            View::Trace => "trace",
            View::Table => "tokens",
            View::Align => "align",
            View::Merges => "merges",
            View::Train => "train",
            View::Stats => "stats",
        }
    }

    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    pub fn next(self) -> View {
        let i = View::ALL.iter().position(|&v| v == self).unwrap_or(0);
        View::ALL[(i + 1) % View::ALL.len()]
    }
}

/// Which view is shown and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Views {
    pub current: View,
    /// The view's own cursor: the trace line or table row selected.
    pub cursor: usize,
    /// Percent of the screen height the lower pane takes.
    pub split: u16,
    pub hidden: bool,
}

impl Default for Views {
    fn default() -> Self {
        Views {
            current: View::Trace,
            cursor: 0,
            split: 50,
            hidden: false,
        }
    }
}
