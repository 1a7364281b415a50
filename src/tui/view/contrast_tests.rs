//! The contrast check: every cell with text, in every view and every theme, has a WCAG
//! contrast ratio between its foreground and background of at least 4.5:1 (7:1 in the
//! high-contrast theme, which is for projectors). Colours are taken as xterm draws them: the 16
//! basic colours as its default palette, the 256 indexed ones as its cube and greys, `Reset` as
//! the theme's assumed terminal colours ([`ThemeName::assumed_terminal`]).

use std::collections::BTreeMap;

use ratatui::style::{Color, Modifier};

use super::snapshots::sample_app;
use crate::tui::app::{Action, PromptKind};
use crate::tui::panes::View;
use crate::tui::panes::align::AlignCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::{Theme, ThemeName};

/// xterm's default RGB values of the 16 basic colours, in ANSI order.
const BASIC: [[u8; 3]; 16] = [
    [0, 0, 0],
    [205, 0, 0],
    [0, 205, 0],
    [205, 205, 0],
    [0, 0, 238],
    [205, 0, 205],
    [0, 205, 205],
    [229, 229, 229],
    [127, 127, 127],
    [255, 0, 0],
    [0, 255, 0],
    [255, 255, 0],
    [92, 92, 255],
    [255, 0, 255],
    [0, 255, 255],
    [255, 255, 255],
];

/// The RGB a terminal shows for `color`; `reset` is what `Color::Reset` shows there.
fn rgb(color: Color, reset: [u8; 3]) -> [u8; 3] {
    let basic = |i: usize| BASIC[i];
    match color {
        Color::Reset => reset,
        Color::Black => basic(0),
        Color::Red => basic(1),
        Color::Green => basic(2),
        Color::Yellow => basic(3),
        Color::Blue => basic(4),
        Color::Magenta => basic(5),
        Color::Cyan => basic(6),
        Color::Gray => basic(7),
        Color::DarkGray => basic(8),
        Color::LightRed => basic(9),
        Color::LightGreen => basic(10),
        Color::LightYellow => basic(11),
        Color::LightBlue => basic(12),
        Color::LightMagenta => basic(13),
        Color::LightCyan => basic(14),
        Color::White => basic(15),
        Color::Rgb(r, g, b) => [r, g, b],
        Color::Indexed(i) => indexed(i),
    }
}

/// xterm's 256-colour palette: the basic 16, a 6×6×6 cube, 24 greys.
fn indexed(i: u8) -> [u8; 3] {
    match i {
        0..=15 => BASIC[i as usize],
        16..=231 => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let i = i - 16;
            [level(i / 36), level(i / 6 % 6), level(i % 6)]
        }
        _ => [8 + 10 * (i - 232); 3],
    }
}

/// WCAG 2 relative luminance.
fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG 2 contrast ratio of two colours, 1 to 21.
fn ratio(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[test]
fn the_wcag_ratio_of_known_pairs() {
    assert!((ratio([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
    assert!((ratio([119, 119, 119], [255, 255, 255]) - 4.48).abs() < 0.01);
    assert_eq!(indexed(196), [255, 0, 0]);
    assert_eq!(indexed(244), [128, 128, 128]);
}

/// The views the check draws, each as the actions that show it.
fn views() -> Vec<(&'static str, Vec<Action>)> {
    vec![
        (
            "rows",
            vec![Action::LineDown, Action::RowNext, Action::TokenNext],
        ),
        (
            "trace",
            vec![Action::ShowView(View::Trace), Action::TokenNext],
        ),
        (
            "tokens",
            vec![Action::ShowView(View::Table), Action::RowNext],
        ),
        (
            "align",
            vec![Action::ShowView(View::Align), Action::ViewDown(1)],
        ),
        (
            "align matrix",
            vec![
                Action::ShowView(View::Align),
                Action::Align(AlignCommand::ToggleMatrix),
                Action::DemoStep(true),
            ],
        ),
        (
            "merges",
            vec![
                Action::ShowView(View::Merges),
                Action::SelectRow(4),
                Action::LineDown,
            ],
        ),
        (
            "train",
            vec![Action::ShowView(View::Train), Action::DemoStep(true)],
        ),
        ("stats", vec![Action::ShowView(View::Stats)]),
        ("help", vec![Action::ToggleHelp]),
        ("prompt", vec![Action::StartPrompt(PromptKind::OpenText)]),
        ("insert", vec![Action::Edit]),
    ]
}

#[test]
fn every_cell_of_every_view_has_enough_contrast_in_every_theme() {
    let themes = [
        (ThemeName::Dark, Theme::dark(), 4.5),
        (ThemeName::Light, Theme::light(), 4.5),
        (ThemeName::HighContrast, Theme::high_contrast(), 7.0),
        (ThemeName::Plain, Theme::plain(), 4.5),
    ];
    // (theme, fg, bg) → (ratio, the first view and text found with it)
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    for (view, actions) in views() {
        let mut app = sample_app();
        for action in actions {
            app.apply(action);
            app.settle();
        }
        for (name, theme, least) in &themes {
            let (term_fg, term_bg) = name.assumed_terminal();
            let buffer = render_to_buffer(&mut app, theme, 160, 45);
            for cell in buffer.content() {
                if cell.symbol().trim().is_empty() {
                    continue;
                }
                let (mut fg, mut bg) = (rgb(cell.fg, term_fg), rgb(cell.bg, term_bg));
                if cell.modifier.contains(Modifier::REVERSED) {
                    std::mem::swap(&mut fg, &mut bg);
                }
                let r = ratio(fg, bg);
                if r < *least {
                    failures
                        .entry(format!("{name:?}: {:?} on {:?}", cell.fg, cell.bg))
                        .or_insert_with(|| format!("{r:.2} in {view} («{}»)", cell.symbol()));
                }
            }
        }
    }
    let report: Vec<String> = failures.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    assert!(
        report.is_empty(),
        "too little contrast:\n{}",
        report.join("\n")
    );
}
