//! The teaching features in a real terminal: the training lesson with its scope,
//! textbook words, tie text and the trained model as a row; the improper dictionary's lesson
//! where the two semantics part; the maximised pane.

use crate::common::tmux::{Session, available};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_toklab")
}

fn repo() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn training_lesson_on_a_line_with_textbook_words_and_a_trained_row() {
    if !available("training_lesson_on_a_line_with_textbook_words_and_a_trained_row") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("corpus.txt"),
        "set new new renew reset renew\n",
    )
    .unwrap();
    let s = Session::start("teach-train", 120, 36, dir.path(), &[]);
    s.run(&format!(
        "{} --with ws --theme high-contrast corpus.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("set·new·new·renew·reset·renew");
    s.keys(&["5", "t"]);
    let screen = s.wait_text("on the line: line 1");
    assert!(screen.contains("tie at 4×: n+e wins over e+w"), "{screen}");
    s.keys(&["T", "."]);
    let screen = s.wait_text("textbook (words + _)");
    assert!(screen.contains("2× new_"), "{screen}");
    s.keys(&["R", "."]);
    s.wait_text("trained (2)");
    s.keys(&["z"]);
    s.wait_for("the lower pane fills the screen", |screen| {
        !screen.contains("corpus.txt · 1 line") && screen.contains("merges learned")
    });
    s.keys(&["z", "q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn improper_dictionary_lesson_shows_where_the_semantics_part() {
    if !available("improper_dictionary_lesson_shows_where_the_semantics_part") {
        return;
    }
    let s = Session::start("teach-improper", 140, 40, repo(), &[]);
    s.run(&format!(
        "{} open samples/bpe-improper-lesson.toml; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("the semantics part at step 2");
    s.keys(&["f"]);
    let screen = s.wait_text("≠τ2 = ab ⟩ ab ⟩ a ⟩ b ⟩ a ⟩ b");
    assert!(screen.contains("≠τ2 = aba ⟩ b ⟩ a ⟩ b ⟩ a ⟩ b"), "{screen}");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn unigram_lesson_steps_the_viterbi_lattice_to_the_best_path() {
    if !available("unigram_lesson_steps_the_viterbi_lattice_to_the_best_path") {
        return;
    }
    let Some(shared) =
        crate::common::shared_dir("unigram_lesson_steps_the_viterbi_lattice_to_the_best_path")
    else {
        return;
    };
    let model = shared.join("conformance/bpe/data/sentencepiece/botchan_en_unigram_1000.model");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("w.txt"), "hello there\n").unwrap();
    let s = Session::start("teach-unigram", 120, 40, dir.path(), &[]);
    s.run(&format!(
        "{} --with spm:{} w.txt; echo toklab-exited-$?",
        bin(),
        model.display()
    ));
    s.wait_text("hello there");
    s.keys(&["4"]);
    let screen = s.wait_text("word «hello» → «▁hello» · step 0/7");
    assert!(screen.contains("lattice: 10 candidate pieces"), "{screen}");
    assert!(screen.contains("«▁he»        log p   -5.320"), "{screen}");
    s.keys(&["."]);
    s.wait_text("step 1/7");
    // The end: the best path read back, as the row tokenizes the word.
    s.keys(&["f"]);
    let screen = s.wait_text("best path ▁he ll o  total -16.312");
    assert!(
        screen.contains("-5.320 + -6.184 + -4.808 = -16.312"),
        "{screen}"
    );
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

#[test]
fn training_view_switches_to_unigram_and_steps_an_em_round() {
    if !available("training_view_switches_to_unigram_and_steps_an_em_round") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = "the lower road and the lowest road\nthe newer house and the newest house\n";
    std::fs::write(dir.path().join("corpus.txt"), corpus.repeat(4)).unwrap();
    let s = Session::start("teach-train-unigram", 140, 40, dir.path(), &[]);
    s.run(&format!(
        "{} --with ws corpus.txt; echo toklab-exited-$?",
        bin()
    ));
    s.wait_text("the·lower·road·and·the·lowest·road");
    s.keys(&["5", "U"]);
    let screen = s.wait_text("unigram · round 1 ·");
    assert!(screen.contains("seeded: 8 distinct words"), "{screen}");
    // Both EM iterations of round 1, then the pruning that ends it.
    s.keys(&[".", "."]);
    let screen = s.wait_text("r1 EM2 loss");
    assert!(screen.contains("r1 EM1 loss"), "{screen}");
    assert!(
        screen.contains("the word «the» under the model"),
        "{screen}"
    );
    assert!(screen.contains("best path ▁the"), "{screen}");
    s.keys(&["."]);
    s.wait_text("r1 prune");
    s.keys(&["R"]);
    s.wait_text("trained unigram (");
    s.keys(&["U"]);
    s.wait_text("merges learned");
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}
