//! A row's own text: in a conversation document every row tokenizes the prompt its model's
//! chat template renders, not the cursor line every row otherwise shares. The text and its
//! layout live with the row, so drawing, selecting and scrolling read the row's text where
//! they would read the line.

use std::path::PathBuf;
use std::sync::Arc;

use super::Row;
use crate::tui::layout::LineLayout;
use toklab::core::display::{Keep, terminal_safe};
use toklab::core::tokenizer::Tokenizer;
use toklab::engines::subword::chat::{ChatTemplate, template_beside};

/// The chat template beside a row's tokenizer: `None` when it has none, the message (safe for
/// a terminal) when it is there but broken.
pub type RowTemplate = Result<Option<ChatTemplate>, String>;

/// What a row's background load gives: the tokenizer and its chat template, read in the same
/// job so a conversation is rendered again on every edit without touching the disk.
pub struct Loaded {
    pub tokenizer: Arc<dyn Tokenizer>,
    pub template: RowTemplate,
}

impl Loaded {
    pub fn new(tokenizer: Arc<dyn Tokenizer>) -> Loaded {
        let template = template_beside(tokenizer.as_ref()).map_err(|e| safe(&e.to_string()));
        Loaded {
            tokenizer,
            template,
        }
    }
}

/// A message from a file (a template's, a conversation's) as a row shows it: on one line, its
/// control characters escaped.
pub fn safe(message: &str) -> String {
    terminal_safe(message, Keep::Nothing).into_owned()
}

/// The text a row tokenizes instead of the shared line, or why it has none.
pub enum OwnText {
    /// The conversation as this row's model reads it.
    Prompt {
        text: Arc<str>,
        layout: LineLayout,
        /// The template's file; `None` when the model has none and the messages were joined.
        template: Option<PathBuf>,
    },
    /// The template failed (it raised, or does not compile) or the conversation cannot be
    /// read: the message, safe for a terminal, shown in the row's place.
    Failed(String),
}

impl OwnText {
    /// The prompt `text`, laid out.
    pub fn prompt(text: String, template: Option<PathBuf>) -> OwnText {
        let layout = LineLayout::new(&text);
        OwnText::Prompt {
            text: Arc::from(text),
            layout,
            template,
        }
    }

    /// The text to tokenize: the prompt, or nothing when it failed.
    pub fn text(&self) -> Arc<str> {
        match self {
            OwnText::Prompt { text, .. } => Arc::clone(text),
            OwnText::Failed(_) => Arc::from(""),
        }
    }
}

impl Row {
    /// The row's own layout, when it has a text of its own.
    pub fn own_layout(&self) -> Option<&LineLayout> {
        match &self.own {
            Some(OwnText::Prompt { layout, .. }) => Some(layout),
            _ => None,
        }
    }

    /// The row's own text, when it has one (empty when its template failed).
    pub fn own_text(&self) -> Option<&str> {
        match &self.own {
            Some(OwnText::Prompt { text, .. }) => Some(text),
            Some(OwnText::Failed(_)) => Some(""),
            None => None,
        }
    }

    /// Why the row's own text could not be made.
    pub fn own_error(&self) -> Option<&str> {
        match &self.own {
            Some(OwnText::Failed(message)) => Some(message),
            _ => None,
        }
    }

    /// Whether the row shows a conversation joined because its model has no template.
    pub fn lacks_template(&self) -> bool {
        matches!(&self.own, Some(OwnText::Prompt { template: None, .. }))
    }
}
