//! foma's everyday loop on an FST row (`F`): a word or phrase typed at the prompt, applied
//! down (every tokenization the row's network allows, not only the longest match the tokenizer
//! takes) and up (the texts a tokenized string comes from), with the network's summary as
//! foma's `print net` and `print sigma` give it. Shown in the trace view until Esc.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::theme::Theme;
use crate::tui::view::text::clip;
use toklab::core::tokenizer::quote;
use toklab::engines::fst::{
    Applied, BOUNDARY_MARK, FstTokenizer, NetSummary, apply_down, apply_up, summary,
};

/// The most outputs each direction lists (a cyclic network has endless ones).
const OUTPUTS: usize = 50;

/// One typed input applied both ways to one row's network.
pub struct FstApply {
    pub label: String,
    pub input: String,
    pub down: Applied,
    pub up: Applied,
    pub net: NetSummary,
}

impl FstApply {
    /// Applies `input` down and up to the network `fst` runs.
    pub fn new(fst: &FstTokenizer, label: &str, input: &str) -> FstApply {
        let network = fst.network();
        FstApply {
            label: label.to_string(),
            input: input.to_string(),
            down: apply_down(network, input, OUTPUTS),
            up: apply_up(network, input, OUTPUTS),
            net: summary(network),
        }
    }
}

/// Draws the results in the trace view's area.
pub fn draw(frame: &mut Frame, area: Rect, apply: &FstApply, theme: &Theme) {
    let width = area.width as usize;
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("foma on {}: ", apply.label), theme.title),
        Span::raw(clip(&quote(&apply.input), width / 2)),
        Span::styled(
            format!("   | = {BOUNDARY_MARK} · F another · Esc the trace"),
            theme.dim,
        ),
    ])];
    let net = &apply.net;
    let finals = net
        .finals
        .map_or("finality not in the file".to_string(), |f| {
            format!("{f} final")
        });
    lines.push(Line::from(vec![
        Span::styled("print net ", theme.label),
        Span::raw(format!(
            "{} states, {} arcs, {finals}",
            net.states, net.arcs
        )),
    ]));
    let sigma: Vec<String> = net
        .sigma
        .iter()
        .map(|s| {
            if s == " " {
                "␣".to_string()
            } else {
                clip(s, 20)
            }
        })
        .collect();
    lines.push(Line::from(vec![
        Span::styled("print sigma ", theme.label),
        Span::raw(format!(
            "{}{} · Size: {}",
            if net.any_char { "? " } else { "" },
            sigma.join(" "),
            net.sigma.len()
        )),
    ]));
    for (name, applied) in [("apply down", &apply.down), ("apply up", &apply.up)] {
        lines.push(Line::styled(heading(name, applied), theme.label));
        if applied.outputs.is_empty() {
            lines.push(Line::styled("  ???  (no path reads it)", theme.dim));
        }
        for output in &applied.outputs {
            let shown = output.replace(BOUNDARY_MARK, "|");
            lines.push(Line::raw(format!(
                "  {}",
                clip(&shown, width.saturating_sub(2))
            )));
        }
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

/// `apply down: 2 outputs`, saying when a bound cut the list.
fn heading(name: &str, applied: &Applied) -> String {
    let n = applied.outputs.len();
    let mut text = format!("{name}: {n} output{}", if n == 1 { "" } else { "s" });
    if !applied.complete {
        text.push_str(&format!(" (the first {n}: a loop allows more)"));
    }
    if applied.finals_assumed {
        text.push_str(" (no final states in the file: the start state ends a path)");
    }
    text
}

#[cfg(test)]
mod tests {
    use crate::tui::app::{Action, App, PromptKind};
    use crate::tui::panes::View;

    fn type_prompt(app: &mut App, text: &str) {
        app.apply(Action::StartPrompt(PromptKind::FstApply));
        for c in text.chars() {
            app.apply(Action::Type(c));
        }
        app.apply(Action::Enter);
    }

    fn shown(app: &mut App, width: u16, height: u16) -> String {
        let theme = crate::tui::theme::Theme::plain();
        let buffer = crate::tui::render_to_buffer(app, &theme, width, height);
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    /// The paper's toy network: `abc` is one token or three; the tokenizer takes the longest,
    /// `F` shows both, and the way back up, and foma's summary.
    #[test]
    fn f_applies_a_word_down_and_up_to_the_fst_row() {
        let toy = format!("fst:{}/samples/fst/toy.fst", env!("CARGO_MANIFEST_DIR"));
        let mut app = crate::tui::app::tests::app("abc", &["ws", &toy]);
        type_prompt(&mut app, "abc");
        assert!(app.message.as_ref().unwrap().0.contains("ws is not one"));
        assert!(app.panes.trace.apply.is_none());
        app.apply(Action::RowNext);
        type_prompt(&mut app, "abc");
        assert_eq!(app.panes.current, View::Trace);
        for (width, height) in [(80, 24), (160, 45)] {
            let screen = shown(&mut app, width, height);
            for line in [
                "foma on ",
                "apply down: 2 outputs",
                "  a|b|c|",
                "  abc|",
                "print net 4 states, 10 arcs, 1 final",
                "print sigma @_TOKEN_BOUND_@ ␣ a b c · Size: 5",
            ] {
                assert!(
                    screen.contains(line),
                    "{line:?} at {width}x{height}:\n{screen}"
                );
            }
        }
        // At 80×24 the lower pane ends after apply down; at 160×45 apply up shows too.
        let screen = shown(&mut app, 160, 45);
        assert!(screen.contains("apply up: 0 outputs"), "{screen}");
        type_prompt(&mut app, "a@_TOKEN_BOUND_@");
        let screen = shown(&mut app, 160, 45);
        assert!(screen.contains("apply up: 4 outputs"), "{screen}");
        app.apply(Action::Back);
        assert!(
            app.panes.trace.apply.is_none(),
            "Esc goes back to the trace"
        );
    }
}
