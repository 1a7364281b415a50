//! The loader targets for files that are not tokenizers: the workbench's text files and
//! workspaces, and chat templates with their conversations. Each loads a mutated file; an error is fine, a panic
//! or a hang is not, and what loads must keep the file's own promise (a workspace saves in
//! place and reads back the same; a template renders the same prompt twice).

use std::path::Path;
use std::sync::Arc;

use toklab::core::display::is_terminal_control;
use toklab::core::files::Expect;
use toklab::engines::subword::chat::{ChatTemplate, Conversation};
use toklab_cli::tui::app::{Action, App, Loader, RowSetup};
use toklab_cli::tui::document::Document;
use toklab_cli::tui::panes::View;
use toklab_cli::tui::theme::Theme;
use toklab_cli::workspace::Workspace;

/// Pages the workbench draws of a fuzzed text file: enough to pass the shipped sample's end.
const TEXT_PAGES: usize = 4;

/// A text file opened as the workbench opens one (indexed in the background, with a row of
/// two kinds tokenizing the cursor's line) and paged through, each page drawn: nothing may
/// panic, and no cell of the screen may hold a character that drives the terminal.
pub fn check_text_file(path: &Path) -> Result<(), String> {
    let Ok(doc) = Document::open(path) else {
        return Ok(());
    };
    let loader: Loader =
        Arc::new(|spec: &str, _: Option<&Path>| toklab::load(spec).map_err(|e| e.to_string()));
    let rows = vec![RowSetup::new("ws"), RowSetup::new("words")];
    let mut app = App::new(doc, rows, loader);
    let theme = Theme::dark();
    for page in 0..TEXT_PAGES {
        app.settle();
        let screen = toklab_cli::tui::render_to_buffer(&mut app, &theme, 80, 24);
        for (at, cell) in screen.content().iter().enumerate() {
            if let Some(c) = cell.symbol().chars().find(|&c| is_terminal_control(c)) {
                let (x, y) = (at % 80, at / 80);
                return Err(format!(
                    "raw control {c:?} on page {page} of the text, at column {x}, row {y}"
                ));
            }
        }
        app.apply(Action::PageDown);
    }
    Ok(())
}

/// A workspace that loads is saved over itself (the in-place editor keeps the author's
/// comments and layout) and must read back as the workspace that was saved.
pub fn check_workspace(path: &Path) -> Result<(), String> {
    let Ok(workspace) = Workspace::load(path, &View::NAMES) else {
        return Ok(());
    };
    let folder = path.parent().expect("a file in the scratch folder");
    let expect = Expect::Unchanged(workspace.on_disk.clone());
    workspace
        .save(path, &expect)
        .map_err(|e| format!("a workspace that loaded does not save: {e}"))?;
    let mut again = Workspace::load(path, &View::NAMES)
        .map_err(|e| format!("a saved workspace does not load: {e}"))?;
    let mut saved = workspace.rebased(folder);
    for side in [&mut saved, &mut again] {
        side.on_disk = None;
        side.base = Default::default();
    }
    if saved != again {
        return Err(format!(
            "the workspace read back differs from the one saved:\n  saved {saved:?}\n  read  {again:?}"
        ));
    }
    Ok(())
}

/// A template that loads renders `conversation` with and without the generation prompt;
/// rendering is a pure function of its inputs, so a second rendering must equal the first.
pub fn check_chat(template: &Path, conversation: &Path) -> Result<(), String> {
    let Ok(template) = ChatTemplate::from_config(template) else {
        return Ok(());
    };
    let Ok(conversation) = Conversation::read(conversation) else {
        return Ok(());
    };
    for prompt in [false, true] {
        let first = template.render(&conversation, prompt);
        let second = template.render(&conversation, prompt);
        let same = match (&first, &second) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        if !same {
            return Err(format!(
                "two renderings differ (generation prompt {prompt}): {first:?} then {second:?}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo_root;
    use crate::targets::{CHAT_CONFIG, CHAT_CONVERSATION};

    /// The shipped files pass (the template renders what it says), and so does a workspace
    /// with two rows of one spec, which the in-place editor must keep apart.
    #[test]
    fn the_shipped_files_and_rows_of_one_spec_pass() {
        let dir = tempfile_dir("files");
        let path = dir.join("workspace.toml");
        std::fs::copy(repo_root().join("samples/workspace.toml"), &path).unwrap();
        check_workspace(&path).unwrap();
        let root = repo_root();
        check_chat(&root.join(CHAT_CONFIG), &root.join(CHAT_CONVERSATION)).unwrap();
        let template = ChatTemplate::from_config(&root.join(CHAT_CONFIG)).unwrap();
        let conversation = Conversation::read(&root.join(CHAT_CONVERSATION)).unwrap();
        let prompt = template.render(&conversation, true).unwrap();
        assert!(
            prompt.starts_with("<s>[sys] Answer in one short line.\n[user #2]")
                && prompt.ends_with("[user #5] And the BPE sample?\n[bot] "),
            "{prompt}"
        );
        // Two rows with the same spec: the in-place editor keys rows by spec, so one must not
        // swallow the other.
        std::fs::write(
            &path,
            "[[tokenizer]]\nspec = \"ws\"\nlabel = \"a\"\n\n[[tokenizer]]\nspec = \"ws\"\nlabel = \"b\"\n",
        )
        .unwrap();
        check_workspace(&path).unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempfile_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("toklab-fuzz-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
