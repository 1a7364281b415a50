//! The lower pane's views, as tabs: the selected row's trace, its token table, the alignment
//! with another row, the merge replay, BPE training, statistics. Their state is in [`super::panes`].

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

#[cfg(test)]
mod tests {
    use super::View;

    /// Workspaces name views without knowing this module: the names must agree, in order.
    #[test]
    fn workspaces_know_every_view_by_its_name() {
        let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(names, crate::workspace::VIEW_NAMES);
    }
}
