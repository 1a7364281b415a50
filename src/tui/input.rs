//! Keys and mouse events to actions, by mode. The bindings follow common terminal habits (vi
//! keys and arrows, PgUp/PgDn, g/G, / and n) and are listed once, in the [`keymap`], which the
//! help is drawn from too.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::{Action, Mode};
use super::keymap::{self, Scope};
use super::view::Regions;

/// The action for a terminal event in `mode`, if it has one. `regions` says where panes were
/// drawn, for mouse events.
pub fn action_for(event: &Event, mode: &Mode, help: bool, regions: &Regions) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => match mode {
            _ if help => crate::tui::panes::help::keys::action(key),
            Mode::Normal => normal_key(key),
            Mode::Insert { .. } => insert_key(key),
            Mode::Prompt(_) => prompt_key(key),
        },
        Event::Mouse(mouse) => {
            let in_view = regions.in_view(mouse.column, mouse.row);
            match mouse.kind {
                MouseEventKind::ScrollDown if in_view => Some(Action::ViewDown(3)),
                MouseEventKind::ScrollUp if in_view => Some(Action::ViewUp(3)),
                MouseEventKind::ScrollDown => Some(Action::LineDown),
                MouseEventKind::ScrollUp => Some(Action::LineUp),
                MouseEventKind::Down(MouseButton::Left) => regions.hit(mouse.column, mouse.row),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The keys of the normal scope are the keymap's.
fn normal_key(key: &KeyEvent) -> Option<Action> {
    keymap::lookup(key, Scope::Normal, None)
}

/// The keymap's keys for the line being edited (leaving, saving, moving to another line), else
/// the keys that edit the text.
fn insert_key(key: &KeyEvent) -> Option<Action> {
    keymap::lookup(key, Scope::Insert, None).or_else(|| edit_key(key))
}

/// Typing into the line: characters, the caret, deleting; Ctrl-c leaves as Esc does.
fn edit_key(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Back,
        KeyCode::Char(c) if !ctrl => Action::Type(c),
        KeyCode::Tab => Action::Type('\t'),
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Delete => Action::Delete,
        KeyCode::Left => Action::CaretLeft,
        KeyCode::Right => Action::CaretRight,
        KeyCode::Home => Action::CaretHome,
        KeyCode::End => Action::CaretEnd,
        KeyCode::Enter => Action::Enter,
        _ => return None,
    })
}

/// Typing into a prompt: characters, Tab completes, Enter accepts, Esc or Ctrl-c cancels.
fn prompt_key(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Back,
        KeyCode::Char(c) if !ctrl => Action::Type(c),
        KeyCode::Tab => Action::Complete,
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Enter => Action::Enter,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::{Prompt, PromptKind};
    use crate::tui::panes::View;
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
    fn keys_depend_on_the_mode() {
        let r = Regions::default();
        let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(
            action_for(&j, &Mode::Normal, false, &r),
            Some(Action::LineDown)
        );
        assert_eq!(
            action_for(&j, &Mode::Insert { caret: 0 }, false, &r),
            Some(Action::Type('j'))
        );
        let prompt = Mode::Prompt(Prompt::new(PromptKind::Search, ""));
        assert_eq!(action_for(&j, &prompt, false, &r), Some(Action::Type('j')));
        assert_eq!(
            action_for(&j, &Mode::Normal, true, &r),
            Some(Action::ViewDown(1))
        );
        let ctrl_c = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            action_for(&ctrl_c, &Mode::Normal, false, &r),
            Some(Action::ForceQuit)
        );
        assert_eq!(
            action_for(&ctrl_c, &Mode::Insert { caret: 0 }, false, &r),
            Some(Action::Back)
        );
        let x = key(KeyCode::Char('x'), KeyModifiers::NONE);
        assert_eq!(action_for(&x, &Mode::Normal, false, &r), None);
    }

    #[test]
    fn wheel_scrolls_the_pane_under_the_mouse() {
        let wheel = |column, row| {
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::ScrollDown,
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        let regions = Regions {
            view: ratatui::layout::Rect::new(0, 20, 80, 5),
            ..Regions::default()
        };
        assert_eq!(
            action_for(&wheel(3, 1), &Mode::Normal, false, &regions),
            Some(Action::LineDown)
        );
        assert_eq!(
            action_for(&wheel(3, 21), &Mode::Normal, false, &regions),
            Some(Action::ViewDown(3))
        );
    }

    #[test]
    fn every_view_has_a_number_key() {
        for (i, view) in View::ALL.into_iter().enumerate() {
            let digit = char::from_digit(i as u32 + 1, 10).unwrap();
            let event = key(KeyCode::Char(digit), KeyModifiers::NONE);
            assert_eq!(
                action_for(&event, &Mode::Normal, false, &Regions::default()),
                Some(Action::ShowView(view))
            );
        }
    }
}
