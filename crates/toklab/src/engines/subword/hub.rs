//! Models already in the local HuggingFace cache: `ORG/NAME` resolved to a tokenizer file
//! without any network access, and the list of what the cache holds (`toklab models`).
//!
//! The cache folder is `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`;
//! a model is `models--ORG--NAME/snapshots/REV/`, the revision `refs/main` names when it is
//! there, else any snapshot (newest first). In a snapshot the tokenizer is `tokenizer.json`,
//! else `tokenizer.model` (SentencePiece), else `vocab.txt` (WordPiece).
//!
//! For a loader: a spec argument that is not a file and looks like `ORG/NAME` (one `/`, no
//! other path syntax) goes through [`resolve`]; [`looks_like_repo`] tells.

use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};

/// The tokenizer files of a snapshot, in the order they are preferred.
pub const TOKENIZER_FILES: &[&str] = &["tokenizer.json", "tokenizer.model", "vocab.txt"];

/// The cache folder, from the environment as `huggingface_hub` reads it.
pub fn cache_dir() -> PathBuf {
    cache_dir_from(|name| std::env::var_os(name))
}

fn cache_dir_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    if let Some(dir) = var("HF_HUB_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(home) = var("HF_HOME") {
        return PathBuf::from(home).join("hub");
    }
    PathBuf::from(var("HOME").unwrap_or_default()).join(".cache/huggingface/hub")
}

/// Whether `arg` reads as a repository name `ORG/NAME` rather than a path.
pub fn looks_like_repo(arg: &str) -> bool {
    let mut parts = arg.split('/');
    let name_ok = |s: &str| {
        !s.is_empty()
            && s != "."
            && s != ".."
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    matches!((parts.next(), parts.next(), parts.next()), (Some(org), Some(name), None) if name_ok(org) && name_ok(name))
}

/// The tokenizer file of model `ORG/NAME` in the default cache.
pub fn resolve(name: &str) -> Result<PathBuf> {
    resolve_in(&cache_dir(), name)
}

/// The tokenizer file of model `ORG/NAME` in cache folder `cache`; the error lists every
/// place looked in.
pub fn resolve_in(cache: &Path, name: &str) -> Result<PathBuf> {
    let (org, model) = name
        .split_once('/')
        .filter(|_| looks_like_repo(name))
        .ok_or_else(|| Error::BadSpec {
            spec: name.to_string(),
            message: "a HuggingFace model is named ORG/NAME".into(),
            usage: String::new(),
        })?;
    let repo = cache.join(format!("models--{org}--{model}"));
    let snapshots = snapshots(&repo);
    for snapshot in &snapshots {
        for file in TOKENIZER_FILES {
            let path = snapshot.join(file);
            if path.is_file() {
                return Ok(path);
            }
        }
    }
    let looked = match snapshots.is_empty() {
        true => format!("{} (no snapshots)", repo.join("snapshots").display()),
        false => snapshots
            .iter()
            .map(|s| format!("{}/{{{}}}", s.display(), TOKENIZER_FILES.join(",")))
            .collect::<Vec<_>>()
            .join("; "),
    };
    Err(Error::io(
        repo,
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "model {name} is not in the local HuggingFace cache (no network is used); looked for {looked}; the cache is $HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub"
            ),
        ),
    ))
}

/// The snapshot folders of a repository: `refs/main`'s first, then the others newest first.
fn snapshots(repo: &Path) -> Vec<PathBuf> {
    let mut found: Vec<(std::time::SystemTime, PathBuf)> =
        std::fs::read_dir(repo.join("snapshots"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| {
                let time = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                (time, e.path())
            })
            .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut paths: Vec<PathBuf> = found.into_iter().map(|(_, p)| p).collect();
    if let Ok(main) = std::fs::read_to_string(repo.join("refs/main")) {
        let main = repo.join("snapshots").join(main.trim());
        if let Some(at) = paths.iter().position(|p| *p == main) {
            let first = paths.remove(at);
            paths.insert(0, first);
        }
    }
    paths
}

/// A model in the cache: its name and tokenizer file (`None`: no tokenizer file in it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedModel {
    /// `ORG/NAME`.
    pub name: String,
    /// What [`resolve_in`] finds for it.
    pub tokenizer: Option<PathBuf>,
}

/// Every model of the cache folder `cache`, by name.
pub fn list_in(cache: &Path) -> Vec<CachedModel> {
    let mut models: Vec<CachedModel> = std::fs::read_dir(cache)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let folder = e.file_name().to_string_lossy().to_string();
            let rest = folder.strip_prefix("models--")?;
            let (org, model) = rest.split_once("--")?;
            let name = format!("{org}/{model}");
            Some(CachedModel {
                tokenizer: resolve_in(cache, &name).ok(),
                name,
            })
        })
        .collect();
    models.sort_by(|a, b| a.name.cmp(&b.name));
    models
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(cache: &Path, repo: &str, rev: &str, files: &[&str]) -> PathBuf {
        let dir = cache.join(repo).join("snapshots").join(rev);
        std::fs::create_dir_all(&dir).unwrap();
        for f in files {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        dir
    }

    #[test]
    fn resolves_in_a_cache_layout_and_says_where_it_looked() {
        let cache = tempfile::tempdir().unwrap();
        let c = cache.path();
        let json = snapshot(
            c,
            "models--org--bert",
            "abc",
            &["vocab.txt", "tokenizer.json"],
        );
        assert_eq!(
            resolve_in(c, "org/bert").unwrap(),
            json.join("tokenizer.json")
        );
        let spm = snapshot(
            c,
            "models--org--t5",
            "r1",
            &["tokenizer.model", "config.json"],
        );
        assert_eq!(
            resolve_in(c, "org/t5").unwrap(),
            spm.join("tokenizer.model")
        );
        // refs/main picks the snapshot.
        snapshot(c, "models--org--two", "old", &["vocab.txt"]);
        let main = snapshot(c, "models--org--two", "new", &["tokenizer.json"]);
        std::fs::create_dir_all(c.join("models--org--two/refs")).unwrap();
        std::fs::write(c.join("models--org--two/refs/main"), "new\n").unwrap();
        assert_eq!(
            resolve_in(c, "org/two").unwrap(),
            main.join("tokenizer.json")
        );
        snapshot(c, "models--org--empty", "r", &["config.json"]);
        let e = resolve_in(c, "org/empty").unwrap_err().to_string();
        assert!(
            e.contains("tokenizer.json,tokenizer.model,vocab.txt") && e.contains("no network"),
            "{e}"
        );
        let e = resolve_in(c, "org/absent").unwrap_err().to_string();
        assert!(
            e.contains("models--org--absent") && e.contains("no snapshots"),
            "{e}"
        );
        let names: Vec<String> = list_in(c).into_iter().map(|m| m.name).collect();
        assert_eq!(names, ["org/bert", "org/empty", "org/t5", "org/two"]);
    }

    #[test]
    fn repository_names_and_the_cache_folder() {
        assert!(looks_like_repo("meta-llama/Llama-3.2-1B"));
        assert!(
            !looks_like_repo("./x/y") && !looks_like_repo("a/b/c") && !looks_like_repo("x.json")
        );
        let env = |pairs: &'static [(&str, &str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).into())
            }
        };
        assert_eq!(
            cache_dir_from(env(&[("HF_HUB_CACHE", "/c"), ("HF_HOME", "/h")])),
            PathBuf::from("/c")
        );
        assert_eq!(
            cache_dir_from(env(&[("HF_HOME", "/h")])),
            PathBuf::from("/h/hub")
        );
        assert_eq!(
            cache_dir_from(env(&[("HOME", "/u")])),
            PathBuf::from("/u/.cache/huggingface/hub")
        );
    }
}
