//! Keys and mouse events to actions, by mode. The bindings follow common terminal habits (vi
//! keys and arrows, PgUp/PgDn, g/G, / and n) and are listed once, in [`KEYS`], for the help.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::{Action, Mode, PromptKind, View, Yank};
use super::view::Regions;

/// The key bindings as the help overlay shows them, by group.
pub const KEYS: &[(&str, &[(&str, &str)])] = &[
    (
        "move",
        &[
            ("↑ ↓  k j", "previous / next line"),
            ("PgUp PgDn  Ctrl-b Ctrl-f", "page up / down"),
            ("g G  Home End", "first / last line"),
            ("Tab Shift-Tab", "next / previous tokenizer row"),
            ("← →  h l", "previous / next token of the row"),
            ("0 $", "first / last token"),
            ("< >", "scroll the rows sideways"),
            ("mouse", "click a line, a token or a tab; wheel scrolls"),
        ],
    ),
    (
        "views (lower pane)",
        &[
            ("1 … 6", "trace · tokens · align · merges · train · stats"),
            ("v", "next view"),
            (
                "J K  Ctrl-d Ctrl-u",
                "move in the view (trace line, table row)",
            ),
            ("+ -", "grow / shrink the view pane"),
            ("z", "maximise the view pane (again: back)"),
            ("s", "recompute statistics over the whole file"),
        ],
    ),
    (
        "alignment view (A = selected row)",
        &[
            ("b  click a label", "choose row B"),
            ("Enter", "tokens ↔ DP matrix of the selected pair"),
            ("c", "matrix of the whole line ↔ of the pair"),
            (
                "S",
                "align by character spans (boundary agreement) ↔ by forms",
            ),
            (". ,  p  f", "demo: next cell / back / play / fill all"),
        ],
    ),
    (
        "comparing rows",
        &[
            (
                "5j  12G  3n",
                "a number before a line move repeats it (G: to that line)",
            ),
            (
                ":",
                ":N go to line · :yank token|row|ids|line [FILE] · :ids · :diffs",
            ),
            ("]d [d", "next / previous line where the rows disagree"),
            (
                "y  Y",
                "copy the token / the row's tokens (ids when # shows ids) via OSC 52",
            ),
            ("#", "ids: a hue per token id → ids instead of forms → off"),
            (
                "underlined bold red",
                "a boundary this row has and the selected row lacks",
            ),
            (
                "underlined, yellow line",
                "a boundary the selected row has and this row lacks",
            ),
        ],
    ),
    (
        "edit the text",
        &[
            ("i", "edit the line (every row re-tokenizes as you type)"),
            ("o", "open a new line below and edit it"),
            ("Esc", "leave editing"),
            ("u  Ctrl-r", "undo / redo"),
            ("Ctrl-s", "save the text"),
            ("e", "open another text file"),
            ("/  n N", "search; next / previous match"),
        ],
    ),
    (
        "tokenizers and workspace",
        &[
            ("a", "add a tokenizer (spec prompt, Tab completes)"),
            ("X", "remove the selected tokenizer row"),
            (
                "r",
                "reload every tokenizer (rule files reload by themselves)",
            ),
            ("W", "save the workspace"),
            (
                "E",
                "edit the selected token's rule ($VISUAL/$EDITOR, at its line)",
            ),
            (
                "]c [c",
                "next / previous line the last reload tokenizes differently",
            ),
            ("P", "export the line's rows as toklab-lineN.svg and .html"),
            ("m", "mouse capture on / off"),
        ],
    ),
    (
        "merges and train views",
        &[
            (
                ". ,",
                "next / previous step (merges or the unigram lattice; training)",
            ),
            ("p", "play or pause"),
            ("f", "to the last step (BPE training: 100 merges more)"),
            ("{ }", "play slower / faster (merges, training, DP fill)"),
            ("t", "train on the line · the selection · the file"),
            ("V", "mark a line: the selection runs to the cursor"),
            ("T", "pre-tokenize as GPT-2 or as the textbook (words + _)"),
            ("U", "train BPE or a unigram model (EM, pruning, lattice)"),
            ("R", "the model being trained as a row (on / off)"),
            ("M", "save the trained model (BPE files or trained.model)"),
        ],
    ),
    (
        "general",
        &[
            ("?  F1 · Ctrl-l", "this help · draw the screen again"),
            ("Esc", "close, leave editing, cancel work (never quits)"),
            ("q  Q Ctrl-c", "quit (q asks first if edits are unsaved)"),
        ],
    ),
];

/// The action for a terminal event in `mode`, if it has one. `regions` says where panes were
/// drawn, for mouse events.
pub fn action_for(event: &Event, mode: &Mode, help: bool, regions: &Regions) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => match mode {
            _ if help => help_key(key),
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

fn help_key(key: &KeyEvent) -> Option<Action> {
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

fn normal_key(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::ForceQuit,
        KeyCode::Char('b') if ctrl => Action::PageUp,
        KeyCode::Char('f') if ctrl => Action::PageDown,
        KeyCode::Char('d') if ctrl => Action::ViewDown(10),
        KeyCode::Char('u') if ctrl => Action::ViewUp(10),
        KeyCode::Char('r') if ctrl => Action::Redo,
        KeyCode::Char('s') if ctrl => Action::Save,
        KeyCode::Char('l') if ctrl => Action::Redraw,
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
        KeyCode::Char('1') => Action::ShowView(View::Trace),
        KeyCode::Char('2') => Action::ShowView(View::Table),
        KeyCode::Char('3') => Action::ShowView(View::Align),
        KeyCode::Char('4') => Action::ShowView(View::Merges),
        KeyCode::Char('5') => Action::ShowView(View::Train),
        KeyCode::Char('6') => Action::ShowView(View::Stats),
        KeyCode::Char('b') => Action::AlignNextOther,
        KeyCode::Enter => Action::ToggleMatrix,
        KeyCode::Char('c') => Action::ToggleMatrixScope,
        KeyCode::Char('.') => Action::DemoStep(true),
        KeyCode::Char(',') => Action::DemoStep(false),
        KeyCode::Char('p') => Action::DemoPlay,
        KeyCode::Char('f') => Action::DemoFinish,
        KeyCode::Char('v') => Action::NextView,
        KeyCode::Char('J') => Action::ViewDown(1),
        KeyCode::Char('K') => Action::ViewUp(1),
        KeyCode::Char('+') | KeyCode::Char('=') => Action::GrowView,
        KeyCode::Char('-') => Action::ShrinkView,
        KeyCode::Char('s') => Action::ComputeStats,
        KeyCode::Char('z') => Action::ToggleMaximise,
        KeyCode::Char('{') => Action::PlaySlower,
        KeyCode::Char('}') => Action::PlayFaster,
        KeyCode::Char('t') => Action::TrainScope,
        KeyCode::Char('T') => Action::TrainPretok,
        KeyCode::Char('U') => Action::TrainAlgorithm,
        KeyCode::Char('V') => Action::MarkLine,
        KeyCode::Char('R') => Action::ToggleTrainedRow,
        KeyCode::Char('M') => Action::SaveModel,
        KeyCode::Char('i') => Action::Edit,
        KeyCode::Char('o') => Action::OpenLine,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('/') => Action::StartPrompt(PromptKind::Search),
        KeyCode::Char('n') => Action::SearchNext,
        KeyCode::Char('N') => Action::SearchPrev,
        KeyCode::Char('a') => Action::StartPrompt(PromptKind::AddTokenizer),
        KeyCode::Char('e') => Action::StartPrompt(PromptKind::OpenText),
        KeyCode::Char('X') => Action::RemoveRow,
        KeyCode::Char('r') => Action::ReloadRows,
        KeyCode::Char('W') => Action::SaveWorkspace,
        KeyCode::Char('E') => Action::EditOrigin,
        KeyCode::Char('P') => Action::ExportPicture,
        KeyCode::Char('m') => Action::ToggleMouse,
        KeyCode::Char(':') => Action::StartPrompt(PromptKind::Command),
        KeyCode::Char('y') => Action::Yank(Yank::Token),
        KeyCode::Char('Y') => Action::Yank(Yank::Row),
        KeyCode::Char('#') => Action::ToggleIds,
        KeyCode::Char('S') => Action::ToggleAlignBySpans,
        KeyCode::Char('?') | KeyCode::F(1) => Action::ToggleHelp,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Char('Q') => Action::ForceQuit,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}

fn insert_key(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Back,
        KeyCode::Char('s') if ctrl => Action::Save,
        KeyCode::Char('l') if ctrl => Action::Redraw,
        KeyCode::Char(c) if !ctrl => Action::Type(c),
        KeyCode::Tab => Action::Type('\t'),
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Delete => Action::Delete,
        KeyCode::Left => Action::CaretLeft,
        KeyCode::Right => Action::CaretRight,
        KeyCode::Home => Action::CaretHome,
        KeyCode::End => Action::CaretEnd,
        KeyCode::Enter => Action::Enter,
        KeyCode::Up => Action::LineUp,
        KeyCode::Down => Action::LineDown,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}

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
    use crate::tui::app::Prompt;
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
