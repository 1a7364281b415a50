//! Asking before a workspace makes toklab run foma. A workspace is a file people send each
//! other; a row `fst:grammar.xfst` in it compiles the script with foma when the row loads. The
//! script is checked ([`toklab::engines::fst`] refuses commands that reach the shell or files
//! unless `?allow=files`), and still foma runs only once the user agreed to that script's
//! content: agreements are remembered by a hash of the content (and of whether files are
//! allowed) in the cache folder compiled scripts already use, so an unchanged script is asked
//! about once, and an edited one again. Specs typed on the command line are the user's own and
//! are not asked about.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use toklab::core::files::{ContentHash, Expect, Stamp, write_bytes};
use toklab::engines::fst::xfst;
use toklab::{Registry, Spec};

/// A script a workspace row would compile: its file and whether the row allows it files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub path: PathBuf,
    pub allow_files: bool,
}

/// The XFST script `spec` (resolved against `base`) would compile, if it names one.
pub fn script_of(spec: &str, base: &Path) -> Option<Script> {
    let registry = Registry::builtin();
    let kind = registry.kind(Spec::kind_name(spec))?;
    if kind.name != "fst" {
        return None;
    }
    let mut parsed = Spec::parse_as(kind, spec, base).ok()?;
    let path = parsed.path();
    let allow_files = parsed.take_option("allow").is_some();
    xfst::is_script(&path).then_some(Script { path, allow_files })
}

/// The file agreements are kept in.
pub fn store() -> PathBuf {
    xfst::cache_dir().join("agreed")
}

/// Asks about each script not agreed to yet (`ask` gets the script and returns the answer)
/// and remembers the agreements in `store`. Returns the scripts the user declined (and those
/// that cannot be read, which nothing will compile either).
pub fn settle(
    scripts: &[Script],
    store: &Path,
    ask: &mut dyn FnMut(&Script) -> bool,
) -> std::io::Result<Vec<PathBuf>> {
    let (known, stamp) = match Stamp::read(store) {
        Ok((bytes, stamp)) => (String::from_utf8_lossy(&bytes).into_owned(), Some(stamp)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), None),
        Err(e) => return Err(e),
    };
    let agreed: HashSet<&str> = known
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let mut added = String::new();
    let mut declined = Vec::new();
    for script in scripts {
        let Ok(content) = std::fs::read(&script.path) else {
            declined.push(script.path.clone());
            continue;
        };
        let mut hash = ContentHash::default();
        hash.feed(if script.allow_files {
            b"files\0"
        } else {
            b"memory\0"
        });
        hash.feed(&content);
        let key = format!("{:016x}", hash.finish());
        if agreed.contains(key.as_str()) || added.contains(&key) {
            continue;
        }
        if ask(script) {
            added.push_str(&format!("{key}\t{}\n", script.path.display()).replace('\r', " "));
        } else {
            declined.push(script.path.clone());
        }
    }
    if !added.is_empty() {
        if let Some(dir) = store.parent() {
            std::fs::create_dir_all(dir)?;
        }
        write_bytes(
            store,
            &Expect::Unchanged(stamp),
            format!("{known}{added}").as_bytes(),
        )
        .map_err(std::io::Error::other)?;
    }
    Ok(declined)
}

/// The question, for a terminal. Both names come from the workspace someone sent, so they are
/// shown escaped and on one line: a carriage return or an escape sequence in a script's name
/// could otherwise redraw the question and hide what the user is agreeing to.
pub fn question(script: &Script, workspace: &Path) -> String {
    use toklab::core::display::{Keep, terminal_safe};
    let files = if script.allow_files {
        " with ?allow=files (it may then read and write files and run programs)"
    } else {
        ""
    };
    let shown =
        |path: &Path| terminal_safe(&path.display().to_string(), Keep::Nothing).into_owned();
    format!(
        "toklab: the workspace {} compiles {} with foma{files}. Compile it? [y/N] ",
        shown(workspace),
        shown(&script.path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_is_asked_about_once_per_content() {
        let temp = tempfile::tempdir().unwrap();
        let script = temp.path().join("g.xfst");
        std::fs::write(&script, "regex a ;\n").unwrap();
        let store = temp.path().join("cache/agreed");
        let found = script_of("fst:g.xfst", temp.path()).unwrap();
        assert_eq!(found.path, script);
        assert!(script_of("fst:g.fst", temp.path()).is_none());
        assert!(script_of("rules:g.xfst", temp.path()).is_none());
        let scripts = [found];
        let mut asked = 0;
        // Declined: not remembered, asked again next time.
        let declined = settle(&scripts, &store, &mut |_| {
            asked += 1;
            false
        })
        .unwrap();
        assert_eq!(declined.len(), 1);
        assert_eq!(declined[0], script);
        let declined = settle(&scripts, &store, &mut |_| {
            asked += 1;
            true
        })
        .unwrap();
        assert!(declined.is_empty());
        assert_eq!(asked, 2);
        // Agreed: not asked again while the content is the same.
        settle(&scripts, &store, &mut |_| panic!("asked again")).unwrap();
        // Edited: asked again; with files allowed: asked again too.
        std::fs::write(&script, "regex b ;\n").unwrap();
        assert_eq!(settle(&scripts, &store, &mut |_| false).unwrap().len(), 1);
        let allowing = [script_of("fst:g.xfst?allow=files", temp.path()).unwrap()];
        assert!(allowing[0].allow_files);
        std::fs::write(&script, "regex a ;\n").unwrap();
        assert_eq!(settle(&allowing, &store, &mut |_| false).unwrap().len(), 1);
    }

    /// A script named to redraw the line (a carriage return, then an escape sequence and text
    /// that hides `?allow=files`) is shown with its controls as pictures, on one line.
    #[test]
    fn the_question_shows_hostile_names_escaped() {
        let script = Script {
            path: PathBuf::from("g\r\u{1b}[2Kok.xfst\n\u{202e}"),
            allow_files: true,
        };
        let asked = question(&script, Path::new("ws\u{9b}.toml"));
        assert!(
            !asked
                .chars()
                .any(toklab::core::display::is_terminal_control),
            "{asked:?}"
        );
        assert!(asked.contains("g␍␛[2Kok.xfst␊⟨U+202E⟩"), "{asked}");
        assert!(asked.contains("ws⟨U+009B⟩.toml"), "{asked}");
        assert!(asked.contains("?allow=files"), "{asked}");
    }
}
