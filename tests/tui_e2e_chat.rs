//! A conversation file in a real terminal: `toklab --with … convo.json` shows every row's own
//! prompt with its count, Ctrl-g adds the generation prompt to each, and `]d` says why it
//! does not apply.

use crate::common::tmux::{Session, available};
use crate::tui_chat::{CHATML, CONVERSATION, INST, model};

#[test]
fn a_conversation_file_opens_as_each_models_prompt() {
    if !available("a_conversation_file_opens_as_each_models_prompt") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let chatml = model(dir, "chatml", &["<|im_start|>", "<|im_end|>"], Some(CHATML));
    let inst = model(dir, "inst", &[], Some(INST));
    std::fs::write(dir.join("convo.json"), CONVERSATION).unwrap();
    let s = Session::start("chat", 120, 32, dir, &[]);
    s.run(&format!(
        "{} --with '{chatml}' --with '{inst}' convo.json; echo toklab-exited-$?",
        env!("CARGO_BIN_EXE_toklab")
    ));
    let screen = s.wait_text("generation prompt off");
    assert!(screen.contains("3 messages"), "{screen}");
    let screen = s.wait_for("both rows' prompts", |screen| {
        screen.contains("<|im_start|>system␊Be brief.") && screen.contains("[INST] Split don't?")
    });
    // The counts stand after the labels and in the status bar.
    assert!(screen.contains("│ chatml 45 │ inst 36"), "{screen}");
    assert_eq!((count(&screen, "chatml"), count(&screen, "inst")), (45, 36));
    s.keys(&["C-g"]);
    let screen = s.wait_text("generation prompt on");
    // ChatML's prompt grows by its header (<|im_start|>, assistant, a newline: 8 tokens of
    // the sample BPE); the other template has no generation prompt and keeps its count.
    assert_eq!((count(&screen, "chatml"), count(&screen, "inst")), (53, 36));
    s.keys(&["]", "d"]);
    s.wait_text("each row tokenizes its own prompt");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

/// The count column of the row labelled `label`.
fn count(screen: &str, label: &str) -> usize {
    let line = screen
        .lines()
        .find(|l| l.strip_prefix('│').is_some_and(|l| l.starts_with(label)))
        .unwrap_or_else(|| panic!("no row {label}:\n{screen}"));
    line.trim_start_matches('│')[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count on {line}"))
}
