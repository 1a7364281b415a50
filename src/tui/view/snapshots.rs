//! Snapshot tests of every pane and view, on the shipped samples, at 80×24 and 160×45: the
//! screen's text is compared with the files in `snapshots/` (update them with
//! `INSTA_UPDATE=always cargo test -p toklab-cli --lib snapshots`, review the diff, commit).
//! Snapshots hold text only, so token colours are checked on buffer cells separately.

use crate::cli::workbench::{Args, build_app, samples_dir};
use crate::tui::app::{Action, App, PromptKind};
use crate::tui::panes::View;
use crate::tui::panes::align::AlignCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;
use crate::tui::view::buffer_text;

/// The two terminal sizes every view is drawn at: the classic one and a large one.
const SIZES: [(u16, u16); 2] = [(80, 24), (160, 45)];

/// The default workspace (samples/workspace.toml: sample.txt, one row per family) with every
/// row loaded, the text indexed and no background work left, so nothing depends on timing.
pub(super) fn sample_app() -> App {
    let args = Args {
        workspace: Some(samples_dir().join("workspace.toml")),
        no_mouse: true,
        ..Args::default()
    };
    let mut app = build_app(&args).expect("the shipped workspace opens");
    // As if started in the samples folder: prompts complete there.
    app.workspace.start = samples_dir();
    app.settle();
    app
}

/// Applies `actions`, lets the work they start finish, and snapshots the screen at both sizes
/// as `{name}_{width}x{height}`.
fn snapshot_after(name: &str, actions: &[Action]) {
    let mut app = sample_app();
    for &action in actions {
        app.apply(action);
        app.settle();
    }
    for (width, height) in SIZES {
        let buffer = render_to_buffer(&mut app, &Theme::dark(), width, height);
        insta::assert_snapshot!(format!("{name}_{width}x{height}"), buffer_text(&buffer));
    }
}

#[test]
fn trace_view() {
    snapshot_after(
        "trace",
        &[
            Action::ShowView(View::Trace),
            Action::TokenNext,
            Action::TokenNext,
        ],
    );
}

#[test]
fn tokens_view() {
    snapshot_after(
        "tokens",
        &[
            Action::ShowView(View::Table),
            Action::RowNext,
            Action::ViewDown(2),
        ],
    );
}

#[test]
fn align_view() {
    snapshot_after(
        "align",
        &[Action::ShowView(View::Align), Action::ViewDown(1)],
    );
}

#[test]
fn align_matrix_of_a_pair_mid_demo() {
    snapshot_after(
        "align_matrix",
        &[
            Action::ShowView(View::Align),
            Action::Align(AlignCommand::ToggleMatrix),
            Action::DemoStep(true),
            Action::DemoStep(true),
            Action::DemoStep(true),
        ],
    );
}

/// The textbook's pair, typed at `D`, mid-demo: the cell filled last and its three choices.
#[test]
fn align_matrix_of_typed_words_mid_demo() {
    let mut actions = vec![Action::StartPrompt(PromptKind::AlignWords)];
    actions.extend("intention execution".chars().map(Action::Type));
    actions.push(Action::Enter);
    actions.extend([Action::DemoStep(true); 23]);
    snapshot_after("align_typed", &actions);
}

#[test]
fn align_matrix_of_the_whole_line() {
    snapshot_after(
        "align_matrix_line",
        &[
            Action::ShowView(View::Align),
            Action::Align(AlignCommand::ToggleMatrixScope),
        ],
    );
}

#[test]
fn merges_view() {
    // Row 5 is the sample BPE; line 3 has words of several merges.
    snapshot_after(
        "merges",
        &[
            Action::ShowView(View::Merges),
            Action::SelectRow(4),
            Action::LineDown,
            Action::LineDown,
            Action::TokenNext,
            Action::TokenNext,
            Action::DemoStep(true),
            Action::DemoStep(true),
        ],
    );
}

#[test]
fn train_view() {
    snapshot_after(
        "train",
        &[
            Action::ShowView(View::Train),
            Action::DemoStep(true),
            Action::DemoStep(true),
            Action::DemoStep(true),
        ],
    );
}

#[test]
fn stats_view() {
    snapshot_after("stats", &[Action::ShowView(View::Stats)]);
}

#[test]
fn help_overlay() {
    snapshot_after("help", &[Action::ToggleHelp]);
}

#[test]
fn help_overlay_scrolled() {
    // Drawn once before scrolling, as the workbench does: how far it scrolls depends on the
    // size.
    let mut app = sample_app();
    app.apply(Action::ToggleHelp);
    render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    app.apply(Action::ViewDown(5));
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    insta::assert_snapshot!("help_scrolled_80x24", buffer_text(&buffer));
}

#[test]
fn prompt_with_completion_candidates() {
    let mut actions = vec![Action::StartPrompt(PromptKind::OpenText), Action::Type('b')];
    actions.push(Action::Complete);
    snapshot_after("prompt", &actions);
}

#[test]
fn insert_mode() {
    let mut actions = vec![Action::Edit, Action::CaretEnd];
    actions.extend(" Yes.".chars().map(Action::Type));
    snapshot_after("insert", &actions);
}

/// The screen lines from the first that contains `from` through the first after it that
/// contains `to`.
fn crop(screen: &str, from: &str, to: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(from))
        .unwrap_or_else(|| panic!("no {from:?} in\n{screen}"));
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.contains(to))
            .unwrap_or_else(|| panic!("no {to:?} after {from:?} in\n{screen}"));
    lines[start..=end].join("\n") + "\n"
}

#[test]
fn rows_pane_with_a_selected_token() {
    let mut app = sample_app();
    for action in [
        Action::LineDown,
        Action::RowNext,
        Action::TokenNext,
        Action::TokenNext,
        Action::TokenNext,
    ] {
        app.apply(action);
    }
    app.settle();
    for (width, height) in SIZES {
        let text = buffer_text(&render_to_buffer(&mut app, &Theme::dark(), width, height));
        let pane = crop(&text, " line 2 ", "origin ");
        insta::assert_snapshot!(format!("rows_{width}x{height}"), pane);
    }
}

#[test]
fn status_bar() {
    let mut app = sample_app();
    app.apply(Action::LastLine);
    app.settle();
    for (width, height) in SIZES {
        let text = buffer_text(&render_to_buffer(&mut app, &Theme::dark(), width, height));
        let bar = text.lines().last().unwrap_or_default().to_string();
        insta::assert_snapshot!(format!("status_{width}x{height}"), bar);
    }
}

#[test]
fn token_cells_carry_the_token_colours() {
    let mut app = sample_app();
    app.apply(Action::TokenNext);
    app.settle();
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 160, 45);
    let text = buffer_text(&buffer);
    // The first row (the rules) tokenizes "We're 350 dogs! Um, lunch?" as We | 're | 350 | …;
    // the first token is selected, the next ones alternate colours.
    let y = text
        .lines()
        .position(|l| l.trim_start_matches('│').starts_with("rules (ours)"))
        .expect("the rules row") as u16;
    let line: Vec<&str> = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect();
    let x0 = (0..line.len())
        .find(|&x| line[x..].concat().starts_with("We're"))
        .expect("the line's text in the rules row") as u16;
    assert_eq!(buffer[(x0, y)].bg, theme.selected_token.bg.unwrap(), "We");
    assert_eq!(buffer[(x0 + 1, y)].bg, theme.selected_token.bg.unwrap());
    assert_eq!(buffer[(x0 + 2, y)].bg, theme.token[1].bg.unwrap(), "'re");
    assert_eq!(buffer[(x0 + 5, y)].symbol(), "·", "a dropped space");
    assert_eq!(buffer[(x0 + 5, y)].fg, theme.dropped.fg.unwrap());
    assert_eq!(buffer[(x0 + 6, y)].bg, theme.token[0].bg.unwrap(), "350");
}
