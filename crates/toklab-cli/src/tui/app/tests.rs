//! Behaviour of the workbench state, driven by actions.

use std::sync::Arc;

use super::*;

/// An app over `text` with one row per spec, every row loaded.
pub(crate) fn app(text: &str, specs: &[&str]) -> App {
    let setups = specs.iter().map(|s| RowSetup::new(s)).collect();
    let loader: Loader = Arc::new(|spec: &str| toklab::load(spec).map_err(|e| e.to_string()));
    let mut app = App::new(Document::from_text(text), setups, loader);
    app.finish_loading();
    app
}

/// Types `text` key by key, as a user would in insert mode or a prompt.
pub(crate) fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.apply(Action::Type(c));
    }
}

#[test]
fn moving_the_cursor_retokenizes_every_row() {
    let mut app = app("a b\nWe're here\nlast", &["ws", "words"]);
    assert_eq!(app.rows[0].tokens.len(), 2);
    app.apply(Action::LineDown);
    assert_eq!(app.text, "We're here");
    assert_eq!(app.rows[0].tokens.len(), 2);
    assert_eq!(app.rows[1].tokens.len(), 2);
    app.apply(Action::LastLine);
    assert_eq!(app.line, 2);
    app.apply(Action::LineDown);
    assert_eq!(app.line, 2, "stays on the last line");
    app.apply(Action::FirstLine);
    assert_eq!(app.text, "a b");
}

#[test]
fn paging_keeps_cursor_visible() {
    let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
    let mut app = app(&text, &["ws"]);
    app.viewport.text_lines = 10;
    app.apply(Action::PageDown);
    assert_eq!((app.line, app.top), (10, 1));
    app.apply(Action::LastLine);
    assert_eq!((app.line, app.top), (99, 90));
    app.apply(Action::PageUp);
    assert_eq!((app.line, app.top), (89, 89));
}

#[test]
fn token_selection_follows_rows_and_scrolls() {
    let mut app = app("aaaa bbbb cccc dddd", &["ws", "words"]);
    app.viewport.row_columns = 8;
    app.apply(Action::TokenLast);
    assert_eq!(app.token, Some(3));
    assert!(
        app.hscroll >= 11,
        "last token in view, hscroll {}",
        app.hscroll
    );
    app.apply(Action::RowNext);
    assert_eq!((app.row, app.token), (1, Some(3)));
    app.apply(Action::TokenFirst);
    assert_eq!((app.token, app.hscroll), (Some(0), 0));
    app.apply(Action::Pick { row: 0, column: 6 });
    assert_eq!((app.row, app.token), (0, Some(1)));
    app.apply(Action::Pick { row: 0, column: 4 });
    assert_eq!(app.token, None, "a space belongs to no token");
}

#[test]
fn broken_spec_becomes_an_error_row() {
    let app = app("x", &["nope:1", "ws"]);
    assert!(
        app.rows[0]
            .error()
            .unwrap()
            .contains("unknown tokenizer kind")
    );
    assert_eq!(app.rows[1].tokens.len(), 1);
}

#[test]
fn escape_closes_help_before_quitting() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::ToggleHelp);
    app.apply(Action::Back);
    assert!(!app.help && !app.quit);
    app.apply(Action::Back);
    assert!(app.quit);
}

#[test]
fn quitting_with_unsaved_edits_asks_first() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::Edit);
    app.apply(Action::Type('y'));
    app.apply(Action::Back);
    app.apply(Action::Quit);
    assert!(!app.quit);
    assert!(app.message.as_ref().unwrap().0.contains("unsaved"));
    app.apply(Action::Quit);
    assert!(app.quit);
}

#[test]
fn trace_view_follows_the_selected_row() {
    let mut app = app("a  b", &["ws", "pretok:gpt2"]);
    app.apply(Action::ShowView(View::Trace));
    assert_eq!(app.trace_lines().len(), 3, "match, gap, match");
    app.apply(Action::RowNext);
    assert_eq!(app.trace_lines().len(), 3, "a, ' ', ' b'");
    app.apply(Action::ViewDown(1));
    assert_eq!(app.views.cursor, 1);
    app.apply(Action::ViewDown(10));
    assert_eq!(app.views.cursor, 2, "clamped to the last line");
}

#[test]
fn table_view_cursor_is_the_token_selection() {
    let mut app = app("a b c", &["ws"]);
    app.apply(Action::ShowView(View::Table));
    app.apply(Action::ViewDown(2));
    assert_eq!(app.token, Some(2));
    app.apply(Action::TokenPrev);
    assert_eq!(app.views.cursor, 1);
}

#[test]
fn add_and_remove_rows() {
    let mut app = app("a-b c", &["ws"]);
    app.apply(Action::StartPrompt(PromptKind::AddTokenizer));
    type_text(&mut app, "words");
    app.apply(Action::Enter);
    app.finish_loading();
    assert_eq!(app.rows.len(), 2);
    assert_eq!(app.rows[1].tokens.len(), 4);
    assert_eq!(app.row, 1);
    app.apply(Action::RemoveRow);
    assert_eq!(app.rows.len(), 1);
}

#[test]
fn search_finds_the_next_line_and_selects_the_token() {
    let mut app = app("alpha\nbeta gamma\ndelta", &["ws"]);
    app.apply(Action::StartPrompt(PromptKind::Search));
    type_text(&mut app, "gam");
    app.apply(Action::Enter);
    while app.busy() {
        app.tick();
    }
    assert_eq!((app.line, app.token), (1, Some(1)));
}

#[test]
fn statistics_cover_the_whole_text() {
    let text: String = (0..500).map(|i| format!("w{i} x y\n")).collect();
    let mut app = app(&text, &["ws", "words"]);
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let stats = app.stats.as_ref().unwrap().figures();
    assert!(stats.complete);
    assert_eq!(stats.rows[0].tokens, 1500);
    assert_eq!(stats.labels, ["ws", "words"]);
}

#[test]
fn workspace_round_trip() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let mut app = app("x", &["ws", "words"]);
    app.workspace.base = dir.to_path_buf();
    app.apply(Action::ShowView(View::Table));
    let path = dir.join("w.toml");
    app.apply(Action::StartPrompt(PromptKind::SaveWorkspaceAs));
    app.mode = Mode::Prompt(Prompt::new(
        PromptKind::SaveWorkspaceAs,
        path.display().to_string(),
    ));
    app.apply(Action::Enter);
    let saved = Workspace::load(&path).unwrap();
    assert_eq!(
        saved
            .tokenizers
            .iter()
            .map(|t| t.spec.as_str())
            .collect::<Vec<_>>(),
        ["ws", "words"]
    );
    assert_eq!(saved.view.as_deref(), Some("tokens"));
}

#[test]
fn trace_cursor_follows_the_selected_token() {
    let mut app = app("a  b c", &["ws"]);
    app.apply(Action::ShowView(View::Trace));
    app.apply(Action::TokenNext);
    app.apply(Action::TokenNext);
    assert_eq!(app.views.cursor, 2, "match b is the third trace line");
}

#[test]
fn alignment_view_pairs_rows_and_steps_the_matrix() {
    let mut app = app("We're here", &["ws", "pretok:gpt2", "words"]);
    app.apply(Action::ShowView(View::Align));
    let data = app.align_data().expect("aligned");
    assert_eq!((data.a, data.b), (0, 1));
    // We're ↔ We, 're (sub + ins); here ↔ " here" (sub: the form keeps its space).
    assert_eq!(data.tokens.pairs.len(), 3);
    app.apply(Action::AlignNextOther);
    assert_eq!(app.align_data().unwrap().b, 2);
    app.apply(Action::AlignWith(1));
    assert_eq!(app.align_data().unwrap().b, 1);

    app.apply(Action::ToggleMatrix);
    let matrix = app
        .align_data()
        .unwrap()
        .matrix
        .as_ref()
        .expect("matrix mode");
    assert_eq!(matrix.source.concat(), "We're");
    assert_eq!(matrix.target.concat(), "We");
    assert_eq!(matrix.matrix.distance(), Some(3));
    app.apply(Action::DemoStep(true));
    app.apply(Action::DemoStep(true));
    assert_eq!(app.align.step, Some(2));
    assert!(
        !app.align_data()
            .unwrap()
            .matrix
            .as_ref()
            .unwrap()
            .matrix
            .is_complete()
    );
    app.apply(Action::DemoStep(false));
    assert_eq!(app.align.step, Some(1));
    app.apply(Action::DemoFinish);
    assert!(
        app.align_data()
            .unwrap()
            .matrix
            .as_ref()
            .unwrap()
            .matrix
            .is_complete()
    );
    app.apply(Action::ToggleMatrixScope);
    let matrix = app.align_data().unwrap().matrix.as_ref().unwrap();
    assert_eq!(
        matrix.source.concat(),
        "We're␣here",
        "spaces are shown as ␣"
    );
    assert_eq!(matrix.target.concat(), "We␣'re␣␣here");
}

#[test]
fn playing_the_fill_advances_on_ticks() {
    let mut app = app("ab", &["ws", "words"]);
    app.apply(Action::DemoPlay);
    assert_eq!(app.align.step, Some(0));
    let deadline = Instant::now() + std::time::Duration::from_secs(5);
    while app.align.playing.is_some() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        app.tick();
    }
    assert!(
        app.align.playing.is_none(),
        "the demo finishes: step {:?} data {}",
        app.align.step,
        app.align_data().is_some()
    );
    assert_eq!(app.align.step, Some(9), "3×3 cells filled");
}

#[test]
fn rows_mark_boundaries_they_do_not_share_with_the_selected_row() {
    let mut app = app("We're 350", &["ws", "pretok:gpt2"]);
    // gpt2 cuts We|'re where ws does not: marked at the ' in the gpt2 row.
    assert_eq!(app.rows[1].disagree, [2]);
    assert!(app.rows[0].disagree.is_empty());
    app.apply(Action::RowNext);
    assert_eq!(
        app.rows[0].disagree,
        [2],
        "now ws lacks a boundary gpt2 has"
    );
    assert!(app.rows[1].disagree.is_empty());
}

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
