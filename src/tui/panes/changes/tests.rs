use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;

use super::before_after;
use crate::tui::app::{Action, App};
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

#[test]
fn each_side_marks_the_tokens_the_other_lacks() {
    let text = "Dr. Smith";
    let old = toklab::load("ws").unwrap().tokenize(text);
    let new = toklab::load(r"regex:\w+|[^\w\s]").unwrap().tokenize(text);
    let (before, after) = before_after(text, &old, &new);
    let marked = |side: &super::Side| -> Vec<String> {
        side.iter()
            .map(|(form, differs)| format!("{form}{}", if *differs { "*" } else { "" }))
            .collect()
    };
    assert_eq!(marked(&before), ["Dr.*", "Smith"]);
    assert_eq!(marked(&after), ["Dr*", ".*", "Smith"]);
}

fn text_of(buffer: &Buffer) -> Vec<String> {
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn wait(app: &mut App, what: &str, done: &dyn Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done(app) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
        app.tick();
    }
}

/// A word list gains `abc`: the lines holding `abc` change, `ab c` does not; `C` lists them
/// with their tokens before and after, the differing tokens marked.
#[test]
fn c_lists_the_lines_a_reload_changed_before_and_after() {
    let temp = tempfile::tempdir().unwrap();
    let words = temp.path().join("words.txt");
    std::fs::write(&words, "ab\n").unwrap();
    let spec = format!("maxmatch:{}", words.display());
    let mut app = crate::tui::app::tests::app("abc\nxyz\nab c\nxy abc", &[&spec]);
    app.apply(Action::ShowChanges);
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .0
            .contains("no reload to compare yet")
    );
    std::fs::write(&words, "ab\nabc\n").unwrap();
    wait(&mut app, "the reload", &|a| a.changed_summary().is_some());
    wait(&mut app, "the comparison", &|a| {
        a.reload_changes().is_some_and(|r| r.found().complete)
    });
    app.apply(Action::ShowChanges);
    for (width, height) in [(80, 24), (160, 45)] {
        let theme = Theme::dark();
        let buffer = render_to_buffer(&mut app, &theme, width, height);
        let screen = text_of(&buffer);
        let all = screen.join("\n");
        assert!(all.contains(": 2 lines changed · marked"), "{all}");
        let row = |n: &str| {
            screen
                .iter()
                .position(|l| l.contains(&format!("   {n} │ ")))
                .unwrap_or_else(|| panic!("line {n} listed:\n{all}"))
        };
        let (one, four) = (row("1"), row("4"));
        assert!(
            screen[one].contains("a·b·c") || screen[one].contains("ab·c"),
            "{all}"
        );
        let y = one as u16;
        let line = &screen[one];
        let after = line.rfind("│ abc").expect("after: abc") + "│ ".len();
        let x = line[..after].chars().count() as u16;
        assert_eq!(buffer[(x, y)].fg, theme.disagree.fg.unwrap(), "abc is new");
        assert!(screen[four].contains("x·y·ab·c"), "{all}");
        assert!(screen[four].contains("│ x·y·abc "), "{all}");
        assert!(!all.contains("   3 │ "), "ab c did not change:\n{all}");
    }
    app.apply(Action::Back);
    assert!(
        !app.reload_changes().unwrap().shown,
        "Esc closes the listing"
    );
    app.apply(Action::ChangedLine(true));
    assert_eq!(app.doc.line, 3, "]c still steps to the next changed line");
}
