//! Rendering of the comparing tools: the two underline styles, hues per id, the ids instead
//! of the forms, the alignment by spans and the differences in the status bar.

use ratatui::style::Modifier;

use super::tests::{app, column, dump, find_row};
use crate::tui::app::{Action, IdsMode};
use crate::tui::panes::align::AlignCommand;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

fn gpt2() -> String {
    format!("bpe:{}/samples/bpe/gpt2", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_boundary_a_row_has_and_one_it_lacks_are_underlined_differently() {
    let mut app = app("We're 350", &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 60, 16);
    let y = find_row(&buffer, "gpt2");
    let x = column(&buffer, y, "We're");
    let has = &buffer[(x + 2, y)];
    assert!(has.modifier.contains(Modifier::UNDERLINED | Modifier::BOLD));
    assert_eq!(
        has.fg,
        theme.disagree.fg.unwrap(),
        "gpt2 has a boundary ws lacks"
    );
    // With gpt2 selected, the ws row lacks the boundary at the same character.
    app.apply(Action::RowNext);
    let buffer = render_to_buffer(&mut app, &theme, 60, 16);
    let y = find_row(&buffer, "ws");
    let lacks = &buffer[(x + 2, y)];
    assert!(lacks.modifier.contains(Modifier::UNDERLINED));
    assert!(!lacks.modifier.contains(Modifier::BOLD));
    assert_eq!(lacks.underline_color, theme.key.fg.unwrap());
    assert_ne!(lacks.fg, theme.disagree.fg.unwrap());
    assert!(!buffer[(x + 1, y)].modifier.contains(Modifier::UNDERLINED));
    // The help names both.
    app.apply(Action::ToggleHelp);
    let screen = dump(&render_to_buffer(&mut app, &theme, 120, 80));
    assert!(
        screen.contains("a boundary the selected row has and this row lacks"),
        "{screen}"
    );
}

#[test]
fn hues_follow_the_id_in_every_row_and_ids_replace_the_forms() {
    let spec = gpt2();
    let text = "the theme of the day";
    let mut app = app(text, &[("one", &spec), ("two", &spec), ("ws", "ws")]);
    app.apply(Action::ToggleIds);
    assert_eq!(app.ids, IdsMode::Hues);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 80, 20);
    let (one, two) = (find_row(&buffer, "one"), find_row(&buffer, "two"));
    let x0 = column(&buffer, one, "the theme");
    let tokens = app.rows[0].tokens.tokens.clone();
    let mut hues = std::collections::HashSet::new();
    for token in &tokens {
        let x = x0 + app.doc.layout.column_of_byte(token.span.start) as u16;
        let cell = &buffer[(x, one)];
        let want = super::ids::hue(token, text, &theme, 0).bg.unwrap();
        assert_eq!(cell.bg, want, "token {:?}", token.form(text));
        assert_eq!(buffer[(x, two)].bg, want, "the same hue in the other row");
        hues.insert((token.id, cell.bg));
    }
    // "the" twice: one id, one hue.
    let the: Vec<_> = hues.iter().filter(|(id, _)| *id == tokens[0].id).collect();
    assert_eq!(the.len(), 1);
    app.apply(Action::ToggleIds);
    let screen = dump(&render_to_buffer(&mut app, &theme, 100, 20));
    let ids: Vec<String> = tokens.iter().map(|t| t.id.unwrap().to_string()).collect();
    let line = format!(
        "{} · {:.1} ch/token │ {}",
        crate::counted::counted(tokens.len(), "token"),
        text.chars().count() as f64 / tokens.len() as f64,
        ids.join(" ")
    );
    assert!(screen.contains(&line), "{line:?} in\n{screen}");
    // A row without ids lists its forms.
    assert!(
        screen.contains("5 tokens · 4.0 ch/token │ «the» «theme»"),
        "{screen}"
    );
}

#[test]
fn the_alignment_by_spans_pairs_stretches_not_forms() {
    let mut app = app("We're 350", &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    app.apply(Action::Align(AlignCommand::ToggleBySpans));
    let theme = Theme::dark();
    let screen = dump(&render_to_buffer(&mut app, &theme, 140, 30));
    assert!(
        screen.contains("by spans: 1 of 2 stretches agree · boundaries only A 0 · only B 1"),
        "{screen}"
    );
    assert!(screen.contains("≠ «We're»"), "{screen}");
    assert!(screen.contains("«We» «'re»"), "{screen}");
    // " 350" keeps its space in gpt2 and still agrees with "350".
    assert!(screen.contains("= «350»"), "{screen}");
    app.apply(Action::Align(AlignCommand::ToggleBySpans));
    let screen = dump(&render_to_buffer(&mut app, &theme, 140, 30));
    assert!(screen.contains("distance"), "back to the forms:\n{screen}");
}

#[test]
fn the_status_bar_counts_the_differing_lines() {
    let mut app = app("a b\nWe're\nc d", &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    app.apply(Action::DiffJump {
        forward: true,
        count: 1,
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.doc.line != 1 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.tick();
    }
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 24));
    assert!(screen.contains("difference 1 of 1"), "{screen}");
    assert!(!screen.contains("looking for the next line"), "{screen}");
}

#[test]
fn forms_and_ids_read_together_in_one_row() {
    let spec = gpt2();
    let text = "the theme of the day";
    let mut app = app(text, &[("one", &spec), ("ws", "ws")]);
    for _ in 0..3 {
        app.apply(Action::ToggleIds);
    }
    assert_eq!(app.ids, IdsMode::FormsAndIds);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 100, 20);
    let screen = dump(&buffer);
    let ids: Vec<String> = app.rows[0]
        .tokens
        .tokens
        .iter()
        .map(|t| format!("{}·{}", t.form(text).replace(' ', "␣"), t.id.unwrap()))
        .collect();
    let line = screen.lines().find(|l| l.contains("one ")).unwrap();
    assert!(line.contains(&ids.join(" ")), "{ids:?} in:\n{screen}");
    // A row without ids keeps its quoted forms.
    assert!(screen.contains("«the» «theme»"), "{screen}");
    app.apply(Action::ToggleIds);
    assert_eq!(app.ids, IdsMode::Off);
}

#[test]
fn right_to_left_lines_are_marked_and_stay_aligned() {
    // Arabic ("the book is on the table") and Hebrew ("the cat sleeps on the chair").
    for text in ["الكتاب على الطاولة", "החתול ישן על הכיסא"] {
        let mut app = app(text, &[("ws", "ws"), ("words", "words")]);
        let buffer = render_to_buffer(&mut app, &Theme::dark(), 100, 20);
        let screen = dump(&buffer);
        assert!(
            screen.contains("right-to-left, in logical order"),
            "{screen}"
        );
        assert!(screen.contains("text ⇐"), "{screen}");
        // Each word starts in the same column in the text ruler and in the ws row.
        let (ruler, ws) = (find_row(&buffer, "text"), find_row(&buffer, "ws"));
        for word in text.split(' ') {
            assert_eq!(
                column(&buffer, ruler, word),
                column(&buffer, ws, word),
                "{word}"
            );
        }
    }
    let mut app = app("plain text", &[("ws", "ws")]);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 100, 20));
    assert!(!screen.contains("right-to-left"), "{screen}");
}
