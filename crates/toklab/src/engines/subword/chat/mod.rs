//! Chat templates: the Jinja program in a model's `tokenizer_config.json` that turns a
//! conversation into the one prompt string the model reads. Counting a chat's tokens means
//! rendering it exactly as `transformers`' `apply_chat_template` does and tokenizing the result
//! with special tokens matched and none added (`add_special_tokens=False`): the template writes
//! `bos_token` itself.
//!
//! The environment is transformers' (`_compile_jinja_template`): `trim_blocks`,
//! `lstrip_blocks`, loop controls, its own `tojson` ([`tojson`]: Python's `json.dumps` with
//! `ensure_ascii=False`), the globals `raise_exception(msg)` and `strftime_now(fmt)`, Jinja2's
//! lenient undefined (printing it is empty, reading an attribute of it fails) and Python's
//! string and dict methods (`.strip()`, `.startswith()`, `.items()`). The conversation is
//! prepared as transformers prepares it: keys whose value is `null` are dropped, and a
//! message's reasoning is copied under `reasoning_content` and `thinking` from whichever of
//! `reasoning_content`, `thinking`, `reasoning` it has.

mod tojson;

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use minijinja::{Environment, ErrorKind, Value};

use crate::core::error::{Error, Result};
use crate::core::tokenizer::Tokenizer;

/// The special-token names transformers passes to every template (its
/// `SPECIAL_TOKENS_ATTRIBUTES`), when the config sets them.
const SPECIAL_TOKENS: [&str; 7] = [
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
];

/// The names a message's reasoning may come under; the first is the one templates read.
const REASONING_FIELDS: [&str; 3] = ["reasoning_content", "thinking", "reasoning"];

/// What goes wrong rendering a chat, naming the template's file.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// The template called `raise_exception(message)`: it refuses this conversation (a system
    /// turn it does not support, roles that do not alternate).
    #[error("{}: the chat template refuses this conversation: {message}", origin.display())]
    Raised {
        /// The template's file.
        origin: PathBuf,
        /// The template's own message.
        message: String,
    },
    /// The template does not compile, or fails while rendering (a filter on the wrong type, an
    /// attribute of an undefined value).
    #[error("{}: chat template{}: {message}", origin.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Template {
        /// The template's file.
        origin: PathBuf,
        /// The line in the template, from 1.
        line: Option<usize>,
        /// Jinja's message.
        message: String,
    },
}

/// The marker `raise_exception` attaches to its error, so the template's message can be told
/// apart from Jinja's own errors after rendering.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Raised(String);

/// A compiled chat template with the special tokens its config defines.
pub struct ChatTemplate {
    env: Environment<'static>,
    origin: PathBuf,
    specials: Vec<(&'static str, String)>,
}

impl ChatTemplate {
    /// The template of a `tokenizer_config.json` (its `chat_template`, or the
    /// `chat_template.jinja` beside it, which transformers prefers), with its special tokens.
    pub fn from_config(config: &Path) -> Result<ChatTemplate> {
        ChatTemplate::from_config_if_any(config)?.ok_or_else(|| {
            Error::format(
                config,
                None,
                "no `chat_template` here and no chat_template.jinja beside it; give a template file with --template",
            )
        })
    }

    /// The template of a `tokenizer_config.json`, or `None` when the config has none (many
    /// base models have none): a caller that can go on without one needs it told apart from
    /// a broken template, which stays an error.
    pub fn from_config_if_any(config: &Path) -> Result<Option<ChatTemplate>> {
        let (json, text) = read_json(config)?;
        let specials = special_tokens(config, &json, &text)?;
        let jinja = config.with_file_name("chat_template.jinja");
        if jinja.is_file() {
            let source = std::fs::read_to_string(&jinja).map_err(|e| Error::io(&jinja, e))?;
            return ChatTemplate::new(source, jinja, specials).map(Some);
        }
        let line = crate::engines::subword::bpe::load::line_of_key(&text, "chat_template");
        let bad = |message: &str| Error::format(config, line, message);
        let source = match json.get("chat_template") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Array(named)) => named
                .iter()
                .find(|t| t.get("name").and_then(|n| n.as_str()) == Some("default"))
                .and_then(|t| t.get("template")?.as_str().map(str::to_string))
                .ok_or_else(|| bad("`chat_template` lists named templates but none named `default` with a `template` string"))?,
            Some(_) => return Err(bad("`chat_template` must be a string or a list of {name, template}")),
            None => return Ok(None),
        };
        ChatTemplate::new(source, config.to_path_buf(), specials).map(Some)
    }

    /// A template file of its own (Jinja text, or a `tokenizer_config.json`), with the special
    /// tokens of `config` when there is one.
    pub fn from_file(path: &Path, config: Option<&Path>) -> Result<ChatTemplate> {
        if path.extension().is_some_and(|e| e == "json") {
            let mut template = ChatTemplate::from_config(path)?;
            if let Some(config) = config {
                let (json, text) = read_json(config)?;
                template.specials = special_tokens(config, &json, &text)?;
            }
            return Ok(template);
        }
        let source = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let specials = match config {
            Some(config) => {
                let (json, text) = read_json(config)?;
                special_tokens(config, &json, &text)?
            }
            None => Vec::new(),
        };
        ChatTemplate::new(source, path.to_path_buf(), specials)
    }

    /// The template of the `tokenizer_config.json` beside the tokenizer's file.
    pub fn beside(tokenizer: &dyn Tokenizer) -> Result<ChatTemplate> {
        let config = config_beside(tokenizer).ok_or_else(|| Error::Unsupported {
            tokenizer: tokenizer.name().to_string(),
            operation: "give a chat template: it has no tokenizer_config.json beside its file (use --template FILE)".into(),
        })?;
        ChatTemplate::from_config(&config)
    }

    /// Compiles `source` in transformers' environment.
    pub fn new(
        source: String,
        origin: PathBuf,
        specials: Vec<(&'static str, String)>,
    ) -> Result<ChatTemplate> {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(false)
                .build()
                .map_err(|e| template_error(&origin, &e))?,
        );
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_filter("tojson", tojson::tojson);
        env.add_function(
            "raise_exception",
            |message: String| -> Result<Value, minijinja::Error> {
                Err(
                    minijinja::Error::new(ErrorKind::InvalidOperation, message.clone())
                        .with_source(Raised(message)),
                )
            },
        );
        env.add_function("strftime_now", |format: String| {
            jiff::fmt::strtime::format(format.as_str(), &jiff::Zoned::now()).map_err(|e| {
                minijinja::Error::new(ErrorKind::InvalidOperation, format!("strftime_now: {e}"))
            })
        });
        env.add_template_owned("chat", source)
            .map_err(|e| template_error(&origin, &e))?;
        Ok(ChatTemplate {
            env,
            origin,
            specials,
        })
    }

    /// The file the template came from.
    pub fn origin(&self) -> &Path {
        &self.origin
    }

    /// The prompt for `conversation`, with the assistant's header at the end when
    /// `add_generation_prompt` (so a model answers).
    pub fn render(
        &self,
        conversation: &Conversation,
        add_generation_prompt: bool,
    ) -> Result<String> {
        let mut context: IndexMap<Value, Value> = IndexMap::new();
        for (name, token) in &self.specials {
            context.insert(Value::from(*name), Value::from(token.as_str()));
        }
        let mut set = |name: &str, value: Value| context.insert(Value::from(name), value);
        set("messages", Value::from(conversation.messages.clone()));
        set("tools", Value::from(()));
        set("documents", Value::from(()));
        set("add_generation_prompt", Value::from(add_generation_prompt));
        let template = self
            .env
            .get_template("chat")
            .map_err(|e| template_error(&self.origin, &e))?;
        template
            .render(Value::from_object(context))
            .map_err(|e| template_error(&self.origin, &e))
    }
}

/// The text a model reads for a conversation: what a view that shows every model's own
/// prompt tokenizes. A model without a chat template still gets a text, the messages
/// joined, and `template` says which it was.
pub struct Prompt {
    /// The rendered prompt, or the messages' contents one per line.
    pub text: String,
    /// The file the template came from; `None` when the model has no template.
    pub template: Option<PathBuf>,
}

/// The prompt of `conversation` as `tokenizer`'s model renders it with the template of the
/// `tokenizer_config.json` beside it, or the messages joined when it has no template. A
/// template that is there but broken, or refuses the conversation, is an error.
pub fn prompt_for(
    tokenizer: &dyn Tokenizer,
    conversation: &Conversation,
    add_generation_prompt: bool,
) -> Result<Prompt> {
    Prompt::render(
        template_beside(tokenizer)?.as_ref(),
        conversation,
        add_generation_prompt,
    )
}

impl Prompt {
    /// The prompt of `conversation` with `template`, or the messages joined without one: for
    /// a caller that read the template once (a viewer rendering again on every edit).
    pub fn render(
        template: Option<&ChatTemplate>,
        conversation: &Conversation,
        add_generation_prompt: bool,
    ) -> Result<Prompt> {
        Ok(match template {
            Some(template) => Prompt {
                text: template.render(conversation, add_generation_prompt)?,
                template: Some(template.origin().to_path_buf()),
            },
            None => Prompt {
                text: conversation.joined(),
                template: None,
            },
        })
    }
}

/// The template of the `tokenizer_config.json` beside `tokenizer`'s file; `None` when there
/// is no config or it has no template, an error when the template is there but broken.
pub fn template_beside(tokenizer: &dyn Tokenizer) -> Result<Option<ChatTemplate>> {
    match config_beside(tokenizer) {
        Some(config) => ChatTemplate::from_config_if_any(&config),
        None => Ok(None),
    }
}

/// The `tokenizer_config.json` beside the first file `tokenizer` was loaded from, if any.
pub fn config_beside(tokenizer: &dyn Tokenizer) -> Option<PathBuf> {
    let source = tokenizer.sources().into_iter().next()?;
    let config = source.with_file_name("tokenizer_config.json");
    config.is_file().then_some(config)
}

fn template_error(origin: &Path, e: &minijinja::Error) -> Error {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if let Some(Raised(message)) = err.downcast_ref::<Raised>() {
            return Error::invalid(ChatError::Raised {
                origin: origin.to_path_buf(),
                message: message.clone(),
            });
        }
        source = err.source();
    }
    Error::invalid(ChatError::Template {
        origin: origin.to_path_buf(),
        line: e.line(),
        message: match e.detail() {
            Some(detail) => format!("{}: {detail}", e.kind()),
            None => e.kind().to_string(),
        },
    })
}

fn read_json(path: &Path) -> Result<(serde_json::Value, String)> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let json = serde_json::from_str(&text).map_err(|e| json_error(path, &e))?;
    Ok((json, text))
}

fn json_error(path: &Path, e: &serde_json::Error) -> Error {
    let message = e.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    Error::Format {
        path: path.to_path_buf(),
        line: Some(e.line()),
        column: Some(e.column()),
        message,
    }
}

/// The config's special tokens as strings: a token is written either as its text or as an
/// `AddedToken` object whose `content` is the text.
fn special_tokens(
    path: &Path,
    json: &serde_json::Value,
    text: &str,
) -> Result<Vec<(&'static str, String)>> {
    let mut out = Vec::new();
    for name in SPECIAL_TOKENS {
        let token = match json.get(name) {
            None | Some(serde_json::Value::Null) => continue,
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(object) => object
                .get("content")
                .and_then(|c| c.as_str())
                .map(str::to_string)
                .ok_or_else(|| {
                    let line = crate::engines::subword::bpe::load::line_of_key(text, name);
                    Error::format(
                        path,
                        line,
                        format!("`{name}` must be a string or an object with a `content` string"),
                    )
                })?,
        };
        out.push((name, token));
    }
    Ok(out)
}

/// A conversation: a JSON list of messages, each an object with a `role` (and usually a
/// `content`), prepared as transformers prepares it before rendering.
pub struct Conversation {
    messages: Vec<Value>,
}

/// The shape every message must have; parsing into it gives errors with a line and column.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct MessageShape {
    role: String,
}

impl Conversation {
    /// Reads a conversation file.
    pub fn read(path: &Path) -> Result<Conversation> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Conversation::parse(&text, path)
    }

    /// Parses a conversation; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Conversation> {
        let shapes: Vec<MessageShape> =
            serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
        if shapes.is_empty() {
            return Err(Error::format(
                path,
                None,
                "the conversation has no messages",
            ));
        }
        let raw: Vec<Value> = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
        let messages = raw
            .iter()
            .map(prepare)
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| Error::format(path, None, e.to_string()))?;
        Ok(Conversation { messages })
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// The messages' contents one per line, for a model with no template: a content that is
    /// not a string is written as its JSON, a message without one as an empty line.
    pub fn joined(&self) -> String {
        let lines: Vec<String> = self
            .messages
            .iter()
            .map(|message| {
                let content = message.get_attr("content").unwrap_or_default();
                if content.is_undefined() || content.is_none() {
                    String::new()
                } else if let Some(text) = content.as_str() {
                    text.to_string()
                } else {
                    serde_json::to_string(&content).unwrap_or_else(|_| content.to_string())
                }
            })
            .collect();
        lines.join("\n")
    }

    /// Whether there are none (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// Whether `text` is a conversation file rather than a text to tokenize line by line: a
/// non-empty JSON array whose every element is an object with a string `role` and a
/// `content` key. A viewer asks this of a file it opens, so it must never mistake an
/// ordinary JSON list (of numbers, of records without roles) for a chat.
pub fn looks_like_conversation(text: &str) -> bool {
    if !text.trim_start().starts_with('[') {
        return false;
    }
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(text)
    else {
        return false;
    };
    !items.is_empty()
        && items.iter().all(|item| {
            item.get("role").is_some_and(serde_json::Value::is_string)
                && item.get("content").is_some()
        })
}

/// A message as transformers hands it to the template: no `null` values, and its reasoning
/// under both names templates read (`{"thinking": r, **message, "reasoning_content": r}`).
fn prepare(message: &Value) -> std::result::Result<Value, minijinja::Error> {
    let mut map: IndexMap<Value, Value> = IndexMap::new();
    for key in message.try_iter()? {
        let value = message.get_item(&key)?;
        if !value.is_none() {
            map.insert(key, value);
        }
    }
    let reasoning = REASONING_FIELDS
        .iter()
        .find_map(|name| map.get(&Value::from(*name)).cloned());
    if let Some(reasoning) = reasoning {
        let mut aliased = IndexMap::new();
        aliased.insert(Value::from("thinking"), reasoning.clone());
        aliased.extend(map);
        aliased.insert(Value::from("reasoning_content"), reasoning);
        map = aliased;
    }
    Ok(Value::from_object(map))
}

#[cfg(test)]
mod tests;
