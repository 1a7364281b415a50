//! The workbench over a conversation file: every row tokenizes the conversation as its own
//! model's chat template renders it, marks the special tokens the template wrote, and counts
//! the same tokens as `toklab chat --format ids`. The models are the sample BPE tokenizer with
//! templates and special tokens written here, so nothing depends on downloaded data.

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use toklab_cli::cli::workbench::{Args, build_app};
use toklab_cli::tui::app::{Action, App};
use toklab_cli::tui::document::Document;
use toklab_cli::tui::panes::View;
use toklab_cli::tui::render_to_buffer;
use toklab_cli::tui::theme::Theme;
use toklab_cli::tui::view::buffer_text;

pub(crate) const CONVERSATION: &str = r#"[
  {"role": "system", "content": "Be brief."},
  {"role": "user", "content": "Split don't?"},
  {"role": "assistant", "content": "do + n't"}
]
"#;

/// ChatML: each message between `<|im_start|>` and `<|im_end|>`, both special tokens.
pub(crate) const CHATML: &str = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

/// An instruction format: user turns in `[INST]`, the others closed by the sample's own
/// special `<|endoftext|>`.
pub(crate) const INST: &str = "{% for m in messages %}{% if m.role == 'user' %}[INST] {{ m.content }} [/INST]{% else %}{{ m.content }}<|endoftext|>{% endif %}{% endfor %}";

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
}

/// A model folder `name` under `dir`: the sample BPE tokenizer with `specials` added as
/// special tokens, and `template` in a `tokenizer_config.json` beside it when given. Returns
/// the row as `LABEL=SPEC`.
pub(crate) fn model(dir: &Path, name: &str, specials: &[&str], template: Option<&str>) -> String {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let sample = std::fs::read_to_string(samples().join("bpe/tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&sample).unwrap();
    let added = json["added_tokens"].as_array_mut().unwrap();
    for (i, content) in specials.iter().enumerate() {
        added.push(serde_json::json!({
            "id": 1000 + i, "content": content, "single_word": false, "lstrip": false,
            "rstrip": false, "normalized": false, "special": true
        }));
    }
    let tokenizer = folder.join("tokenizer.json");
    std::fs::write(&tokenizer, json.to_string()).unwrap();
    if let Some(template) = template {
        let config = serde_json::json!({"eos_token": "<|endoftext|>", "chat_template": template});
        std::fs::write(folder.join("tokenizer_config.json"), config.to_string()).unwrap();
    }
    format!("{name}=hf:{}", tokenizer.display())
}

/// The three rows every test here opens: two templates and a model without one.
fn rows(dir: &Path) -> Vec<String> {
    vec![
        model(dir, "chatml", &["<|im_start|>", "<|im_end|>"], Some(CHATML)),
        model(dir, "inst", &[], Some(INST)),
        model(dir, "plain", &[], None),
    ]
}

fn open(dir: &Path, rows: Vec<String>) -> App {
    let file = dir.join("conversation.json");
    std::fs::write(&file, CONVERSATION).unwrap();
    let args = Args {
        with: rows,
        file: Some(file),
        no_mouse: true,
        ..Args::default()
    };
    let mut app = build_app(&args).unwrap();
    app.settle();
    app
}

/// The screen line whose text starts with `label`.
fn line_of(buffer: &Buffer, label: &str) -> u16 {
    (0..buffer.area.height)
        .find(|&y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect();
            line.trim_start_matches('│').starts_with(label)
        })
        .unwrap_or_else(|| panic!("no line for {label}:\n{}", buffer_text(buffer)))
}

/// The column where `text` starts on screen line `y`.
fn column_of(buffer: &Buffer, y: u16, text: &str) -> u16 {
    let cells: Vec<&str> = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect();
    (0..cells.len())
        .find(|&x| cells[x..].concat().starts_with(text))
        .unwrap_or_else(|| panic!("{text} not on line {y}:\n{}", buffer_text(buffer))) as u16
}

#[test]
fn each_row_shows_its_own_prompt_with_its_count() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = open(temp.path(), rows(temp.path()));
    assert!(
        app.chat.is_some(),
        "a list of messages opens as a conversation"
    );
    assert_eq!(
        app.rows[0].own_text().unwrap(),
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nSplit don't?<|im_end|>\n<|im_start|>assistant\ndo + n't<|im_end|>\n"
    );
    assert_eq!(
        app.rows[1].own_text().unwrap(),
        "Be brief.<|endoftext|>[INST] Split don't? [/INST]do + n't<|endoftext|>"
    );
    assert_eq!(
        app.rows[2].own_text().unwrap(),
        "Be brief.\nSplit don't?\ndo + n't"
    );
    assert!(app.rows[2].lacks_template() && !app.rows[0].lacks_template());
    for (width, height) in [(80, 24), (160, 45)] {
        let buffer = render_to_buffer(&mut app, &Theme::dark(), width, height);
        insta::assert_snapshot!(
            format!("conversation_{width}x{height}"),
            buffer_text(&buffer)
        );
    }
}

#[test]
fn special_tokens_the_template_wrote_are_drawn_reversed() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = open(temp.path(), rows(temp.path()));
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 160, 45);
    let y = line_of(&buffer, "chatml");
    let special = column_of(&buffer, y, "<|im_start|>");
    let word = column_of(&buffer, y, "system");
    for x in special..special + "<|im_start|>".len() as u16 {
        let cell = &buffer[(x, y)];
        assert!(cell.modifier.contains(Modifier::REVERSED), "{x}: {cell:?}");
    }
    assert!(!buffer[(word, y)].modifier.contains(Modifier::REVERSED));
    // The other template's special token too, and in the row without a template nothing is.
    let y = line_of(&buffer, "inst");
    let x = column_of(&buffer, y, "<|endoftext|>");
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    let y = line_of(&buffer, "plain");
    let row: Vec<_> = (0..buffer.area.width).map(|x| &buffer[(x, y)]).collect();
    assert!(row.iter().all(|c| !c.modifier.contains(Modifier::REVERSED)));
}

/// The ids `toklab chat` prints for `spec`'s model.
fn chat_ids(spec: &str, conversation: &Path, generation_prompt: bool) -> Vec<u32> {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_toklab"));
    command.args(["chat", "--with", spec, "--format", "ids"]);
    if generation_prompt {
        command.arg("--generation-prompt");
    }
    let out = command.arg(conversation).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(|id| id.parse().unwrap())
        .collect()
}

#[test]
fn the_counts_are_those_of_toklab_chat_and_ctrl_g_adds_the_header() {
    let temp = tempfile::tempdir().unwrap();
    let rows = rows(temp.path());
    let mut app = open(temp.path(), rows.clone());
    let file = temp.path().join("conversation.json");
    for generation_prompt in [false, true] {
        if generation_prompt {
            app.apply(Action::GenerationPrompt);
            app.settle();
            assert!(
                app.rows[0]
                    .own_text()
                    .unwrap()
                    .ends_with("<|im_start|>assistant\n")
            );
        }
        for (index, row) in rows.iter().enumerate().take(2) {
            let spec = row.split_once('=').unwrap().1;
            let ids = chat_ids(spec, &file, generation_prompt);
            let shown = row_ids(&app, index);
            assert_eq!(shown, ids, "{row} generation prompt {generation_prompt}");
        }
    }
}

#[test]
fn a_broken_template_shows_its_message_in_its_row_and_the_others_go_on() {
    let temp = tempfile::tempdir().unwrap();
    let rows = vec![
        model(temp.path(), "broken", &[], Some("one\n{% if %}")),
        model(
            temp.path(),
            "chatml",
            &["<|im_start|>", "<|im_end|>"],
            Some(CHATML),
        ),
    ];
    let mut app = open(temp.path(), rows);
    let error = app.rows[0].own_error().expect("the template fails");
    assert!(
        error.contains("chat template line 2: syntax error"),
        "{error}"
    );
    assert!(app.rows[0].tokens.is_empty());
    assert!(app.rows[1].tokens.len() > 10);
    let buffer = render_to_buffer(&mut app, &Theme::dark(), 160, 45);
    let y = line_of(&buffer, "broken");
    column_of(&buffer, y, "chat template line 2");
    // The status bar gives the failed row no count of zero tokens.
    let shown = buffer_text(&buffer);
    let bar = shown.lines().last().unwrap();
    assert!(bar.contains("broken failed"), "{bar}");
}

#[test]
fn moving_the_cursor_keeps_the_prompts_tokens() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = open(temp.path(), rows(temp.path()));
    let before: Vec<u64> = app.rows.iter().map(|r| r.tokens_id).collect();
    app.apply(Action::LineDown);
    app.apply(Action::LastLine);
    app.settle();
    let after: Vec<u64> = app.rows.iter().map(|r| r.tokens_id).collect();
    assert_eq!(before, after, "the prompts were tokenized again");
    assert_eq!(app.rows[0].tokens.len(), 45);
}

#[test]
fn comparing_by_span_says_it_does_not_apply() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = open(temp.path(), rows(temp.path()));
    assert!(app.rows.iter().all(|r| r.disagree.is_empty()));
    app.apply(Action::DiffJump {
        forward: true,
        count: 1,
    });
    let message = &app.message.as_ref().unwrap().0;
    assert!(
        message.contains("each row tokenizes its own prompt"),
        "{message}"
    );
    app.apply(Action::ShowView(View::Align));
    app.settle();
    let shown = buffer_text(&render_to_buffer(&mut app, &Theme::dark(), 160, 45));
    assert!(shown.contains("share no text to align"), "{shown}");
    app.apply(Action::ExportPicture);
    assert!(app.take_effects().is_empty());
    let message = &app.message.as_ref().unwrap().0;
    assert!(message.contains("each have their own prompt"), "{message}");
}

#[test]
fn an_edited_conversation_is_rendered_again_and_a_broken_one_is_said() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = open(temp.path(), rows(temp.path()));
    // Line 3 is the user's message: words typed into its content reach every prompt.
    app.apply(Action::GoToLine(2));
    app.apply(Action::Edit);
    for _ in 0..3 {
        app.apply(Action::CaretLeft);
    }
    for c in " Yes".chars() {
        app.apply(Action::Type(c));
    }
    app.settle();
    assert!(
        app.rows[1]
            .own_text()
            .unwrap()
            .contains("[INST] Split don't? Yes [/INST]"),
        "{:?}",
        app.rows[1].own_text()
    );
    // Text after the object breaks the JSON: every row says where.
    app.apply(Action::CaretEnd);
    app.apply(Action::Type('x'));
    app.settle();
    let error = app.rows[0].own_error().expect("the JSON is broken");
    assert!(error.contains("conversation.json"), "{error}");
    app.apply(Action::Back);
    app.apply(Action::Undo);
    app.settle();
    assert!(app.rows[0].own_error().is_none());
}

#[test]
fn a_json_list_of_other_things_is_an_ordinary_text() {
    let temp = tempfile::tempdir().unwrap();
    let file = temp.path().join("numbers.json");
    std::fs::write(&file, "[1, 2, 3]\n").unwrap();
    let args = Args {
        with: vec![model(temp.path(), "chatml", &[], Some(CHATML))],
        file: Some(file),
        no_mouse: true,
        ..Args::default()
    };
    let mut app = build_app(&args).unwrap();
    app.settle();
    assert!(app.chat.is_none());
    assert!(app.rows[0].own_text().is_none());
    assert_eq!(app.rows[0].tokens.len(), 7);
    // Opening a conversation from there (`e`) turns the rows to its prompts, and opening the
    // numbers again turns them back to the line.
    let convo = temp.path().join("conversation.json");
    std::fs::write(&convo, CONVERSATION).unwrap();
    app.replace_document(Document::open(&convo).unwrap());
    app.settle();
    assert!(app.chat.is_some());
    assert!(
        app.rows[0]
            .own_text()
            .unwrap()
            .starts_with("<|im_start|>system")
    );
    app.replace_document(Document::open(&temp.path().join("numbers.json")).unwrap());
    app.settle();
    assert!(app.chat.is_none() && app.rows[0].own_text().is_none());
    assert_eq!(app.rows[0].tokens.len(), 7);
}

#[test]
fn real_models_rows_hold_the_ids_transformers_gives() {
    let Some(dir) = crate::chat_templates::chat_dir() else {
        return;
    };
    let spec = |model: &str| {
        format!(
            "{model}=hf:{}",
            dir.join(model).join("tokenizer.json").display()
        )
    };
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chat_data/conversations/multi_turn.json");
    let args = Args {
        with: vec![spec("qwen3"), spec("llama3_1"), spec("gpt4o")],
        file: Some(file),
        no_mouse: true,
        ..Args::default()
    };
    let mut app = build_app(&args).unwrap();
    app.settle();
    assert!(
        app.rows[2].lacks_template(),
        "gpt-4o's package ships no template"
    );
    for generation_prompt in [false, true] {
        if generation_prompt {
            app.apply(Action::GenerationPrompt);
            app.settle();
        }
        for (index, model) in ["qwen3", "llama3_1"].into_iter().enumerate() {
            let expected = crate::chat_templates::expected(model);
            let case = expected["cases"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| {
                    c["conversation"] == "multi_turn" && c["generation_prompt"] == generation_prompt
                })
                .unwrap();
            let want: Vec<u32> = serde_json::from_value(case["ids"].clone()).unwrap();
            let shown = row_ids(&app, index);
            assert_eq!(shown, want, "{model} generation prompt {generation_prompt}");
        }
    }
}

/// The ids of row `index`'s tokens.
fn row_ids(app: &App, index: usize) -> Vec<u32> {
    app.rows[index]
        .tokens
        .tokens
        .iter()
        .map(|t| t.id.unwrap())
        .collect()
}
