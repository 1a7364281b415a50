//! Keys that combine with the next one: a number before a move between lines repeats it
//! (`5j`, `12G` goes to line 12, `3n` the third match), `]d` / `[d` jump to the next / previous
//! line where the rows disagree and `]c` / `[c` to the next / previous line the last reload
//! changed.
//!
//! A digit is a count only for the line move after it. Each digit still shows its view at once
//! (1 … 6), so `2` then `1` ends in the trace view; when a line move follows the digits within a
//! moment, they were a count, and the view from before the first digit comes back.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};

use super::app::{Action, App, Mode};
use super::input;
use super::keymap::{self, Scope};
use super::view::Regions;
use crate::tui::panes::View;

/// How long a typed number waits for the move it counts.
const COUNT_WAIT: Duration = Duration::from_millis(1500);

/// The largest count: enough for any file, small enough that a repeated move stays quick.
const MAX_COUNT: usize = 1_000_000;

/// A number and a bracket typed so far.
#[derive(Debug, Default)]
pub struct Prefix {
    /// The number, when it was last extended, and the view before its first digit.
    count: Option<(usize, Instant, View)>,
    /// `]` or `[` was typed: the keymap's bracket sequences (`]d`, `[c`) complete it.
    bracket: Option<char>,
}

impl Prefix {
    /// The actions `event` means, given the keys typed before it.
    pub fn actions(&mut self, event: &Event, app: &App, regions: &Regions) -> Vec<Action> {
        let help = app.panes.help.open;
        let key = match event {
            Event::Key(key)
                if key.kind != KeyEventKind::Release && app.mode == Mode::Normal && !help =>
            {
                key
            }
            _ => {
                *self = Prefix::default();
                return input::action_for(event, &app.mode, help, regions)
                    .into_iter()
                    .collect();
            }
        };
        let count = self
            .count
            .take()
            .filter(|(_, at, _)| at.elapsed() < COUNT_WAIT);
        // A bracket followed by a key that completes no sequence is forgotten; the key acts.
        if let Some(first) = self.bracket.take()
            && let Some(action) = keymap::lookup(key, Scope::Normal, Some(first))
        {
            let (n, view) = count.map_or((1, None), |(n, _, v)| (n, Some(v)));
            let mut actions = restore_view(view, app);
            actions.push(match action {
                Action::DiffJump { forward, .. } => Action::DiffJump { forward, count: n },
                other => other,
            });
            return actions;
        }
        match (key.code, count) {
            (KeyCode::Char(c @ (']' | '[')), _) => {
                self.bracket = Some(c);
                self.count = count;
                return Vec::new();
            }
            (KeyCode::Char(c @ '0'..='9'), Some((n, _, view))) => {
                let digit = c as usize - '0' as usize;
                let n = (n * 10 + digit).min(MAX_COUNT);
                self.count = Some((n, Instant::now(), view));
                // The digit shows its view as a first digit would; `0` (first token) does
                // not act inside a number.
                return input::action_for(event, &app.mode, help, regions)
                    .filter(|a| matches!(a, Action::ShowView(_)))
                    .into_iter()
                    .collect();
            }
            (KeyCode::Char(c @ '1'..='9'), None) => {
                let digit = c as usize - '0' as usize;
                self.count = Some((digit, Instant::now(), app.panes.current));
            }
            _ => {}
        }
        let Some(action) = input::action_for(event, &app.mode, help, regions) else {
            return Vec::new();
        };
        match count {
            Some((n, _, view)) if is_countable(action) => {
                let mut actions = restore_view(Some(view), app);
                actions.extend(counted(action, n, app));
                actions
            }
            _ => vec![action],
        }
    }
}

/// Switches back to `view` if a digit of the count switched away from it.
fn restore_view(view: Option<View>, app: &App) -> Vec<Action> {
    match view {
        Some(view) if view != app.panes.current => vec![Action::ShowView(view)],
        _ => Vec::new(),
    }
}

/// The moves a number counts: moves between lines only. A digit followed by a move inside
/// the line or the view (`4` then `l`: show the merges, next token) stays a view switch, the
/// way lessons use it.
fn is_countable(action: Action) -> bool {
    matches!(
        action,
        Action::LineDown
            | Action::LineUp
            | Action::FirstLine
            | Action::LastLine
            | Action::PageDown
            | Action::PageUp
            | Action::SearchNext
            | Action::SearchPrev
    )
}

/// `action` done `n` times: moves by lines become one jump, `G` and `g` go to line `n`.
fn counted(action: Action, n: usize, app: &App) -> Vec<Action> {
    let line = app.doc.line;
    match action {
        Action::LineDown => vec![Action::GoToLine(line.saturating_add(n))],
        Action::LineUp => vec![Action::GoToLine(line.saturating_sub(n))],
        Action::FirstLine | Action::LastLine => vec![Action::GoToLine(n - 1)],
        // Each of these is one cheap step (a page, a search match).
        other => vec![other; n.min(1000)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

    fn press(prefix: &mut Prefix, app: &mut App, c: char) {
        let event = Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        for action in prefix.actions(&event, app, &Regions::default()) {
            app.apply(action);
        }
    }

    fn keys(prefix: &mut Prefix, app: &mut App, keys: &str) {
        for c in keys.chars() {
            press(prefix, app, c);
        }
    }

    #[test]
    fn a_number_repeats_a_move_and_gives_the_view_back() {
        let text: String = (1..=40).map(|i| format!("w{i} x\n")).collect();
        let mut app = app(&text, &["ws"]);
        let mut prefix = Prefix::default();
        app.apply(Action::ShowView(View::Table));
        keys(&mut prefix, &mut app, "5j");
        assert_eq!(app.doc.line, 5);
        assert_eq!(app.panes.current, View::Table, "the 5 did not switch views");
        keys(&mut prefix, &mut app, "12k");
        assert_eq!(app.doc.line, 0, "clamped at the first line");
        keys(&mut prefix, &mut app, "25G");
        assert_eq!(app.doc.line, 24);
        // Digits not followed by a line move were view switches, the last one wins.
        keys(&mut prefix, &mut app, "21");
        assert_eq!(app.panes.current, View::Trace, "2 then 1 shows the trace");
        assert_eq!(app.doc.line, 24, "no move was counted");
        // An unbound key ends the number (as a pause would).
        keys(&mut prefix, &mut app, "x10");
        assert_eq!(
            app.rows.token, None,
            "the 0 of 10 is not the first-token key"
        );
        keys(&mut prefix, &mut app, "j");
        assert_eq!(app.doc.line, 34, "10j moves ten lines");
        assert_eq!(app.panes.current, View::Trace, "and gives the view back");
        keys(&mut prefix, &mut app, "12G");
        assert_eq!(app.doc.line, 11, "12G after other keys");
        // A digit before a move inside the line is a view switch, then the move.
        keys(&mut prefix, &mut app, "4l");
        assert_eq!(app.panes.current, View::Merges);
        app.apply(Action::ShowView(View::Table));
        // A digit alone still switches the view.
        keys(&mut prefix, &mut app, "3");
        assert_eq!(app.panes.current, View::Align);
        keys(&mut prefix, &mut app, "x");
        keys(&mut prefix, &mut app, "j");
        assert_eq!(app.doc.line, 12, "the count ended with the other key");
        assert_eq!(app.panes.current, View::Align);
    }

    #[test]
    fn brackets_with_d_jump_to_differences() {
        let mut app = app("same\nWe're\nsame\nit's", &["ws", "pretok:gpt2"]);
        let mut prefix = Prefix::default();
        keys(&mut prefix, &mut app, "]d");
        let deadline = Instant::now() + Duration::from_secs(10);
        while app.doc.line == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
            app.tick();
        }
        assert_eq!(app.doc.line, 1);
        keys(&mut prefix, &mut app, "]d");
        assert_eq!(app.doc.line, 3);
        keys(&mut prefix, &mut app, "[d");
        assert_eq!(app.doc.line, 1);
        // A bracket followed by anything else is forgotten.
        keys(&mut prefix, &mut app, "]j");
        assert_eq!(app.doc.line, 2);
    }
}
