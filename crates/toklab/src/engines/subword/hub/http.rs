//! The one HTTP client of the downloads: a blocking GET that follows redirects by hand (so the
//! hub's headers on the first answer are seen, and the token goes to the hub only), and a
//! body streamed into the cache through the one file writer, hashed on the way, kept only
//! when whole and, where the hash is known, when it is that hash.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::error::{DownloadError, cache_error, server_text};
use super::settings::{Progress, Transfer};
use crate::core::files::{self, Expect, Refused};

/// Redirects followed before giving up (the hub uses one, to its file store).
const MAX_HOPS: usize = 5;

/// One answer: its status, headers and unread body.
pub(crate) struct Answer {
    /// The URL that gave this answer (after redirects).
    pub url: String,
    /// The HTTP status.
    pub status: u16,
    response: ureq::http::Response<ureq::Body>,
}

impl Answer {
    /// A header's value, when present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.response.headers().get(name)?.to_str().ok()
    }

    /// The server's explanation of a refusal, from `X-Error-Message`, else the body's JSON
    /// `error`, as `: text` (empty when it gave none).
    pub fn detail(mut self) -> String {
        let text = match self.header("X-Error-Message") {
            Some(m) => m.to_string(),
            None => {
                let body = self
                    .response
                    .body_mut()
                    .with_config()
                    .limit(64 * 1024)
                    .read_to_string()
                    .unwrap_or_default();
                serde_json::from_str::<serde_json::Value>(&body)
                    .ok()
                    .and_then(|v| v.get("error")?.as_str().map(str::to_string))
                    .unwrap_or_default()
            }
        };
        match server_text(&text) {
            t if t.is_empty() => String::new(),
            t => format!(": {t}"),
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .max_redirects_will_error(false)
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .user_agent(format!("toklab/{}", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

/// GETs `url`, following redirects; `token` goes only to URLs under `token_origin`. `seen`
/// is shown every answer, redirects included, before the next hop.
pub(crate) fn get(
    url: &str,
    token: Option<(&str, &str)>,
    mut seen: impl FnMut(&Answer),
) -> Result<Answer, DownloadError> {
    let agent = agent();
    let mut url = url.to_string();
    for _ in 0..=MAX_HOPS {
        let mut request = agent.get(&url);
        if let Some((origin, token)) = token
            && origin_of(&url) == origin_of(origin)
        {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let response = request.call().map_err(|e| DownloadError::Network {
            url: url.clone(),
            message: e.to_string(),
        })?;
        let answer = Answer {
            url: url.clone(),
            status: response.status().as_u16(),
            response,
        };
        seen(&answer);
        if !(300..400).contains(&answer.status) {
            return Ok(answer);
        }
        let location = answer.header("Location").unwrap_or_default();
        url = match location {
            l if l.starts_with("https://") || l.starts_with("http://") => l.to_string(),
            l if l.starts_with('/') => format!("{}{l}", origin_of(&url)),
            _ => {
                return Err(DownloadError::BadAnswer {
                    url,
                    message: format!("a redirect to `{}`", server_text(location)),
                });
            }
        };
    }
    Err(DownloadError::BadAnswer {
        url,
        message: format!("more than {MAX_HOPS} redirects"),
    })
}

/// `scheme://host[:port]` of a URL.
pub(crate) fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |i| after_scheme + i);
    &url[..end]
}

/// Writes the body of `answer` to `to` through the one file writer, reporting progress. The
/// file is replaced only by a whole body (as long as its `Content-Length`) whose sha256 is
/// `sha256` when one is given, and only when it is what `expect` says; otherwise it stays as
/// it was and no temporary file is left.
pub(crate) fn save(
    answer: Answer,
    to: &Path,
    expect: &Expect,
    sha256: Option<&str>,
    progress: &Progress,
) -> Result<(), DownloadError> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(cache_error(dir))?;
    }
    match files::write_checked(to, expect, |out| body(answer, out, to, sha256, progress)) {
        Ok(_) => Ok(()),
        Err(Refused::Content(e)) => Err(e),
        Err(Refused::Write(e)) => Err(DownloadError::Write(e)),
    }
}

/// Copies the body to `out`, hashing it on the way; an error when it ends short of its
/// `Content-Length` or its hash is not `sha256`.
fn body(
    answer: Answer,
    out: &mut dyn Write,
    to: &Path,
    sha256: Option<&str>,
    progress: &Progress,
) -> Result<(), DownloadError> {
    let total = answer
        .header("Content-Length")
        .and_then(|n| n.trim().parse::<u64>().ok());
    let url = answer.url.clone();
    let mut reader = answer.response.into_body().into_reader();
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut transfer = Transfer {
        url: &url,
        done: 0,
        total,
        finished: false,
    };
    progress.report(&transfer);
    let interrupted = |got| DownloadError::Interrupted {
        url: url.clone(),
        got,
        expected: total.unwrap_or(0),
    };
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) if total.is_some() => return Err(interrupted(transfer.done)),
            Err(e) => {
                return Err(DownloadError::Network {
                    url: url.clone(),
                    message: format!("the download broke off after {} bytes: {e}", transfer.done),
                });
            }
        };
        out.write_all(&buffer[..n]).map_err(cache_error(to))?;
        hasher.update(&buffer[..n]);
        transfer.done += n as u64;
        progress.report(&transfer);
    }
    if total.is_some_and(|t| t != transfer.done) {
        return Err(interrupted(transfer.done));
    }
    let actual = super::hex(&hasher.finalize());
    if let Some(expected) = sha256.filter(|e| !e.eq_ignore_ascii_case(&actual)) {
        return Err(DownloadError::HashMismatch {
            url: url.clone(),
            expected: expected.to_string(),
            actual,
        });
    }
    transfer.finished = true;
    progress.report(&transfer);
    Ok(())
}

/// The error for an answer that is not the file, from its status alone.
pub(crate) fn refusal(answer: Answer) -> DownloadError {
    let url = answer.url.clone();
    let status = answer.status;
    let detail = answer.detail();
    match status {
        401 | 403 => DownloadError::Denied {
            url,
            reason: format!("access refused ({status}){detail}"),
        },
        404 => DownloadError::NotFound {
            url,
            reason: format!("no such file{detail}"),
        },
        _ => DownloadError::Status {
            url,
            status,
            detail,
        },
    }
}
