//! Saving, opening and reloading in the workbench: each is an effect the app asks for, never a
//! write inside `apply`, and none replaces work the user has not saved without asking.

use super::tests::{app, type_text};
use super::*;
use crate::tui::document::Document;
use crate::workspace::Workspace;

#[test]
fn a_watched_file_reloads_and_a_broken_one_keeps_the_last_good_version() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let words = dir.join("words.txt");
    std::fs::write(&words, "ab\n").unwrap();
    let spec = format!("maxmatch:{}", words.display());
    let mut app = app("abc", &[&spec]);
    assert_eq!(app.rows[0].tokens.len(), 2, "ab + c");
    let wait = |app: &mut App, what: &str, done: &dyn Fn(&App) -> bool| {
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        while !done(app) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(std::time::Duration::from_millis(20));
            app.tick();
        }
    };
    // A valid change reloads by itself.
    std::fs::write(&words, "abc\n").unwrap();
    wait(&mut app, "the reload", &|a| a.rows[0].tokens.len() == 1);
    // A broken file: the error is kept, so are the last good tokens.
    std::fs::write(&words, b"\xff\xfe not utf-8\n").unwrap();
    wait(&mut app, "the reload error", &|a| {
        a.rows[0].reload_error.is_some()
    });
    assert_eq!(app.rows[0].tokens.len(), 1);
    assert!(
        app.rows[0]
            .reload_error
            .as_ref()
            .unwrap()
            .contains("words.txt"),
        "{:?}",
        app.rows[0].reload_error
    );
    // Fixing the file clears the error.
    std::fs::write(&words, "a\nbc\n").unwrap();
    wait(&mut app, "the recovery", &|a| {
        a.rows[0].reload_error.is_none()
    });
    assert_eq!(app.rows[0].tokens.len(), 2);
}

#[test]
fn saving_is_an_effect_holding_the_text_and_nothing_is_written_by_apply() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let path = dir.join("t.txt");
    std::fs::write(&path, "one\ntwo\n").unwrap();
    let mut app = app("", &["ws"]);
    app.replace_document(Document::open(&path).unwrap());
    app.finish_loading();
    while !app.doc.lines.is_indexed() {
        app.tick();
    }
    app.tick();
    assert_eq!(app.doc.text, "one", "the first line, once indexed");
    app.apply(Action::Edit);
    type_text(&mut app, "!");
    app.apply(Action::Back);
    app.apply(Action::Save);
    let effects = app.take_effects();
    let [
        Effect::SaveText {
            path: target,
            text,
            expect,
        },
    ] = &effects[..]
    else {
        panic!("one save: {effects:?}");
    };
    assert_eq!(target, &path);
    assert!(
        matches!(expect, toklab::core::files::Expect::Unchanged(Some(_))),
        "Ctrl-s replaces the text's own file as it was read, without asking"
    );
    assert_eq!(text.line_count(), 2);
    assert_eq!(text.line(0).unwrap(), "one!");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    assert!(app.doc.lines.is_dirty());
    // The loop performs it: the file is written and the text is saved.
    for effect in effects {
        crate::tui::effect::perform(&mut app, effect);
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one!\ntwo\n");
    assert!(!app.doc.lines.is_dirty());
    assert!(app.message.as_ref().unwrap().0.starts_with("saved "));
}

#[test]
fn saving_a_text_without_a_file_asks_for_a_name_first() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::Save);
    assert!(app.take_effects().is_empty());
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::SaveTextAs));
    type_text(&mut app, "/nowhere/x.txt");
    app.apply(Action::Enter);
    let effects = app.take_effects();
    assert!(
        matches!(&effects[..], [Effect::SaveText { path, .. }] if path.ends_with("nowhere/x.txt")),
        "{effects:?}"
    );
}

#[test]
fn opening_a_text_is_an_effect_and_replaces_the_document_state_whole() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("other.txt"), "alpha beta\ngamma\n").unwrap();
    let mut app = app("a b\nc d\ne", &["ws"]);
    // A typed path is relative to the folder the user started in, not the workspace's.
    app.workspace.start = dir.to_path_buf();
    app.workspace.base = dir.join("elsewhere");
    app.apply(Action::ShowView(View::Train));
    let first_doc = app.doc.id;
    assert!(app.panes.train.demo(&app.context()).is_some());
    app.apply(Action::LastLine);
    app.apply(Action::StartPrompt(PromptKind::Search));
    type_text(&mut app, "c");
    app.apply(Action::Enter);
    app.apply(Action::StartPrompt(PromptKind::OpenText));
    type_text(&mut app, "other.txt");
    app.apply(Action::Enter);
    let effects = app.take_effects();
    assert!(
        matches!(&effects[..], [Effect::OpenText(p)] if *p == dir.join("other.txt")),
        "{effects:?}"
    );
    assert_eq!(app.doc.text, "e", "nothing read yet");
    for effect in effects {
        crate::tui::effect::perform(&mut app, effect);
    }
    while !app.doc.lines.is_indexed() {
        app.tick();
    }
    app.tick();
    assert_eq!((app.doc.line, app.doc.text.as_str()), (0, "alpha beta"));
    assert!(
        app.doc.search.is_none(),
        "the search belonged to the other text"
    );
    assert_ne!(app.doc.id, first_doc);
    let demo = app
        .panes
        .train
        .demo(&app.context())
        .expect("training again");
    assert_eq!(demo.corpus.lines, 2, "on the new text");
}

#[test]
fn opening_is_refused_with_unsaved_edits_and_reloading_is_an_effect() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::Edit);
    app.apply(Action::Type('y'));
    app.apply(Action::Back);
    app.apply(Action::StartPrompt(PromptKind::OpenText));
    type_text(&mut app, "other.txt");
    app.apply(Action::Enter);
    assert!(app.take_effects().is_empty());
    assert!(app.message.as_ref().unwrap().0.contains("unsaved edits"));
    app.apply(Action::ReloadRows);
    assert!(matches!(app.take_effects()[..], [Effect::ReloadRows]));
}

#[test]
fn reloading_says_when_it_is_done() {
    let mut app = app("a b", &["ws", "words"]);
    app.apply(Action::ReloadRows);
    for effect in app.take_effects() {
        crate::tui::effect::perform(&mut app, effect);
    }
    assert!(app.message.as_ref().unwrap().0.contains("reloading"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.rows.is_reloading() && std::time::Instant::now() < deadline {
        app.tick();
    }
    app.tick();
    assert_eq!(
        app.message.as_ref().unwrap().0,
        "reloaded every tokenizer (2)"
    );
}

#[test]
fn saving_over_another_existing_file_asks_first() {
    let temp = tempfile::tempdir().unwrap();
    let other = temp.path().join("other.txt");
    std::fs::write(&other, "precious\n").unwrap();
    let mut app = app("x", &["ws"]);
    app.apply(Action::Save);
    type_text(&mut app, &other.display().to_string());
    app.apply(Action::Enter);
    crate::tui::effect::perform_all(&mut app);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious\n");
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::OverwriteText));
    // Esc cancels; asked again, Enter on the offered name confirms.
    app.apply(Action::Back);
    assert!(matches!(app.mode, Mode::Normal));
    app.apply(Action::Save);
    type_text(&mut app, &other.display().to_string());
    app.apply(Action::Enter);
    crate::tui::effect::perform_all(&mut app);
    app.apply(Action::Enter);
    crate::tui::effect::perform_all(&mut app);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "x");
}

#[test]
fn w_asks_before_replacing_a_workspace_file_then_saves_again_freely() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("shipped.toml");
    std::fs::write(&path, "# the shipped sample\n").unwrap();
    let mut app = app("x", &["ws"]);
    app.workspace.base = temp.path().to_path_buf();
    app.workspace.path = Some(path.clone());
    app.apply(Action::SaveWorkspace);
    crate::tui::effect::perform_all(&mut app);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# the shipped sample\n"
    );
    let Mode::Prompt(prompt) = &app.mode else {
        panic!("no confirmation asked");
    };
    assert_eq!(prompt.kind, PromptKind::OverwriteWorkspace);
    // Editing the name saves elsewhere: the shipped file stays as it was.
    let mine = temp.path().join("mine.toml");
    app.mode = Mode::Prompt(Prompt {
        input: mine.display().to_string(),
        ..prompt.clone()
    });
    app.apply(Action::Enter);
    crate::tui::effect::perform_all(&mut app);
    assert!(Workspace::load(&mine, &View::NAMES).is_ok());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# the shipped sample\n"
    );
    assert_eq!(app.workspace.path.as_ref(), Some(&mine));
    // The session wrote mine.toml: W saves to it again without asking.
    app.apply(Action::SaveWorkspace);
    crate::tui::effect::perform_all(&mut app);
    assert!(matches!(app.mode, Mode::Normal));
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .0
            .starts_with("saved workspace")
    );
}
