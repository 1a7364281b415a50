//! The workbench in a real terminal: tmux runs the binary, keys go in, the screen is read.

use crate::common::tmux::{Session, available};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_toklab")
}

fn repo() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn opens_on_the_samples_moves_and_quits_cleanly() {
    if !available("opens_on_the_samples_moves_and_quits_cleanly") {
        return;
    }
    let s = Session::start("basic", 100, 32, repo(), &[]);
    s.run(&format!("{}; echo toklab-exited-$?", bin()));
    let screen = s.wait_for("every row loaded", |screen| {
        screen.contains("We're·350·dogs!·Um,·lunch?") && !screen.contains("loading…")
    });
    assert!(screen.contains("sample.txt"), "{screen}");
    assert!(screen.contains("BPE (sample)"), "{screen}");
    // Move to line 2 and select the second token of the rules row: the rows and details follow.
    s.keys(&["j", "l", "l"]);
    let screen = s.wait_text("token 2/19 «Okafor»");
    assert!(screen.contains("line 2 ·"), "{screen}");
    // Help lists the keys and closes with Esc.
    s.keys(&["?"]);
    s.wait_text("next / previous tokenizer row");
    s.keys(&["Escape"]);
    s.wait_for("help closed", |screen| {
        !screen.contains("next / previous tokenizer row")
    });
    s.keys(&["q"]);
    let screen = s.wait_text("toklab-exited-0");
    // The alternate screen is gone: the shell prompt is back and no pane border remains.
    assert!(
        !screen.contains("┌"),
        "the workbench left drawing behind:\n{screen}"
    );
}

#[test]
fn works_in_80x24_without_colour() {
    if !available("works_in_80x24_without_colour") {
        return;
    }
    let s = Session::start("small", 80, 24, repo(), &[("NO_COLOR", "1")]);
    s.run(&format!(
        "{} --with ws --with pretok:gpt2 samples/sample.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("pretok:gpt2");
    s.keys(&["G"]);
    let screen = s.wait_text("45/45");
    assert!(screen.contains("Hello world."), "{screen}");
    s.keys(&["C-c"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn editing_a_line_retokenizes_and_undo_restores() {
    if !available("editing_a_line_retokenizes_and_undo_restores") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "one two\n").unwrap();
    let s = Session::start("edit", 100, 30, dir, &[]);
    s.run(&format!("{} --with ws t.txt; echo toklab-exited-$?", bin()));
    s.wait_text("ws 2");
    s.keys(&["i", "End"]);
    s.keys(&["-l", " three"]);
    s.wait_text("ws 3");
    // Escape alone, then wait: a key right behind it would read as Alt+key, as in any terminal.
    s.keys(&["Escape"]);
    s.wait_text("NORMAL");
    s.keys(&["C-s"]);
    s.wait_text("saved");
    assert_eq!(
        std::fs::read_to_string(dir.join("t.txt")).unwrap(),
        "one two three\n"
    );
    s.keys(&["u"]);
    s.wait_text("ws 2");
    s.keys(&["q"]);
    s.wait_text("unsaved edits");
    s.keys(&["Q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn default_workspace_shows_every_family() {
    if !available("default_workspace_shows_every_family") {
        return;
    }
    let s = Session::start("families", 110, 40, repo(), &[]);
    s.run(&format!("{}; echo toklab-exited-$?", bin()));
    let screen = s.wait_for("every row loaded", |screen| {
        !screen.contains("loading…") && screen.contains("WordPiece")
    });
    for label in [
        "rules (ours)",
        "UAX#29 words",
        "regex",
        "FST English",
        "BPE (sample)",
        "WordPiece",
    ] {
        assert!(screen.contains(label), "{label} row missing:\n{screen}");
    }
    // The finite-state row ends a sentence after "dogs!": the space shows ¶.
    assert!(screen.contains("dogs!¶Um"), "{screen}");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn fst_trace_shows_the_backtrack_on_the_toy_automaton() {
    if !available("fst_trace_shows_the_backtrack_on_the_toy_automaton") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "abbbd abc\n").unwrap();
    let s = Session::start("fst", 110, 40, dir, &[]);
    let toy = repo().join("samples/fst/toy.fst");
    s.run(&format!(
        "{} --with fst:{} t.txt; echo toklab-exited-$?",
        bin(),
        toy.display()
    ));
    s.wait_text("1 trace");
    s.wait_text("backtrack 4 → 1 to the remembered state 3, reading again «bbb»");
    // Down the trace to where `d` is stuck with nothing to go back to.
    for _ in 0..24 {
        s.keys(&["J"]);
    }
    s.wait_text("stuck in state 1, no boundary to go back to: token «d»");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn alignment_and_the_matrix_demo() {
    if !available("alignment_and_the_matrix_demo") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "intention\n").unwrap();
    let s = Session::start("align", 110, 40, dir, &[]);
    s.run(&format!(
        "{} --with ws --with 'regex:[aeiou]|[^aeiou]+' t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_for("rows loaded", |screen| {
        screen.contains("regex:[aeiou]") && !screen.contains("loading…")
    });
    s.keys(&["3"]);
    let screen = s.wait_text(" s «intention»");
    assert!(screen.contains("A ws  vs  B regex"), "{screen}");
    // The DP matrix of the pair, filled cell by cell.
    s.keys(&["Enter"]);
    s.wait_text("matrix of «intention» vs «i»");
    s.keys(&[".", ".", "."]);
    let screen = s.wait_text("cell 3/20");
    assert!(
        screen.contains("D[1,0] = D[0,0] + del(i) = 0 + 1 = 1"),
        "{screen}"
    );
    s.keys(&["f"]);
    s.wait_text("distance 8");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn an_edited_rule_file_reloads_the_row() {
    if !available("an_edited_rule_file_reloads_the_row") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    for entry in std::fs::read_dir(repo().join("rules")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), rules.join(entry.file_name())).unwrap();
    }
    std::fs::write(dir.join("t.txt"), "Meet Zzz. Ng at noon.\n").unwrap();
    let s = Session::start("rules", 110, 36, dir, &[]);
    s.run(&format!(
        "{} --with 'rules:rules?lang=eng' t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("rules:rules?lang=eng 7");
    // The rule author adds an abbreviation: the row re-tokenizes by itself.
    let file = rules.join("tok-resource-eng.txt");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("::abbrev Zzz. ::exp Sleepy ::lcode eng\n");
    std::fs::write(&file, &text).unwrap();
    s.wait_text("rules:rules?lang=eng reloaded from its changed files");
    s.wait_text("rules:rules?lang=eng 6");
    // A typo: the error shows, the last good rules stay.
    std::fs::write(&file, format!("{text}::abbrev Yyy. ::bogus-slot x\n")).unwrap();
    let screen = s.wait_text("reload failed, keeping the last good version");
    assert!(screen.contains("tok-resource-eng.txt"), "{screen}");
    assert!(screen.contains("rules:rules?lang=eng 6"), "{screen}");
    // Fixed again: the error goes away.
    std::fs::write(&file, &text).unwrap();
    s.wait_for("the error to clear", |screen| {
        !screen.contains("reload failed")
    });
    // The token's provenance names the entry's file and line.
    s.keys(&["l", "l"]);
    s.wait_text("tok-resource-eng.txt:");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn a_bpe_lesson_trains_and_replays_merges() {
    if !available("a_bpe_lesson_trains_and_replays_merges") {
        return;
    }
    let s = Session::start("lesson", 110, 40, repo(), &[]);
    s.run(&format!(
        "{} open samples/bpe-lesson.toml; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("0 merges learned · next: «n» + «e» → «ne» (8×) · on the file: lines 1–3");
    s.keys(&["."]);
    s.wait_text("1 n + e → ne 8×");
    s.keys(&["."]);
    s.wait_text("2 ne + w → new 8×");
    s.keys(&[","]);
    s.wait_text("1 merge learned");
    // The sample model's merges for the selected word, both semantics side by side.
    s.keys(&["4"]);
    s.wait_text("word «set»");
    s.keys(&["l", "l", "l"]);
    let screen = s.wait_text("word «␣new»");
    assert!(
        screen.contains("SentencePiece") && screen.contains("HuggingFace"),
        "{screen}"
    );
    s.keys(&["f"]);
    s.wait_for("the last step", |screen| {
        screen
            .lines()
            .any(|l| l.contains("word «␣new» · step") && !l.contains("step 0/"))
    });
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn escape_keeps_edits_and_a_panic_gives_the_terminal_back() {
    if !available("escape_keeps_edits_and_a_panic_gives_the_terminal_back") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), "one two\n").unwrap();
    let s = Session::start("escpanic", 100, 30, dir, &[("TOKLAB_TEST_PANIC", "1")]);
    s.run(&format!("{} --with ws t.txt; echo toklab-exited-$?", bin()));
    s.wait_text("ws 2");
    s.keys(&["i", "End"]);
    s.keys(&["-l", " three"]);
    s.wait_text("ws 3");
    // A reflexive Esc Esc Esc: out of insert mode, then nothing; the edits stay.
    for _ in 0..3 {
        s.keys(&["Escape"]);
        std::thread::sleep(std::time::Duration::from_millis(80));
    }
    let screen = s.wait_text("q quits");
    assert!(screen.contains("t.txt [+]"), "{screen}");
    assert!(!screen.contains("toklab-exited"), "{screen}");
    // The planted panic (debug builds, F12 with TOKLAB_TEST_PANIC): the terminal is restored.
    s.keys(&["F12"]);
    let screen = s.wait_text("toklab-exited-101");
    assert!(
        !screen.contains("┌"),
        "the alternate screen is gone:\n{screen}"
    );
    assert!(
        screen.contains("planted panic"),
        "the message shows:\n{screen}"
    );
    s.run(
        "stty -a | grep -q -- ' icanon' && stty -a | grep -q -- ' echo ' && echo cooked-mode-back",
    );
    s.wait_text("cooked-mode-back");
}

#[test]
fn the_matrix_of_a_million_character_line_is_refused_and_ctrl_l_redraws() {
    if !available("the_matrix_of_a_million_character_line_is_refused_and_ctrl_l_redraws") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("t.txt"), format!("{}\n", "a".repeat(1_000_000))).unwrap();
    let s = Session::start("bigmatrix", 120, 40, dir, &[]);
    s.run(&format!(
        "{} --with ws --with words t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("words 1");
    s.keys(&["3"]);
    s.wait_text("A ws  vs  B words");
    s.keys(&["c"]);
    let screen = s.wait_text("no matrix:");
    assert!(screen.contains("1000002000001 cells"), "{screen}");
    // Something else writes over the screen; Ctrl-L draws it again.
    std::fs::write(s.tty(), "\x1b[3;5HSTRAY-OUTPUT").unwrap();
    s.wait_text("STRAY-OUTPUT");
    s.keys(&["C-l"]);
    s.wait_for("the stray text to go", |screen| {
        !screen.contains("STRAY-OUTPUT") && screen.contains("no matrix:")
    });
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn the_caret_stays_visible_and_the_pair_matrix_scrolls_at_80x24() {
    if !available("the_caret_stays_visible_and_the_pair_matrix_scrolls_at_80x24") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    // A pair whose matrix is taller than the lower pane, however the panes share the screen.
    let first = format!("{}efg", "abcd".repeat(6));
    let long = format!("{first} {}tail\n", "word ".repeat(40));
    std::fs::write(dir.join("t.txt"), long).unwrap();
    let s = Session::start("caret", 80, 24, dir, &[]);
    s.run(&format!(
        "{} --with 'regex:[a-d]+|[e-g]+|\\w+' --with ws t.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("ws 42");
    s.keys(&["i", "End"]);
    s.keys(&["-l", "XYZ"]);
    let screen = s.wait_text("tailXYZ");
    assert!(screen.contains("from column"), "{screen}");
    s.keys(&["Escape"]);
    s.wait_text("NORMAL");
    // The pair «abcd…abcd» × «abcd…efg»: its `#` row shows, and J scrolls it away.
    let hash_row = |screen: &str| {
        screen
            .lines()
            .any(|l| l.trim_start_matches('│').starts_with("# "))
    };
    s.keys(&["3", "Enter"]);
    let screen = s.wait_text(&format!("matrix of «{}» vs «{first}»", "abcd".repeat(6)));
    assert!(hash_row(&screen), "{screen}");
    s.keys(&["J", "J"]);
    s.wait_for("the matrix to scroll", |screen| {
        !hash_row(screen)
            && screen
                .lines()
                .any(|l| l.trim_start_matches('│').starts_with("b "))
    });
    s.keys(&["r"]);
    s.wait_text("reloaded every tokenizer (2)");
    s.keys(&["Q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn a_long_line_with_a_rules_row_never_freezes_the_workbench() {
    if !available("a_long_line_with_a_rules_row_never_freezes_the_workbench") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(
        dir.join("t.txt"),
        format!("short\n{}\n", ".".repeat(200_000)),
    )
    .unwrap();
    let s = Session::start("dots", 110, 36, dir, &[]);
    let rules = repo().join("rules");
    s.run(&format!(
        "{} --with ws --with 'rules:{}?lang=eng' t.txt; echo toklab-exited-$?",
        bin(),
        rules.display()
    ));
    s.wait_text("ws 1");
    // The line is tokenized in the background (how long that takes depends on the engine and
    // the machine; the unit tests pin down the waiting state): the interface answers at once.
    s.keys(&["j", "?"]);
    s.wait_text("next / previous tokenizer row");
    s.keys(&["Escape"]);
    s.wait_for("help closed", |screen| {
        !screen.contains("next / previous tokenizer row")
    });
    // Esc stops waiting (or, if the rules were quick, has nothing to stop).
    s.keys(&["Escape"]);
    s.wait_for("Esc to answer", |screen| {
        screen.contains("tokenizing stopped (Esc)") || screen.contains("nothing to close")
    });
    s.keys(&["k"]);
    s.wait_text("line 1 ·");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn a_signal_restores_the_terminal() {
    if !available("a_signal_restores_the_terminal") {
        return;
    }
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let temp = tempfile::tempdir().unwrap();
        let pid_file = temp.path().join("pid");
        let s = Session::start(&format!("signal-{signal}"), 100, 32, repo(), &[]);
        // The inner shell writes its pid, then becomes toklab (exec keeps the pid).
        s.run(&format!(
            "bash -c 'echo $$ > {}; exec {}'; echo toklab-exited-$?",
            pid_file.display(),
            bin()
        ));
        s.wait_for("every row loaded", |screen| {
            screen.contains("We're·350·dogs!·Um,·lunch?") && !screen.contains("loading…")
        });
        // The alternate screen and mouse capture are on while the workbench runs.
        assert_eq!(s.pane_format("#{alternate_on}"), "1");
        assert_ne!(
            s.pane_format("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"),
            "000"
        );
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let status = std::process::Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(status.success());
        s.wait_text(&format!("toklab-exited-{code}"));
        assert_eq!(s.pane_format("#{alternate_on}"), "0", "{signal}");
        assert_eq!(
            s.pane_format("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"),
            "000",
            "{signal}: mouse capture left on"
        );
        s.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ,; echo");
        let screen = s.wait_for("stty output", |screen| screen.contains("icanon,"));
        assert!(
            screen.contains("icanon,echo,") || screen.contains("echo,icanon,"),
            "{signal}: the terminal was left raw:\n{screen}"
        );
    }
}
