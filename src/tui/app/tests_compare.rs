//! The trace follows the selected token: whenever the trace view is shown
//! or the selection moves, its cursor is on the step that made the token.

use super::tests::app;
use super::{Action, View};

fn cursor_span(app: &super::App) -> Option<toklab::core::token::Span> {
    app.panes.trace.lines().get(app.panes.trace.cursor)?.span
}

#[test]
fn showing_the_trace_puts_it_at_the_selected_token() {
    let spec = format!("bpe:{}/samples/bpe/gpt2", env!("CARGO_MANIFEST_DIR"));
    let mut app = app("the theme of the day", &[&spec]);
    app.apply(Action::ShowView(View::Table));
    app.apply(Action::TokenLast);
    let token = app.rows.selected_token().unwrap().span;
    app.apply(Action::ShowView(View::Trace));
    assert!(app.panes.trace.cursor > 0, "not left at the top");
    let span = cursor_span(&app).expect("a line with a span");
    assert!(
        span.start <= token.start && token.end <= span.end,
        "the trace line {span:?} is about the token {token:?}"
    );
}

/// Moves the token selection to the token whose text is `word`.
fn select_word(app: &mut super::App, line: &str, word: &str) {
    app.apply(Action::TokenFirst);
    for _ in 0..line.len() {
        let span = app.rows.selected_token().unwrap().span;
        if &line[span.start..span.end] == word {
            return;
        }
        app.apply(Action::TokenNext);
    }
    panic!("no token «{word}»");
}

#[test]
fn the_rules_trace_follows_the_token_to_the_step_that_made_it() {
    let line = "Dr. Okafor didn't arrive until 9:45 a.m. on Tue., so we left.";
    let spec = format!("rules:{}/rules?lang=eng", env!("CARGO_MANIFEST_DIR"));
    let mut app = app(line, &[&spec]);
    select_word(&mut app, line, "a.m.");
    app.apply(Action::ShowView(View::Trace));
    let shown = |app: &super::App| {
        let l = &app.panes.trace.lines()[app.panes.trace.cursor];
        l.parts.iter().map(|p| p.text.as_str()).collect::<String>()
    };
    assert!(shown(&app).contains("ABBREV «a.m.»"), "{}", shown(&app));
    for (word, step) in [
        ("did", "«did» «n't»"),
        ("45", "NUMBER «45»"),
        ("Dr.", "«Dr.»"),
    ] {
        select_word(&mut app, line, word);
        assert!(shown(&app).contains(step), "{word}: {}", shown(&app));
    }
    select_word(&mut app, line, "arrive");
    assert!(
        shown(&app).starts_with("« arrive until »"),
        "{}",
        shown(&app)
    );
}

#[test]
fn e_and_enter_on_a_near_miss_open_its_rule() {
    use super::Effect;
    let spec = format!("rules:{}/rules?lang=eng", env!("CARGO_MANIFEST_DIR"));
    let mut app = app("Read vol. two of it.", &[&spec]);
    app.apply(Action::ShowView(View::Trace));
    let text = |l: &toklab::core::tokenizer::TraceLine| {
        l.parts.iter().map(|p| p.text.as_str()).collect::<String>()
    };
    let miss = app.panes.trace.lines().iter().position(|l| {
        text(l).contains("near miss") && text(l).contains("tok-resource-eng.txt:108)")
    });
    app.panes.trace.cursor = miss.expect("a near miss of vol.");
    for key in [
        Action::EditOrigin,
        Action::Align(super::AlignCommand::ToggleMatrix),
    ] {
        app.apply(key);
        let effects = app.take_effects();
        assert!(
            matches!(&effects[..], [Effect::EditFile { path, line: 108 }]
                if path.ends_with("rules/tok-resource-eng.txt")),
            "{key:?}: {effects:?}"
        );
        assert_eq!(app.panes.current, View::Trace, "{key:?} stays in the trace");
    }
}

#[test]
fn a_failed_row_is_named_in_the_status_and_never_aligned() {
    let mut app = app("one two three", &["ws"]);
    app.apply(Action::StartPrompt(super::PromptKind::AddTokenizer));
    super::tests::type_text(&mut app, "bpe:/nowhere/no-such-model");
    app.apply(Action::Enter);
    app.finish_loading();
    let message = app
        .message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    assert!(message.contains("failed to load"), "{message}");
    assert!(!message.contains("loading"), "{message}");
    app.apply(Action::ShowView(View::Align));
    assert!(
        app.panes.align.data(&app.context()).is_none(),
        "not aligned"
    );
    let screen = crate::tui::render_to_buffer(&mut app, &crate::tui::theme::Theme::dark(), 120, 30);
    let text: String = screen.content().iter().map(|c| c.symbol()).collect();
    assert!(
        text.contains("failed to load, so it is not aligned"),
        "{text}"
    );
}

#[test]
fn u_puts_a_removed_row_back_until_a_text_edit_follows() {
    let mut app = app("one two", &["ws", "words", "chars"]);
    app.apply(Action::RowNext);
    app.apply(Action::RemoveRow);
    let labels = |app: &super::App| {
        app.rows
            .iter()
            .map(|r| r.setup.label.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(labels(&app), ["ws", "chars"]);
    app.apply(Action::Undo);
    assert_eq!(labels(&app), ["ws", "words", "chars"]);
    assert_eq!(app.rows.selected, 1);
    assert!(
        !app.rows[1].tokens.is_empty(),
        "the line is tokenized again"
    );
    // After a text edit, u undoes the edit, not an older removal.
    app.apply(Action::RemoveRow);
    app.apply(Action::Edit);
    super::tests::type_text(&mut app, "x");
    app.apply(Action::Back);
    app.apply(Action::Undo);
    assert_eq!(labels(&app), ["ws", "chars"]);
    assert_eq!(app.doc.text, "one two");
}
