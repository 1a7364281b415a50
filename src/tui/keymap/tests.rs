//! The keymap is the help and the dispatch at once: these tests tie the help's words to the
//! bindings and the bindings to what a key press does.

use std::collections::BTreeSet;

use ratatui::crossterm::event::{Event, KeyEvent, KeyModifiers};

use super::*;
use crate::tui::app::Mode;
use crate::tui::input::action_for;
use crate::tui::panes::View;
use crate::tui::view::Regions;

/// The key names an entry's first column lists: words, with `·` a separator and `1 … 6` a
/// range.
fn listed(keys: &str) -> BTreeSet<String> {
    let words: Vec<&str> = keys.split_whitespace().filter(|w| *w != "·").collect();
    let mut names = BTreeSet::new();
    for (i, word) in words.iter().enumerate() {
        if *word == "…" {
            let from: u32 = words[i - 1].parse().expect("a range starts at a digit");
            let to: u32 = words[i + 1].parse().expect("a range ends at a digit");
            names.extend((from..=to).map(|d| d.to_string()));
        } else {
            names.insert(word.to_string());
        }
    }
    names
}

fn event(key: Key) -> KeyEvent {
    let modifiers = if key.ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(key.code, modifiers)
}

#[test]
fn every_key_in_the_help_is_bound_and_every_bound_key_is_in_the_help() {
    for (group, entries) in GROUPS {
        for entry in entries.iter().filter(|e| !e.keys.is_empty()) {
            let bound: BTreeSet<String> = entry.binds.iter().map(|b| b.key.name()).collect();
            assert_eq!(
                listed(entry.keys),
                bound,
                "{group}: `{}` lists other keys than it binds",
                entry.keys
            );
        }
        for entry in entries.iter().filter(|e| e.keys.is_empty()) {
            assert!(
                entry.binds.is_empty(),
                "{group}: `{}` binds keys it does not list",
                entry.note
            );
        }
    }
}

#[test]
fn every_binding_dispatches_to_its_command() {
    for bind in binds() {
        assert_eq!(
            lookup(&event(bind.key), bind.scope, bind.key.after),
            Some(bind.action),
            "{} in {:?} is bound twice to different commands",
            bind.key.name(),
            bind.scope
        );
    }
}

#[test]
fn key_presses_reach_the_keymap_in_their_mode() {
    let regions = Regions::default();
    for bind in binds().filter(|b| b.key.after.is_none()) {
        let mode = match bind.scope {
            Scope::Normal => Mode::Normal,
            Scope::Insert => Mode::Insert { caret: 0 },
        };
        let pressed = Event::Key(event(bind.key));
        assert_eq!(
            action_for(&pressed, &mode, false, &regions),
            Some(bind.action),
            "{} in {:?}",
            bind.key.name(),
            bind.scope
        );
    }
}

#[test]
fn shift_is_part_of_the_character() {
    // Terminals report `G` and `?` with Shift held; the keymap binds the characters.
    let shifted = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(
        lookup(&shifted, Scope::Normal, None),
        Some(Action::LastLine)
    );
    let typed = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(
        lookup(&typed, Scope::Insert, None),
        None,
        "typed, not a command"
    );
}

#[test]
fn the_digit_keys_name_every_view_in_order() {
    let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
    let entry = panes::keys::VIEWS
        .iter()
        .find(|e| e.keys.starts_with("1 "))
        .expect("the digits have an entry");
    assert_eq!(entry.help, names.join(" · "), "the help names the views");
    assert_eq!(
        listed(entry.keys).len(),
        View::ALL.len(),
        "a digit per view"
    );
    for (digit, view) in View::DIGITS {
        let pressed = KeyEvent::new(KeyCode::Char(digit), KeyModifiers::NONE);
        assert_eq!(
            lookup(&pressed, Scope::Normal, None),
            Some(Action::ShowView(view)),
            "{digit} shows {}",
            view.name()
        );
    }
}
