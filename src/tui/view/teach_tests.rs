//! Screens of the teaching features: the training lesson, the merges history, the
//! high-contrast theme, large print, the maximised pane and the 80×24 layout.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

use crate::tui::app::{Action, App};
use crate::tui::panes::View;
use crate::tui::panes::train::TrainCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

const TEXTBOOK: &str = "set new new renew reset renew";

fn app(text: &str, specs: &[&str]) -> App {
    crate::tui::app::tests::app(text, specs)
}

pub(super) fn screen(buffer: &Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect();
            line + "\n"
        })
        .collect()
}

/// The first cell (x, y) where `needle` starts.
pub(super) fn find(buffer: &Buffer, needle: &str) -> (u16, u16) {
    let wanted: Vec<String> = needle.chars().map(String::from).collect();
    for y in 0..buffer.area.height {
        let symbols: Vec<&str> = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        for x in 0..symbols.len() {
            if symbols[x..].len() >= wanted.len()
                && symbols[x..]
                    .iter()
                    .zip(&wanted)
                    .all(|(a, b)| *a == b.as_str())
            {
                return (x as u16, y);
            }
        }
    }
    panic!("{needle:?} not on screen:\n{}", screen(buffer));
}

#[test]
fn training_lesson_names_the_tie_and_marks_the_newest_token() {
    let mut app = app(TEXTBOOK, &["ws"]);
    app.apply(Action::ShowView(View::Train));
    app.apply(Action::Train(TrainCommand::Scope)); // file → line
    let theme = Theme::dark();
    let shown = screen(&render_to_buffer(&mut app, &theme, 160, 45));
    assert!(shown.contains("on the line: line 1"), "{shown}");
    assert!(
        shown.contains("tie at 4×: n+e wins over e+w: the first seen wins"),
        "{shown}"
    );
    app.apply(Action::DemoStep(true));
    let buffer = render_to_buffer(&mut app, &theme, 160, 45);
    let shown = screen(&buffer);
    assert!(
        shown.contains("last merge: tie at 4×: n+e beat e+w"),
        "{shown}"
    );
    // The words column: ␣new is now ␣ ne w, and ne is drawn as the newest token.
    let (x, y) = find(&buffer, "2× ␣new");
    let x = x + 4;
    assert_eq!(buffer[(x - 1, y)].symbol(), "␣");
    assert_ne!(buffer[(x - 1, y)].bg, theme.selected_token.bg.unwrap());
    assert_eq!(buffer[(x, y)].bg, theme.selected_token.bg.unwrap());
    assert_eq!(buffer[(x + 1, y)].bg, theme.selected_token.bg.unwrap());
}

#[test]
fn textbook_pretokenization_shows_the_end_of_word_marker() {
    let mut app = app(TEXTBOOK, &["ws"]);
    app.apply(Action::Train(TrainCommand::Pretok));
    app.apply(Action::DemoStep(true));
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    assert!(shown.contains("textbook (words + _) words"), "{shown}");
    assert!(
        shown.contains("2× new_"),
        "words end in the marker: {shown}"
    );
    assert!(shown.contains("tie at 4×: n+e beat e+w, w+_"), "{shown}");
}

#[test]
fn the_model_being_trained_is_a_row_that_follows_the_lesson() {
    let mut app = app(TEXTBOOK, &["ws"]);
    app.apply(Action::Train(TrainCommand::ToggleRow));
    app.tick();
    assert_eq!(app.rows.len(), 2);
    assert_eq!(app.rows[1].setup.label, "trained (0)");
    assert_eq!(
        app.rows[1].tokens.len(),
        TEXTBOOK.len(),
        "characters before any merge"
    );
    for _ in 0..8 {
        app.apply(Action::DemoStep(true));
    }
    app.tick();
    assert_eq!(app.rows[1].setup.label, "trained (8)");
    let forms: Vec<&str> = app.rows[1]
        .tokens
        .tokens
        .iter()
        .map(|t| t.form(&app.doc.text))
        .collect();
    assert_eq!(
        forms,
        ["set", " new", " new", " renew", " re", "set", " renew"]
    );
    app.apply(Action::Train(TrainCommand::ToggleRow));
    assert_eq!(app.rows.len(), 1);
    assert!(
        app.current_workspace()
            .tokenizers
            .iter()
            .all(|t| t.spec == "ws")
    );
}

#[test]
fn merges_view_shows_one_panel_and_the_history_when_the_semantics_agree() {
    let gpt2 = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bpe/gpt2");
    let spec = format!("bpe:{gpt2}");
    let mut app = app("a renewal", &[&spec]);
    app.apply(Action::ShowView(View::Merges));
    app.apply(Action::TokenLast);
    app.apply(Action::DemoStep(true));
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    assert!(
        shown.contains("the two semantics agree on this word"),
        "{shown}"
    );
    assert!(!shown.contains("HuggingFace (Def. 4"), "{shown}");
    assert!(
        shown.contains("τ0 = ␣ ⟩ r ⟩ e ⟩ n ⟩ e ⟩ w ⟩ a ⟩ l"),
        "{shown}"
    );
    assert!(shown.contains("τ1 = "), "{shown}");
    assert!(shown.contains("word «␣renewal»"), "{shown}");
}

#[test]
fn improper_sample_parts_the_semantics_on_screen() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bpe/improper");
    let spec = format!("bpe:{dir}?pattern=none");
    let mut app = app("abababab", &[&spec]);
    app.apply(Action::ShowView(View::Merges));
    app.apply(Action::DemoFinish);
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    assert!(shown.contains("the semantics part at step 2"), "{shown}");
    assert!(shown.contains("HuggingFace (Def. 4"), "{shown}");
    assert!(shown.contains("≠τ2 = aba ⟩ b ⟩ a ⟩ b ⟩ a ⟩ b"), "{shown}");
    assert!(shown.contains("≠τ2 = ab ⟩ ab ⟩ a ⟩ b ⟩ a ⟩ b"), "{shown}");
}

#[test]
fn high_contrast_selection_and_shades_are_bright() {
    let mut app = app("one two three", &["ws"]);
    app.apply(Action::TokenNext);
    let theme = Theme::high_contrast();
    let buffer = render_to_buffer(&mut app, &theme, 80, 24);
    let row = find(&buffer, "ws   one").1;
    let x = find(&buffer, "ws   one").0 + 5;
    let y = row;
    assert_eq!(buffer[(x, y)].bg, Color::Blue, "{}", screen(&buffer));
    assert_eq!(buffer[(x, y)].fg, Color::White);
    let shade = buffer[(x + 4, y)].bg;
    assert!(
        [Color::LightCyan, Color::LightYellow].contains(&shade),
        "{shade:?}"
    );
}

#[test]
fn large_print_pads_each_token() {
    let mut app = app(TEXTBOOK, &["ws"]);
    app.apply(Action::ShowView(View::Train));
    app.apply(Action::DemoStep(true));
    let theme = Theme {
        large_print: true,
        ..Theme::dark()
    };
    let shown = screen(&render_to_buffer(&mut app, &theme, 160, 45));
    assert!(shown.contains(" ␣   ne   w "), "{shown}");
}

#[test]
fn the_lower_pane_is_taller_at_80x24_and_can_fill_the_screen() {
    let mut app = crate::tui::app::tests::app(
        TEXTBOOK,
        &["ws", "words", "pretok:gpt2", "ws", "words", "ws"],
    );
    app.apply(Action::ShowView(View::Train));
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    let top = find(&buffer, " 1 trace ").1;
    let bottom = (top + 1..24)
        .find(|&y| buffer[(0, y)].symbol() == "└")
        .unwrap();
    assert!(bottom - top - 1 > 3, "inner lines:\n{}", screen(&buffer));
    app.apply(Action::ToggleMaximise);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    assert_eq!(find(&buffer, " 1 trace ").1, 0, "{}", screen(&buffer));
    app.apply(Action::ToggleMaximise);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    assert!(find(&buffer, " 1 trace ").1 > 0);
}

#[test]
fn play_speed_changes_and_shows_while_playing() {
    let mut app = app(TEXTBOOK, &["ws"]);
    let before = app.panes.play_step();
    app.apply(Action::PlayFaster);
    assert!(app.panes.play_step() < before);
    app.apply(Action::PlaySlower);
    app.apply(Action::PlaySlower);
    assert!(app.panes.play_step() > before);
    app.apply(Action::ShowView(View::Train));
    app.apply(Action::DemoPlay);
    app.message = None;
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 120, 30));
    assert!(shown.contains("▶ 5 steps/s"), "{shown}");
}

#[test]
fn no_tie_line_once_nothing_is_left_to_merge() {
    let mut app = app("ab ab abc", &["ws"]);
    app.apply(Action::ShowView(View::Train));
    let mut shown = String::new();
    for _ in 0..20 {
        app.apply(Action::DemoStep(true));
        shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 120, 30));
        if shown.contains("nothing left to merge") {
            break;
        }
    }
    assert!(shown.contains("nothing left to merge"), "{shown}");
    assert!(!shown.contains("no tie"), "{shown}");
}

#[test]
fn a_word_of_line_breaks_is_drawn_and_named() {
    let mut app = app("a b\nc d\ne f\ng h\n", &["ws"]);
    app.apply(Action::ShowView(View::Train));
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    let line = shown
        .lines()
        .find(|l| l.contains("× ␤"))
        .unwrap_or_else(|| panic!("no ␤ word:\n{shown}"));
    assert!(line.contains("× ␤  the line break"), "{line}");
    assert!(!shown.contains("\\n"), "{shown}");
}

/// The shipped BPE lesson (samples/bpe-lesson.toml: a 3-line text, two rows, the training
/// view), opened and settled.
fn lesson_app() -> App {
    use crate::cli::workbench::{Args, build_app, samples_dir};
    let args = Args {
        workspace: Some(samples_dir().join("bpe-lesson.toml")),
        no_mouse: true,
        ..Args::default()
    };
    let mut app = build_app(&args).expect("the shipped lesson opens");
    app.settle();
    app
}

fn bar_count(shown: &str) -> usize {
    shown.lines().filter(|l| l.contains('█')).count()
}

#[test]
fn the_bpe_lesson_fits_80x24() {
    let mut app = lesson_app();
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 80, 24));
    insta::assert_snapshot!("bpe_lesson_80x24", shown);
    assert!(shown.contains("next: «n» + «e» → «ne» (8×)"), "{shown}");
    // The tie line and the column titles end inside the screen.
    assert!(shown.contains("over e+w: the first seen wins "), "{shown}");
    assert!(shown.contains("│ merges "), "{shown}");
    assert!(shown.contains("│ words as segmented now "), "{shown}");
    // The text pane keeps its three lines and gives the rest to the lesson.
    assert!(shown.contains("3 the lowest newer renewal"), "{shown}");
    assert!(bar_count(&shown) >= 5, "{shown}");
    app.apply(Action::ToggleMaximise);
    let shown = screen(&render_to_buffer(&mut app, &Theme::dark(), 80, 24));
    assert!(bar_count(&shown) >= 12, "{shown}");
}

#[test]
fn the_bpe_lesson_at_160x45() {
    let shown = screen(&render_to_buffer(
        &mut lesson_app(),
        &Theme::dark(),
        160,
        45,
    ));
    insta::assert_snapshot!("bpe_lesson_160x45", shown);
    assert_eq!(
        bar_count(&shown),
        crate::tui::panes::train::bpe::TOP_PAIRS,
        "{shown}"
    );
}
