//! A model's tokenizer files fetched from the hub into the HuggingFace cache layout, so that
//! `transformers` finds what toklab fetched and the other way round:
//! `models--ORG--NAME/blobs/ETAG` holds the bytes, `snapshots/COMMIT/FILE` links to the blob,
//! `refs/REVISION` names the commit. Each file goes through the one file writer
//! (`core/files.rs`: temporary file, rename) before anything points at it, so a broken
//! download leaves nothing that looks complete.

use std::path::{Path, PathBuf};

use super::error::{DownloadError, cache_error};
use super::http::{self, Answer};
use super::settings::Settings;
use super::{ModelName, TOKENIZER_FILES};
use crate::core::files::{self, Expect, WriteError};

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
    link(&etag, &snapshot)?;
    if revision != commit {
        write_ref(&folder.join("refs").join(revision), &commit)?;
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
/// large files). A blob is named by its content, so one another download put there
/// meanwhile is as good as this one.
fn store_blob(
    settings: &Settings,
    answer: Answer,
    blob: &Path,
    etag: &str,
) -> Result<(), DownloadError> {
    let is_sha256 = etag.len() == 64 && etag.bytes().all(|b| b.is_ascii_hexdigit());
    let sha256 = is_sha256.then_some(etag);
    match http::save(answer, blob, &Expect::Absent, sha256, &settings.progress) {
        Err(DownloadError::Write(WriteError::Exists(_))) => Ok(()),
        other => other,
    }
}

/// `snapshot` made to point at `blob` (`../../blobs/ETAG`), replacing what was there.
fn link(etag: &str, snapshot: &Path) -> Result<(), DownloadError> {
    let dir = snapshot.parent().expect("a snapshot file is in a folder");
    std::fs::create_dir_all(dir).map_err(cache_error(dir))?;
    files::replace_with_link(snapshot, &Path::new("../../blobs").join(etag))
        .map_err(DownloadError::Write)
}

/// `refs/REVISION` made to name `commit` (a revision moves on, so what was there is replaced).
fn write_ref(path: &Path, commit: &str) -> Result<(), DownloadError> {
    let dir = path.parent().expect("a ref is in a folder");
    std::fs::create_dir_all(dir).map_err(cache_error(dir))?;
    files::write_bytes(path, &Expect::Replace, commit.as_bytes())
        .map(drop)
        .map_err(DownloadError::Write)
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
