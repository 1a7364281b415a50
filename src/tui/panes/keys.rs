//! The keys of the lower pane as a whole: which view it shows, moving in it, its size.

use super::View;
use crate::tui::app::Action;
use crate::tui::keymap::{Entry, ctrl, key, normal};

pub const VIEWS: &[Entry] = &[
    Entry::new(
        "1 … 6",
        "trace · tokens · align · merges · train · stats",
        &[
            normal(key('1'), Action::ShowView(View::ALL[0])),
            normal(key('2'), Action::ShowView(View::ALL[1])),
            normal(key('3'), Action::ShowView(View::ALL[2])),
            normal(key('4'), Action::ShowView(View::ALL[3])),
            normal(key('5'), Action::ShowView(View::ALL[4])),
            normal(key('6'), Action::ShowView(View::ALL[5])),
        ],
    ),
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
