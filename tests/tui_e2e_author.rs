//! The rule author's loop in a real terminal: `E` opens the selected token's rule in the
//! editor and reloads afterwards; an edited XFST script compiles again and reloads, and a
//! broken one keeps the last good network with foma's error on screen.

use std::path::Path;
use std::process::Command;

use crate::common::tmux::{Session, available};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_toklab")
}

#[test]
fn e_opens_the_tokens_rule_in_the_editor_at_its_line_and_reloads() {
    if !available("e_opens_the_tokens_rule_in_the_editor_at_its_line_and_reloads") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "see fig. 3\n").unwrap();
    std::fs::write(
        dir.join("tok-resource-eng.txt"),
        "# abbreviations\n::abbrev fig. ::exp figure\n",
    )
    .unwrap();
    // The "editor" records its arguments and whether it had the terminal in normal mode
    // (`stty -a` shows `icanon` when raw mode is off), then edits the file so `fig.` is no
    // longer an abbreviation.
    let editor = dir.join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\necho \"$@\" > args.txt\nstty -a | grep -o -- '-\\?icanon' > tty.txt\n\
         sed -i 's/fig\\./fug./' \"$2\"\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&editor)
        .status()
        .unwrap();
    let s = Session::start(
        "author-editor",
        110,
        30,
        dir,
        &[("EDITOR", editor.to_str().unwrap()), ("VISUAL", "")],
    );
    s.run(&format!(
        "{} --with rules:tok-resource-eng.txt t.txt; echo toklab-exited-$?",
        bin()
    ));
    // `fig.` is an abbreviation, made by line 2 of the rule file.
    s.wait_text("ABBREV «fig.»");
    s.keys(&["l", "l"]);
    s.wait_text("token 2/3 «fig.»");
    s.keys(&["E"]);
    // Reloaded: `fig.` is no longer an abbreviation, and the workbench is drawn again.
    let screen = s.wait_text("tokenize_main: «see» «fig.»");
    assert!(screen.contains("┌"), "{screen}");
    let args = std::fs::read_to_string(dir.join("args.txt")).unwrap();
    // The file comes as `./NAME`, so no name can pass for an option or a `+command`.
    assert_eq!(args.trim(), "+2 ./tok-resource-eng.txt");
    let tty = std::fs::read_to_string(dir.join("tty.txt")).unwrap();
    assert_eq!(
        tty.trim(),
        "icanon",
        "the editor ran with the terminal still raw"
    );
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

fn write_pieces(dir: &Path, pieces: &str) {
    std::fs::write(
        dir.join("pieces.xfst"),
        format!("define TB \"@_TOKEN_BOUND_@\" ;\ndefine Piece {pieces} ;\n"),
    )
    .unwrap();
}

#[test]
fn an_edited_xfst_script_reloads_and_a_broken_one_keeps_the_last_network() {
    let test = "an_edited_xfst_script_reloads_and_a_broken_one_keeps_the_last_network";
    if !available(test) || !crate::common::have_foma(test) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "ab ab\n").unwrap();
    std::fs::write(
        dir.join("g.xfst"),
        "source pieces.xfst\nregex [ [ Piece 0:TB ] | [ \" \" : 0 ] ]* ;\n",
    )
    .unwrap();
    write_pieces(dir, "[ a | b | {ab} ]");
    let cache = dir.join("cache");
    let s = Session::start(
        "author-xfst",
        120,
        30,
        dir,
        &[("XDG_CACHE_HOME", cache.to_str().unwrap())],
    );
    s.run(&format!(
        // The grammar sources another file, which only `allow=files` permits.
        "{} --with 'fst:g.xfst?allow=files' t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("fst:g.xfst?allow=files 2");
    // The sourced file changes: `ab` is no longer a piece, so both split in two.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    write_pieces(dir, "[ a | b | {ba} ]");
    s.wait_text("fst:g.xfst?allow=files 4");
    // A syntax error: the last good network stays, with foma's message and the line.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(
        dir.join("g.xfst"),
        "source pieces.xfst\nregex [ [ Piece 0:TB ] | [ \" \" : 0 ] ;\n",
    )
    .unwrap();
    let screen = s.wait_text("reload failed");
    assert!(screen.contains("g.xfst:2:"), "{screen}");
    assert!(screen.contains("foma: syntax error"), "{screen}");
    assert!(screen.contains("fst:g.xfst?allow=files 4"), "{screen}");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn after_a_reload_the_changed_lines_are_counted_and_stepped_through() {
    if !available("after_a_reload_the_changed_lines_are_counted_and_stepped_through") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(
        dir.join("t.txt"),
        "see fig. 3\nplain words\nmore words\nfig. 4 again\n",
    )
    .unwrap();
    let rules = dir.join("tok-resource-eng.txt");
    std::fs::write(&rules, "::abbrev fig. ::exp figure\n").unwrap();
    let s = Session::start("author-changes", 110, 30, dir, &[]);
    s.run(&format!(
        "{} --with rules:tok-resource-eng.txt t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("ABBREV «fig.»");
    // Without a reload there is nothing to step through, and it says so.
    s.keys(&["]", "c"]);
    s.wait_text("no reload to compare yet");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(&rules, "# fig. is gone\n").unwrap();
    s.wait_text("2 lines changed (]c [c)");
    s.keys(&["]", "c"]);
    let screen = s.wait_text("changed line 2/2");
    assert!(screen.contains("t.txt 4/4"), "{screen}");
    s.keys(&["[", "c"]);
    let screen = s.wait_text("changed line 1/2");
    assert!(screen.contains("t.txt 1/4"), "{screen}");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}
