//! Rendering of the statistics view: its bar charts, the vocabulary growth, long labels, and
//! rows that load after the figures were started.

use super::tests::{app, dump, row_text};
use crate::tui::app::Action;
use crate::tui::panes::View;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

#[test]
fn stats_view_draws_bar_charts() {
    let text: String = (0..200)
        .map(|i| format!("word{i} and more words\n"))
        .collect();
    let mut app = app(&text, &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 120, 40);
    let screen = dump(&buffer);
    assert!(screen.contains("tokens in the file"), "{screen}");
    assert!(screen.contains("800"), "ws tokens over the file: {screen}");
    assert!(screen.contains("token lengths (chars)"), "{screen}");
    assert!(screen.contains("tokens per line, ws"), "{screen}");
    // Bars are drawn with block characters.
    assert!(screen.contains('█'), "{screen}");
    // In a narrow terminal the length labels still stand apart ("1 2 3 …", the last one "k+").
    let narrow = dump(&render_to_buffer(&mut app, &Theme::dark(), 100, 40));
    assert!(!narrow.contains("12345"), "{narrow}");
    assert!(narrow.contains("+"), "{narrow}");
}

/// A row that loads after the figures were started (a slow model, or one added later) gets
/// its figures too: the computation starts again with it, rather than leaving it at `…`.
#[test]
fn stats_cover_a_row_that_loads_after_they_started() {
    let text: String = (0..200)
        .map(|i| format!("word{i} and more words\n"))
        .collect();
    let mut app = app(&text, &[("ws", "ws")]);
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let gpt2: std::sync::Arc<dyn toklab::core::tokenizer::Tokenizer> =
        std::sync::Arc::from(toklab::load("pretok:gpt2").unwrap());
    let setup = crate::tui::app::rows::RowSetup::new("gpt2=pretok:gpt2");
    app.rows
        .push(crate::tui::app::rows::Row::ready(setup, gpt2));
    app.tick();
    while app.busy() {
        app.tick();
    }
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 40));
    let line = screen
        .lines()
        .find(|l| l.contains("gpt2 ") && l.contains("1000"))
        .unwrap_or_else(|| panic!("gpt2's 1000 tokens over the file: {screen}"));
    assert!(!line.contains('…'), "{screen}");
}

#[test]
fn stats_view_plots_vocabulary_growth_with_its_fit() {
    let text: String = (0..300)
        .map(|i| format!("word{} and more words\n", i % 120))
        .collect();
    let mut app = app(&text, &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 40));
    assert!(
        screen.contains("Heaps' law |V| = k·N^β, log-log: ws k="),
        "{screen}"
    );
    assert!(screen.contains("1e3"), "decade labels: {screen}");
    // The title names each row with its fit, and the table has the row's β.
    assert!(screen.contains("· gpt2 k="), "{screen}");
    assert!(screen.contains(" β "), "{screen}");
    // The selected row's fertility over the file: 4 whitespace words a line, each one token.
    assert!(screen.contains("ws: 1.00 tok/word · 0% split"), "{screen}");
    app.apply(Action::RowNext);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 40));
    // GPT-2's pre-tokenizer splits `word17` into `word` and `17`: 1 word in 4.
    assert!(
        screen.contains("gpt2: 1.25 tok/word · 25% split"),
        "{screen}"
    );
}

#[test]
fn stats_with_long_labels_keep_their_bars_and_labels_apart() {
    let text: String = (0..50).map(|i| format!("word{i} and more\n")).collect();
    let long = "a tokenizer label far longer than any chart has room for";
    let mut app = app(
        &text,
        &[
            (long, "ws"),
            ("another very long label indeed", "regex:\\S"),
        ],
    );
    app.apply(Action::ShowView(View::Stats));
    while app.busy() {
        app.tick();
    }
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 160, 45);
    let screen = dump(&buffer);
    // In the figures table and the comparison chart the label is shortened in the middle.
    assert!(screen.contains("a tokenizer …as room for"), "{screen}");
    assert!(screen.contains("a toke…om for 150██"), "{screen}");
    // The comparison chart has its bars: a block character right of a shortened label.
    let y = (0..buffer.area.height)
        .find(|&y| row_text(&buffer, y).contains("tokens in the file"))
        .expect("the comparison chart");
    let bars = (y + 1..buffer.area.height)
        .take(3)
        .filter(|&y| {
            let line = row_text(&buffer, y);
            line.contains('…') && line.contains('█')
        })
        .count();
    assert!(bars >= 1, "no bars beside the labels:\n{screen}");
}
