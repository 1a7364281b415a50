use std::path::Path;

use super::*;

fn render(template: &str, conversation: &str, prompt: bool) -> Result<String> {
    let specials = vec![("bos_token", "<B>".to_string())];
    let template = ChatTemplate::new(template.to_string(), "t.jinja".into(), specials)?;
    let conversation = Conversation::parse(conversation, Path::new("c.json"))?;
    template.render(&conversation, prompt)
}

const HI: &str = r#"[{"role": "user", "content": "  hi  "}]"#;

#[test]
fn blocks_trim_their_newline_and_leading_space_and_the_last_newline_goes() {
    let template = "{{ bos_token }}\n  {% for m in messages %}\n[{{ m.role }}]{{ m.content | trim }}\n  {% endfor %}\n";
    assert_eq!(render(template, HI, false).unwrap(), "<B>\n[user]hi\n");
}

#[test]
fn python_string_methods_and_loop_controls_work() {
    let template = "{% for m in messages %}{% if m.content.strip().startswith('h') %}{{ m.content.strip().upper() }}{% break %}{% endif %}{% endfor %}";
    assert_eq!(render(template, HI, false).unwrap(), "HI");
}

#[test]
fn raise_exception_gives_the_templates_message() {
    let err = render("{{ raise_exception('no system role here') }}", HI, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.jinja: the chat template refuses this conversation: no system role here"
    );
}

#[test]
fn undefined_prints_empty_but_its_attributes_fail() {
    assert_eq!(render("[{{ nothing }}]", HI, false).unwrap(), "[]");
    let err = render("{{ nothing.at_all }}", HI, false).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.jinja: chat template line 1: "),
        "{err}"
    );
}

#[test]
fn a_syntax_error_names_the_template_line() {
    let template = "line one\n{% if %}";
    let err = ChatTemplate::new(template.into(), "t.jinja".into(), vec![])
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .starts_with("t.jinja: chat template line 2: syntax error"),
        "{err}"
    );
}

#[test]
fn strftime_now_formats_todays_date() {
    let year = render("{{ strftime_now('%Y') }}", HI, false).unwrap();
    assert!(year.len() == 4 && year.starts_with('2'), "{year}");
}

#[test]
fn null_values_are_dropped_and_reasoning_gets_both_names() {
    let conversation =
        r#"[{"role": "assistant", "content": "x", "tool_calls": null, "reasoning": "r"}]"#;
    let template = "{{ messages[0] | tojson }}|{{ messages[0].tool_calls is defined }}";
    assert_eq!(
        render(template, conversation, false).unwrap(),
        r#"{"thinking": "r", "role": "assistant", "content": "x", "reasoning": "r", "reasoning_content": "r"}|False"#
    );
}

#[test]
fn a_message_without_role_is_an_error_with_its_line() {
    let err = Conversation::parse(
        "[\n {\"role\": \"user\"},\n {\"content\": \"x\"}\n]",
        Path::new("c.json"),
    )
    .err()
    .unwrap();
    assert!(err.to_string().starts_with("c.json:3:"), "{err}");
    assert!(err.to_string().contains("missing field `role`"), "{err}");
    let err = Conversation::parse("[]", Path::new("c.json"))
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "c.json: the conversation has no messages");
}

#[test]
fn added_token_objects_give_their_content() {
    let json: serde_json::Value =
        serde_json::from_str(r#"{"bos_token": {"__type": "AddedToken", "content": "<s>"}, "eos_token": "</s>", "pad_token": null}"#).unwrap();
    let specials = special_tokens(Path::new("c.json"), &json, "").unwrap();
    assert_eq!(
        specials,
        vec![
            ("bos_token", "<s>".to_string()),
            ("eos_token", "</s>".to_string())
        ]
    );
}

/// A copy of the sample BPE tokenizer in its own folder, with `config` beside it when given.
fn tokenizer_in(dir: &Path, config: Option<&str>) -> Box<dyn Tokenizer> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    std::fs::copy(
        samples.join("bpe/tokenizer.json"),
        dir.join("tokenizer.json"),
    )
    .unwrap();
    if let Some(config) = config {
        std::fs::write(dir.join("tokenizer_config.json"), config).unwrap();
    }
    crate::core::registry::load(&format!("hf:{}", dir.join("tokenizer.json").display())).unwrap()
}

const CHAT: &str = r#"[{"role": "user", "content": "hi"}, {"role": "tool", "content": {"n": 1}}, {"role": "assistant"}]"#;

#[test]
fn a_model_with_a_template_renders_and_one_without_joins_the_messages() {
    let conversation = Conversation::parse(CHAT, Path::new("c.json")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let config = r#"{"bos_token": "<s>", "chat_template": "{{ bos_token }}{% for m in messages %}<{{ m.role }}>{% endfor %}"}"#;
    for (name, config, text, has_template) in [
        ("with", Some(config), "<s><user><tool><assistant>", true),
        ("without", None, "hi\n{\"n\":1}\n", false),
        (
            "no_key",
            Some(r#"{"bos_token": "<s>"}"#),
            "hi\n{\"n\":1}\n",
            false,
        ),
    ] {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        let tokenizer = tokenizer_in(&dir, config);
        let prompt = prompt_for(tokenizer.as_ref(), &conversation, false).unwrap();
        assert_eq!(prompt.text, text, "{name}");
        assert_eq!(prompt.template.is_some(), has_template, "{name}");
    }
}

#[test]
fn a_broken_template_beside_the_model_is_an_error_not_a_fallback() {
    let conversation = Conversation::parse(CHAT, Path::new("c.json")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let tokenizer = tokenizer_in(tmp.path(), Some(r#"{"chat_template": "{% if %}"}"#));
    let err = prompt_for(tokenizer.as_ref(), &conversation, false)
        .err()
        .unwrap();
    assert!(err.to_string().contains("chat template line 1"), "{err}");
}

#[test]
fn only_lists_of_messages_look_like_conversations() {
    assert!(looks_like_conversation(HI));
    assert!(looks_like_conversation(
        "\n [{\"role\": \"system\", \"content\": null}, {\"role\": \"user\", \"content\": [1]}]"
    ));
    for other in [
        "[]",
        "[1, 2]",
        r#"[{"role": "user"}]"#,
        r#"[{"role": 3, "content": "x"}]"#,
        r#"[{"role": "user", "content": "x"}, {"content": "y"}]"#,
        r#"{"role": "user", "content": "x"}"#,
        r#"[{"role": "user", "content": "x"}"#,
        "plain text [with brackets]",
    ] {
        assert!(!looks_like_conversation(other), "{other}");
    }
}
