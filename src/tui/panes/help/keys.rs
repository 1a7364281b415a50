//! The keys of the `?` overlay while it is open: scrolling it and closing it. Its title names
//! them, so they are not in the keymap it lists.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::app::Action;

/// What `key` does while the overlay is open; every other key is ignored until it closes.
pub fn action(key: &KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Char('j') | KeyCode::Down => Some(Action::ViewDown(1)),
        KeyCode::Char('k') | KeyCode::Up => Some(Action::ViewUp(1)),
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
            Some(Action::ForceQuit)
        }
        KeyCode::Char('?') | KeyCode::F(1) | KeyCode::Esc | KeyCode::Char('q') => {
            Some(Action::ToggleHelp)
        }
        _ => None,
    }
}
