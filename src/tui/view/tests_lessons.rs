//! Rendering of the lesson panes: the alignment and its DP matrix, the merge replay under both
//! semantics, and the training steps.

use std::sync::Arc;

use super::tests::{app, column, dump, find_row, row_text};
use crate::tui::app::{Action, App, Loader, RowSetup};
use crate::tui::document::Document;
use crate::tui::panes::View;
use crate::tui::panes::align::AlignCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

#[test]
fn alignment_view_colours_operations_and_marks_the_pair() {
    let mut app = app("We're here", &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    let theme = Theme::dark();
    app.apply(Action::ShowView(View::Align));
    let buffer = render_to_buffer(&mut app, &theme, 80, 22);
    let screen = dump(&buffer);
    assert!(screen.contains("A ws  vs  B gpt2"), "{screen}");
    assert!(screen.contains("distance 3"), "{screen}");
    let y = (0..buffer.area.height)
        .find(|&y| row_text(&buffer, y).contains(" s «We're»"))
        .expect("substitution line");
    let x = column(&buffer, y, "«We're»");
    assert_eq!(
        buffer[(x, y)].fg,
        theme.key.fg.unwrap(),
        "substitutions in the key colour"
    );
    // The first pair's tokens are marked on the ruler.
    let ruler = find_row(&buffer, "text");
    let rx = column(&buffer, ruler, "We're here");
    assert_eq!(buffer[(rx, ruler)].bg, theme.trace_mark.bg.unwrap());
}

#[test]
fn matrix_view_shows_values_arrows_and_the_path() {
    let loader: Loader = Arc::new(|spec: &str, _: Option<&std::path::Path>| {
        toklab::load(spec).map_err(|e| e.to_string())
    });
    let mut app = App::new(
        Document::from_text("intention"),
        vec![RowSetup::new("ws"), RowSetup::new("words")],
        loader,
    );
    app.finish_loading();
    app.apply(Action::ShowView(View::Align));
    app.apply(Action::Align(AlignCommand::ToggleMatrix));
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 120, 40);
    let screen = dump(&buffer);
    assert!(
        screen.contains("matrix of «intention» vs «intention»"),
        "{screen}"
    );
    assert!(screen.contains("distance 0"), "{screen}");
    // The diagonal of equal words is the path: its last cell is marked.
    let y = (0..buffer.area.height)
        .rev()
        .find(|&y| {
            row_text(&buffer, y)
                .trim_start_matches('│')
                .trim_start()
                .starts_with("n ")
        })
        .unwrap();
    let line = row_text(&buffer, y);
    assert!(line.contains("↖  0"), "{line}");
    let x = column(&buffer, y, "↖  0");
    assert_eq!(
        buffer[(x, y)].bg,
        theme.trace_mark.bg.unwrap(),
        "the last cell is on the backtrace"
    );
    app.apply(Action::DemoStep(true));
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("cell 1/100"), "{screen}");
    assert!(screen.contains("D[0,0] = 0"), "{screen}");
}

/// A test engine whose trace is merge steps: whitespace pieces, merges from the paper's
/// notation.
struct PaperBpe(toklab::engines::subword::formal::Dictionary);

impl toklab::core::tokenizer::Tokenizer for PaperBpe {
    fn name(&self) -> &str {
        "paper-bpe"
    }
    fn tokenize(&self, text: &str) -> toklab::core::token::Tokenization {
        toklab::load("ws").unwrap().tokenize(text)
    }
    fn explain(&self, text: &str) -> toklab::core::tokenizer::Trace {
        let pieces = self
            .tokenize(text)
            .tokens
            .iter()
            .map(|t| t.span)
            .collect::<Vec<_>>();
        toklab::engines::subword::formal::MergeTrace::for_pieces(
            &self.0,
            text,
            pieces,
            toklab::engines::subword::formal::Semantics::SentencePiece,
        )
        .into_trace(text)
    }
}

#[test]
fn merges_view_replays_both_semantics_and_shows_where_they_part() {
    // The paper's Example 3: D = [ab a, a b] on abababab parts at step 2.
    let loader: Loader = Arc::new(|_: &str, _: Option<&std::path::Path>| {
        let d = toklab::engines::subword::formal::Dictionary::parse_paper("ab a, a b").unwrap();
        Ok(Box::new(PaperBpe(d)) as Box<dyn toklab::core::tokenizer::Tokenizer>)
    });
    let mut app = App::new(
        Document::from_text("abababab"),
        vec![RowSetup::new("paper")],
        loader,
    );
    app.finish_loading();
    let theme = Theme::dark();
    app.apply(Action::ShowView(View::Merges));
    app.apply(Action::GrowView);
    app.apply(Action::GrowView);
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("the semantics part at step 2"), "{screen}");
    assert!(screen.contains("step 0/4"), "{screen}");
    app.apply(Action::DemoFinish);
    let buffer = render_to_buffer(&mut app, &theme, 120, 40);
    let screen = dump(&buffer);
    // SentencePiece ends aba b aba b, HuggingFace ab ab ab ab (the paper's Example 3).
    assert!(screen.contains("SentencePiece"), "{screen}");
    assert!(
        screen.contains("«ab» ⟩ «a»"),
        "SentencePiece applies ab a: {screen}"
    );
    assert!(
        screen.contains("≠τ2 = "),
        "the parting step is marked: {screen}"
    );
    app.apply(Action::DemoStep(false));
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("step 3/4"), "{screen}");
}

#[test]
fn merges_view_says_when_the_lines_piece_is_too_long_to_keep_steps_for() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bpe/sample-spm.model");
    let bound = toklab::engines::subword::bpe::MAX_STEPS_PIECE_BYTES;
    let line: String = "the quick brown fox "
        .chars()
        .cycle()
        .take(bound + 1)
        .collect();
    let mut app = app(&line, &[("spm", &format!("spm:{model}"))]);
    let theme = Theme::dark();
    app.apply(Action::ShowView(View::Merges));
    app.apply(Action::GrowView);
    // The line is explained in the background: the view says so until the trace is there.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    while screen.contains("explaining the line") {
        assert!(std::time::Instant::now() < deadline, "{screen}");
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.tick();
        screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    }
    assert!(
        screen.contains(&format!(
            "merge steps are kept for pieces of at most {bound} bytes"
        )),
        "{screen}"
    );
    assert!(!screen.contains("not a merge-based"), "{screen}");
}

#[test]
fn training_view_steps_through_the_textbook_corpus() {
    let mut app = app("set new new renew reset renew", &[("ws", "ws")]);
    let theme = Theme::dark();
    app.apply(Action::ShowView(View::Train));
    app.apply(Action::GrowView);
    app.apply(Action::GrowView);
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("0 merges learned"), "{screen}");
    assert!(screen.contains("next: «n» + «e» → «ne» (4×)"), "{screen}");
    app.apply(Action::DemoStep(true));
    app.apply(Action::DemoStep(true));
    app.apply(Action::DemoStep(true));
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("3 merges learned"), "{screen}");
    assert!(screen.contains("next: «␣r» + «e» → «␣re» (3×)"), "{screen}");
    assert!(screen.contains("n + e → ne 4×"), "{screen}");
    app.apply(Action::DemoStep(false));
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 40));
    assert!(screen.contains("2 merges learned"), "{screen}");
}

#[test]
fn the_matrix_of_a_very_long_line_is_refused_with_a_reason() {
    let line = "a".repeat(1_000_000);
    let mut app = app(&line, &[("ws", "ws"), ("chars", "regex:\\S")]);
    app.apply(Action::ShowView(View::Align));
    app.apply(Action::Align(AlignCommand::ToggleMatrixScope));
    // A long line is aligned in the background.
    let t = std::time::Instant::now();
    while app.panes.align.data(&app.context()).is_none() && t.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(1));
        app.tick();
    }
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 40));
    assert!(screen.contains("no matrix:"), "{screen}");
    assert!(screen.contains("more than the 16000000"), "{screen}");
}

#[test]
fn the_whole_line_matrix_scrolls_and_a_small_one_keeps_its_hash_row() {
    // A 4×7 pair: «abcd» (row A) against «abcdefg» (row B).
    let mut app = app(
        "abcdefg",
        &[("halves", "regex:[a-d]+|[e-g]+"), ("ws", "ws")],
    );
    app.apply(Action::ShowView(View::Align));
    app.apply(Action::Align(AlignCommand::ToggleMatrix));
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 80, 24));
    let hash_row = screen
        .lines()
        .any(|l| l.trim_start_matches('│').starts_with("# "));
    assert!(hash_row, "the # row at 80×24:\n{screen}");
    // The whole line of a longer text: J and > move the window.
    let text = "the quick brown fox jumps over the lazy dog again and again";
    let mut line = self::app(text, &[("ws", "ws"), ("chars", "regex:\\S")]);
    line.apply(Action::ShowView(View::Align));
    line.apply(Action::Align(AlignCommand::ToggleMatrixScope));
    let before = dump(&render_to_buffer(&mut line, &Theme::dark(), 80, 24));
    for _ in 0..5 {
        line.apply(Action::ViewDown(1));
        line.apply(Action::ScrollRight);
    }
    assert_eq!(line.panes.align.choice.scroll, Some((5, 20)));
    let after = dump(&render_to_buffer(&mut line, &Theme::dark(), 80, 24));
    assert_ne!(before, after);
    assert_eq!(
        line.rows.hscroll, 0,
        "< > scrolled the matrix, not the rows"
    );
}
