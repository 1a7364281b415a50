//! Workspaces: a TOML file naming the text and the tokenizers to show, so a set-up can be
//! reopened and shared. Paths inside are relative to the workspace file's folder.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use toklab::core::error::{Error, Result};

/// The lower pane's views a workspace can open on, as its file names them (the workbench
/// converts the name to its view).
pub const VIEW_NAMES: [&str; 6] = ["trace", "tokens", "align", "merges", "train", "stats"];

/// The colour themes a workspace can ask for, as its file names them (the workbench converts
/// the name to its theme).
pub const THEME_NAMES: [&str; 4] = ["dark", "light", "plain", "high-contrast"];

/// A workspace as written in its file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workspace {
    /// The text file to open, relative to the workspace's folder.
    pub text: Option<String>,
    /// The lower pane's view when the workspace opens (`trace`, `tokens`, `stats`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// Percent of the screen height the lower pane takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<u16>,
    /// The colour theme (`dark`, `light`, `plain`, `high-contrast`); `--theme` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// The large-print layout of the lesson views (padded token cells, spaced lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_print: Option<bool>,
    #[serde(default, rename = "tokenizer")]
    pub tokenizers: Vec<TokenizerEntry>,
    /// The folder the workspace file is in; relative paths resolve against it.
    #[serde(skip)]
    pub base: PathBuf,
}

/// One row of the side-by-side view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenizerEntry {
    pub spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A colour name or `#rrggbb` for the row's label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

impl TokenizerEntry {
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.spec)
    }
}

impl Workspace {
    pub fn load(path: &Path) -> Result<Workspace> {
        let source = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let mut workspace: Workspace = toml::from_str(&source).map_err(|e| {
            let line = e
                .span()
                .map(|span| source[..span.start].matches('\n').count() + 1);
            Error::format(path, line, e.message().to_string())
        })?;
        workspace.check(path, &source)?;
        workspace.base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(workspace)
    }

    /// Values TOML accepts but the workbench cannot use (a view or a colour with a typo) are
    /// errors at the line that has them, not settings silently dropped.
    fn check(&self, path: &Path, source: &str) -> Result<()> {
        let line_of = |value: &str| {
            let quoted = format!("\"{value}\"");
            source
                .lines()
                .position(|l| l.contains(&quoted))
                .map(|i| i + 1)
        };
        // Theme names are matched as `--theme` matches them: in any case.
        let known = [
            ("view", &self.view, &VIEW_NAMES[..], false),
            ("theme", &self.theme, &THEME_NAMES[..], true),
        ];
        for (what, value, names, any_case) in known {
            let matches = |name: &&str| match any_case {
                true => name.eq_ignore_ascii_case(value.as_deref().unwrap_or_default()),
                false => Some(*name) == value.as_deref(),
            };
            if let Some(value) = value
                && !names.iter().any(matches)
            {
                return Err(Error::format(
                    path,
                    line_of(value),
                    format!("unknown {what} `{value}`; {what}s: {}", names.join(", ")),
                ));
            }
        }
        for entry in &self.tokenizers {
            if let Some(colour) = &entry.colour
                && colour.parse::<ratatui::style::Color>().is_err()
            {
                return Err(Error::format(
                    path,
                    line_of(colour),
                    format!(
                        "unknown colour `{colour}` for `{}`; use a name (red, lightblue, …), \
                         a number 0–255 or #rrggbb",
                        entry.label()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Writes the workspace as TOML (paths stay as they are: relative to its folder).
    /// An existing file is edited in place: its comments, key order and layout stay.
    pub fn save(&self, path: &Path) -> Result<()> {
        let existing = std::fs::read_to_string(path).ok();
        let header = format!(
            "# toklab workspace: `toklab open {}` restores it.\n",
            path.display()
        );
        let text = crate::workspace_toml::render(existing.as_deref(), self, &header);
        std::fs::write(path, text).map_err(|e| Error::io(path, e))
    }

    /// The text file, resolved against the workspace's folder.
    pub fn text_path(&self) -> Option<PathBuf> {
        self.text.as_ref().map(|t| self.base.join(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reports_errors_with_line() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let good = dir.join("good.toml");
        std::fs::write(
            &good,
            "text = \"s.txt\"\n[[tokenizer]]\nspec = \"ws\"\nlabel = \"white\"\n",
        )
        .unwrap();
        let ws = Workspace::load(&good).unwrap();
        assert_eq!(ws.tokenizers[0].label(), "white");
        assert_eq!(ws.text_path().unwrap(), dir.join("s.txt"));

        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "text = \"s.txt\"\n[[tokenizer]]\nspek = \"ws\"\n").unwrap();
        let e = Workspace::load(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.toml:3") && e.contains("spek"), "{e}");
    }

    #[test]
    fn a_view_or_a_colour_with_a_typo_is_an_error_at_its_line() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("w.toml");
        std::fs::write(&file, "text = \"s.txt\"\nview = \"nope\"\n").unwrap();
        let e = Workspace::load(&file).unwrap_err().to_string();
        assert!(e.contains("w.toml:2: unknown view `nope`; views: "), "{e}");
        assert!(e.contains("tokens"), "the valid views are listed: {e}");
        std::fs::write(
            &file,
            "[[tokenizer]]\nspec = \"ws\"\ncolour = \"chartreuse\"\n[[tokenizer]]\nspec = \"words\"\ncolour = \"#a0c8ff\"\n",
        )
        .unwrap();
        let e = Workspace::load(&file).unwrap_err().to_string();
        assert!(
            e.contains("w.toml:3: unknown colour `chartreuse` for `ws`"),
            "{e}"
        );
        std::fs::write(
            &file,
            "view = \"tokens\"\n[[tokenizer]]\nspec = \"ws\"\ncolour = \"lightblue\"\n",
        )
        .unwrap();
        assert!(Workspace::load(&file).is_ok());
    }
}
