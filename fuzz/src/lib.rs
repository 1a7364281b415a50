//! toklab's fuzzing harness, on stable Rust: every target is a function from a seeded
//! generator to one checked iteration, run under `catch_unwind` (a panic is a failure, not the
//! end of the run) and a watchdog (an iteration that hangs is saved and ends the run).
//!
//! Tokenizer targets check, on mutated sample text: spans inside the text, ordered, on
//! character boundaries, covering what the kind must cover; re-tokenizing after an edit equals
//! tokenizing from scratch; `explain` does not panic; nothing shown of the text (the trace as
//! `explain` writes it, quoted tokens, the SVG and HTML pictures) holds a raw control
//! character. Loader targets load mutated copies of
//! the shipped model files: an error is fine, a panic is not, and a model that loads must
//! tokenize within the same invariants. The workspace and chat targets ([`files`]) load the
//! program's workspaces and chat templates and conversations the same way.
//!
//! Every failure is kept under `fuzz/regressions/TARGET/` and replayed by `cargo test`
//! (tests/fuzz_regressions.rs), so a crash found once stays fixed.

pub mod bytes;
pub mod files;
pub mod rng;
pub mod targets;
pub mod text;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use toklab::{Tokenization, Tokenizer};

use rng::Rng;
use targets::{
    CHAT_CONFIG, CHAT_CONVERSATION, Coverage, LOADERS, Load, LoaderTarget, TOKENIZERS,
    TokenizerTarget,
};

/// The repository's root, where specs' relative paths resolve.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ is inside the repository")
        .to_path_buf()
}

/// Where failures are kept, one folder per target.
pub fn regressions_dir() -> PathBuf {
    repo_root().join("fuzz/regressions")
}

/// Either kind of target.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// A tokenizer kind fed texts.
    Tokenizer(&'static TokenizerTarget),
    /// A loader fed model files.
    Loader(&'static LoaderTarget),
}

impl Target {
    /// Every target, tokenizers first.
    pub fn all() -> Vec<Target> {
        TOKENIZERS
            .iter()
            .map(Target::Tokenizer)
            .chain(LOADERS.iter().map(Target::Loader))
            .collect()
    }

    /// The target called `name`.
    pub fn named(name: &str) -> Option<Target> {
        Target::all().into_iter().find(|t| t.name() == name)
    }

    /// Its name, as on the command line and in `fuzz/regressions/`.
    pub fn name(&self) -> &'static str {
        match self {
            Target::Tokenizer(t) => t.name,
            Target::Loader(t) => t.name,
        }
    }
}

/// One iteration's input, as kept in `fuzz/regressions/`: for a tokenizer a JSON object
/// `{"old": TEXT, "new": EDITED}`, for a loader the file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A text and an edit of it.
    Texts {
        /// The text tokenized.
        old: String,
        /// The text after the edit.
        new: String,
    },
    /// The bytes of a model file.
    File(Vec<u8>),
}

impl Input {
    /// The bytes written to a regression file.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Input::Texts { old, new } => serde_json::json!({"old": old, "new": new})
                .to_string()
                .into_bytes(),
            Input::File(bytes) => bytes.clone(),
        }
    }

    /// Reads a regression file back for `target`.
    pub fn from_bytes(target: Target, bytes: &[u8]) -> Result<Input, String> {
        match target {
            Target::Loader(_) => Ok(Input::File(bytes.to_vec())),
            Target::Tokenizer(_) => {
                let v: serde_json::Value =
                    serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
                let field = |k: &str| {
                    v[k].as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("no string `{k}`"))
                };
                Ok(Input::Texts {
                    old: field("old")?,
                    new: field("new")?,
                })
            }
        }
    }
}

/// The lines of the shipped samples that texts start from.
pub fn seed_texts() -> Vec<String> {
    let root = repo_root();
    let mut seeds = Vec::new();
    for file in [
        "samples/sample.txt",
        "samples/bpe-lesson.txt",
        "samples/bpe/training.txt",
        "samples/maxmatch/zh-sample.txt",
    ] {
        if let Ok(text) = std::fs::read_to_string(root.join(file)) {
            seeds.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string));
        }
    }
    assert!(!seeds.is_empty(), "no seed texts under {}", root.display());
    seeds
}

/// A target ready to run: its tokenizer loaded once, or its model file read once.
pub struct Prepared {
    /// Which target.
    pub target: Target,
    tokenizer: Option<Box<dyn Tokenizer>>,
    original: Vec<u8>,
    seeds: Vec<String>,
    scratch: PathBuf,
}

impl Prepared {
    /// Loads what the target needs; `scratch` is a folder of its own for mutated files.
    pub fn new(target: Target, scratch: &Path) -> Result<Prepared, String> {
        let root = repo_root();
        let (tokenizer, original) = match target {
            Target::Tokenizer(t) => (
                Some(toklab::load_in(t.spec, &root).map_err(|e| format!("{}: {e}", t.spec))?),
                Vec::new(),
            ),
            Target::Loader(l) => {
                let path = root.join(l.file);
                let original = std::fs::read(&path).map_err(|e| format!("{}: {e}", l.file))?;
                if l.whole_folder {
                    for entry in
                        std::fs::read_dir(path.parent().unwrap()).map_err(|e| e.to_string())?
                    {
                        let entry = entry.map_err(|e| e.to_string())?;
                        if entry.path().is_file() {
                            std::fs::copy(entry.path(), scratch.join(entry.file_name()))
                                .map_err(|e| e.to_string())?;
                        }
                    }
                }
                (None, original)
            }
        };
        Ok(Prepared {
            target,
            tokenizer,
            original,
            seeds: seed_texts(),
            scratch: scratch.to_path_buf(),
        })
    }

    /// The input of iteration `n` of a run seeded with `seed`.
    pub fn input(&self, seed: u64, n: u64) -> Input {
        let mut rng = Rng::new(seed, n);
        match self.target {
            Target::Tokenizer(_) => {
                let old = text::generate(&mut rng, &self.seeds);
                let new = text::edit(&mut rng, &old);
                Input::Texts { old, new }
            }
            Target::Loader(_) => Input::File(bytes::mutate(&mut rng, &self.original)),
        }
    }

    /// Runs the target's checks on `input`: `Err` says which invariant broke or what panicked.
    pub fn check(&self, input: &Input) -> Result<(), String> {
        let result = catch_unwind(AssertUnwindSafe(|| self.check_inner(input)));
        match result {
            Ok(outcome) => outcome,
            Err(_) => Err(format!(
                "panic: {}",
                take_panic_message().unwrap_or_else(|| "(no message)".into())
            )),
        }
    }

    fn check_inner(&self, input: &Input) -> Result<(), String> {
        match (self.target, input) {
            (Target::Tokenizer(t), Input::Texts { old, new }) => {
                let tokenizer = self.tokenizer.as_deref().expect("loaded in new()");
                check_tokenizer(tokenizer, t.coverage, old, new)
            }
            (Target::Loader(l), Input::File(bytes)) => self.check_loader(l, bytes),
            _ => Err("input of the wrong kind for this target".into()),
        }
    }

    fn check_loader(&self, target: &LoaderTarget, bytes: &[u8]) -> Result<(), String> {
        let name = Path::new(target.file).file_name().expect("a file name");
        let path = self.scratch.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
        let arg = if target.whole_folder {
            self.scratch.display().to_string()
        } else {
            path.display().to_string()
        };
        let root = repo_root();
        let spec = match target.load {
            Load::Spec(spec) => spec.replace("{}", &arg),
            Load::TextFile => return files::check_text_file(&path),
            Load::Workspace => return files::check_workspace(&path),
            Load::ChatTemplate => {
                return files::check_chat(&path, &root.join(CHAT_CONVERSATION));
            }
            Load::Conversation => return files::check_chat(&root.join(CHAT_CONFIG), &path),
        };
        let Ok(tokenizer) = toklab::load(&spec) else {
            return Ok(());
        };
        for text in self.seeds.iter().take(3) {
            check_tokenizer(&*tokenizer, Coverage::Matches, text, &format!("{text} x"))?;
        }
        Ok(())
    }
}

/// The invariants every tokenizer keeps, on `old` and on its edit `new`.
pub fn check_tokenizer(
    tokenizer: &dyn Tokenizer,
    coverage: Coverage,
    old: &str,
    new: &str,
) -> Result<(), String> {
    let tokens = tokenizer.tokenize(old);
    tokens.check(old).map_err(|e| format!("spans: {e}"))?;
    check_coverage(&tokens, old, coverage)?;
    let from_scratch = tokenizer.tokenize(new);
    from_scratch
        .check(new)
        .map_err(|e| format!("spans after the edit: {e}"))?;
    let incremental = tokenizer.retokenize(old, &tokens, new);
    if incremental != from_scratch {
        return Err(format!(
            "retokenize differs from tokenize: {} tokens against {}",
            incremental.len(),
            from_scratch.len()
        ));
    }
    let trace = tokenizer.explain(old);
    check_rendered(tokenizer, old, &tokens, &trace)
}

/// No raw control character in anything the program shows of `text`: the trace as `toklab
/// explain` writes it (through the terminal-safe writer), each token as the trace and the
/// workbench quote it, and the SVG and HTML pictures (XML 1.0 forbids most C0 controls).
fn check_rendered(
    tokenizer: &dyn Tokenizer,
    text: &str,
    tokens: &Tokenization,
    trace: &toklab::Trace,
) -> Result<(), String> {
    use std::io::Write as _;
    use toklab::core::display::{SafeWriter, is_terminal_control};
    use toklab::picture::{Picture, PictureLine, PictureRow};
    let raw = |what: &str, shown: &str| match shown
        .chars()
        .find(|&c| c != '\n' && c != '\t' && is_terminal_control(c))
    {
        Some(c) => Err(format!("raw control {c:?} in the {what}")),
        None => Ok(()),
    };
    let mut explained = Vec::new();
    {
        let mut safe = SafeWriter::new(&mut explained);
        let _ = safe.write_all(trace.to_text().as_bytes());
    }
    raw(
        "trace as explain writes it",
        &String::from_utf8_lossy(&explained),
    )?;
    for token in &tokens.tokens {
        raw(
            "quoted token",
            &toklab::core::tokenizer::quote(token.form(text)),
        )?;
    }
    let picture = Picture {
        title: "fuzz".into(),
        lines: vec![PictureLine {
            number: 1,
            text,
            rows: vec![PictureRow {
                label: tokenizer.name(),
                tokens: Ok(tokens),
            }],
        }],
    };
    raw("SVG picture", &toklab::picture::svg(&picture))?;
    raw("HTML picture", &toklab::picture::html(&picture))
}

fn check_coverage(tokens: &Tokenization, text: &str, coverage: Coverage) -> Result<(), String> {
    if coverage == Coverage::Matches {
        return Ok(());
    }
    let mut gaps = Vec::with_capacity(tokens.len() + 1);
    let mut at = 0;
    for token in &tokens.tokens {
        gaps.push((at, token.span.start));
        at = token.span.end;
    }
    gaps.push((at, text.len()));
    for (start, end) in gaps {
        if start >= end {
            continue;
        }
        let gap = &text[start..end];
        let lost = match coverage {
            Coverage::Everything => true,
            Coverage::AllButWhitespace => !gap.chars().all(char::is_whitespace),
            _ => !gap.chars().all(|c| c.is_whitespace() || invisible(c)),
        };
        if lost {
            return Err(format!("text lost at {start}..{end}: {gap:?}"));
        }
    }
    Ok(())
}

/// Control characters and the invisible format characters engines may delete.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{fe00}'..='\u{fe0f}')
}

static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// Keeps panic messages for the report instead of printing each one.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = match info.payload().downcast_ref::<&str>() {
            Some(s) => s.to_string(),
            None => info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default(),
        };
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        *PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(format!("{message}{place}"));
    }));
}

fn take_panic_message() -> Option<String> {
    PANIC_MESSAGE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
}

/// Keeps a failing input as `fuzz/regressions/TARGET/NAME`, named by its content's hash so the
/// same failure is kept once.
pub fn keep_failure(target: Target, input: &Input, prefix: &str) -> std::io::Result<PathBuf> {
    use std::hash::{Hash, Hasher};
    let bytes = input.to_bytes();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    let dir = regressions_dir().join(target.name());
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{prefix}-{:016x}", hasher.finish()));
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// The folder under `fuzz/regressions/` for failures found but not fixed yet: replayed by an
/// ignored test, so they are on record without failing every `cargo test`.
pub const OPEN: &str = "open";

/// Replays every kept input of every target (the fixed ones: not those under [`OPEN`]); the
/// failures, by file.
pub fn replay_regressions() -> Vec<(PathBuf, String)> {
    replay_folder(&regressions_dir())
}

/// Replays the inputs of failures not fixed yet (`fuzz/regressions/open/TARGET/`).
pub fn replay_open() -> Vec<(PathBuf, String)> {
    replay_folder(&regressions_dir().join(OPEN))
}

fn replay_folder(root: &Path) -> Vec<(PathBuf, String)> {
    quiet_panics();
    let mut failures = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return failures;
    };
    for entry in entries.flatten() {
        let folder = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !folder.is_dir() || name == OPEN {
            continue;
        }
        let Some(target) = Target::named(&name) else {
            failures.push((folder, format!("no target called {name}")));
            continue;
        };
        let scratch =
            std::env::temp_dir().join(format!("toklab-fuzz-replay-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&scratch);
        let prepared = match Prepared::new(target, &scratch) {
            Ok(p) => p,
            Err(e) => {
                failures.push((folder, e));
                continue;
            }
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
            .collect();
        files.sort();
        for file in files {
            let outcome = std::fs::read(&file)
                .map_err(|e| e.to_string())
                .and_then(|bytes| Input::from_bytes(target, &bytes))
                .and_then(|input| prepared.check(&input));
            if let Err(e) = outcome {
                failures.push((file, e));
            }
        }
        let _ = std::fs::remove_dir_all(&scratch);
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::{Span, Token, TokenKind, Trace};

    /// A tokenizer that drops the last character and, on re-tokenizing, forgets the edit: each
    /// check must notice.
    struct Broken;

    impl Tokenizer for Broken {
        fn name(&self) -> &str {
            "broken"
        }
        fn tokenize(&self, text: &str) -> Tokenization {
            let end = text.char_indices().last().map_or(0, |(i, _)| i);
            Tokenization::new(vec![Token::new(Span::new(0, end), TokenKind::Word)])
        }
        fn explain(&self, _: &str) -> Trace {
            panic!("explain is broken")
        }
        fn retokenize(&self, _: &str, old: &Tokenization, _: &str) -> Tokenization {
            old.clone()
        }
    }

    #[test]
    fn the_checks_catch_a_broken_tokenizer() {
        let lost = check_tokenizer(&Broken, Coverage::Everything, "abc", "abc").unwrap_err();
        assert!(lost.contains("text lost at 2..3"), "{lost}");
        let stale = check_tokenizer(&Broken, Coverage::Matches, "abc", "abcd").unwrap_err();
        assert!(stale.contains("retokenize differs"), "{stale}");
        quiet_panics();
        let target = Target::named("tok-ws").unwrap();
        let scratch = std::env::temp_dir();
        let mut prepared = Prepared::new(target, &scratch).unwrap();
        prepared.tokenizer = Some(Box::new(Broken));
        let input = Input::Texts {
            old: "abc ".into(),
            new: "abc ".into(),
        };
        let panicked = prepared.check(&input).unwrap_err();
        assert!(
            panicked.starts_with("panic: explain is broken"),
            "{panicked}"
        );
    }

    #[test]
    fn inputs_round_trip_through_their_files() {
        let target = Target::named("tok-ws").unwrap();
        let input = Input::Texts {
            old: "a\u{0}\"b".into(),
            new: "\r\n".into(),
        };
        assert_eq!(Input::from_bytes(target, &input.to_bytes()).unwrap(), input);
    }
}
