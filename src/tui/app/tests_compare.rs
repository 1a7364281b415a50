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
