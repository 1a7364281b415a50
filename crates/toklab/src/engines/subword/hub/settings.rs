//! Where models come from and where they are kept, read from the environment as
//! `huggingface_hub` and tiktoken read it, so toklab shares their caches and honours the same
//! switches. Tests build a [`Settings`] by hand instead, since the environment is shared by
//! every thread of a process.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

/// The hub toklab asks when `HF_ENDPOINT` does not name another.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";

/// Everything a download needs to know besides the model's name.
#[derive(Clone)]
pub struct Settings {
    /// The hub's base URL (`HF_ENDPOINT`), without a trailing `/`.
    pub endpoint: String,
    /// The access token sent to the hub (`HF_TOKEN`, else the token file), for gated and
    /// private models. Never sent to another host.
    pub token: Option<String>,
    /// `HF_HUB_OFFLINE=1`: no request at all; a name resolves from the caches or fails.
    pub offline: bool,
    /// The HuggingFace cache folder (`HF_HUB_CACHE`, `HF_HOME/hub`, ...).
    pub cache: PathBuf,
    /// tiktoken's cache folder; `None` when the environment switches tiktoken's cache off
    /// (an empty `TIKTOKEN_CACHE_DIR`), which toklab cannot do without.
    pub tiktoken_cache: Option<PathBuf>,
    /// `TOKLAB_TIKTOKEN_BASE`: replaces the origin of tiktoken's URLs (a mirror, a test server).
    pub tiktoken_base: Option<String>,
    /// Told how a download advances.
    pub progress: Progress,
}

impl Settings {
    /// The settings of this process's environment; progress goes to stderr.
    pub fn from_env() -> Settings {
        Settings::from_vars(|name| std::env::var_os(name))
    }

    /// The settings a given environment makes (`var` looks a variable up).
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Settings {
        let text = |name: &str| {
            var(name)
                .map(|v| v.to_string_lossy().trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let home = PathBuf::from(var("HOME").unwrap_or_default());
        let hf_home = var("HF_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".cache/huggingface"));
        let token_file = var("HF_TOKEN_PATH")
            .map(PathBuf::from)
            .unwrap_or_else(|| hf_home.join("token"));
        let token = text("HF_TOKEN").or_else(|| {
            std::fs::read_to_string(token_file)
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        });
        let offline = text("HF_HUB_OFFLINE").is_some_and(|v| {
            matches!(v.to_ascii_uppercase().as_str(), "1" | "ON" | "YES" | "TRUE")
        });
        let tiktoken_cache = match var("TIKTOKEN_CACHE_DIR").or_else(|| var("DATA_GYM_CACHE_DIR")) {
            Some(dir) if dir.is_empty() => None,
            Some(dir) => Some(PathBuf::from(dir)),
            None => Some(std::env::temp_dir().join("data-gym-cache")),
        };
        Settings {
            endpoint: text("HF_ENDPOINT")
                .unwrap_or_else(|| DEFAULT_ENDPOINT.to_string())
                .trim_end_matches('/')
                .to_string(),
            token,
            offline,
            cache: super::cache_dir_from(&var),
            tiktoken_cache,
            tiktoken_base: text("TOKLAB_TIKTOKEN_BASE")
                .map(|b| b.trim_end_matches('/').to_string()),
            progress: Progress::stderr(),
        }
    }
}

/// How far one download is.
#[derive(Clone, Copy, Debug)]
pub struct Transfer<'a> {
    /// What is being fetched.
    pub url: &'a str,
    /// Bytes received so far.
    pub done: u64,
    /// The size the server announced, when it did.
    pub total: Option<u64>,
    /// The last report of this download (the body is complete).
    pub finished: bool,
}

/// Whom a download reports to: the terminal by default, a test's recorder, or no one.
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(&Transfer) + Send + Sync>);

impl Progress {
    /// Reports to `report`.
    pub fn new(report: impl Fn(&Transfer) + Send + Sync + 'static) -> Progress {
        Progress(Arc::new(report))
    }

    /// Reports nothing (a library caller that shows its own progress).
    pub fn quiet() -> Progress {
        Progress::new(|_| {})
    }

    /// One line on stderr when a download starts and one when it ends; on a terminal the
    /// byte count in between, redrawn in place.
    pub fn stderr() -> Progress {
        use std::io::IsTerminal;
        let live = std::io::stderr().is_terminal();
        Progress::new(move |t: &Transfer| {
            let total = t
                .total
                .map(|n| format!(" ({})", size(n)))
                .unwrap_or_default();
            if t.finished {
                let clear = if live { "\r\x1b[K" } else { "" };
                eprintln!("{clear}  done, {}", size(t.done));
            } else if t.done == 0 {
                eprintln!("downloading {}{total}", t.url);
            } else if live {
                eprint!("\r\x1b[K  {}{total}", size(t.done));
            }
        })
    }

    /// Tells the reporter.
    pub fn report(&self, transfer: &Transfer) {
        (self.0)(transfer)
    }
}

/// A byte count as people read it.
fn size(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}
