//! A model's tokenizer files fetched from the hub into the HuggingFace cache layout, so that
//! `transformers` finds what toklab fetched and the other way round:
//! `models--ORG--NAME/blobs/ETAG` holds the bytes, `snapshots/COMMIT/FILE` links to the blob,
//! `refs/REVISION` names the commit. Each file is written whole (temporary file, rename)
//! before anything points at it, so a broken download leaves nothing that looks complete.

use std::path::{Path, PathBuf};

use super::error::{DownloadError, cache_error};
use super::http::{self, Answer, temp_name};
use super::settings::Settings;
use super::{ModelName, TOKENIZER_FILES};

/// The file fetched along with the tokenizer when the model has it (special tokens, casing).
const CONFIG_FILE: &str = "tokenizer_config.json";

/// Downloads the first tokenizer file the model has at `revision` (and its
/// `tokenizer_config.json`) into the cache; the path of the tokenizer file in its snapshot.
pub(crate) fn download(settings: &Settings, model: &ModelName) -> Result<PathBuf, DownloadError> {
    let revision = model.revision.as_deref().unwrap_or("main");
    let mut tokenizer = None;
    for file in TOKENIZER_FILES {
        if let Some(path) = fetch_file(settings, model, revision, file)? {
            tokenizer = Some(path);
            break;
        }
    }
    let Some(tokenizer) = tokenizer else {
        return Err(DownloadError::NotFound {
            url: format!("{}/{}", settings.endpoint, model.repo()),
            reason: format!(
                "the model has none of {} at revision {revision}",
                TOKENIZER_FILES.join(", ")
            ),
        });
    };
    fetch_file(settings, model, revision, CONFIG_FILE)?;
    Ok(tokenizer)
}

/// What the hub says about a file besides its bytes.
#[derive(Default)]
struct Meta {
    commit: Option<String>,
    etag: Option<String>,
}

/// Fetches one file into the cache; `None` when the model has no such file.
fn fetch_file(
    settings: &Settings,
    model: &ModelName,
    revision: &str,
    file: &str,
) -> Result<Option<PathBuf>, DownloadError> {
    let url = format!(
        "{}/{}/resolve/{}/{file}",
        settings.endpoint,
        model.repo(),
        revision.replace('/', "%2F")
    );
    let token = settings
        .token
        .as_deref()
        .map(|t| (settings.endpoint.as_str(), t));
    let mut meta = Meta::default();
    let answer = http::get(&url, token, |a| {
        let text = |name| a.header(name).map(str::to_string);
        meta.commit = meta.commit.take().or_else(|| text("X-Repo-Commit"));
        meta.etag = meta
            .etag
            .take()
            .or_else(|| text("X-Linked-Etag").or_else(|| text("ETag")));
    })?;
    if answer.status != 200 {
        return match refusal(settings, model, revision, answer) {
            None => Ok(None),
            Some(e) => Err(e),
        };
    }
    let commit = meta
        .commit
        .filter(|c| !c.is_empty() && c.len() <= 64 && c.bytes().all(|b| b.is_ascii_alphanumeric()))
        .ok_or_else(|| bad(&url, "no usable X-Repo-Commit header"))?;
    let etag = meta
        .etag
        .map(|e| e.trim_start_matches("W/").trim_matches('"').to_string())
        .filter(|e| {
            !e.is_empty()
                && e.len() <= 128
                && e.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .ok_or_else(|| bad(&url, "no usable ETag header"))?;
    let folder = settings.cache.join(model.folder());
    let blob = folder.join("blobs").join(&etag);
    if !blob.is_file() {
        store_blob(settings, answer, &blob, &etag)?;
    }
    let snapshot = folder.join("snapshots").join(&commit).join(file);
    link(&blob, &etag, &snapshot)?;
    if revision != commit {
        write_whole(&folder.join("refs").join(revision), commit.as_bytes())?;
    }
    Ok(Some(snapshot))
}

fn bad(url: &str, message: &str) -> DownloadError {
    DownloadError::BadAnswer {
        url: url.to_string(),
        message: message.to_string(),
    }
}

/// Writes the body to `blob`, checked against the ETag when the ETag is a sha256 (the hub's
/// large files).
fn store_blob(
    settings: &Settings,
    answer: Answer,
    blob: &Path,
    etag: &str,
) -> Result<(), DownloadError> {
    let url = answer.url.clone();
    let partial = http::save(answer, blob, &settings.progress)?;
    let is_sha256 = etag.len() == 64 && etag.bytes().all(|b| b.is_ascii_hexdigit());
    if is_sha256 && !partial.sha256.eq_ignore_ascii_case(etag) {
        return Err(DownloadError::HashMismatch {
            url,
            expected: etag.to_string(),
            actual: partial.sha256.clone(),
        });
    }
    partial.keep(blob)
}

/// `snapshot` made to point at `blob` (`../../blobs/ETAG`), replacing what was there in one
/// rename; a copy where the system has no symbolic links.
fn link(blob: &Path, etag: &str, snapshot: &Path) -> Result<(), DownloadError> {
    let dir = snapshot.parent().expect("a snapshot file is in a folder");
    std::fs::create_dir_all(dir).map_err(cache_error(dir))?;
    let temp = temp_name(snapshot);
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(Path::new("../../blobs").join(etag), &temp);
    #[cfg(not(unix))]
    let made = {
        let _ = etag;
        std::fs::copy(blob, &temp).map(drop)
    };
    let _ = blob;
    made.map_err(cache_error(&temp))?;
    std::fs::rename(&temp, snapshot).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        cache_error(snapshot)(e)
    })
}

/// `bytes` written to `path` whole: a temporary file, then a rename.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), DownloadError> {
    let dir = path.parent().expect("a ref is in a folder");
    std::fs::create_dir_all(dir).map_err(cache_error(dir))?;
    let temp = temp_name(path);
    std::fs::write(&temp, bytes)
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            cache_error(path)(e)
        })
}

/// The error for an answer that is not the file, read as the hub means it (its
/// `X-Error-Code`); `None` when only this file is missing, so the next kind is tried.
fn refusal(
    settings: &Settings,
    model: &ModelName,
    revision: &str,
    answer: Answer,
) -> Option<DownloadError> {
    let page = format!("{}/{}", settings.endpoint, model.repo());
    let code = answer
        .header("X-Error-Code")
        .unwrap_or_default()
        .to_string();
    let url = answer.url.clone();
    let token_hint = match settings.token {
        Some(_) => "the token sent (HF_TOKEN or the token file) does not give access",
        None => "set HF_TOKEN (or log in with `hf auth login`, which writes the token file)",
    };
    let reason = match (code.as_str(), answer.status) {
        ("EntryNotFound", _) | ("", 404) => return None,
        ("GatedRepo", _) => format!(
            "{} is a gated model: accept its conditions at {page}, then {token_hint}",
            model.repo()
        ),
        ("RepoNotFound", _) => {
            return Some(DownloadError::NotFound {
                url,
                reason: format!(
                    "no model {} at {} (if it is private: {token_hint})",
                    model.repo(),
                    settings.endpoint
                ),
            });
        }
        ("RevisionNotFound", _) => {
            return Some(DownloadError::NotFound {
                url,
                reason: format!("{} has no revision `{revision}`", model.repo()),
            });
        }
        (_, 401 | 403) => format!(
            "{} needs a token (a gated or private model): {token_hint}{}",
            model.repo(),
            answer.detail()
        ),
        _ => return Some(http::refusal(answer)),
    };
    Some(DownloadError::Denied { url, reason })
}
