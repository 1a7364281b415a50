//! Behaviour of the workbench state, driven by actions.

use std::sync::Arc;

use super::*;
use crate::tui::document::Document;
use crate::tui::panes::align::AlignCommand;
use crate::workspace::Workspace;

/// An app over `text` with one row per spec, every row loaded.
pub(crate) fn app(text: &str, specs: &[&str]) -> App {
    let setups = specs.iter().map(|s| RowSetup::new(s)).collect();
    let loader: Loader = Arc::new(|spec: &str, _: Option<&std::path::Path>| {
        toklab::load(spec).map_err(|e| e.to_string())
    });
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
    assert_eq!(app.doc.text, "We're here");
    assert_eq!(app.rows[0].tokens.len(), 2);
    assert_eq!(app.rows[1].tokens.len(), 2);
    app.apply(Action::LastLine);
    assert_eq!(app.doc.line, 2);
    app.apply(Action::LineDown);
    assert_eq!(app.doc.line, 2, "stays on the last line");
    app.apply(Action::FirstLine);
    assert_eq!(app.doc.text, "a b");
}

#[test]
fn paging_keeps_cursor_visible() {
    let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
    let mut app = app(&text, &["ws"]);
    app.viewport.text_lines = 10;
    app.apply(Action::PageDown);
    assert_eq!((app.doc.line, app.doc.top), (10, 1));
    app.apply(Action::LastLine);
    assert_eq!((app.doc.line, app.doc.top), (99, 90));
    app.apply(Action::PageUp);
    assert_eq!((app.doc.line, app.doc.top), (89, 89));
}

#[test]
fn token_selection_follows_rows_and_scrolls() {
    let mut app = app("aaaa bbbb cccc dddd", &["ws", "words"]);
    app.viewport.row_columns = 8;
    app.apply(Action::TokenLast);
    assert_eq!(app.rows.token, Some(3));
    assert!(
        app.rows.hscroll >= 11,
        "last token in view, hscroll {}",
        app.rows.hscroll
    );
    app.apply(Action::RowNext);
    assert_eq!((app.rows.selected, app.rows.token), (1, Some(3)));
    app.apply(Action::TokenFirst);
    assert_eq!((app.rows.token, app.rows.hscroll), (Some(0), 0));
    app.apply(Action::Pick { row: 0, column: 6 });
    assert_eq!((app.rows.selected, app.rows.token), (0, Some(1)));
    app.apply(Action::Pick { row: 0, column: 4 });
    assert_eq!(app.rows.token, None, "a space belongs to no token");
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
fn escape_closes_help_and_never_quits() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::ToggleHelp);
    app.apply(Action::Back);
    assert!(!app.panes.help.open && !app.quit);
    app.apply(Action::Back);
    assert!(!app.quit, "a reflexive Esc at the top level does not quit");
    assert!(app.message.as_ref().unwrap().0.contains("q quits"));
    app.apply(Action::Quit);
    assert!(app.quit, "q does");
}

#[test]
fn escapes_after_editing_keep_the_edits() {
    let mut app = app("x", &["ws"]);
    app.apply(Action::Edit);
    app.apply(Action::Type('y'));
    for _ in 0..3 {
        app.apply(Action::Back);
    }
    assert!(!app.quit);
    assert_eq!(app.doc.lines.line(0).unwrap(), "xy");
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
    assert_eq!(app.panes.trace.lines().len(), 3, "match, gap, match");
    app.apply(Action::RowNext);
    assert_eq!(app.panes.trace.lines().len(), 3, "a, ' ', ' b'");
    app.apply(Action::ViewDown(1));
    assert_eq!(app.panes.trace.cursor, 1);
    app.apply(Action::ViewDown(10));
    assert_eq!(app.panes.trace.cursor, 2, "clamped to the last line");
}

#[test]
fn table_view_cursor_is_the_token_selection() {
    let mut app = app("a b c", &["ws"]);
    app.apply(Action::ShowView(View::Table));
    app.apply(Action::ViewDown(2));
    assert_eq!(app.rows.token, Some(2));
    app.apply(Action::TokenPrev);
    assert_eq!(
        app.rows.token,
        Some(1),
        "the table's cursor is the selected token"
    );
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
    assert_eq!(app.rows.selected, 1);
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
    assert_eq!((app.doc.line, app.rows.token), (1, Some(1)));
}

#[test]
fn statistics_cover_the_whole_text() {
    let text: String = (0..500).map(|i| format!("w{i} x y\n")).collect();
    let mut app = app(&text, &["ws", "words"]);
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let stats = app.panes.stats.run(&app.context()).unwrap().figures();
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
    assert!(!path.exists(), "apply only asks for the file to be written");
    crate::tui::effect::perform_all(&mut app);
    let saved = Workspace::load(&path, &View::NAMES).unwrap();
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
    assert_eq!(app.panes.trace.cursor, 2, "match b is the third trace line");
}

/// The align pane's DP matrix of the current pair, which the pane shows in matrix mode.
fn matrix_view(app: &App) -> &crate::tui::panes::MatrixView {
    app.panes
        .align
        .data(&app.context())
        .unwrap()
        .matrix
        .as_ref()
        .expect("matrix mode")
}

#[test]
fn a_long_line_is_aligned_in_the_background() {
    let line = "We're here, and there. ".repeat(400);
    let mut app = app(&line, &["ws", "pretok:gpt2"]);
    app.apply(Action::ShowView(View::Align));
    assert!(app.panes.align.data(&app.context()).is_none(), "not yet");
    assert!(app.busy(), "the alignment job keeps the loop polling");
    let wait = |app: &mut App| {
        let t = Instant::now();
        while app.panes.align.data(&app.context()).is_none() && t.elapsed().as_secs() < 30 {
            std::thread::sleep(std::time::Duration::from_millis(1));
            app.tick();
        }
    };
    wait(&mut app);
    let cx = app.context();
    let data = app
        .panes
        .align
        .data(&cx)
        .expect("aligned in the background");
    let direct = toklab::analysis::compare::align_tokens(
        &line,
        &app.rows[0].tokens,
        &line,
        &app.rows[1].tokens,
        toklab::analysis::align::Costs::LEVENSHTEIN,
    );
    assert_eq!(data.tokens.pairs, direct.pairs);
    assert!(
        !crate::tui::panes::Pane::busy(&app.panes.align),
        "no job left behind"
    );
    // Typing: once the new tokens arrive the line is aligned again, in the background.
    app.apply(Action::Edit);
    app.apply(Action::CaretEnd);
    app.apply(Action::Type('x'));
    app.tick();
    app.finish_loading();
    wait(&mut app);
    let cx = app.context();
    let data = app.panes.align.data(&cx).expect("aligned again");
    let last = data.tokens.pairs.last().and_then(|p| p.a).unwrap();
    assert!(
        app.rows[0].tokens.tokens[last]
            .form(&app.doc.text)
            .ends_with('x')
    );
}

#[test]
fn marks_after_a_long_line_s_tokens_arrive_row_by_row_equal_marks_made_at_once() {
    let line = "We're here, and there: 3.5 km. ".repeat(200);
    let mut app = app(&line, &["ws", "pretok:gpt2", "words", "regex:\\w+"]);
    for c in "and x".chars() {
        app.apply(Action::Edit);
        app.apply(Action::Type(c));
        app.finish_loading();
        let each: Vec<(Vec<usize>, Vec<usize>)> = app
            .rows
            .iter()
            .map(|r| (r.disagree.clone(), r.lacking.clone()))
            .collect();
        assert!(each.iter().any(|(d, _)| !d.is_empty()), "rows disagree");
        let text = app.doc.text.clone();
        app.rows.mark_disagreements(&text);
        let at_once: Vec<(Vec<usize>, Vec<usize>)> = app
            .rows
            .iter()
            .map(|r| (r.disagree.clone(), r.lacking.clone()))
            .collect();
        assert_eq!(each, at_once);
        app.apply(Action::Back);
    }
}

#[test]
fn the_line_figures_kept_between_frames_are_those_of_the_text_shown() {
    let line = "We're here, and there. ".repeat(300);
    let mut app = app(&line, &["ws", "pretok:gpt2"]);
    app.apply(Action::ShowView(View::Stats));
    app.panes.stats.cancel();
    app.apply(Action::Edit);
    // Typing in the middle (the kept tokens' text changes) and at the end (it does not).
    for (i, c) in "ab".chars().enumerate() {
        if i == 1 {
            app.apply(Action::CaretEnd);
        } else {
            app.apply(Action::CaretHome);
            for _ in 0..10 {
                app.apply(Action::CaretRight);
            }
        }
        let before: Vec<(Arc<toklab::core::token::Tokenization>, u64)> = app
            .rows
            .iter()
            .map(|r| (Arc::clone(&r.tokens), r.tokens_id))
            .collect();
        app.apply(Action::Type(c));
        app.tick();
        // Tokens kept over the edit: a new id when the text under them changed (in the
        // middle), the same one when it did not (at the end).
        for (row, (tokens, id)) in app.rows.iter().zip(&before) {
            if Arc::ptr_eq(&row.tokens, tokens) && !tokens.is_empty() {
                assert_eq!(row.tokens_id == *id, i == 1, "{}", row.setup.label);
            }
        }
        for _ in 0..2 {
            let cx = app.context();
            for (r, row) in app.rows.iter().enumerate() {
                let direct = toklab::analysis::TokenStats::of(&app.doc.text, &row.tokens);
                assert_eq!(*app.panes.stats.line_stats(&cx, r), direct, "row {r}");
            }
            app.finish_loading();
            app.tick();
        }
    }
}

#[test]
fn alignment_view_pairs_rows_and_steps_the_matrix() {
    let mut app = app("We're here", &["ws", "pretok:gpt2", "words"]);
    app.apply(Action::ShowView(View::Align));
    let data = app.panes.align.data(&app.context()).expect("aligned");
    assert_eq!((data.a, data.b), (0, 1));
    // We're ↔ We, 're (sub + ins); here ↔ " here" (sub: the form keeps its space).
    assert_eq!(data.tokens.pairs.len(), 3);
    app.apply(Action::Align(AlignCommand::NextOther));
    assert_eq!(app.panes.align.data(&app.context()).unwrap().b, 2);
    app.apply(Action::Align(AlignCommand::With(1)));
    assert_eq!(app.panes.align.data(&app.context()).unwrap().b, 1);

    app.apply(Action::Align(AlignCommand::ToggleMatrix));
    let matrix = matrix_view(&app);
    assert_eq!(matrix.source.concat(), "We're");
    assert_eq!(matrix.target.concat(), "We");
    assert_eq!(matrix.matrix.distance(), Some(3));
    app.apply(Action::DemoStep(true));
    app.apply(Action::DemoStep(true));
    assert_eq!(app.panes.align.choice.step, Some(2));
    assert!(!matrix_view(&app).matrix.is_complete());
    app.apply(Action::DemoStep(false));
    assert_eq!(app.panes.align.choice.step, Some(1));
    app.apply(Action::DemoFinish);
    assert!(matrix_view(&app).matrix.is_complete());
    app.apply(Action::Align(AlignCommand::ToggleMatrixScope));
    let matrix = matrix_view(&app);
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
    assert_eq!(app.panes.align.choice.step, Some(0));
    let deadline = Instant::now() + std::time::Duration::from_secs(5);
    while app.panes.align.choice.playing.is_some() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        app.tick();
    }
    assert!(
        app.panes.align.choice.playing.is_none(),
        "the demo finishes: step {:?} data {}",
        app.panes.align.choice.step,
        app.panes.align.data(&app.context()).is_some()
    );
    assert_eq!(app.panes.align.choice.step, Some(9), "3×3 cells filled");
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
fn panes_refresh_only_when_what_they_show_changed() {
    let mut app = app("a  b\nc", &["ws", "words"]);
    app.apply(Action::ShowView(View::Trace));
    let version = app.rows.version;
    let lines = app.panes.trace.lines().as_ptr();
    app.apply(Action::GrowView);
    app.apply(Action::ViewDown(1));
    assert_eq!(app.rows.version, version);
    assert_eq!(
        app.panes.trace.lines().as_ptr(),
        lines,
        "the trace was not computed again"
    );
    app.apply(Action::LineDown);
    assert_eq!(app.panes.trace.lines().len(), 1, "the next line's trace");
    // The alignment is not computed while its view is not shown.
    assert!(app.panes.align.data(&app.context()).is_none());
}

#[test]
fn typed_specs_and_completion_use_the_folder_the_user_started_in() {
    let temp = tempfile::tempdir().unwrap();
    let start = temp.path().join("start");
    std::fs::create_dir_all(start.join("dicts")).unwrap();
    std::fs::write(start.join("dicts/words.txt"), "a\n").unwrap();
    let folders = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&folders);
    let loader: Loader = Arc::new(move |spec: &str, folder: Option<&std::path::Path>| {
        seen.lock().unwrap().push(folder.map(|f| f.to_path_buf()));
        toklab::load(spec).map_err(|e| e.to_string())
    });
    let mut app = App::new(Document::from_text("x"), vec![RowSetup::new("ws")], loader);
    app.finish_loading();
    app.workspace.start = start.clone();
    app.workspace.base = temp.path().join("workspace");
    app.apply(Action::StartPrompt(PromptKind::AddTokenizer));
    type_text(&mut app, "maxmatch:di");
    app.apply(Action::Complete);
    let Mode::Prompt(prompt) = &app.mode else {
        panic!("the prompt is open");
    };
    assert_eq!(prompt.input, "maxmatch:dicts/");
    app.apply(Action::Enter);
    app.finish_loading();
    let folders = folders.lock().unwrap();
    assert_eq!(folders[0], None, "workspace rows: the loader's own folder");
    assert_eq!(folders[1], Some(start), "typed: the start folder");
}

#[test]
fn ctrl_l_and_moving_past_flags_ask_for_a_full_redraw() {
    let mut app = app("plain\nplain too\nflags 🇩🇪🇨🇳\nplain", &["ws"]);
    app.viewport.text_lines = 2;
    app.apply(Action::Redraw);
    assert!(std::mem::take(&mut app.redraw));
    app.apply(Action::LineDown);
    assert!(!app.redraw, "no flag among the lines shown");
    app.apply(Action::LineDown);
    assert!(std::mem::take(&mut app.redraw), "a flag scrolled into view");
    app.apply(Action::ViewDown(1));
    assert!(!app.redraw, "nothing moved in the text pane");
}

/// `ws`, but a long text waits until the gate opens: a background job that is surely still at
/// work when a key returns, whatever the machine's speed or load.
struct Gated(Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>);

impl toklab::Tokenizer for Gated {
    fn name(&self) -> &str {
        "gated"
    }

    fn tokenize(&self, text: &str) -> toklab::Tokenization {
        if text.len() > 1000 {
            let (open, opened) = &*self.0;
            let mut open = open.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
        }
        toklab::load("ws").unwrap().tokenize(text)
    }

    fn explain(&self, text: &str) -> toklab::Trace {
        toklab::load("ws").unwrap().explain(text)
    }
}

#[test]
fn a_long_line_tokenizes_in_the_background_and_esc_stops_waiting() {
    let gate = Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
    let shared = Arc::clone(&gate);
    let loader: Loader = Arc::new(move |spec: &str, _: Option<&std::path::Path>| match spec {
        "gated" => Ok(Box::new(Gated(Arc::clone(&shared))) as Box<dyn toklab::Tokenizer>),
        _ => toklab::load(spec).map_err(|e| e.to_string()),
    });
    let dots = ".".repeat(1_000_000);
    let setups = ["ws", "gated"].iter().map(|s| RowSetup::new(s)).collect();
    let text = format!("short line\n{dots}\nlast");
    let mut app = App::new(Document::from_text(&text), setups, loader);
    app.finish_loading();
    app.apply(Action::LineDown);
    app.tick();
    // The key returned without waiting: the gated row still shows its old tokens while its
    // job waits at the gate.
    assert!(app.rows[1].stale && app.rows.is_tokenizing());
    assert!(app.busy(), "the loop keeps polling for the result");
    app.apply(Action::Back);
    assert!(!app.rows.is_tokenizing() && app.rows[1].stopped);
    assert!(app.message.as_ref().unwrap().0.contains("stopped waiting"));
    assert!(!app.quit);
    // The stopped job's thread ends once the gate opens; its result is dropped.
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    // Another line is tokenized at once again.
    app.apply(Action::LineDown);
    assert_eq!(app.doc.text, "last");
    assert_eq!(app.rows[1].tokens.len(), 1);
    assert!(!app.rows[1].stale);
}

#[test]
fn edits_to_a_long_line_are_tokenized_together_once_the_running_one_ends() {
    let long = "word ".repeat(2000);
    let mut app = app(&format!("{long}\n"), &["ws"]);
    assert_eq!(app.rows[0].tokens.len(), 2000);
    app.apply(Action::Edit);
    app.apply(Action::CaretEnd);
    let version = app.rows.version;
    type_text(&mut app, "abc");
    assert_eq!(app.rows.version, version, "keys on a long line are batched");
    assert!(app.busy());
    app.finish_loading();
    assert!(!app.rows[0].stale);
    assert_eq!(app.rows[0].tokens.len(), 2001);
    let last = app.rows[0].tokens.tokens.last().unwrap();
    assert_eq!(last.form(&app.doc.text), "abc");
}
