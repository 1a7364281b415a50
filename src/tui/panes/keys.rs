//! The keys of the lower pane as a whole: which view it shows, moving in it, its size.

use super::View;
use crate::tui::app::Action;
use crate::tui::keymap::{Bind, Entry, ctrl, key, normal};

/// A digit per view, in the order of the list: `1` shows the first.
const DIGITS: [Bind; View::ALL.len()] = {
    let mut binds = [normal(key('1'), Action::ShowView(View::ALL[0])); View::ALL.len()];
    let mut i = 0;
    while i < View::ALL.len() {
        let (digit, view) = View::DIGITS[i];
        binds[i] = normal(key(digit), Action::ShowView(view));
        i += 1;
    }
    binds
};

pub const VIEWS: &[Entry] = &[
    Entry::new(View::DIGIT_KEYS, View::DIGIT_HELP, &DIGITS),
    Entry::new("v", "next view", &[normal(key('v'), Action::NextView)]),
    Entry::new(
        "J K  Ctrl-d Ctrl-u",
        "move in the view (trace line, table row)",
        &[
            normal(key('J'), Action::ViewDown(1)),
            normal(key('K'), Action::ViewUp(1)),
            normal(ctrl('d'), Action::ViewDown(10)),
            normal(ctrl('u'), Action::ViewUp(10)),
        ],
    ),
    Entry::new(
        "+ -",
        "grow / shrink the view pane",
        &[
            normal(key('+'), Action::GrowView),
            normal(key('-'), Action::ShrinkView),
        ],
    ),
    Entry::new(
        "z",
        "maximise the view pane (again: back)",
        &[normal(key('z'), Action::ToggleMaximise)],
    ),
    Entry::new(
        "s",
        "recompute statistics over the whole file",
        &[normal(key('s'), Action::ComputeStats)],
    ),
];
