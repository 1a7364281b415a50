//! The one keymap: every key binding of the workbench with its help text, by group. Both the
//! key dispatch ([`lookup`]) and the `?` overlay ([`GROUPS`], drawn by the help pane) are read
//! from this table, so a key cannot be bound without being listed, or listed without being
//! bound (the tests check both). A pane with keys of its own keeps its group in its folder
//! (`panes/<pane>/keys.rs`) and is named here once, in [`GROUPS`].
//!
//! Typing text while editing a line or a prompt is not a keymap: those keys insert what they
//! are (see `input.rs`); only the keys that leave or act in those modes are bound here.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{Action, PromptKind, Yank};
use super::panes;

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Moving, looking and commands (no prompt, no line being edited).
    Normal,
    /// While a line is being edited.
    Insert,
}

/// A key as the keymap knows it: a code, whether Ctrl is held, and for two-key sequences the
/// bracket typed first (`]d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub after: Option<char>,
}

impl Key {
    /// The key as the help writes it (`k`, `Ctrl-d`, `PgUp`, `]d`).
    pub fn name(&self) -> String {
        let base = match self.code {
            KeyCode::Up => "↑".to_string(),
            KeyCode::Down => "↓".to_string(),
            KeyCode::Left => "←".to_string(),
            KeyCode::Right => "→".to_string(),
            KeyCode::PageUp => "PgUp".to_string(),
            KeyCode::PageDown => "PgDn".to_string(),
            KeyCode::BackTab => "Shift-Tab".to_string(),
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        let ctrl = if self.ctrl { "Ctrl-" } else { "" };
        let after = self.after.map(String::from).unwrap_or_default();
        format!("{after}{ctrl}{base}")
    }
}

/// A plain key.
pub const fn key(c: char) -> Key {
    code(KeyCode::Char(c))
}

/// A key that is not a character (arrows, PgUp, Esc).
pub const fn code(code: KeyCode) -> Key {
    Key {
        code,
        ctrl: false,
        after: None,
    }
}

/// A character with Ctrl held.
pub const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
        after: None,
    }
}

/// The second key of a bracket sequence (`]d`: `bracket(']', 'd')`).
pub const fn bracket(first: char, c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
        after: Some(first),
    }
}

/// One key bound to one command in one scope.
#[derive(Clone, Copy, Debug)]
pub struct Bind {
    pub key: Key,
    pub scope: Scope,
    pub action: Action,
}

/// A key of the normal scope.
pub const fn normal(key: Key, action: Action) -> Bind {
    Bind {
        key,
        scope: Scope::Normal,
        action,
    }
}

/// A key of the line being edited.
pub const fn insert(key: Key, action: Action) -> Bind {
    Bind {
        key,
        scope: Scope::Insert,
        action,
    }
}

/// One line of the help and the bindings it documents.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The keys as the help shows them; every key named here is bound by `binds`, and every
    /// key of `binds` is named here.
    pub keys: &'static str,
    /// Words after the keys that are not keys (`click a label`), or what a line without keys
    /// is about (`mouse`, a colour legend).
    pub note: &'static str,
    pub help: &'static str,
    pub binds: &'static [Bind],
}

impl Entry {
    /// An entry whose keys are all bound by `binds`.
    pub const fn new(keys: &'static str, help: &'static str, binds: &'static [Bind]) -> Entry {
        Entry {
            keys,
            note: "",
            help,
            binds,
        }
    }

    /// A line of the help with no key of its own (mouse use, counts, colour legends).
    pub const fn note(note: &'static str, help: &'static str) -> Entry {
        Entry {
            keys: "",
            note,
            help,
            binds: &[],
        }
    }

    /// The first column of the help: the keys, then the note.
    pub fn label(&self) -> String {
        match (self.keys, self.note) {
            (keys, "") => keys.to_string(),
            ("", note) => note.to_string(),
            (keys, note) => format!("{keys}  {note}"),
        }
    }
}

/// A titled group of entries, as the help shows it.
pub type Group = (&'static str, &'static [Entry]);

/// Every group, in the order the help lists them.
pub const GROUPS: &[Group] = &[
    ("move", MOVE),
    ("views (lower pane)", panes::keys::VIEWS),
    (
        "alignment view (A = selected row)",
        panes::align::keys::KEYS,
    ),
    ("comparing rows", COMPARE),
    ("edit the text", EDIT),
    ("tokenizers and workspace", TOKENIZERS),
    ("merges and train views", panes::train::keys::KEYS),
    ("general", GENERAL),
];

/// The command `event` is bound to in `scope`, if any; `after` is a bracket typed just before.
pub fn lookup(event: &KeyEvent, scope: Scope, after: Option<char>) -> Option<Action> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    // Shift is part of the character (`G`, `?`), except on Tab where it makes another code.
    let wanted = Key {
        code: event.code,
        ctrl,
        after,
    };
    binds()
        .find(|b| b.scope == scope && b.key == wanted)
        .map(|b| b.action)
}

/// Every binding of the table.
pub fn binds() -> impl Iterator<Item = &'static Bind> {
    GROUPS
        .iter()
        .flat_map(|(_, entries)| entries.iter())
        .flat_map(|e| e.binds.iter())
}

const MOVE: &[Entry] = &[
    Entry::new(
        "↑ ↓  k j",
        "previous / next line",
        &[
            normal(code(KeyCode::Up), Action::LineUp),
            normal(code(KeyCode::Down), Action::LineDown),
            normal(key('k'), Action::LineUp),
            normal(key('j'), Action::LineDown),
            insert(code(KeyCode::Up), Action::LineUp),
            insert(code(KeyCode::Down), Action::LineDown),
        ],
    ),
    Entry::new(
        "PgUp PgDn  Ctrl-b Ctrl-f",
        "page up / down",
        &[
            normal(code(KeyCode::PageUp), Action::PageUp),
            normal(code(KeyCode::PageDown), Action::PageDown),
            normal(ctrl('b'), Action::PageUp),
            normal(ctrl('f'), Action::PageDown),
        ],
    ),
    Entry::new(
        "g G  Home End",
        "first / last line",
        &[
            normal(key('g'), Action::FirstLine),
            normal(key('G'), Action::LastLine),
            normal(code(KeyCode::Home), Action::FirstLine),
            normal(code(KeyCode::End), Action::LastLine),
        ],
    ),
    Entry::new(
        "Tab Shift-Tab",
        "next / previous tokenizer row",
        &[
            normal(code(KeyCode::Tab), Action::RowNext),
            normal(code(KeyCode::BackTab), Action::RowPrev),
        ],
    ),
    Entry::new(
        "← →  h l",
        "previous / next token of the row",
        &[
            normal(code(KeyCode::Left), Action::TokenPrev),
            normal(code(KeyCode::Right), Action::TokenNext),
            normal(key('h'), Action::TokenPrev),
            normal(key('l'), Action::TokenNext),
        ],
    ),
    Entry::new(
        "0 $",
        "first / last token",
        &[
            normal(key('0'), Action::TokenFirst),
            normal(key('$'), Action::TokenLast),
        ],
    ),
    Entry::new(
        "< >",
        "scroll the rows sideways",
        &[
            normal(key('<'), Action::ScrollLeft),
            normal(key('>'), Action::ScrollRight),
        ],
    ),
    Entry::note("mouse", "click a line, a token or a tab; wheel scrolls"),
];

const COMPARE: &[Entry] = &[
    Entry::note(
        "5j  12G  3n",
        "a number before a line move repeats it (G: to that line)",
    ),
    Entry::new(
        ":",
        ":N go to line · :yank token|row|ids|line [FILE] · :ids · :diffs",
        &[normal(key(':'), Action::StartPrompt(PromptKind::Command))],
    ),
    Entry::new(
        "]d [d",
        "next / previous line where the rows disagree (the selected and pinned rows if one is)",
        &[
            normal(
                bracket(']', 'd'),
                Action::DiffJump {
                    forward: true,
                    count: 1,
                },
            ),
            normal(
                bracket('[', 'd'),
                Action::DiffJump {
                    forward: false,
                    count: 1,
                },
            ),
        ],
    ),
    Entry::new(
        "*",
        "pin the selected row (* after its label): ]d [d compare the selected row with it",
        &[normal(key('*'), Action::PinRow)],
    ),
    Entry::new(
        "y  Y",
        "copy the token / the row's tokens (ids when # shows ids) via OSC 52",
        &[
            normal(key('y'), Action::Yank(Yank::Token)),
            normal(key('Y'), Action::Yank(Yank::Row)),
        ],
    ),
    Entry::new(
        "#",
        "ids: a hue per token id → ids instead of forms → forms and ids → off",
        &[normal(key('#'), Action::ToggleIds)],
    ),
    Entry::new(
        "Ctrl-g",
        "a conversation: every row's prompt ends with the assistant's header, or not",
        &[normal(ctrl('g'), Action::GenerationPrompt)],
    ),
    Entry::note(
        "reversed bold",
        "a special token (<|im_start|>, [CLS], what a chat template writes)",
    ),
    Entry::note(
        "underlined bold red",
        "a boundary this row has and the selected row lacks",
    ),
    Entry::note(
        "underlined, yellow line",
        "a boundary the selected row has and this row lacks",
    ),
];

const EDIT: &[Entry] = &[
    Entry::new(
        "i",
        "edit the line (every row re-tokenizes as you type)",
        &[normal(key('i'), Action::Edit)],
    ),
    Entry::new(
        "o",
        "open a new line below and edit it",
        &[normal(key('o'), Action::OpenLine)],
    ),
    Entry::new(
        "Esc",
        "leave editing",
        &[insert(code(KeyCode::Esc), Action::Back)],
    ),
    Entry::new(
        "u  Ctrl-r",
        "undo / redo",
        &[
            normal(key('u'), Action::Undo),
            normal(ctrl('r'), Action::Redo),
        ],
    ),
    Entry::new(
        "Ctrl-s",
        "save the text",
        &[
            normal(ctrl('s'), Action::Save),
            insert(ctrl('s'), Action::Save),
        ],
    ),
    Entry::new(
        "e",
        "open another text file",
        &[normal(key('e'), Action::StartPrompt(PromptKind::OpenText))],
    ),
    Entry::new(
        "/  n N",
        "search; next / previous match",
        &[
            normal(key('/'), Action::StartPrompt(PromptKind::Search)),
            normal(key('n'), Action::SearchNext),
            normal(key('N'), Action::SearchPrev),
        ],
    ),
];

const TOKENIZERS: &[Entry] = &[
    Entry::new(
        "a",
        "add a tokenizer (spec prompt, Tab completes)",
        &[normal(
            key('a'),
            Action::StartPrompt(PromptKind::AddTokenizer),
        )],
    ),
    Entry::new(
        "X",
        "remove the selected tokenizer row (u puts it back)",
        &[normal(key('X'), Action::RemoveRow)],
    ),
    Entry::new(
        "r",
        "reload every tokenizer (rule files reload by themselves)",
        &[normal(key('r'), Action::ReloadRows)],
    ),
    Entry::new(
        "W",
        "save the workspace",
        &[normal(key('W'), Action::SaveWorkspace)],
    ),
    Entry::new(
        "E",
        "edit the selected token's rule ($VISUAL/$EDITOR, at its line)",
        &[normal(key('E'), Action::EditOrigin)],
    ),
    Entry::new(
        "F",
        "foma on an FST row: a word applied down and up, print net, print sigma (Esc: trace)",
        &[normal(key('F'), Action::StartPrompt(PromptKind::FstApply))],
    ),
    Entry::new(
        "]c [c",
        "next / previous line the last reload tokenizes differently",
        &[
            normal(bracket(']', 'c'), Action::ChangedLine(true)),
            normal(bracket('[', 'c'), Action::ChangedLine(false)),
        ],
    ),
    Entry::new(
        "C",
        "the lines the last reload changed: tokens before | after (C or Esc closes)",
        &[normal(key('C'), Action::ShowChanges)],
    ),
    Entry::new(
        "P",
        "export the line's rows as toklab-lineN.svg and .html",
        &[normal(key('P'), Action::ExportPicture)],
    ),
    Entry::new(
        "m",
        "mouse capture on / off",
        &[normal(key('m'), Action::ToggleMouse)],
    ),
];

const GENERAL: &[Entry] = &[
    Entry::new(
        "?  F1 · Ctrl-l",
        "this help · draw the screen again",
        &[
            normal(key('?'), Action::ToggleHelp),
            normal(code(KeyCode::F(1)), Action::ToggleHelp),
            normal(ctrl('l'), Action::Redraw),
            insert(ctrl('l'), Action::Redraw),
        ],
    ),
    Entry::new(
        "Esc",
        "close, leave editing, cancel work (never quits)",
        &[normal(code(KeyCode::Esc), Action::Back)],
    ),
    Entry::new(
        "q  Q Ctrl-c",
        "quit (q asks first if edits are unsaved)",
        &[
            normal(key('q'), Action::Quit),
            normal(key('Q'), Action::ForceQuit),
            normal(ctrl('c'), Action::ForceQuit),
        ],
    ),
    Entry::new(
        "Space = ^",
        "also PgDn, + and 0",
        &[
            normal(key(' '), Action::PageDown),
            normal(key('='), Action::GrowView),
            normal(key('^'), Action::TokenFirst),
        ],
    ),
];

#[cfg(test)]
mod tests;
