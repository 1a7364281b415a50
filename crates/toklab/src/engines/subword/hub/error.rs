//! Why a model could not be had by name, each case saying what to do about it.

use std::path::PathBuf;

/// A failed look-up or download. Every message names the model or URL it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DownloadError {
    /// Not in the cache, and `HF_HUB_OFFLINE` forbids asking.
    #[error(
        "{what} is not in the local cache and HF_HUB_OFFLINE is set, so nothing was downloaded; looked in {looked}"
    )]
    Offline {
        /// The model or encoding.
        what: String,
        /// The places looked in.
        looked: String,
    },
    /// Not in the cache, and this build of toklab has no network code.
    #[error(
        "{what} is not in the local cache, and this toklab was built without the `download` feature, so names resolve only from the caches; looked in {looked}"
    )]
    NoDownload {
        /// The model or encoding.
        what: String,
        /// The places looked in.
        looked: String,
    },
    /// tiktoken's cache is switched off (an empty `TIKTOKEN_CACHE_DIR`), and toklab reads rank
    /// files from a folder.
    #[error(
        "{what}: TIKTOKEN_CACHE_DIR is empty, which switches tiktoken's cache off, but toklab reads rank files from a cache folder; unset it or name a folder"
    )]
    NoCache {
        /// The encoding.
        what: String,
    },
    /// The hub wants a token the request did not have, or one with more rights.
    #[error("{url}: {reason}")]
    Denied {
        /// The URL refused.
        url: String,
        /// Gated, private or a bad token, as far as the answer tells.
        reason: String,
    },
    /// The model, revision or file is not there.
    #[error("{url}: not found: {reason}")]
    NotFound {
        /// The URL that answered 404.
        url: String,
        /// What is missing.
        reason: String,
    },
    /// Any other answer than the file.
    #[error("{url}: the server answered {status}{detail}")]
    Status {
        /// The URL asked.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The server's own message, when it sent one (`: ...`).
        detail: String,
    },
    /// No answer: a connection, TLS or protocol failure.
    #[error("{url}: {message}")]
    Network {
        /// The URL asked.
        url: String,
        /// The client's reason.
        message: String,
    },
    /// The body ended before the announced length; nothing was kept.
    #[error(
        "{url}: the download broke off after {got} of {expected} bytes; nothing was kept, try again"
    )]
    Interrupted {
        /// The URL asked.
        url: String,
        /// Bytes received.
        got: u64,
        /// Bytes announced.
        expected: u64,
    },
    /// The body is not the file the name pins; nothing was kept.
    #[error(
        "{url}: the downloaded file's sha256 is {actual}, not the expected {expected}; nothing was kept"
    )]
    HashMismatch {
        /// The URL asked.
        url: String,
        /// The pinned sha256.
        expected: String,
        /// The body's sha256.
        actual: String,
    },
    /// The answer lacks or garbles what the cache layout needs (a commit, an ETag).
    #[error("{url}: {message}")]
    BadAnswer {
        /// The URL asked.
        url: String,
        /// What is wrong with it.
        message: String,
    },
    /// The cache could not be written or read.
    #[error("{}: {cause}", path.display())]
    Cache {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        cause: std::io::Error,
    },
    /// The file writer left a cached file as it was (it changed meanwhile, or could not be
    /// replaced).
    #[error("{0}")]
    Write(crate::core::files::WriteError),
}

impl From<DownloadError> for crate::core::error::Error {
    fn from(e: DownloadError) -> Self {
        crate::core::error::Error::invalid(e)
    }
}

/// `error` as a cache failure at `path`, for `map_err`.
#[cfg(feature = "download")]
pub(crate) fn cache_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> DownloadError + '_ {
    move |cause| DownloadError::Cache {
        path: path.to_path_buf(),
        cause,
    }
}

/// Text from a server, made fit for a message: control characters dropped, length bounded.
#[cfg(feature = "download")]
pub(crate) fn server_text(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(300).collect()
}
