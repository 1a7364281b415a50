//! The `E` key: the current line's rows as a picture to take away, written as an SVG image and
//! an HTML page beside each other (`toklab::picture`, as `toklab render` draws them). The
//! action only builds the documents; the event loop writes them under a free name in the
//! folder the workbench was started in and names the files in the status bar.

use std::path::{Path, PathBuf};

use super::{App, Effect};
use toklab::picture::{Picture, PictureLine, PictureRow};

impl App {
    /// Queues the current line's picture for writing.
    pub(super) fn export_picture(&mut self) {
        if self.chat.is_some() {
            self.flash("a picture draws one text under every row; a conversation's rows each have their own prompt (toklab chat --format json gives each)");
            return;
        }
        let number = self.doc.line + 1;
        let title = match &self.doc.lines.path {
            Some(path) => format!("{} · line {number}", path.display()),
            None => format!("line {number}"),
        };
        let rows = self
            .rows
            .iter()
            .map(|row| PictureRow {
                label: &row.setup.label,
                tokens: if row.is_loading() {
                    Err("still loading")
                } else if let Some(error) = row.error() {
                    Err(error)
                } else if row.stale {
                    Err("still tokenizing this line")
                } else {
                    Ok(&row.tokens)
                },
            })
            .collect();
        let picture = Picture {
            title,
            lines: vec![PictureLine {
                number,
                text: &self.doc.text,
                rows,
            }],
        };
        let svg = toklab::picture::svg(&picture);
        let html = toklab::picture::html(&picture);
        let stem = self
            .workspace
            .start_folder()
            .join(format!("toklab-line{number}"));
        self.effects.push(Effect::ExportPicture { stem, svg, html });
    }
}

/// `stem.svg` and `stem.html`, or with `-2`, `-3`, … when either exists already, so an export
/// never replaces a file.
pub fn free_names(stem: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let name = format!(
            "{}{suffix}",
            stem.file_name().unwrap_or_default().to_string_lossy()
        );
        (
            stem.with_file_name(format!("{name}.svg")),
            stem.with_file_name(format!("{name}.html")),
        )
    };
    std::iter::once(String::new())
        .chain((2..).map(|n| format!("-{n}")))
        .map(|suffix| with(&suffix))
        .find(|(svg, html)| !svg.exists() && !html.exists())
        .expect("some suffix is free")
}

/// Writes the picture's two files; the status message names them (or says what failed).
pub fn write_picture(stem: &Path, svg: &str, html: &str) -> String {
    let (svg_path, html_path) = free_names(stem);
    // Free names, written as new files: one that appeared meanwhile is not replaced.
    use toklab::core::files::{Expect, write_bytes};
    let written = write_bytes(&svg_path, &Expect::Absent, svg.as_bytes())
        .and_then(|_| write_bytes(&html_path, &Expect::Absent, html.as_bytes()));
    // The names first, so a narrow status bar still shows them.
    let name = |path: &Path| {
        path.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    match written {
        Ok(_) => format!(
            "wrote {} and {} in {}",
            name(&svg_path),
            name(&html_path),
            stem.parent().unwrap_or(Path::new(".")).display()
        ),
        Err(e) => format!("could not write the picture: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::Action;
    use crate::tui::app::tests::app;

    #[test]
    fn the_key_exports_the_current_line_with_the_row_labels() {
        let mut app = app("a b\nx y z", &["one=ws", "words"]);
        assert_eq!(app.rows[0].setup.label, "one");
        assert_eq!(app.rows[0].setup.spec, "ws");
        app.apply(Action::LineDown);
        app.apply(Action::ExportPicture);
        let effects = app.take_effects();
        let [Effect::ExportPicture { stem, svg, html }] = effects.as_slice() else {
            panic!("one picture to write: {effects:?}");
        };
        assert!(stem.ends_with("toklab-line2"), "{}", stem.display());
        assert!(
            svg.contains(">one</text>") && svg.contains(">words</text>"),
            "{svg}"
        );
        assert!(svg.contains(">line 2: x y z</text>"), "{svg}");
        assert_eq!(
            html.matches("<span class=\"t\"").count(),
            6,
            "3 tokens in each row"
        );
    }

    #[test]
    fn a_row_added_under_a_taken_label_gets_a_number() {
        let mut app = app("a b", &["one=ws"]);
        app.rows.add(crate::tui::app::RowSetup::new("one=words"));
        assert_eq!(app.rows[1].setup.label, "one#2");
        assert_eq!(app.rows[1].setup.spec, "words");
    }

    #[test]
    fn names_are_never_taken() {
        let temp = tempfile::tempdir().unwrap();
        let stem = temp.path().join("toklab-line3");
        let (svg, html) = free_names(&stem);
        assert_eq!(svg, temp.path().join("toklab-line3.svg"));
        assert_eq!(html, temp.path().join("toklab-line3.html"));
        std::fs::write(&html, "").unwrap();
        let message = write_picture(&stem, "<svg/>", "<html/>");
        assert_eq!(
            message,
            format!(
                "wrote toklab-line3-2.svg and toklab-line3-2.html in {}",
                temp.path().display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(temp.path().join("toklab-line3-2.svg")).unwrap(),
            "<svg/>"
        );
    }
}
