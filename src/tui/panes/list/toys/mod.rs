//! Two toy panes added the way every pane is: a folder each (`count/`, `toy/`) and one line
//! each in a list. The test shows what a line gives a pane: a digit key, a place in the help's
//! digit row, a name a workspace can open on, a field of the panes' state, and dispatch to the
//! pane's drawing and keys.

use crate::tui::app::Action;
use crate::tui::panes::Reply;
use crate::tui::theme::Theme;
use crate::workspace::Workspace;

pane_list! {
    Count => count::CountPane, "count";
    Toy => toy::ToyPane, "toy";
}

/// What `pane` draws on one line of `width` cells, for the app's selected row.
fn drawn(panes: &Panes, view: View, app: &crate::tui::app::App, width: u16) -> String {
    let cx = app.context();
    let backend = ratatui::backend::TestBackend::new(width, 1);
    let mut terminal = ratatui::Terminal::new(backend).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            panes.pane(view).draw(frame, area, &cx, &Theme::plain())
        })
        .unwrap();
    let line: String = (0..width)
        .map(|x| terminal.backend().buffer()[(x, 0)].symbol().to_string())
        .collect();
    line.trim_end().to_string()
}

#[test]
fn one_line_in_the_list_makes_a_pane() {
    assert_eq!(View::ALL, [View::Count, View::Toy], "the lines' order");
    // Its digit: the second line is the key `2`, which the keymap binds as it binds every
    // entry of `DIGITS` (`panes/keys.rs`).
    assert_eq!(View::DIGITS, [('1', View::Count), ('2', View::Toy)]);
    // The `?` help's digit row lists it.
    assert_eq!(View::DIGIT_KEYS, "1 … 2");
    assert_eq!(View::DIGIT_HELP, "count · toy");
    // A workspace can open on it by name, and only on the names of the list.
    let temp = tempfile::tempdir().unwrap();
    let file = temp.path().join("w.toml");
    std::fs::write(&file, "text = \"s.txt\"\nview = \"toy\"\n").unwrap();
    let workspace = Workspace::load(&file, &View::NAMES).unwrap();
    assert_eq!(
        workspace.view.as_deref().and_then(View::from_name),
        Some(View::Toy)
    );
    std::fs::write(&file, "text = \"s.txt\"\nview = \"trace\"\n").unwrap();
    let e = Workspace::load(&file, &View::NAMES)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown view `trace`; views: count, toy"), "{e}");
    // Its state is a field of the panes, its keys and its drawing are reached through the view.
    let app = crate::tui::app::tests::app("a bb cccc ddd", &["ws"]);
    let mut panes = Panes::default();
    assert_eq!(
        panes.current,
        View::Count,
        "the first line is the first view"
    );
    assert_eq!((panes.split, panes.help.open), (50, false));
    assert_eq!(
        panes.teach,
        crate::tui::panes::teach::TeachSettings::default()
    );
    assert_eq!(drawn(&panes, View::Count, &app, 20), "4 tokens");
    assert_eq!(drawn(&panes, View::Toy, &app, 20), "#1 cccc");
    let reply = panes
        .pane_mut(View::Toy)
        .handle(Action::ViewDown(1), &app.context());
    assert_eq!(reply, Reply::Handled);
    assert_eq!(panes.toy.rank, 1, "the action reached the pane's own state");
    assert_eq!(drawn(&panes, View::Toy, &app, 20), "#2 ddd");
    assert_eq!(View::Toy.next(), View::Count, "`v` goes round");
}
