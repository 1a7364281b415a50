//! A conversation document: a JSON list of `{role, content}` messages opened in the workbench.
//! Every row then tokenizes the conversation as its own model reads it: rendered with the chat
//! template beside its tokenizer (the library's `prompt_for`), or the messages joined when the
//! model has none. The file itself stays an ordinary text in the text pane: editing it
//! renders the prompts again, and a conversation it no longer holds is said in every row.

use std::path::Path;

use toklab::engines::subword::chat::{Conversation, Prompt, looks_like_conversation};

use super::App;
use super::rows::OwnText;
use super::rows::own::safe;

/// A conversation file bigger than this is not looked at as one: a chat people count tokens
/// of is a few pages, and the check reads the whole text.
const MOST_BYTES: usize = 4 << 20;

/// The state of a conversation document.
pub struct ChatDoc {
    /// The conversation as the text held it when the prompts were last rendered, or why it
    /// cannot be read then.
    conversation: Result<Conversation, String>,
    /// The text it was read from (none before the first render): the prompts are rendered
    /// again only when it changes.
    source: Option<String>,
    /// Whether each prompt ends with the assistant's header (`add_generation_prompt`).
    pub generation_prompt: bool,
    /// The prompts were rendered with this generation-prompt choice.
    rendered_with: bool,
}

impl ChatDoc {
    /// How many messages the conversation has (none while it cannot be read).
    pub fn messages(&self) -> Option<usize> {
        self.conversation.as_ref().ok().map(Conversation::len)
    }
}

impl App {
    /// Decides once per document, when it is indexed, whether it is a conversation file.
    pub(super) fn detect_conversation(&mut self) {
        if self.chat_checked == Some(self.doc.id) || !self.doc.lines.is_indexed() {
            return;
        }
        self.chat_checked = Some(self.doc.id);
        let is_chat = self
            .document_text()
            .is_some_and(|text| looks_like_conversation(&text));
        if is_chat && self.chat.is_none() {
            self.chat = Some(ChatDoc {
                conversation: Err(String::new()),
                source: None,
                generation_prompt: false,
                rendered_with: false,
            });
            self.load_line();
        }
    }

    /// Leaves conversation mode (another text was opened): the rows share the line again.
    pub(super) fn forget_conversation(&mut self) {
        self.chat = None;
        self.chat_checked = None;
        for row in self.rows.iter_mut() {
            row.own = None;
        }
    }

    /// The whole text, when it is small enough to be a conversation file.
    fn document_text(&self) -> Option<String> {
        let lines = &self.doc.lines;
        let mut text = String::new();
        for n in 0..lines.line_count() {
            if n > 0 {
                text.push('\n');
            }
            text.push_str(&lines.line(n)?);
            if text.len() > MOST_BYTES {
                return None;
            }
        }
        Some(text)
    }

    /// Gives every loaded row the conversation rendered for its model, rendering again only
    /// what changed: the text, the generation-prompt choice, or the row (newly loaded or
    /// reloaded rows have no prompt yet).
    pub(super) fn render_prompts(&mut self) {
        let Some(text) = self.chat.as_ref().and_then(|_| self.document_text()) else {
            return;
        };
        let path = self
            .doc
            .lines
            .path
            .clone()
            .unwrap_or_else(|| "(text)".into());
        let chat = self.chat.as_mut().expect("checked above");
        let new_text = chat.source.as_deref() != Some(text.as_str());
        let changed = new_text || chat.rendered_with != chat.generation_prompt;
        if new_text {
            chat.conversation =
                Conversation::parse(&text, Path::new(&path)).map_err(|e| safe(&e.to_string()));
            chat.source = Some(text);
        }
        chat.rendered_with = chat.generation_prompt;
        for row in self.rows.iter_mut() {
            if row.tokenizer().is_none() {
                row.own = None;
                continue;
            }
            if !changed && row.own.is_some() {
                continue;
            }
            let prompt = match (&chat.conversation, &row.template) {
                (Err(message), _) | (_, Err(message)) => Err(message.clone()),
                (Ok(conversation), Ok(template)) => {
                    Prompt::render(template.as_ref(), conversation, chat.generation_prompt)
                        .map_err(|e| safe(&e.to_string()))
                }
            };
            row.own = Some(match prompt {
                Ok(prompt) => OwnText::prompt(prompt.text, prompt.template),
                Err(message) => OwnText::Failed(message),
            });
        }
    }

    /// Where row `index`'s characters are drawn: its own prompt's layout, or the line's.
    pub fn row_layout(&self, index: usize) -> &crate::tui::layout::LineLayout {
        self.rows
            .get(index)
            .and_then(|row| row.own_layout())
            .unwrap_or(&self.doc.layout)
    }

    /// The text row `index` tokenized: its own prompt, or the current line.
    pub fn row_text(&self, index: usize) -> &str {
        self.rows
            .get(index)
            .and_then(|row| row.own_text())
            .unwrap_or(&self.doc.text)
    }

    /// The widest text the rows show, in columns (how far they scroll sideways).
    pub fn rows_width(&self) -> usize {
        (0..self.rows.len())
            .map(|i| self.row_layout(i).width)
            .fold(self.doc.layout.width, usize::max)
    }

    /// Ctrl-g: each prompt ends with the assistant's header, or not.
    pub(super) fn toggle_generation_prompt(&mut self) {
        let Some(chat) = self.chat.as_mut() else {
            self.flash("only a conversation file (a JSON list of {role, content}) has prompts");
            return;
        };
        chat.generation_prompt = !chat.generation_prompt;
        let on = chat.generation_prompt;
        self.load_line();
        self.flash(if on {
            "generation prompt on: each prompt ends with the assistant's header"
        } else {
            "generation prompt off"
        });
    }
}
