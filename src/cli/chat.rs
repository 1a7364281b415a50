//! `toklab chat`: the tokens of a chat prompt. A conversation (a JSON list of `{"role",
//! "content"}`) is rendered with the model's chat template, as `transformers`'
//! `apply_chat_template` renders it, and the prompt is tokenized as its `tokenize=True` does:
//! special tokens the template wrote are matched, none are added.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use toklab::engines::subword::chat::{ChatTemplate, Conversation, config_beside};

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer, as a spec (`hf:DIR/tokenizer.json`); its template is the
    /// `tokenizer_config.json` beside its file unless --template names one.
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// A chat template: a Jinja file, or a `tokenizer_config.json` (its `chat_template`).
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// End with the assistant's header, so the model answers (`add_generation_prompt=True`).
    #[arg(long)]
    generation_prompt: bool,
    /// text: the rendered prompt; ids: its ids on one line; json: both, with the count.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the bytes exactly even to a terminal (there, control characters in the
    /// conversation are otherwise shown as pictures such as `␛`; to a pipe or a file the
    /// output is always exact).
    #[arg(long)]
    raw: bool,
    /// The conversation: a JSON list of messages.
    conversation: PathBuf,
}

#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Ids,
    Json,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let template = match &args.template {
        Some(file) => ChatTemplate::from_file(file, config_beside(tokenizer.as_ref()).as_deref())?,
        None => ChatTemplate::beside(tokenizer.as_ref())?,
    };
    let conversation = Conversation::read(&args.conversation)?;
    let text = template
        .render(&conversation, args.generation_prompt)
        .map_err(|e| anyhow::anyhow!(shown_escaped(&e.to_string())))?;
    // The prompt holds the conversation's text, which may come from anyone.
    let mut out = super::data_stdout(args.raw);
    let result = (|| -> anyhow::Result<()> {
        match args.format {
            Format::Text => out.write_all(text.as_bytes())?,
            Format::Ids => {
                let ids = ids(tokenizer.as_ref(), &text)?;
                let line: Vec<String> = ids.iter().map(u32::to_string).collect();
                writeln!(out, "{}", line.join(" "))?;
            }
            Format::Json => {
                let ids = ids(tokenizer.as_ref(), &text)?;
                let record = serde_json::json!({
                    "template": template.origin().display().to_string(),
                    "count": ids.len(),
                    "text": text,
                    "ids": ids,
                });
                writeln!(out, "{record}")?;
            }
        }
        out.flush()?;
        Ok(())
    })();
    super::finish_output(result)
}

/// The prompt's ids; a tokenizer whose tokens have no ids (rule files) cannot count a
/// model's prompt.
fn ids(tokenizer: &dyn toklab::Tokenizer, text: &str) -> anyhow::Result<Vec<u32>> {
    tokenizer
        .tokenize(text)
        .tokens
        .iter()
        .map(|t| t.id)
        .collect::<Option<Vec<u32>>>()
        .with_context(|| format!("`{}` gives tokens without ids", tokenizer.name()))
}

/// A template's message as the terminal should show it: it comes from a downloaded file, so
/// control characters other than newlines and tabs are shown escaped.
fn shown_escaped(message: &str) -> String {
    message
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}
