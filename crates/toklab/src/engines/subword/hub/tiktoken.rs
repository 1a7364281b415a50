//! tiktoken's encodings by name (`tiktoken:cl100k_base`): the rank file from where tiktoken
//! fetches it, checked against the sha256 tiktoken pins, kept where tiktoken keeps it
//! (`$TIKTOKEN_CACHE_DIR`, else `$DATA_GYM_CACHE_DIR`, else `$TMPDIR/data-gym-cache`, under
//! the sha1 of the URL), so either program finds what the other fetched.
//! `TOKLAB_TIKTOKEN_BASE` replaces the URLs' origin (a mirror); the cache name stays that of
//! tiktoken's own URL, and the pinned hash still decides what is kept.

use std::path::PathBuf;

use sha1::Sha1;
use sha2::{Digest, Sha256};

use super::error::DownloadError;
use super::settings::Settings;
use crate::core::files::Stamp;
#[cfg(feature = "download")]
use crate::core::files::{Expect, WriteError};

/// Where tiktoken's rank files are published.
pub const ORIGIN: &str = "https://openaipublic.blob.core.windows.net";

/// An encoding tiktoken downloads: its rank file and that file's pinned hash.
#[derive(Clone, Copy, Debug)]
pub struct Published {
    /// tiktoken's name (`cl100k_base`).
    pub name: &'static str,
    /// toklab's name for the pattern and special tokens (a `?pattern=` value of `tiktoken:`).
    pub encoding: &'static str,
    /// The URL tiktoken fetches the rank file from.
    pub url: &'static str,
    /// The rank file's sha256, as tiktoken's `openai_public.py` pins it.
    pub sha256: &'static str,
}

const P50K: &str = "https://openaipublic.blob.core.windows.net/encodings/p50k_base.tiktoken";
const P50K_SHA: &str = "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069";
const O200K: &str = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken";
const O200K_SHA: &str = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d";

/// The encodings tiktoken publishes (facts from its `tiktoken_ext/openai_public.py`).
pub const PUBLISHED: &[Published] = &[
    Published {
        name: "r50k_base",
        encoding: "r50k",
        url: "https://openaipublic.blob.core.windows.net/encodings/r50k_base.tiktoken",
        sha256: "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    },
    Published {
        name: "p50k_base",
        encoding: "p50k",
        url: P50K,
        sha256: P50K_SHA,
    },
    Published {
        name: "p50k_edit",
        encoding: "p50k_edit",
        url: P50K,
        sha256: P50K_SHA,
    },
    Published {
        name: "cl100k_base",
        encoding: "cl100k",
        url: "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        sha256: "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    },
    Published {
        name: "o200k_base",
        encoding: "o200k",
        url: O200K,
        sha256: O200K_SHA,
    },
    Published {
        name: "o200k_harmony",
        encoding: "o200k_harmony",
        url: O200K,
        sha256: O200K_SHA,
    },
];

/// The published encoding of a name (`cl100k_base`).
pub fn published(name: &str) -> Option<&'static Published> {
    PUBLISHED.iter().find(|p| p.name == name)
}

/// The names [`published`] knows, for messages.
pub fn names() -> String {
    PUBLISHED
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rank file of an encoding: from tiktoken's cache, else downloaded into it, as the
/// environment says ([`Settings::from_env`]).
pub fn resolve(encoding: &Published) -> crate::Result<PathBuf> {
    Ok(resolve_with(&Settings::from_env(), encoding)?)
}

/// The rank file of an encoding, from `settings.tiktoken_cache`, else downloaded into it
/// (unless offline or built without `download`). A cached file whose hash is wrong is
/// fetched again, as tiktoken does.
pub fn resolve_with(settings: &Settings, encoding: &Published) -> Result<PathBuf, DownloadError> {
    let what = format!("tiktoken encoding {}", encoding.name);
    let dir = settings
        .tiktoken_cache
        .as_ref()
        .ok_or_else(|| DownloadError::NoCache { what: what.clone() })?;
    let path = dir.join(super::hex(&Sha1::digest(encoding.url.as_bytes())));
    let mut looked = path.display().to_string();
    let found = match Stamp::read(&path) {
        Ok((bytes, stamp)) => {
            let actual = super::hex(&Sha256::digest(&bytes));
            if actual == encoding.sha256 {
                return Ok(path);
            }
            looked = format!(
                "{looked} (its sha256 {actual} is not the pinned {})",
                encoding.sha256
            );
            Some(stamp)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(cause) => return Err(DownloadError::Cache { path, cause }),
    };
    if settings.offline {
        return Err(DownloadError::Offline { what, looked });
    }
    #[cfg(feature = "download")]
    {
        fetch(settings, encoding, &path, &Expect::Unchanged(found))?;
        Ok(path)
    }
    #[cfg(not(feature = "download"))]
    {
        let _ = found;
        Err(DownloadError::NoDownload { what, looked })
    }
}

/// Downloads the rank file to `path`, keeping it only when its hash is the pinned one and the
/// file is still what was found there (`expect`). When another program replaced it meanwhile
/// its file is kept: used if it is the pinned one, else the error says it changed.
#[cfg(feature = "download")]
fn fetch(
    settings: &Settings,
    encoding: &Published,
    path: &std::path::Path,
    expect: &Expect,
) -> Result<(), DownloadError> {
    let url = match (&settings.tiktoken_base, encoding.url.strip_prefix(ORIGIN)) {
        (Some(base), Some(rest)) => format!("{base}{rest}"),
        _ => encoding.url.to_string(),
    };
    let answer = super::http::get(&url, None, |_| {})?;
    if answer.status != 200 {
        return Err(super::http::refusal(answer));
    }
    let saved = super::http::save(
        answer,
        path,
        expect,
        Some(encoding.sha256),
        &settings.progress,
    );
    match saved {
        Err(DownloadError::Write(WriteError::Changed(_)))
            if std::fs::read(path)
                .is_ok_and(|b| super::hex(&Sha256::digest(&b)) == encoding.sha256) =>
        {
            Ok(())
        }
        other => other,
    }
}
