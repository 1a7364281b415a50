//! Performing the workbench's effects: the file reads and writes `App::apply` asked for, their
//! outcome handed back to the app (a new document, a message).

use crate::tui::app::{App, Effect, PromptKind};
use crate::tui::document::Document;
use toklab::core::files::WriteError;

/// Performs every effect the app queued, in order.
pub fn perform_all(app: &mut App) {
    for effect in app.take_effects() {
        perform(app, effect);
    }
}

/// Performs one effect.
pub fn perform(app: &mut App, effect: Effect) {
    match effect {
        Effect::SaveText { path, text, expect } => match text.write_to(&path, &expect) {
            Ok(stamp) => app.text_saved(path, stamp),
            Err(WriteError::Exists(_)) => app.confirm_overwrite(PromptKind::OverwriteText, &path),
            Err(WriteError::Changed(_)) => app.ask_about_change(PromptKind::ChangedText, &path),
            Err(e) => app.flash(format!("could not save: {e}")),
        },
        Effect::OpenText(path) => match Document::open(&path) {
            Ok(doc) => {
                app.replace_document(doc);
                app.flash(format!("opened {}", path.display()));
            }
            Err(e) => app.flash(format!("cannot open {}: {e}", path.display())),
        },
        Effect::SaveWorkspace {
            path,
            workspace,
            expect,
        } => match workspace.save(&path, &expect) {
            Ok(stamp) => app.workspace_saved(path, stamp),
            Err(WriteError::Exists(_)) => {
                app.confirm_overwrite(PromptKind::OverwriteWorkspace, &path)
            }
            Err(WriteError::Changed(_)) => {
                app.ask_about_change(PromptKind::ChangedWorkspace, &path)
            }
            Err(e) => app.flash(format!("could not save the workspace: {e}")),
        },
        Effect::ReloadRows => app.rows.reload_all(),
        Effect::SaveModel(dir) => {
            let message = app.panes.train.save(&dir);
            app.flash(message);
        }
        Effect::EditFile { path, line } => {
            let outcome = crate::tui::editor::edit(&path, line, app.mouse);
            app.redraw = true;
            match outcome {
                // The rows watching the file reload by themselves (and only they).
                Ok(status) if status.success() => {
                    app.flash(format!("edited {}:{line}", path.display()))
                }
                Ok(status) => app.flash(format!("the editor ended with {status}")),
                Err(e) => app.flash(e.to_string()),
            }
        }
        Effect::Copy { text, what, file } => {
            crate::tui::app::yank::deliver(app, &text, &what, file)
        }
        Effect::ExportPicture { stem, svg, html } => {
            let message = crate::tui::app::picture::write_picture(&stem, &svg, &html);
            app.flash(message);
        }
    }
}
