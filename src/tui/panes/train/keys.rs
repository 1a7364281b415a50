//! The keys of the lessons that step: the merge replay (and its unigram lattice) and training.
//! The stepping keys are the alignment demo's too, acting on whichever lesson is shown.

use crate::tui::app::Action;
use crate::tui::keymap::{Entry, key, normal};
use crate::tui::panes::train::TrainCommand;

pub const KEYS: &[Entry] = &[
    Entry::new(
        ". ,",
        "next / previous step (merges or the unigram lattice; training)",
        &[
            normal(key('.'), Action::DemoStep(true)),
            normal(key(','), Action::DemoStep(false)),
        ],
    ),
    Entry::new("p", "play or pause", &[normal(key('p'), Action::DemoPlay)]),
    Entry::new(
        "f",
        "to the last step (BPE training: 100 merges more)",
        &[normal(key('f'), Action::DemoFinish)],
    ),
    Entry::new(
        "{ }",
        "play slower / faster (merges, training, DP fill)",
        &[
            normal(key('{'), Action::PlaySlower),
            normal(key('}'), Action::PlayFaster),
        ],
    ),
    Entry::new(
        "B",
        "unigram lattice positions in bytes / in characters",
        &[normal(key('B'), Action::LatticeBytes)],
    ),
    Entry::new(
        "t",
        "train on the line · the selection · the file",
        &[normal(key('t'), Action::Train(TrainCommand::Scope))],
    ),
    Entry::new(
        "V",
        "mark a line: the selection runs to the cursor",
        &[normal(key('V'), Action::Train(TrainCommand::MarkLine))],
    ),
    Entry::new(
        "T",
        "pre-tokenize as GPT-2 or as the textbook (words + _)",
        &[normal(key('T'), Action::Train(TrainCommand::Pretok))],
    ),
    Entry::new(
        "U",
        "train BPE or a unigram model (EM, pruning, lattice)",
        &[normal(key('U'), Action::Train(TrainCommand::Algorithm))],
    ),
    Entry::new(
        "R",
        "the model being trained as a row (on / off)",
        &[normal(key('R'), Action::Train(TrainCommand::ToggleRow))],
    ),
    Entry::new(
        "M",
        "save the trained model (BPE files or trained.model)",
        &[normal(key('M'), Action::Train(TrainCommand::SaveModel))],
    ),
];
