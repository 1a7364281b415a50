//! The comparing tools in a real terminal: the `:` command line, counts before moves, `]d` and
//! `[d` with the background count of differing lines, yanking through OSC 52 into tmux's
//! clipboard, the id display and the alignment by spans.

use crate::common::tmux::{Session, available};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_toklab")
}

fn repo() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn goto_counts_differences_and_a_yank_reaches_the_tmux_clipboard() {
    if !available("goto_counts_differences_and_a_yank_reaches_the_tmux_clipboard") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let unique = format!("yanked{}word", std::process::id());
    std::fs::write(
        dir.join("t.txt"),
        format!("same words here\nWe're here\nplain again\nyes, no\n{unique} end\n"),
    )
    .unwrap();
    let s = Session::start("compare", 110, 32, dir, &[]);
    // tmux takes OSC 52 from its panes into its paste buffer with set-clipboard on.
    let status = s
        .tmux()
        .args(["set-option", "-s", "set-clipboard", "on"])
        .status()
        .unwrap();
    assert!(status.success());
    s.run(&format!(
        "{} --with ws --with pretok:gpt2 t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("pretok:gpt2");
    s.keys(&[":"]);
    s.wait_text("command:");
    s.keys(&["-l", "4"]);
    s.keys(&["Enter"]);
    s.wait_text("t.txt 4/5");
    s.keys(&["g", "]", "d"]);
    s.wait_text("difference 1 of 3");
    s.wait_text("t.txt 2/5");
    s.keys(&["]", "d"]);
    s.wait_text("difference 2 of 3");
    s.keys(&["[", "d"]);
    s.wait_text("t.txt 2/5");
    // A count before j: three lines down, and the 3 did not leave the view on "align".
    s.keys(&["3", "j"]);
    let screen = s.wait_text("t.txt 5/5");
    // The last line differs too: its digits split apart in GPT-2's pre-tokens.
    assert!(screen.contains("difference 3 of 3"), "{screen}");
    s.keys(&["l", "y"]);
    s.wait_text("to the clipboard (OSC 52)");
    let buffer = s.tmux().args(["show-buffer"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&buffer.stdout), unique);
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn ids_as_hues_then_ids_and_the_alignment_by_spans() {
    if !available("ids_as_hues_then_ids_and_the_alignment_by_spans") {
        return;
    }
    let s = Session::start("ids", 120, 36, repo(), &[]);
    s.run(&format!(
        "{} --with ws --with bpe:samples/bpe/gpt2 samples/sample.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("bpe:samples/bpe/gpt2");
    s.keys(&["-l", "#"]);
    s.wait_text("ids as hues");
    s.keys(&["-l", "#"]);
    let screen = s.wait_text("ch/token │");
    assert!(screen.contains("ids instead of the forms"), "{screen}");
    s.keys(&["S"]);
    let screen = s.wait_text("by spans:");
    assert!(screen.contains("stretches agree"), "{screen}");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn the_stats_view_shows_the_selected_rows_fertility() {
    if !available("the_stats_view_shows_the_selected_rows_fertility") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    // Four words a line; GPT-2's pre-tokenizer cuts `item7` into `item` and `7`.
    let text: String = (0..40)
        .map(|i| format!("item{} and other words\n", i % 10))
        .collect();
    std::fs::write(dir.join("f.txt"), text).unwrap();
    let s = Session::start("fertility", 120, 40, dir, &[]);
    s.run(&format!(
        "{} --with ws --with gpt2=pretok:gpt2 f.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("item0·and·other·words");
    s.keys(&["6"]);
    s.wait_text("ws: 1.00 tok/word · 0% split");
    s.keys(&["Tab"]);
    s.wait_text("gpt2: 1.25 tok/word · 25% split");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}
