//! Workspaces: a TOML file naming the text and the tokenizers to show, so a set-up can be
//! reopened and shared. Paths inside are relative to the workspace file's folder.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use toklab::core::error::{Error, Result};
use toklab::core::files::{Expect, Stamp, WriteError, write_bytes};
use toklab::{Registry, Spec};

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
    /// The file as it was read (none for a workspace made in the workbench): saving over it
    /// expects that.
    #[serde(skip)]
    pub on_disk: Option<Stamp>,
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
    /// Reads the workspace at `path`. `views` are the names of the views it may open on: the
    /// workbench hands in its own, so this layer knows nothing of its panes and a new pane
    /// needs no name added here.
    pub fn load(path: &Path, views: &[&str]) -> Result<Workspace> {
        let (bytes, stamp) = Stamp::read(path).map_err(|e| Error::io(path, e))?;
        let source = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Error::format(path, Some(line), "the file is not UTF-8 text")
        })?;
        let mut workspace: Workspace = toml::from_str(&source).map_err(|e| {
            let line = e
                .span()
                .map(|span| source[..span.start].matches('\n').count() + 1);
            Error::format(path, line, e.message().to_string())
        })?;
        workspace.check(path, &source, views)?;
        workspace.base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        workspace.on_disk = Some(stamp);
        Ok(workspace)
    }

    /// Values TOML accepts but the workbench cannot use (a view or a colour with a typo) are
    /// errors at the line that has them, not settings silently dropped.
    fn check(&self, path: &Path, source: &str, views: &[&str]) -> Result<()> {
        let line_of = |value: &str| {
            let quoted = format!("\"{value}\"");
            source
                .lines()
                .position(|l| l.contains(&quoted))
                .map(|i| i + 1)
        };
        // Theme names are matched as `--theme` matches them: in any case.
        let known = [
            ("view", &self.view, views, false),
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

    /// Writes the workspace as TOML at `path` with the one writer, finding there what
    /// `expect` says. Its relative paths (the text, and the file each spec names) are rewritten
    /// relative to `path`'s folder, so the file opens wherever it was saved. An existing file
    /// is edited in place: its comments, key order and layout stay.
    pub fn save(&self, path: &Path, expect: &Expect) -> std::result::Result<Stamp, WriteError> {
        let moved = self.rebased(&folder_of(path));
        let existing = std::fs::read_to_string(path).ok();
        let header = format!(
            "# toklab workspace: `toklab open {}` restores it.\n",
            path.display()
        );
        let text = crate::workspace_toml::render(existing.as_deref(), &moved, &header);
        write_bytes(path, expect, text.as_bytes())
    }

    /// The same workspace with its relative paths made relative to folder `to`.
    pub fn rebased(&self, to: &Path) -> Workspace {
        let mut moved = self.clone();
        if let Some(text) = &self.text
            && Path::new(text).is_relative()
        {
            moved.text = Some(relative_path(&self.base.join(text), to));
        }
        for entry in &mut moved.tokenizers {
            entry.spec = rebase_spec(&entry.spec, &self.base, to);
        }
        moved.base = to.to_path_buf();
        moved
    }

    /// The text file, resolved against the workspace's folder.
    pub fn text_path(&self) -> Option<PathBuf> {
        self.text.as_ref().map(|t| self.base.join(t))
    }
}

/// The folder a file is in (the current folder for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `spec` with the file its argument names (relative to `from`) made relative to `to`. A spec
/// whose kind takes a pattern or a name, an absolute path, or an argument that names no file
/// under `from` (a hub id) is left as written.
pub fn rebase_spec(spec: &str, from: &Path, to: &Path) -> String {
    let registry = Registry::builtin();
    let Some(kind) = registry.kind(Spec::kind_name(spec)) else {
        return spec.to_string();
    };
    let Ok(parsed) = Spec::parse_as(kind, spec, from) else {
        return spec.to_string();
    };
    let arg = Path::new(&parsed.arg);
    if !kind.names_file || parsed.arg.is_empty() || arg.is_absolute() {
        return spec.to_string();
    }
    let file = from.join(arg);
    if !file.exists() {
        return spec.to_string();
    }
    parsed.with_arg(&relative_path(&file, to))
}

/// `path` relative to folder `base`, with `..` steps where it is outside (both taken as the
/// file system has them, links resolved, when they exist); `/` separated.
pub fn relative_path(path: &Path, base: &Path) -> String {
    let absolute = |p: &Path| {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        std::fs::canonicalize(p).unwrap_or_else(|_| {
            std::env::current_dir()
                .map(|d| d.join(p))
                .unwrap_or_else(|_| p.to_path_buf())
        })
    };
    let (path, base) = (absolute(path), absolute(base));
    let (a, b): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.display().to_string();
    }
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        a[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The views these workspaces may open on (the workbench hands in its own).
    const VIEWS: &[&str] = &["trace", "tokens"];

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
        let ws = Workspace::load(&good, VIEWS).unwrap();
        assert_eq!(ws.tokenizers[0].label(), "white");
        assert_eq!(ws.text_path().unwrap(), dir.join("s.txt"));

        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "text = \"s.txt\"\n[[tokenizer]]\nspek = \"ws\"\n").unwrap();
        let e = Workspace::load(&bad, VIEWS).unwrap_err().to_string();
        assert!(e.contains("bad.toml:3") && e.contains("spek"), "{e}");
    }

    #[test]
    fn a_view_or_a_colour_with_a_typo_is_an_error_at_its_line() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("w.toml");
        std::fs::write(&file, "text = \"s.txt\"\nview = \"nope\"\n").unwrap();
        let e = Workspace::load(&file, VIEWS).unwrap_err().to_string();
        assert!(e.contains("w.toml:2: unknown view `nope`; views: "), "{e}");
        assert!(e.contains("tokens"), "the valid views are listed: {e}");
        std::fs::write(
            &file,
            "[[tokenizer]]\nspec = \"ws\"\ncolour = \"chartreuse\"\n[[tokenizer]]\nspec = \"words\"\ncolour = \"#a0c8ff\"\n",
        )
        .unwrap();
        let e = Workspace::load(&file, VIEWS).unwrap_err().to_string();
        assert!(
            e.contains("w.toml:3: unknown colour `chartreuse` for `ws`"),
            "{e}"
        );
        std::fs::write(
            &file,
            "view = \"tokens\"\n[[tokenizer]]\nspec = \"ws\"\ncolour = \"lightblue\"\n",
        )
        .unwrap();
        assert!(Workspace::load(&file, VIEWS).is_ok());
    }
}
