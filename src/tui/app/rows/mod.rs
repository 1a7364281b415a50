//! The rows of the side-by-side view: each a tokenizer loaded in the background, its tokens
//! of the current line, and a watch on the files it was loaded from so an edited rule file
//! reloads by itself — keeping the last good tokenizer when the new file is broken.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

pub(crate) mod own;
mod set;

pub use own::{OwnText, RowTemplate};

pub use set::Rows;

use super::jobs::Job;
use crate::tui::layout::LineLayout;
use toklab::core::token::Tokenization;
use toklab::core::tokenizer::Tokenizer;

/// Loads a spec into a tokenizer, relative paths against the folder given (or, without one,
/// the loader's own: the workspace's folder); shared with background threads.
pub type Loader =
    Arc<dyn Fn(&str, Option<&Path>) -> Result<Box<dyn Tokenizer>, String> + Send + Sync>;

/// A tokenizer to show, as named in a workspace or on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowSetup {
    pub label: String,
    pub spec: String,
    /// A colour name or `#rrggbb`, as written in the workspace.
    pub colour: Option<String>,
    /// Where the spec's relative paths resolve when not against the workspace's folder: the
    /// folder the user started in, for a spec typed at the `a` prompt.
    pub folder: Option<PathBuf>,
}

impl RowSetup {
    /// A row for `LABEL=SPEC` or `SPEC` (labelled from its file name, `toklab::core::label`).
    pub fn new(text: &str) -> RowSetup {
        let parts = toklab::core::label::split(text);
        RowSetup {
            label: parts
                .label
                .map_or_else(|| toklab::core::label::derive(parts.spec), str::to_string),
            spec: parts.spec.to_string(),
            colour: None,
            folder: None,
        }
    }
}

type LoadResult = Result<own::Loaded, String>;

/// Where a row's tokenizer is.
pub enum Engine {
    Loading(Job<LoadResult>),
    Ready(Arc<dyn Tokenizer>),
    Failed(String),
}

/// What happened to a row's tokenizer on a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowEvent {
    /// The first load ended (well or not).
    Loaded,
    /// A reload (the `r` key, or a watched file changed) replaced the tokenizer.
    Reloaded,
    /// A reload failed; the last good tokenizer stays.
    ReloadFailed,
}

/// What identifies a file's content cheaply: an editor that replaces the file changes it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

fn stamp(path: &PathBuf) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        inode: meta.ino(),
    })
}

/// How long a changed file must stay unchanged before it is reloaded (editors write in steps).
const SETTLE: Duration = Duration::from_millis(150);

/// One row: its setup, its tokenizer and its tokens of the current line.
pub struct Row {
    pub setup: RowSetup,
    pub engine: Engine,
    /// Shared with the background job that re-tokenizes the line from them (no copy per key).
    pub tokens: Arc<Tokenization>,
    /// Where the last of `tokens` ends (whether they still fit a shortened line).
    tokens_end: usize,
    /// A number no other tokens of any row had, changed too when an edit changes the text
    /// under the tokens kept: what is computed from the tokens and their text (an alignment,
    /// the line's figures) need not be computed again while it stays.
    pub tokens_id: u64,
    /// For each cell of the line layout, the token covering it.
    pub owners: Vec<Option<usize>>,
    /// For each token, which of the two alternating colours it is drawn in: tokens that own
    /// no cell (empty spans, pieces of one character's bytes) are skipped, so neighbours on
    /// screen always differ.
    pub shades: Vec<usize>,
    /// Byte offsets where this row has a boundary the selected row lacks, or lacks one the
    /// selected row has (the first character after the boundary).
    pub disagree: Vec<usize>,
    /// The part of `disagree` where the selected row has a boundary and this row lacks it
    /// (drawn with the second underline style).
    pub lacking: Vec<usize>,
    /// Why the last reload failed; the row keeps showing the last good tokenizer meanwhile.
    pub reload_error: Option<String>,
    /// The tokenizer the last reload replaced (to show what the reload changed).
    pub replaced: Option<Arc<dyn Tokenizer>>,
    reload: Option<Job<LoadResult>>,
    watched: Vec<(PathBuf, Option<Stamp>)>,
    changed_at: Option<Instant>,
    /// The text `tokens` are of.
    tokens_of: Arc<str>,
    /// A long line being tokenized in the background, and its text.
    job: Option<(Arc<str>, Job<Tokenization>)>,
    /// The tokens are of an earlier text (kept while they still fit the current one) or
    /// missing, until the background tokenization of the current text ends.
    pub stale: bool,
    /// Esc stopped waiting for this row's tokens of the current line.
    pub stopped: bool,
    /// The row `]d` / `[d` compare the selected row with (`*`); at most one row is pinned.
    pub pinned: bool,
    /// The text this row tokenizes instead of the shared line (a conversation's prompt).
    pub own: Option<OwnText>,
    /// The chat template beside the tokenizer's file, read when it loaded.
    pub template: RowTemplate,
}

/// Lines up to this long are tokenized at once; longer ones in the background, so that no
/// engine, however slow on a long line, freezes the workbench.
pub const SYNC_BYTES: usize = 4096;

impl Row {
    /// Starts loading `setup`'s tokenizer in the background.
    pub fn load(setup: RowSetup, loader: &Loader) -> Row {
        let engine = Engine::Loading(spawn_load(&setup, loader));
        Row::with_engine(setup, engine)
    }

    /// A row whose tokenizer is made by the workbench itself (the model being trained): no
    /// files to load or watch.
    pub fn ready(setup: RowSetup, tokenizer: Arc<dyn Tokenizer>) -> Row {
        Row::with_engine(setup, Engine::Ready(tokenizer))
    }

    fn with_engine(setup: RowSetup, engine: Engine) -> Row {
        Row {
            engine,
            setup,
            tokens: Arc::default(),
            tokens_end: 0,
            tokens_id: next_tokens_id(),
            owners: Vec::new(),
            shades: Vec::new(),
            disagree: Vec::new(),
            lacking: Vec::new(),
            reload_error: None,
            replaced: None,
            reload: None,
            watched: Vec::new(),
            changed_at: None,
            tokens_of: Arc::from(""),
            job: None,
            stale: false,
            stopped: false,
            pinned: false,
            own: None,
            template: Ok(None),
        }
    }

    pub fn tokenizer(&self) -> Option<&Arc<dyn Tokenizer>> {
        match &self.engine {
            Engine::Ready(t) => Some(t),
            _ => None,
        }
    }

    pub fn is_loading(&self) -> bool {
        matches!(self.engine, Engine::Loading(_))
    }

    pub fn error(&self) -> Option<&str> {
        match &self.engine {
            Engine::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// Advances loading, watching and reloading. Returns what happened, if anything: after
    /// `Loaded` and `Reloaded` the current line must be tokenized again.
    pub fn tick(&mut self, loader: &Loader, now: Instant) -> Option<RowEvent> {
        if let Engine::Loading(job) = &self.engine {
            match job.poll() {
                None => return None,
                Some(Ok(Ok(loaded))) => {
                    self.watch(&loaded.tokenizer);
                    self.engine = Engine::Ready(loaded.tokenizer);
                    self.template = loaded.template;
                }
                Some(Ok(Err(error))) => self.engine = Engine::Failed(error),
                Some(Err(())) => {
                    self.engine = Engine::Failed("loading stopped unexpectedly".into())
                }
            }
            return Some(RowEvent::Loaded);
        }
        if let Some(job) = &self.reload {
            let result = job.poll()?;
            self.reload = None;
            match result {
                Ok(Ok(loaded)) => {
                    self.watch(&loaded.tokenizer);
                    self.template = loaded.template;
                    let old = std::mem::replace(&mut self.engine, Engine::Ready(loaded.tokenizer));
                    self.replaced = match old {
                        Engine::Ready(old) => Some(old),
                        _ => None,
                    };
                    self.reload_error = None;
                    // A tokenization by the replaced tokenizer is of no use any more, nor a
                    // prompt its template rendered.
                    self.job = None;
                    self.own = None;
                    self.stale = false;
                    return Some(RowEvent::Reloaded);
                }
                Ok(Err(error)) => self.reload_error = Some(error),
                Err(()) => self.reload_error = Some("reloading stopped unexpectedly".into()),
            }
            return Some(RowEvent::ReloadFailed);
        }
        self.check_sources(loader, now);
        None
    }

    /// Whether a load or reload is under way.
    pub fn is_reloading(&self) -> bool {
        self.reload.is_some() || self.is_loading()
    }

    fn watch(&mut self, tokenizer: &Arc<dyn Tokenizer>) {
        self.watched = tokenizer
            .sources()
            .into_iter()
            .map(|p| {
                let s = stamp(&p);
                (p, s)
            })
            .collect();
        self.changed_at = None;
    }

    fn check_sources(&mut self, loader: &Loader, now: Instant) {
        let mut changed = false;
        for (path, seen) in &mut self.watched {
            let current = stamp(path);
            if current != *seen {
                *seen = current;
                changed = true;
            }
        }
        if changed {
            self.changed_at = Some(now);
        } else if self
            .changed_at
            .is_some_and(|t| now.duration_since(t) >= SETTLE)
        {
            self.changed_at = None;
            self.reload(loader);
        }
    }

    /// Loads the tokenizer again in the background (the `r` key, or a watched file changed).
    pub fn reload(&mut self, loader: &Loader) {
        match self.engine {
            Engine::Ready(_) => self.reload = Some(spawn_load(&self.setup, loader)),
            Engine::Failed(_) => self.engine = Engine::Loading(spawn_load(&self.setup, loader)),
            Engine::Loading(_) => {}
        }
    }

    /// Tokenizes `text`, at once when it is short and in the background when it is long;
    /// `edit` says it is an edit of the text the current tokens are of (engines re-tokenize
    /// incrementally then), equal to the last text up to byte `unchanged`. Returns whether
    /// the row kept the tokens it had (an edited long line shows its last tokens until the
    /// new ones arrive).
    pub fn tokenize(&mut self, text: &Arc<str>, edit: bool, unchanged: usize) -> bool {
        self.stopped = false;
        let Engine::Ready(tokenizer) = &self.engine else {
            let kept = self.tokens.is_empty();
            if !kept {
                self.set_tokens(Tokenization::default());
            }
            self.tokens_of = Arc::clone(text);
            self.stale = false;
            self.job = None;
            return kept;
        };
        if text.len() <= SYNC_BYTES {
            let tokens = if edit && !self.stale {
                tokenizer.retokenize(&self.tokens_of, &self.tokens, text)
            } else {
                tokenizer.tokenize(text)
            };
            self.set_tokens(tokens);
            self.tokens_of = Arc::clone(text);
            self.stale = false;
            self.job = None;
            return false;
        }
        // Coalescing: while one runs, later edits wait for it; the newest text is tokenized
        // when it ends (`poll_tokens`).
        if self.job.is_none() {
            self.spawn_tokenize(text, edit);
        }
        self.stale = true;
        // An edited line keeps showing its last tokens while they fit; another line's would
        // mislead.
        if !edit || !self.still_fit(text, unchanged) {
            drop_in_background(self.set_tokens(Tokenization::default()));
            return false;
        }
        if unchanged < self.tokens_end {
            self.tokens_id = next_tokens_id();
        }
        true
    }

    /// Shows `tokens`, returning the ones they replace.
    fn set_tokens(&mut self, tokens: Tokenization) -> Arc<Tokenization> {
        self.tokens_end = tokens.tokens.iter().map(|t| t.span.end).max().unwrap_or(0);
        self.tokens_id = next_tokens_id();
        std::mem::replace(&mut self.tokens, Arc::new(tokens))
    }

    /// Whether the tokens, which fit the last text, fit `text` too, which equals it up to
    /// byte `unchanged`: past that, a plain-ASCII rest has a character boundary at every byte,
    /// so only the line's length matters (no look at every token on every key).
    fn still_fit(&self, text: &str, unchanged: usize) -> bool {
        if text.get(unchanged..).is_some_and(|rest| rest.is_ascii()) {
            self.tokens_end <= text.len()
        } else {
            fits(&self.tokens, text)
        }
    }

    /// Brings `owners` and `shades` up to date with the layout, from cell `from` on (0 when
    /// the tokens changed).
    fn paint(&mut self, layout: &LineLayout, from: usize) {
        layout.update_owners(&self.tokens, &mut self.owners, from);
        crate::tui::layout::update_shades(&self.owners, self.tokens.len(), &mut self.shades, from);
    }

    fn spawn_tokenize(&mut self, text: &Arc<str>, edit: bool) {
        let Some(tokenizer) = self.tokenizer().cloned() else {
            return;
        };
        let old =
            (edit && !self.stale).then(|| (Arc::clone(&self.tokens_of), Arc::clone(&self.tokens)));
        let new = Arc::clone(text);
        let job = Job::spawn("tokenize", 0, move |_| {
            Some(match old {
                Some((old_text, old_tokens)) => tokenizer.retokenize(&old_text, &old_tokens, &new),
                None => tokenizer.tokenize(&new),
            })
        });
        self.job = Some((Arc::clone(text), job));
    }

    /// Takes the background tokenization's result if it is done: true when the row now has
    /// the tokens of `current`. A result for an older text starts the newest one instead.
    pub fn poll_tokens(&mut self, current: &Arc<str>) -> bool {
        let Some(result) = self.job.as_ref().and_then(|(_, job)| job.poll()) else {
            return false;
        };
        let (text, _) = self.job.take().expect("a job was polled");
        match result {
            Ok(tokens) if *text == **current => {
                drop_in_background(self.set_tokens(tokens));
                self.tokens_of = text;
                self.stale = false;
                true
            }
            Ok(_) => {
                self.spawn_tokenize(current, false);
                false
            }
            Err(()) => {
                self.stopped = true;
                false
            }
        }
    }

    /// Whether this row's tokens of the current line are still being computed.
    pub fn is_tokenizing(&self) -> bool {
        self.job.is_some()
    }

    /// Stops waiting for the background tokenization (Esc). The engine cannot be interrupted,
    /// so its thread runs to the end, but its result is dropped and nothing waits for it.
    pub fn stop_tokenizing(&mut self) -> bool {
        match self.job.take() {
            Some((_, job)) => {
                job.cancel();
                self.stopped = true;
                true
            }
            None => false,
        }
    }
}

/// Frees a line's tokens on a thread of its own: tens of thousands of tokens of a long line
/// take the interface thread a millisecond or more to free.
fn drop_in_background(tokens: Arc<Tokenization>) {
    if tokens.len() > SYNC_BYTES / 4 {
        // When the system refuses a thread, the closure and the tokens in it are dropped here.
        let _ = std::thread::Builder::new()
            .name("toklab-free".into())
            .spawn(move || drop(tokens));
    }
}

/// A number for a row's new tokens that no tokens before had.
fn next_tokens_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Whether every span of `tokens` lies in `text` on character boundaries (so old tokens can
/// be shown over a longer or edited line without slicing it wrongly).
fn fits(tokens: &Tokenization, text: &str) -> bool {
    tokens.tokens.iter().all(|t| {
        t.span.end <= text.len()
            && text.is_char_boundary(t.span.start)
            && text.is_char_boundary(t.span.end)
    })
}

fn spawn_load(setup: &RowSetup, loader: &Loader) -> Job<LoadResult> {
    let spec = setup.spec.clone();
    let folder = setup.folder.clone();
    let loader = Arc::clone(loader);
    Job::spawn(format!("load {spec}"), 0, move |_| {
        Some(loader(&spec, folder.as_deref()).map(|t| own::Loaded::new(Arc::from(t))))
    })
}
