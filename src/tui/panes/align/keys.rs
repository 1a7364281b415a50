//! The alignment view's keys: which row is B, tokens or the DP matrix, and the matrix demo.

use ratatui::crossterm::event::KeyCode;

use crate::tui::app::Action;
use crate::tui::keymap::{Entry, code, key, normal};

pub const KEYS: &[Entry] = &[
    Entry {
        keys: "b",
        note: "click a label",
        help: "choose row B",
        binds: &[normal(key('b'), Action::AlignNextOther)],
    },
    Entry::new(
        "Enter",
        "tokens ↔ DP matrix of the selected pair",
        &[normal(code(KeyCode::Enter), Action::ToggleMatrix)],
    ),
    Entry::new(
        "c",
        "matrix of the whole line ↔ of the pair",
        &[normal(key('c'), Action::ToggleMatrixScope)],
    ),
    Entry::new(
        "S",
        "align by character spans (boundary agreement) ↔ by forms",
        &[normal(key('S'), Action::ToggleAlignBySpans)],
    ),
    Entry::new(
        ". ,  p  f",
        "demo: next cell / back / play / fill all",
        &[
            normal(key('.'), Action::DemoStep(true)),
            normal(key(','), Action::DemoStep(false)),
            normal(key('p'), Action::DemoPlay),
            normal(key('f'), Action::DemoFinish),
        ],
    ),
];
