//! Files changed underneath the workbench: a text or workspace another program rewrote is
//! never written over unasked, a yank never replaces a file, and a workspace saved elsewhere
//! keeps every path working.

use std::io::Write;
use std::path::Path;

use super::tests::{app, type_text};
use super::{Action, Mode, PromptKind};
use crate::tui::document::Document;
use crate::tui::panes::View;
use crate::workspace::Workspace;

fn opened(path: &Path) -> super::App {
    let mut app = app("x", &["ws"]);
    app.replace_document(Document::open(path).unwrap());
    while !app.doc.lines.is_indexed() {
        app.tick();
    }
    app.tick();
    app
}

/// Rewrites `path` in place (same file, truncated), as many programs save.
fn rewrite_in_place(path: &Path, text: &str) {
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
}

/// Types `text` as the prompt's whole answer (over any name it offered) and presses Enter.
fn answer(app: &mut super::App, text: &str) {
    if let Mode::Prompt(prompt) = &mut app.mode {
        prompt.input.clear();
    }
    type_text(app, text);
    app.apply(Action::Enter);
    crate::tui::effect::perform_all(app);
}

#[test]
fn ctrl_s_over_a_file_changed_underneath_asks_and_never_mixes() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("t.txt");
    std::fs::write(&path, "one\ntwo\nthree\n").unwrap();
    let mut app = opened(&path);
    app.apply(Action::Edit);
    type_text(&mut app, "Z");
    app.apply(Action::Back);
    rewrite_in_place(&path, "ABCD\nEFGH\nIJKLMN\n");
    app.apply(Action::Save);
    crate::tui::effect::perform_all(&mut app);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "ABCD\nEFGH\nIJKLMN\n"
    );
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::ChangedText));
    // `o` overwrites with the text as shown: the opened lines, never the new file's bytes.
    answer(&mut app, "o");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "oneZ\ntwo\nthree\n"
    );
    assert!(!app.doc.lines.is_dirty());
    // Saved: the next Ctrl-s compares with what was written, and goes through.
    app.apply(Action::Edit);
    type_text(&mut app, "Y");
    app.apply(Action::Back);
    app.apply(Action::Save);
    crate::tui::effect::perform_all(&mut app);
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "oneZY\ntwo\nthree\n"
    );
}

#[test]
fn a_changed_file_can_be_reloaded_or_saved_elsewhere() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("t.txt");
    std::fs::write(&path, "one\ntwo\n").unwrap();
    let mut app = opened(&path);
    app.apply(Action::Edit);
    type_text(&mut app, "Z");
    app.apply(Action::Back);
    rewrite_in_place(&path, "theirs\n");
    app.apply(Action::Save);
    crate::tui::effect::perform_all(&mut app);
    let elsewhere = temp.path().join("mine.txt");
    answer(&mut app, &elsewhere.display().to_string());
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "oneZ\ntwo\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "theirs\n");
    // Back on the first file, changed again: `r` reads it again.
    let mut app = opened(&path);
    app.apply(Action::Edit);
    type_text(&mut app, "Q");
    app.apply(Action::Back);
    rewrite_in_place(&path, "newest\n");
    app.apply(Action::Save);
    crate::tui::effect::perform_all(&mut app);
    answer(&mut app, "r");
    while !app.doc.lines.is_indexed() {
        app.tick();
    }
    app.tick();
    assert_eq!(app.doc.lines.line(0).unwrap(), "newest");
    assert!(!app.doc.lines.is_dirty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "newest\n");
}

#[test]
fn a_second_w_over_a_workspace_changed_in_between_asks() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("ws.toml");
    let mut app = app("x", &["ws"]);
    app.workspace.base = temp.path().to_path_buf();
    app.apply(Action::SaveWorkspace);
    answer(&mut app, &path.display().to_string());
    assert!(Workspace::load(&path, &View::NAMES).is_ok());
    // Another program adds a row and a comment.
    let theirs = format!(
        "{}\n# added by hand\n[[tokenizer]]\nspec = \"words\"\n",
        std::fs::read_to_string(&path).unwrap()
    );
    std::fs::write(&path, &theirs).unwrap();
    app.apply(Action::SaveWorkspace);
    crate::tui::effect::perform_all(&mut app);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::ChangedWorkspace));
    answer(&mut app, "o");
    assert!(
        !std::fs::read_to_string(&path)
            .unwrap()
            .contains("\"words\"")
    );
}

#[test]
fn yank_to_an_existing_file_leaves_it_alone() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("row.json");
    std::fs::write(&path, "precious\n").unwrap();
    let mut app = app("a b", &["ws"]);
    app.apply(Action::StartPrompt(PromptKind::Command));
    answer(&mut app, &format!("yank row {}", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious\n");
    let message = &app.message.as_ref().unwrap().0;
    assert!(message.contains("already exists"), "{message}");
    let fresh = temp.path().join("fresh.json");
    app.apply(Action::StartPrompt(PromptKind::Command));
    answer(&mut app, &format!("yank row {}", fresh.display()));
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), r#"["a","b"]"#);
}

/// The shipped samples' workspace, saved from its folder into another: the text and every
/// spec's file are rewritten relative to the new file, so it opens from there.
#[test]
fn w_to_another_folder_keeps_every_path_working() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let shipped = Workspace::load(&samples.join("workspace.toml"), &View::NAMES).unwrap();
    let specs: Vec<&str> = shipped.tokenizers.iter().map(|t| t.spec.as_str()).collect();
    let mut app = app("x", &specs);
    app.replace_document(Document::open(&samples.join("sample.txt")).unwrap());
    app.workspace.base = samples.clone();
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("workspace.toml");
    app.apply(Action::SaveWorkspace);
    answer(&mut app, &out.display().to_string());
    let saved = Workspace::load(&out, &View::NAMES).unwrap();
    let text = saved.text_path().unwrap();
    assert_eq!(
        std::fs::canonicalize(&text).unwrap(),
        std::fs::canonicalize(samples.join("sample.txt")).unwrap()
    );
    assert!(
        !saved.text.as_ref().unwrap().starts_with('/'),
        "{:?}",
        saved.text
    );
    for entry in &saved.tokenizers {
        toklab::load_in(&entry.spec, &saved.base)
            .unwrap_or_else(|e| panic!("{} does not load: {e}", entry.spec));
    }
    // A pattern is not a path: it is kept as written.
    assert!(
        saved
            .tokenizers
            .iter()
            .any(|t| t.spec.starts_with("regex:\\w+"))
    );
}

#[test]
fn a_workspace_opened_by_a_bare_name_keeps_its_text_relative() {
    // Tests run in the package's folder: `Cargo.toml` against the empty base (the current
    // folder) stays `Cargo.toml`.
    assert_eq!(
        crate::workspace::relative_path(Path::new("Cargo.toml"), Path::new("")),
        "Cargo.toml"
    );
    assert_eq!(
        crate::workspace::relative_path(Path::new("samples/sample.txt"), Path::new("src")),
        "../samples/sample.txt"
    );
}
