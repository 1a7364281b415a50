//! The alignment view's keys: which row is B, tokens or the DP matrix, and the matrix demo.

use ratatui::crossterm::event::KeyCode;

use crate::tui::app::{Action, PromptKind};
use crate::tui::keymap::{Entry, code, key, normal};
use crate::tui::panes::align::AlignCommand;

pub const KEYS: &[Entry] = &[
    Entry {
        keys: "b",
        note: "click a label",
        help: "choose row B",
        binds: &[normal(key('b'), Action::Align(AlignCommand::NextOther))],
    },
    Entry::new(
        "Enter",
        "tokens ↔ DP matrix of the selected pair",
        &[normal(
            code(KeyCode::Enter),
            Action::Align(AlignCommand::ToggleMatrix),
        )],
    ),
    Entry::new(
        "D",
        "the matrix of two words you type (intention execution); Enter leaves it",
        &[normal(
            key('D'),
            Action::StartPrompt(PromptKind::AlignWords),
        )],
    ),
    Entry::new(
        "c",
        "matrix of the whole line ↔ of the pair",
        &[normal(
            key('c'),
            Action::Align(AlignCommand::ToggleMatrixScope),
        )],
    ),
    Entry::new(
        "S",
        "align by character spans (boundary agreement) ↔ by forms",
        &[normal(key('S'), Action::Align(AlignCommand::ToggleBySpans))],
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
