//! Models by name: `ORG/NAME[@REVISION]` from the HuggingFace hub and tiktoken's encodings
//! ([`tiktoken`]), found in the caches those libraries keep and, when not there, downloaded
//! into them once (the `download` feature), so toklab, `transformers` and tiktoken share the
//! files. Also the list of what the HuggingFace cache holds (`toklab models`).
//!
//! The cache folder is `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`;
//! a model is `models--ORG--NAME/snapshots/COMMIT/`. Without a revision the snapshot
//! `refs/main` names comes first, then any other (newest first); with one, only the snapshot
//! of that commit or of `refs/REVISION`. In a snapshot the tokenizer is `tokenizer.json`,
//! else `tokenizer.model` (SentencePiece), else `vocab.txt` (WordPiece). A model in the cache
//! is used as it is: the hub is not asked whether it changed.
//!
//! For a loader: a spec argument that is not a file and looks like `ORG/NAME[@REVISION]` goes
//! through [`resolve`]; [`looks_like_repo`] tells.

#[cfg(feature = "download")]
mod download;
mod error;
#[cfg(feature = "download")]
mod http;
mod settings;
pub mod tiktoken;

use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};

pub use error::DownloadError;
pub use settings::{DEFAULT_ENDPOINT, Progress, Settings, Transfer};

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

/// A model's name as a spec gives it: `ORG/NAME`, and a revision after `@` (a branch, tag or
/// commit; `main` when none is given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelName {
    /// The owner.
    pub org: String,
    /// The model.
    pub name: String,
    /// The revision after `@`, if any.
    pub revision: Option<String>,
}

impl ModelName {
    /// The name in `arg`, or `None` if `arg` reads as a path instead. Every part is kept to
    /// characters that are safe in a file name, since each becomes one in the cache.
    pub fn parse(arg: &str) -> Option<ModelName> {
        let (repo, revision) = match arg.split_once('@') {
            Some((repo, revision)) => (repo, Some(revision)),
            None => (arg, None),
        };
        let part_ok = |s: &str| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        let mut parts = repo.split('/');
        let (Some(org), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
            return None;
        };
        let revision_ok = revision.is_none_or(|r| r.split('/').all(part_ok));
        (part_ok(org) && part_ok(name) && revision_ok).then(|| ModelName {
            org: org.to_string(),
            name: name.to_string(),
            revision: revision.map(str::to_string),
        })
    }

    /// `ORG/NAME`.
    pub fn repo(&self) -> String {
        format!("{}/{}", self.org, self.name)
    }

    /// The model's folder in the cache, `models--ORG--NAME`.
    pub fn folder(&self) -> String {
        format!("models--{}--{}", self.org, self.name)
    }
}

/// Whether `arg` reads as a repository name `ORG/NAME[@REVISION]` rather than a path.
pub fn looks_like_repo(arg: &str) -> bool {
    ModelName::parse(arg).is_some()
}

/// The tokenizer file of model `ORG/NAME[@REVISION]`: from the cache, else downloaded into
/// it, as the environment says ([`Settings::from_env`]).
pub fn resolve(name: &str) -> Result<PathBuf> {
    resolve_with(&Settings::from_env(), name)
}

/// The tokenizer file of a model, from `settings.cache`, else downloaded into it (unless
/// `settings.offline` or the build has no `download` feature).
pub fn resolve_with(settings: &Settings, name: &str) -> Result<PathBuf> {
    let model = parse_or_error(name)?;
    let looked = match find_local(&settings.cache, &model) {
        Ok(path) => return Ok(path),
        Err(missing) => missing.looked,
    };
    let what = format!("model {name}");
    if settings.offline {
        return Err(DownloadError::Offline { what, looked }.into());
    }
    #[cfg(feature = "download")]
    {
        let _ = (what, looked);
        Ok(download::download(settings, &model)?)
    }
    #[cfg(not(feature = "download"))]
    Err(DownloadError::NoDownload { what, looked }.into())
}

fn parse_or_error(name: &str) -> Result<ModelName> {
    ModelName::parse(name).ok_or_else(|| Error::BadSpec {
        spec: name.to_string(),
        message: "a HuggingFace model is named ORG/NAME or ORG/NAME@REVISION".into(),
        usage: String::new(),
    })
}

/// The tokenizer file of model `ORG/NAME[@REVISION]` in cache folder `cache`, never asking
/// the network; the error lists every place looked in.
pub fn resolve_in(cache: &Path, name: &str) -> Result<PathBuf> {
    let model = parse_or_error(name)?;
    find_local(cache, &model).map_err(|NotCached { looked }| {
        Error::io(
            cache.join(model.folder()),
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "model {name} is not in the local HuggingFace cache (no network is used); looked for {looked}; the cache is $HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub"
                ),
            ),
        )
    })
}

/// A model not in the local cache: the places looked in, which every message about it lists
/// so the user can check the path.
#[derive(Debug)]
struct NotCached {
    looked: String,
}

impl std::fmt::Display for NotCached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not in the cache; looked in {}", self.looked)
    }
}

impl std::error::Error for NotCached {}

/// The tokenizer file of `model` in `cache`, or the places looked in.
fn find_local(cache: &Path, model: &ModelName) -> std::result::Result<PathBuf, NotCached> {
    let repo = cache.join(model.folder());
    let snapshots = match &model.revision {
        None => snapshots(&repo),
        Some(revision) => snapshot_of(&repo, revision).into_iter().collect(),
    };
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
    Err(NotCached { looked })
}

/// The snapshot folder of `revision`: a commit names its own; a branch or tag the commit its
/// `refs/` file holds (only a plain commit name is believed, so a ref cannot point outside).
fn snapshot_of(repo: &Path, revision: &str) -> Option<PathBuf> {
    let is_commit = revision.len() == 40 && revision.bytes().all(|b| b.is_ascii_hexdigit());
    let commit = match is_commit {
        true => revision.to_string(),
        false => std::fs::read_to_string(repo.join("refs").join(revision))
            .ok()?
            .trim()
            .to_string(),
    };
    let plain = !commit.is_empty() && commit.bytes().all(|b| b.is_ascii_alphanumeric());
    let dir = repo.join("snapshots").join(commit);
    (plain && dir.is_dir()).then_some(dir)
}

/// Lowercase hex of bytes (digests).
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    fn names_with_revisions_and_names_that_could_leave_the_cache() {
        let m = ModelName::parse("org/model@refs/pr/1").unwrap();
        assert_eq!(
            (m.repo(), m.folder(), m.revision.as_deref()),
            (
                "org/model".into(),
                "models--org--model".into(),
                Some("refs/pr/1")
            )
        );
        assert_eq!(ModelName::parse("org/model").unwrap().revision, None);
        for bad in [
            "org/model@../x",
            "org/model@",
            "org/model@a//b",
            "../model",
            "org/m@a b",
        ] {
            assert!(ModelName::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_revision_resolves_only_to_its_own_snapshot() {
        let cache = tempfile::tempdir().unwrap();
        let c = cache.path();
        let commit = "0123456789abcdef0123456789abcdef01234567";
        let v1 = snapshot(c, "models--org--m", commit, &["tokenizer.json"]);
        snapshot(c, "models--org--m", "other", &["tokenizer.json"]);
        std::fs::create_dir_all(c.join("models--org--m/refs")).unwrap();
        std::fs::write(c.join("models--org--m/refs/v1"), commit).unwrap();
        std::fs::write(c.join("models--org--m/refs/evil"), "../../../evil").unwrap();
        let json = v1.join("tokenizer.json");
        assert_eq!(resolve_in(c, "org/m@v1").unwrap(), json);
        assert_eq!(resolve_in(c, &format!("org/m@{commit}")).unwrap(), json);
        assert!(resolve_in(c, "org/m@evil").is_err());
        assert!(resolve_in(c, "org/m@v2").is_err());
    }

    #[test]
    fn settings_from_the_environment() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".cache/huggingface")).unwrap();
        std::fs::write(home.path().join(".cache/huggingface/token"), "hf_file\n").unwrap();
        let home_dir = home.path().as_os_str().to_owned();
        let with = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let home_dir = home_dir.clone();
            Settings::from_vars(move |name| match name {
                "HOME" => Some(home_dir.clone()),
                _ => pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.into()),
            })
        };
        let plain = with(&[]);
        assert_eq!(plain.endpoint, DEFAULT_ENDPOINT);
        assert_eq!(plain.token.as_deref(), Some("hf_file"));
        assert!(!plain.offline);
        assert_eq!(
            plain.tiktoken_cache,
            Some(std::env::temp_dir().join("data-gym-cache"))
        );
        let set = with(&[
            ("HF_ENDPOINT", "http://127.0.0.1:9/"),
            ("HF_TOKEN", "hf_env"),
            ("HF_HUB_OFFLINE", "yes"),
            ("DATA_GYM_CACHE_DIR", "/d"),
            ("TOKLAB_TIKTOKEN_BASE", "http://127.0.0.1:9/m/"),
        ]);
        assert_eq!(set.endpoint, "http://127.0.0.1:9");
        assert_eq!(set.token.as_deref(), Some("hf_env"));
        assert!(set.offline);
        assert_eq!(set.tiktoken_cache, Some(PathBuf::from("/d")));
        assert_eq!(set.tiktoken_base.as_deref(), Some("http://127.0.0.1:9/m"));
        let first = with(&[("TIKTOKEN_CACHE_DIR", "/t"), ("DATA_GYM_CACHE_DIR", "/d")]);
        assert_eq!(first.tiktoken_cache, Some(PathBuf::from("/t")));
        assert_eq!(with(&[("TIKTOKEN_CACHE_DIR", "")]).tiktoken_cache, None);
        assert!(!with(&[("HF_HUB_OFFLINE", "0")]).offline);
        let path = with(&[("HF_TOKEN_PATH", "/nonexistent/token")]);
        assert_eq!(path.token, None);
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
