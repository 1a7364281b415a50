//! Keys and mouse events to actions. The bindings follow common terminal habits (vi keys and
//! arrows, PgUp/PgDn, g/G) and are listed once, in [`KEYS`], for the help overlay.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::Action;
use super::view::Regions;

/// The key bindings as the help overlay shows them.
pub const KEYS: &[(&str, &str)] = &[
    ("↑ ↓  k j", "previous / next line"),
    ("PgUp PgDn  Ctrl-b Ctrl-f", "page up / down"),
    ("g G  Home End", "first / last line"),
    ("Tab Shift-Tab", "next / previous tokenizer row"),
    ("← →  h l", "previous / next token in the row"),
    ("0 $", "first / last token"),
    ("< >", "scroll the rows left / right"),
    ("mouse", "click a line or a token, wheel scrolls"),
    ("?  F1", "this help"),
    ("q  Esc  Ctrl-c", "quit (Esc closes help first)"),
];

/// The action for a terminal event, if it has one. `regions` says where panes were drawn, for
/// mouse events.
pub fn action_for(event: &Event, regions: &Regions) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(key),
        Event::Mouse(mouse) => match mouse.kind {
            MouseEventKind::ScrollDown => Some(Action::LineDown),
            MouseEventKind::ScrollUp => Some(Action::LineUp),
            MouseEventKind::Down(MouseButton::Left) => regions.hit(mouse.column, mouse.row),
            _ => None,
        },
        _ => None,
    }
}

fn key_action(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('b') if ctrl => Action::PageUp,
        KeyCode::Char('f') if ctrl => Action::PageDown,
        KeyCode::Up | KeyCode::Char('k') => Action::LineUp,
        KeyCode::Down | KeyCode::Char('j') => Action::LineDown,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::PageDown | KeyCode::Char(' ') => Action::PageDown,
        KeyCode::Home | KeyCode::Char('g') => Action::FirstLine,
        KeyCode::End | KeyCode::Char('G') => Action::LastLine,
        KeyCode::Tab => Action::RowNext,
        KeyCode::BackTab => Action::RowPrev,
        KeyCode::Left | KeyCode::Char('h') => Action::TokenPrev,
        KeyCode::Right | KeyCode::Char('l') => Action::TokenNext,
        KeyCode::Char('0') | KeyCode::Char('^') => Action::TokenFirst,
        KeyCode::Char('$') => Action::TokenLast,
        KeyCode::Char('<') => Action::ScrollLeft,
        KeyCode::Char('>') => Action::ScrollRight,
        KeyCode::Char('?') | KeyCode::F(1) => Action::ToggleHelp,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEventState, MouseEvent};

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    }

    #[test]
    fn common_keys() {
        let r = Regions::default();
        assert_eq!(
            action_for(&key(KeyCode::Char('j'), KeyModifiers::NONE), &r),
            Some(Action::LineDown)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('G'), KeyModifiers::SHIFT), &r),
            Some(Action::LastLine)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('c'), KeyModifiers::CONTROL), &r),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('x'), KeyModifiers::NONE), &r),
            None
        );
    }

    #[test]
    fn wheel_scrolls() {
        let wheel = Event::Mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 0,
            row: 0,
            modifiers: KeyModifiers::NONE,
        });
        assert_eq!(
            action_for(&wheel, &Regions::default()),
            Some(Action::LineDown)
        );
    }
}
