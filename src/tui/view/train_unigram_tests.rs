//! Screens of the training view's unigram mode: the loss of each EM iteration, the pruning
//! with the pieces it removed, the selected word's lattice under the model of the step, and
//! the model as a row.

use super::teach_tests::screen;
use crate::tui::app::{Action, App};
use crate::tui::panes::View;
use crate::tui::panes::train::TrainCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;
use toklab::engines::subword::train::unigram::UnigramEvent;

/// Words that share beginnings and endings, so pieces such as `▁low` and `est` pay off.
const TEXT: &str = "\
the lower road and the lowest road
the newer house and the newest house
the wider street and the widest street
lower newer wider lowest newest widest
";

fn unigram_app() -> App {
    // Five times over, so that more pieces are expected often enough to survive EM.
    let mut app = crate::tui::app::tests::app(&TEXT.repeat(5), &["ws"]);
    app.apply(Action::ShowView(View::Train));
    app.apply(Action::Train(TrainCommand::Algorithm));
    app
}

fn shown(app: &mut App) -> String {
    screen(&render_to_buffer(app, &Theme::dark(), 160, 45))
}

#[test]
fn unigram_mode_steps_through_em_with_its_losses_and_the_lattice() {
    let mut app = unigram_app();
    let before = shown(&mut app);
    assert!(before.contains("unigram · round 1 ·"), "{before}");
    assert!(before.contains("seeded: 11 distinct words"), "{before}");
    assert!(before.contains("on the file: lines 1–20"), "{before}");
    app.apply(Action::DemoStep(true));
    app.apply(Action::DemoStep(true));
    let screen = shown(&mut app);
    let losses = app.panes.train.current_unigram().unwrap().losses();
    assert_eq!(losses.len(), 2);
    for (round, iteration, loss) in &losses {
        let row = format!("r{round} EM{iteration} loss {loss:>8.4}");
        assert!(screen.contains(&row), "{row} missing:\n{screen}");
    }
    assert!(losses[1].2 <= losses[0].2, "EM loses no likelihood");
    assert!(
        screen.contains(&format!(
            "round 1, EM iteration 2: loss {:.4} per word",
            losses[1].2
        )),
        "{screen}"
    );
    // The lattice of the first word of the cursor line, `the`, under the model of this step.
    assert!(
        screen.contains("the word «the» under the model"),
        "{screen}"
    );
    assert!(screen.contains("candidate pieces"), "{screen}");
    assert!(screen.contains("best path"), "{screen}");
    let demo = app.panes.train.current_unigram().unwrap();
    let lesson = demo.lattice.as_ref().unwrap().lesson.as_ref().unwrap();
    let path: Vec<&str> = lesson
        .best_path
        .iter()
        .map(|&k| lesson.pieces[k].as_str())
        .collect();
    assert!(
        screen.contains(&format!("best path {}", path.join(" "))),
        "{path:?}:\n{screen}"
    );
}

#[test]
fn pruning_names_the_pieces_it_removed_and_f_ends_training() {
    let mut app = unigram_app();
    // Two EM iterations, then the first pruning.
    for _ in 0..3 {
        app.apply(Action::DemoStep(true));
    }
    let demo = app.panes.train.current_unigram().unwrap();
    let step = demo.log.last().unwrap().clone();
    let UnigramEvent::Pruned { from, to, .. } = step.event else {
        panic!("not a pruning: {:?}", step.event);
    };
    let screen = shown(&mut app);
    assert!(
        screen.contains(&format!("r1 prune  {from} → {to}")),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "removed {}: «{}»",
            step.removed.len(),
            step.removed[0]
        )),
        "{screen}"
    );
    app.apply(Action::DemoStep(false));
    assert!(
        !shown(&mut app).contains("r1 prune"),
        "the pruning is taken back"
    );
    app.apply(Action::DemoFinish);
    let screen = shown(&mut app);
    assert!(screen.contains("training done"), "{screen}");
    assert!(screen.contains("final: the "), "{screen}");
    // U goes back to BPE, whose demo is as it was.
    app.apply(Action::Train(TrainCommand::Algorithm));
    assert!(shown(&mut app).contains("0 merges learned"));
}

#[test]
fn the_unigram_model_being_trained_is_a_row() {
    let mut app = unigram_app();
    app.apply(Action::Train(TrainCommand::ToggleRow));
    app.tick();
    let label = app.rows[1].setup.label.clone();
    assert!(label.starts_with("trained unigram ("), "{label}");
    app.apply(Action::DemoFinish);
    app.tick();
    let demo = app.panes.train.current_unigram().unwrap();
    let pieces = demo.trainer.as_ref().unwrap().pieces().len();
    assert_eq!(
        app.rows[1].setup.label,
        format!("trained unigram ({pieces})")
    );
    // The row segments the cursor line with the final model: the same pieces as the model.
    let model = demo.model().unwrap();
    let ids: Vec<u32> = app.rows[1]
        .tokens
        .tokens
        .iter()
        .filter_map(|t| t.id)
        .collect();
    assert_eq!(ids, model.encode(app.doc.text.as_str()));
    app.apply(Action::Train(TrainCommand::Algorithm));
    app.tick();
    assert_eq!(
        app.rows[1].setup.label, "trained (0)",
        "the BPE model's row"
    );
}

#[test]
fn m_saves_the_unigram_model_that_spm_loads_and_never_over_one() {
    let mut app = unigram_app();
    app.apply(Action::DemoFinish);
    let dir = tempfile::tempdir().unwrap();
    let said = app.panes.train.save(dir.path());
    let demo = app.panes.train.current_unigram().unwrap();
    let target = demo.trainer.as_ref().unwrap().config().vocab_size;
    let saved = format!("saved {target} pieces (the final vocabulary)");
    assert!(said.starts_with(&saved), "{said}");
    let path = dir.path().join("trained.model");
    let loaded = toklab::engines::subword::spm::SpmModel::load(&path).unwrap();
    let text = "the lowest road and the newer house";
    assert_eq!(loaded.encode(text), demo.model().unwrap().encode(text));
    let again = app.panes.train.save(dir.path());
    assert!(again.contains("already exists"), "{again}");
}

/// Students count characters: `«▁the» 0..4`, not the encoder's bytes `0..6`; `B` shows bytes.
#[test]
fn the_lattice_counts_characters_and_b_shows_bytes() {
    let mut app = unigram_app();
    app.apply(Action::DemoStep(true));
    let demo = app.panes.train.current_unigram().unwrap();
    let lesson = demo.lattice.as_ref().unwrap().lesson.clone().unwrap();
    let first = &lesson.nodes[0];
    let piece = toklab::core::tokenizer::quote(&lesson.pieces[0]);
    let chars = lesson.text[..first.end].chars().count();
    assert!(lesson.pieces[0].starts_with('▁'), "{}", lesson.pieces[0]);
    assert_ne!(chars, first.end, "the word opens with a 3-byte ▁");
    let line = |end: usize| format!("  0..{end:<3} {piece:<12}");
    let screen = shown(&mut app);
    assert!(screen.contains(&line(chars)), "{}\n{screen}", line(chars));
    assert!(screen.contains("candidate pieces · characters"), "{screen}");
    let last = lesson.text.chars().count();
    assert!(screen.contains(&format!("best[{last}]")), "{screen}");
    app.apply(Action::LatticeBytes);
    let screen = shown(&mut app);
    assert!(
        screen.contains(&line(first.end)),
        "{}\n{screen}",
        line(first.end)
    );
    assert!(screen.contains("candidate pieces · bytes"), "{screen}");
    assert!(
        screen.contains(&format!("best[{}]", lesson.text.len())),
        "{screen}"
    );
}
