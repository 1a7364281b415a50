//! The one writer for every file toklab writes (texts, workspaces, models, pictures, compiled
//! networks, command-line outputs). A file is never half-written: the bytes go to a temporary
//! file beside the real one (so the rename stays on one file system), are synced, take the old
//! file's permissions and then replace it in one rename. A symbolic link is followed first, so
//! the link's target changes and the link stays a link. Before replacing anything the writer
//! checks the file is what the caller expects: absent, or unchanged since it was read (its
//! [`Stamp`]), so a change another program made in between is never written over unseen.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many links in a chain are followed before giving up (as the kernel's ELOOP).
const MAX_LINKS: usize = 40;

/// A 64-bit FNV-1a hash fed in pieces: stable across runs and Rust versions, so it can name
/// cache entries and remember agreed content between sessions.
#[derive(Clone, Copy, Debug)]
pub struct ContentHash(u64);

impl Default for ContentHash {
    fn default() -> Self {
        ContentHash(0xcbf2_9ce4_8422_2325)
    }
}

impl ContentHash {
    /// Adds the next piece.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The hash of everything fed.
    pub fn finish(self) -> u64 {
        self.0
    }

    /// The hash of one piece of content.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut hash = ContentHash::default();
        hash.feed(bytes);
        hash.finish()
    }
}

/// What a file was when it was read or last written: its size, modification time and a hash
/// of its bytes. Size and time are compared first; when they differ the file is read again and
/// only a different hash counts as a change (a `touch` is not one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    hash: u64,
}

impl Stamp {
    /// The stamp of bytes read from a file whose metadata (taken before reading) is `meta`.
    pub fn new(meta: &Metadata, hash: u64) -> Stamp {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            hash,
        }
    }

    /// The stamp of the file at `path` now (links followed); `None` when there is no file.
    pub fn of_file(path: &Path) -> std::io::Result<Option<Stamp>> {
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let mut hash = ContentHash::default();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            hash.feed(&buf[..n]);
        }
        Ok(Some(Stamp::new(&meta, hash.finish())))
    }

    /// Reads a whole file and its stamp at once, so the stamp is of exactly the bytes returned.
    pub fn read(path: &Path) -> std::io::Result<(Vec<u8>, Stamp)> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let stamp = Stamp::new(&meta, ContentHash::of(&bytes));
        Ok((bytes, stamp))
    }

    /// Whether the file at `path` still holds what this stamp was taken of.
    pub fn matches(&self, path: &Path) -> std::io::Result<bool> {
        match fs::metadata(path) {
            Ok(meta) if meta.len() == self.len && meta.modified().ok() == self.modified => {
                return Ok(true);
            }
            Ok(meta) if meta.len() != self.len => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        Ok(Stamp::of_file(path)?.is_some_and(|now| now.hash == self.hash))
    }
}

/// What the writer may find at the path it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// No file: an existing one is not replaced (the user did not ask to).
    Absent,
    /// The file as it was read (or absent, if it did not exist then).
    Unchanged(Option<Stamp>),
    /// Whatever is there: the user agreed to replace it.
    Replace,
}

/// Why a file was not written. The old file, if any, is untouched in every case.
#[derive(Debug)]
pub enum WriteError {
    /// The file exists and [`Expect::Absent`] said it should not.
    Exists(PathBuf),
    /// The file changed on disk since it was read.
    Changed(PathBuf),
    /// Reading, writing or renaming failed.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists(p) => write!(f, "{} already exists", p.display()),
            WriteError::Changed(p) => write!(
                f,
                "{} was changed by another program since it was read",
                p.display()
            ),
            WriteError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<WriteError> for crate::core::error::Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Io(path, cause) => crate::core::error::Error::io(path, cause),
            WriteError::Exists(ref p) | WriteError::Changed(ref p) => {
                crate::core::error::Error::io(p.clone(), std::io::Error::other(e.to_string()))
            }
        }
    }
}

/// Writes `bytes` to `path` as [`write_file`] does.
pub fn write_bytes(path: &Path, expect: &Expect, bytes: &[u8]) -> Result<Stamp, WriteError> {
    write_file(path, expect, |out| out.write_all(bytes))
}

/// Writes `path`'s new content with `write`, replacing the file only once all of it is written
/// and only when the file is what `expect` says. Returns the stamp of what was written, for
/// the next save to compare against.
pub fn write_file(
    path: &Path,
    expect: &Expect,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<Stamp, WriteError> {
    match write_checked(path, expect, write) {
        Ok((stamp, ())) => Ok(stamp),
        Err(Refused::Write(e)) => Err(e),
        Err(Refused::Content(e)) => Err(WriteError::Io(path.to_path_buf(), e)),
    }
}

/// Why [`write_checked`] left the old file in place: the writer's own refusal, or the
/// content's producer gave up (a download cut short, a hash that is not the expected one).
#[derive(Debug)]
pub enum Refused<E> {
    /// The file was not what was expected, or the temporary file could not be made.
    Write(WriteError),
    /// `write` returned this error; nothing it wrote is kept.
    Content(E),
}

/// Writes `path` as [`write_file`] does, for content that is streamed and checked while it is
/// written (a download hashed as it arrives): `write` may refuse its own content after writing
/// it, and then the old file stays as it was. Returns the stamp and what `write` returned.
pub fn write_checked<T, E>(
    path: &Path,
    expect: &Expect,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<(Stamp, T), Refused<E>> {
    let io = |e| Refused::Write(WriteError::Io(path.to_path_buf(), e));
    let target = follow_links(path).map_err(io)?;
    if target.is_dir() {
        return Err(io(std::io::Error::other("it is a directory")));
    }
    check(path, &target, expect).map_err(Refused::Write)?;
    let tmp = temporary_beside(&target);
    let outcome = fill(path, &tmp, &target, write).and_then(|(hash, value)| {
        check(path, &target, expect).map_err(Refused::Write)?;
        put_in_place(&tmp, &target, expect).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                Refused::Write(WriteError::Exists(path.to_path_buf()))
            }
            _ => io(e),
        })?;
        let meta = fs::metadata(&target).map_err(io)?;
        Ok((Stamp::new(&meta, hash), value))
    });
    if outcome.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    sync_folder(&target);
    outcome
}

/// The temporary file `tmp` written by `write`, given `target`'s permissions and synced; the
/// hash of what was written.
fn fill<T, E>(
    path: &Path,
    tmp: &Path,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<(u64, T), Refused<E>> {
    let io = |e| Refused::Write(WriteError::Io(path.to_path_buf(), e));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(io)?;
    let mut out = HashingWriter {
        inner: BufWriter::new(file),
        hash: ContentHash::default(),
    };
    let value = write(&mut out).map_err(Refused::Content)?;
    let hash = out.hash.finish();
    let file: File = out.inner.into_inner().map_err(|e| io(e.into_error()))?;
    if let Ok(meta) = fs::metadata(target) {
        file.set_permissions(meta.permissions()).map_err(io)?;
    }
    file.sync_all().map_err(io)?;
    Ok((hash, value))
}

/// Makes `path` a symbolic link to `points_to`, replacing whatever was there in one rename so
/// no reader ever finds the name missing or half made (a download cache's snapshot entries).
/// Where the system has no symbolic links, `path` becomes a copy of the file linked to.
pub fn replace_with_link(path: &Path, points_to: &Path) -> Result<(), WriteError> {
    let io = |e| WriteError::Io(path.to_path_buf(), e);
    #[cfg(unix)]
    {
        let tmp = temporary_beside(path);
        std::os::unix::fs::symlink(points_to, &tmp).map_err(io)?;
        let renamed = fs::rename(&tmp, path);
        if renamed.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        renamed.map_err(io)?;
        sync_folder(path);
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let source = path
            .parent()
            .map_or_else(|| points_to.to_path_buf(), |d| d.join(points_to));
        let bytes = fs::read(&source).map_err(io)?;
        write_bytes(path, &Expect::Replace, &bytes).map(drop)
    }
}

/// Whether `target` is what `expect` allows replacing.
fn check(path: &Path, target: &Path, expect: &Expect) -> Result<(), WriteError> {
    let exists = fs::symlink_metadata(target).is_ok();
    match expect {
        Expect::Replace => Ok(()),
        Expect::Absent if exists => Err(WriteError::Exists(path.to_path_buf())),
        Expect::Absent | Expect::Unchanged(None) if !exists => Ok(()),
        Expect::Unchanged(None) => Err(WriteError::Changed(path.to_path_buf())),
        Expect::Unchanged(Some(stamp)) => match stamp.matches(target) {
            Ok(true) => Ok(()),
            Ok(false) => Err(WriteError::Changed(path.to_path_buf())),
            Err(e) => Err(WriteError::Io(path.to_path_buf(), e)),
        },
        Expect::Absent => Ok(()),
    }
}

/// Moves the finished temporary file to `target`. A file that must be new is linked in
/// (which fails when a file appeared meanwhile) rather than renamed over it.
fn put_in_place(tmp: &Path, target: &Path, expect: &Expect) -> std::io::Result<()> {
    let must_be_new = matches!(expect, Expect::Absent | Expect::Unchanged(None));
    if must_be_new {
        match fs::hard_link(tmp, target) {
            Ok(()) => return fs::remove_file(tmp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(e),
            // A file system without hard links: the check just made has to do.
            Err(_) => {}
        }
    }
    fs::rename(tmp, target)
}

/// Makes the rename durable; a folder that cannot be opened or synced is not an error (the
/// data itself was synced).
fn sync_folder(target: &Path) {
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(folder) = File::open(dir)
    {
        let _ = folder.sync_all();
    }
}

struct HashingWriter<W: Write> {
    inner: W,
    hash: ContentHash,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.feed(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The file `path` finally names: symbolic links followed (a dangling link names the file it
/// would create).
pub fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

fn temporary_beside(target: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.toklab-{}-{n}.tmp", std::process::id()))
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
