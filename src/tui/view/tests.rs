//! Rendering tests on ratatui's TestBackend: text and, for token colours, cell styles.

use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

use std::sync::Arc;

use crate::tui::app::{Action, App, Loader, RowSetup};
use crate::tui::document::Document;
use crate::tui::panes::View;
use crate::tui::render_to_buffer;
use crate::tui::theme::Theme;

/// An app over `text` with one row per (label, spec), every row loaded.
pub(super) fn app(text: &str, specs: &[(&str, &str)]) -> App {
    let only_specs: Vec<&str> = specs.iter().map(|&(_, spec)| spec).collect();
    let mut app = crate::tui::app::tests::app(text, &only_specs);
    for (row, (label, _)) in app.rows.iter_mut().zip(specs) {
        row.setup.label = label.to_string();
    }
    app
}

pub(super) fn row_text(buffer: &Buffer, y: u16) -> String {
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

/// The screen line whose text starts (after the border) with `label`.
pub(super) fn find_row(buffer: &Buffer, label: &str) -> u16 {
    (0..buffer.area.height)
        .find(|&y| {
            row_text(buffer, y)
                .trim_start_matches('│')
                .starts_with(label)
        })
        .unwrap_or_else(|| panic!("no row {label} in\n{}", dump(buffer)))
}

/// The screen column where `needle` starts on line `y` (columns, not bytes: borders are
/// multi-byte characters).
pub(super) fn column(buffer: &Buffer, y: u16, needle: &str) -> u16 {
    let symbols: Vec<&str> = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect();
    let wanted: Vec<String> = needle.chars().map(String::from).collect();
    (0..symbols.len())
        .find(|&x| {
            symbols[x..]
                .iter()
                .zip(&wanted)
                .filter(|(a, b)| **a == b.as_str())
                .count()
                == wanted.len()
        })
        .unwrap_or_else(|| panic!("{needle:?} not on line {y}: {}", row_text(buffer, y))) as u16
}

pub(super) fn dump(buffer: &Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| row_text(buffer, y) + "\n")
        .collect()
}

#[test]
fn rows_align_the_same_character_in_the_same_column() {
    let mut app = app(
        "We're 350 dogs!\nsecond",
        &[("ws", "ws"), ("gpt2", "pretok:gpt2")],
    );
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 60, 16);
    let ws = find_row(&buffer, "ws");
    let gpt2 = find_row(&buffer, "gpt2");
    let ruler = find_row(&buffer, "text");
    assert_eq!(column(&buffer, ws, "dogs"), column(&buffer, gpt2, "dogs"));
    assert_eq!(column(&buffer, ws, "dogs"), column(&buffer, ruler, "dogs"));
    let ws_line = row_text(&buffer, ws);
    let gpt2_line = row_text(&buffer, gpt2);
    // Dropped whitespace is marked in the ws row, kept as a token (leading space) in gpt2.
    assert!(ws_line.contains("We're·350·dogs!"), "{ws_line}");
    assert!(gpt2_line.contains("We're 350 dogs!"), "{gpt2_line}");
}

#[test]
fn adjacent_tokens_alternate_colours() {
    let mut app = app("We're 350 dogs!", &[("gpt2", "pretok:gpt2")]);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 50, 12);
    let y = find_row(&buffer, "gpt2");
    let x0 = column(&buffer, y, "We're");
    // "We" and "'re" are different tokens with no gap: their colours must differ.
    let we = buffer[(x0, y)].bg;
    let re = buffer[(x0 + 2, y)].bg;
    assert_eq!(we, theme.token[0].bg.unwrap());
    assert_eq!(re, theme.token[1].bg.unwrap());
    // " 350": the space belongs to the token, so it carries the token colour.
    assert_eq!(buffer[(x0 + 5, y)].bg, theme.token[0].bg.unwrap());
}

#[test]
fn selected_token_is_highlighted_and_described() {
    let mut app = app("We're 350 dogs!", &[("ws", "ws")]);
    let theme = Theme::dark();
    app.apply(Action::TokenNext);
    app.apply(Action::TokenNext);
    let buffer = render_to_buffer(&mut app, &theme, 70, 12);
    let y = find_row(&buffer, "ws");
    let x = column(&buffer, y, "350");
    assert_eq!(buffer[(x, y)].bg, theme.selected_token.bg.unwrap());
    assert!(buffer[(x, y)].modifier.contains(Modifier::BOLD));
    let screen = dump(&buffer);
    assert!(screen.contains("token 2/3 «350»"), "{screen}");
    assert!(
        screen.contains("bytes 6..9 · chars 6..9 · number"),
        "{screen}"
    );
}

#[test]
fn a_piece_inside_a_character_names_its_bytes() {
    let spec = concat!(
        "hf:",
        env!("CARGO_MANIFEST_DIR"),
        "/samples/bpe/tokenizer.json"
    );
    let mut app = app("a 👨", &[("bpe", spec)]);
    app.apply(Action::TokenNext);
    app.apply(Action::TokenNext);
    app.apply(Action::TokenNext);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 90, 12));
    assert!(
        // The emoji takes two cells, so the dump shows it followed by a padding cell.
        screen.contains("bytes 5..6 (A8) — part of 👨") && screen.contains("· chars 2..3 ·"),
        "{screen}"
    );
}

#[test]
fn plain_theme_marks_boundaries_without_colour() {
    let mut app = app("ab!", &[("gpt2", "pretok:gpt2")]);
    let theme = Theme::plain();
    let buffer = render_to_buffer(&mut app, &theme, 40, 10);
    let y = find_row(&buffer, "gpt2");
    let x = column(&buffer, y, "ab!");
    assert!(buffer[(x, y)].modifier.contains(Modifier::UNDERLINED));
    assert!(buffer[(x + 2, y)].modifier.contains(Modifier::REVERSED));
    assert_eq!(buffer[(x, y)].fg, ratatui::style::Color::Reset);
}

#[test]
fn status_bar_counts_tokens_and_help_lists_keys() {
    let mut app = app("a b c\nd", &[("ws", "ws"), ("bad", "nope:x")]);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 80, 24);
    let screen = dump(&buffer);
    assert!(
        screen.contains("(text) 1/2 │ ws 3 │ bad failed"),
        "{screen}"
    );
    assert!(screen.contains("unknown tokenizer kind `nope`"), "{screen}");
    app.apply(Action::ToggleHelp);
    let screen = dump(&render_to_buffer(&mut app, &theme, 80, 24));
    assert!(screen.contains("next / previous tokenizer row"), "{screen}");
}

#[test]
fn small_terminal_does_not_panic() {
    let mut app = app("some text here", &[("ws", "ws"), ("w", "words")]);
    for (w, h) in [(1, 1), (10, 3), (20, 6), (80, 24)] {
        render_to_buffer(&mut app, &Theme::dark(), w, h);
        app.apply(Action::TokenLast);
    }
}

#[test]
fn text_pane_shows_only_visible_lines_of_a_long_document() {
    let text: String = (0..100_000).map(|i| format!("line number {i}\n")).collect();
    let mut app = app(&text, &[("ws", "ws")]);
    let theme = Theme::dark();
    render_to_buffer(&mut app, &theme, 80, 24);
    app.apply(Action::LastLine);
    let screen = dump(&render_to_buffer(&mut app, &theme, 80, 24));
    assert!(screen.contains("100000 line number 99999"), "{screen}");
    assert!(screen.contains("ws 3"), "{screen}");
}

#[test]
fn trace_view_marks_the_selected_lines_span_on_the_text() {
    let mut app = app("ab  cd", &[("ws", "ws")]);
    let theme = Theme::dark();
    app.apply(Action::ShowView(View::Trace));
    app.apply(Action::ViewDown(1)); // the gap line: bytes 2..4
    let buffer = render_to_buffer(&mut app, &theme, 60, 20);
    let screen = dump(&buffer);
    assert!(screen.contains("gap        2..4 «  »  dropped"), "{screen}");
    let y = find_row(&buffer, "text");
    let x = column(&buffer, y, "ab  cd");
    assert_eq!(buffer[(x + 2, y)].bg, theme.trace_mark.bg.unwrap());
    assert_eq!(buffer[(x + 3, y)].bg, theme.trace_mark.bg.unwrap());
    assert_ne!(buffer[(x + 1, y)].bg, theme.trace_mark.bg.unwrap());
}

#[test]
fn tokens_table_lists_offsets_and_origin() {
    let mut app = app("Zoë ran", &[("ws", "ws")]);
    app.apply(Action::ShowView(View::Table));
    app.apply(Action::TokenLast);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 100, 20));
    assert!(screen.contains("form"), "{screen}");
    assert!(screen.contains("«ran»"), "{screen}");
    assert!(screen.contains("5..8"), "bytes of ran: {screen}");
    assert!(screen.contains("4..7"), "chars of ran: {screen}");
    assert!(screen.contains("pattern non-space run"), "{screen}");
}

#[test]
fn tokens_table_shows_the_rule_line_first_and_gives_empty_columns_no_room() {
    let mut app = app("Wow, dogs!", &[("rules", "rules:rules")]);
    app.apply(Action::ShowView(View::Table));
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 80, 30));
    // The punctuation's resource line comes before the long step name, so 80 columns show it.
    let line = screen
        .lines()
        .find(|l| l.contains("«,»"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(line.contains("rules/tok-resource.txt:"), "{screen}");
    // No surface differs and no token has an id: those columns are only as wide as their names.
    assert!(screen.contains(" surface bytes "), "{screen}");
    assert!(screen.contains(" id origin "), "{screen}");
}

#[test]
fn insert_mode_shows_and_retokenizes() {
    let mut app = app("ab", &[("ws", "ws")]);
    app.apply(Action::Edit);
    crate::tui::app::tests::type_text(&mut app, " cd");
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 60, 16));
    assert!(screen.contains("INSERT"), "{screen}");
    assert!(screen.contains("ab·cd"), "{screen}");
    assert!(screen.contains("ws 2"), "{screen}");
}

#[test]
fn prompt_shows_completion_candidates() {
    let mut app = app("x", &[("ws", "ws")]);
    app.apply(Action::StartPrompt(
        crate::tui::app::PromptKind::AddTokenizer,
    ));
    app.apply(Action::Type('w'));
    app.apply(Action::Complete);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 60, 16));
    assert!(
        screen.contains("add tokenizer (spec, Tab completes): w"),
        "{screen}"
    );
    assert!(screen.contains("ws  words"), "{screen}");
}

/// A test engine with sentence ends: whitespace tokens, a sentence ends after a `.`.
struct Sentences;

impl toklab::core::tokenizer::Tokenizer for Sentences {
    fn name(&self) -> &str {
        "sentences"
    }
    fn tokenize(&self, text: &str) -> toklab::core::token::Tokenization {
        let mut t = toklab::load("ws").unwrap().tokenize(text);
        t.sentence_ends = (0..t.tokens.len())
            .filter(|&i| t.tokens[i].span.slice(text).ends_with('.') && i + 1 < t.tokens.len())
            .collect();
        t
    }
    fn explain(&self, text: &str) -> toklab::core::tokenizer::Trace {
        toklab::load("ws").unwrap().explain(text)
    }
}

#[test]
fn sentence_ends_show_in_the_dropped_space_after_them() {
    let loader: Loader = Arc::new(|_: &str, _: Option<&std::path::Path>| {
        Ok(Box::new(Sentences) as Box<dyn toklab::core::tokenizer::Tokenizer>)
    });
    let mut app = App::new(
        Document::from_text("One. Two three."),
        vec![RowSetup::new("s")],
        loader,
    );
    app.finish_loading();
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 60, 14);
    let screen = dump(&buffer);
    assert!(screen.contains("One.¶Two·three."), "{screen}");
}

#[test]
fn disagreeing_boundaries_are_underlined_in_the_other_rows() {
    let mut app = app("We're 350", &[("ws", "ws"), ("gpt2", "pretok:gpt2")]);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 60, 16);
    let y = find_row(&buffer, "gpt2");
    let x = column(&buffer, y, "We're");
    assert!(
        buffer[(x + 2, y)].modifier.contains(Modifier::UNDERLINED),
        "the ' starts a boundary ws lacks"
    );
    assert!(!buffer[(x + 1, y)].modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn a_trace_line_wider_than_the_pane_is_shown_whole_below() {
    let long = format!("{} end", "x".repeat(120));
    let mut app = app(&long, &[("ws", "ws")]);
    app.apply(Action::ShowView(View::Trace));
    app.apply(Action::GrowView);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 60, 30));
    // The first trace line (the 120-character match) is cut in the list; the wrapped footer
    // shows all of it, so its x's appear in full beyond what the text pane and rows show.
    let footer: String = screen.lines().rev().take(6).collect();
    assert!(footer.matches('x').count() >= 100, "{screen}");
}

#[test]
fn ptb_and_sentence_rows_load_in_the_workbench() {
    let mut app = app(
        "Mr. Smith didn't go. He \"stayed.\"",
        &[("ptb", "ptb"), ("sent", "sent:ptb"), ("alone", "sent")],
    );
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 80, 20));
    // Rows show the text with dropped spaces as `·`; ptb's own splits (did|n't, go|.) are
    // token colours, counted in the status line.
    assert!(
        screen.contains("ptb    Mr.·Smith·didn't·go.·He·\"stayed.\""),
        "{screen}"
    );
    assert!(screen.contains("ptb · 10 tokens"), "{screen}");
    // sent:ptb marks the end of the first sentence (after `go.`, not after `Mr.`); `sent`
    // alone has the two sentences as its tokens.
    assert!(
        screen.contains("sent   Mr.·Smith·didn't·go.¶He"),
        "{screen}"
    );
    assert!(screen.contains("alone 2"), "{screen}");
    app.apply(Action::ShowView(View::Trace));
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 100, 40));
    assert!(
        screen.contains("rule clitic 'll 're 've n't  ×1"),
        "{screen}"
    );
}

#[test]
fn one_row_and_one_token_are_counted_in_the_singular() {
    let mut app = app("word", &[("ws", "ws")]);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 20);
    let screen = dump(&buffer);
    assert!(screen.contains("· 1 tokenizer "), "{screen}");
    assert!(screen.contains("ws · 1 token · "), "{screen}");
}

#[test]
fn cancelled_statistics_are_marked_partial() {
    let text: String = (0..200_000).map(|i| format!("w{i} x\n")).collect();
    let mut app = app(&text, &[("ws", "ws")]);
    app.apply(Action::ShowView(View::Stats));
    app.apply(Action::Back);
    // Wait for the worker to stop.
    let t = std::time::Instant::now();
    while app.busy() && t.elapsed().as_secs() < 10 {
        app.tick();
    }
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    assert!(screen.contains("partial: cancelled after"), "{screen}");
}

#[test]
fn help_does_not_scroll_past_its_end() {
    let mut app = app("x", &[("ws", "ws")]);
    app.apply(Action::ToggleHelp);
    render_to_buffer(&mut app, &Theme::dark(), 60, 20);
    let max = app.viewport.help_scroll;
    assert!(max > 0, "the help is taller than 20 lines");
    for _ in 0..200 {
        app.apply(Action::ViewDown(1));
    }
    assert_eq!(app.panes.help.scroll, max);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 60, 20));
    assert!(
        screen.contains("quit (q asks first"),
        "the last key line shows:\n{screen}"
    );
    app.apply(Action::ViewUp(1));
    assert_eq!(app.panes.help.scroll, max - 1);
}

#[test]
fn the_caret_stays_visible_on_a_line_wider_than_the_pane() {
    let line = format!("{}END", "word ".repeat(60));
    let mut app = app(&line, &[("ws", "ws")]);
    render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    app.apply(Action::Edit);
    app.apply(Action::CaretEnd);
    crate::tui::app::tests::type_text(&mut app, "XYZ");
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    let screen = dump(&buffer);
    let ruler = find_row(&buffer, "text");
    assert!(row_text(&buffer, ruler).contains("ENDXYZ"), "{screen}");
    assert!(
        screen.contains("from column"),
        "the text pane scrolled too:\n{screen}"
    );
    app.apply(Action::CaretHome);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 80, 24);
    assert!(row_text(&buffer, ruler).contains("text word word"));
    assert_eq!(app.rows.hscroll, 0);
}

#[test]
fn byte_level_tokens_inside_flags_leave_the_next_word_its_own_colour() {
    // GPT-2 splits the flags' bytes into pieces, several with empty spans; ` d` after them
    // must not share the last flag's colour.
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bpe/gpt2");
    let mut app = app(" 🇩🇪🇨🇳 done", &[("gpt2", &format!("bpe:{model}"))]);
    assert!(
        app.rows[0].tokens.tokens.iter().any(|t| t.span.is_empty()),
        "the sample model makes empty spans here"
    );
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 50, 12);
    let y = find_row(&buffer, "gpt2");
    let x = column(&buffer, y, "done");
    let (space, d) = (buffer[(x - 1, y)].bg, buffer[(x, y)].bg);
    assert_eq!(buffer[(x - 3, y)].symbol(), "🇨🇳");
    let flag = buffer[(x - 3, y)].bg;
    assert_ne!(flag, space, "« d» is its own colour");
    assert_eq!(space, d);
    assert_eq!(buffer[(x - 5, y)].symbol(), "🇩🇪");
    assert_ne!(buffer[(x - 5, y)].bg, flag, "the two flags differ");
}

#[test]
fn a_failed_reload_shows_its_first_line_in_the_row() {
    let mut app = app("a b c", &[("ws", "ws"), ("fst", "words")]);
    app.rows[1].reload_error =
        Some("\nrules/broken.xfst:3: syntax error, unexpected ';'\nfoma gave up".into());
    let theme = Theme::dark();
    let screen = dump(&render_to_buffer(&mut app, &theme, 100, 16));
    let line = screen
        .lines()
        .find(|l| l.contains("fst!"))
        .expect("the fst row");
    assert!(
        line.contains("reload failed: rules/broken.xfst:3: syntax error, unexpected ';'"),
        "{screen}"
    );
    assert!(!line.contains("foma gave up"), "{line}");
    // Selected, the row shows its last good tokens and the error below the rows.
    app.apply(Action::RowNext);
    let screen = dump(&render_to_buffer(&mut app, &theme, 100, 16));
    let line = screen.lines().find(|l| l.contains("fst!")).unwrap();
    assert!(!line.contains("reload failed"), "{line}");
    assert!(screen.contains("foma gave up"), "{screen}");
}

#[test]
fn the_ids_start_in_one_column_whatever_the_counts() {
    let text = "a b c d e f g h i j k";
    let mut app = app(
        text,
        &[
            ("ws", "ws"),
            ("two", r"regex:\S \S|\S"),
            ("one", r"regex:.+"),
        ],
    );
    app.apply(Action::ToggleIds);
    app.apply(Action::ToggleIds);
    let screen = dump(&render_to_buffer(&mut app, &Theme::dark(), 120, 20));
    let bars: Vec<usize> = ["ws ", "two ", "one "]
        .iter()
        .map(|label| {
            let line = screen
                .lines()
                .find(|l| l.trim_start_matches('│').starts_with(label))
                .unwrap_or_else(|| panic!("{label} in {screen}"));
            // The first bar is the pane's border, the second ends the figures.
            line.chars()
                .skip(1)
                .position(|c| c == '│')
                .expect("the figures' bar")
        })
        .collect();
    assert!(bars.iter().all(|&b| b == bars[0]), "{bars:?}\n{screen}");
}

#[test]
fn every_rows_count_shows_on_a_narrow_bar_with_labels_cut() {
    let specs = [
        ("alpha-row-label", "ws"),
        ("bravo-row-label", "words"),
        ("charlie-row-label", "ws"),
        ("delta-row-label", "words"),
        ("echo-row-label", "ws"),
        ("foxtrot-row-label", "words"),
    ];
    let mut app = app("one two, three", &specs);
    let theme = Theme::dark();
    let buffer = render_to_buffer(&mut app, &theme, 100, 24);
    let bar = row_text(&buffer, 23);
    assert_eq!(bar.matches('│').count(), 6, "{bar}");
    for count in [" 3 ", " 4 "] {
        assert!(bar.contains(count), "{bar}");
    }
    assert!(
        bar.trim_end().ends_with('4'),
        "the last count is whole: {bar}"
    );
    for start in ["alph", "brav", "char", "delt", "echo", "foxt"] {
        assert!(bar.contains(start), "each label keeps its start: {bar}");
    }
    assert_eq!(bar.matches('…').count(), 6, "labels cut, marked: {bar}");
    // Wide enough, the labels stay whole.
    let buffer = render_to_buffer(&mut app, &theme, 220, 24);
    assert!(row_text(&buffer, 23).contains("foxtrot-row-label 4"));
}
