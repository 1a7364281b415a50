//! Reading a text lazily: a background thread indexes line starts while the first frame is
//! drawn from what is indexed so far, and lines are read on demand, so a 100 MB file opens at
//! once and memory stays at the size of the index.
//!
//! Lines are read from a private copy the indexing thread writes as it reads (an unnamed
//! temporary file), never from the user's file: another program may rewrite that file while it
//! is open, and offsets into it would then show and save fragments of the new text. The copy
//! holds exactly what was read, and the [`Stamp`] of it tells a later save whether the file
//! on disk is still that.

use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use toklab::core::files::{ContentHash, Expect, Stamp, WriteError};

/// Where the bytes are: in memory, or in the private copy of a file.
enum Source {
    Memory(Vec<u8>),
    Copy(File),
}

/// A line of an edited document: still the original's line `n`, or new text.
#[derive(Clone, Debug)]
pub enum LineRef {
    Original(usize),
    /// Typed text; `ending_of` is the original line it replaced, whose line ending (`\n` or
    /// `\r\n`) it keeps when saved; `carried`, other original lines whose text went into it
    /// (split off or joined to it), so a save that would turn their bytes that are not UTF-8
    /// into U+FFFD asks first.
    Text {
        text: String,
        ending_of: Option<usize>,
        carried: Vec<usize>,
    },
}

/// Line starts found so far, shared with the indexing thread.
struct LineIndex {
    /// Byte offset of the start of every line found, and of the end of the text once done.
    starts: Mutex<Vec<u64>>,
    indexed_bytes: AtomicU64,
    done: AtomicBool,
    /// Whether the text's last byte is `\n` (known once done), kept when saving.
    final_newline: AtomicBool,
    /// What was read from the file (set once done).
    stamp: OnceLock<Stamp>,
    /// Why the file could not be read or copied whole (set once done, if so).
    failure: OnceLock<String>,
}

/// A cheap, shareable, read-only view of a document: what background work reads.
#[derive(Clone)]
pub struct Snapshot {
    source: Arc<Source>,
    len: u64,
    index: Arc<LineIndex>,
    lines: Option<Arc<Vec<LineRef>>>,
}

impl Snapshot {
    pub fn from_text(text: &str) -> Snapshot {
        let bytes = text.as_bytes().to_vec();
        let len = bytes.len() as u64;
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', &bytes).map(|i| i as u64 + 1));
        finish_starts(&mut starts, len);
        Snapshot {
            index: Arc::new(LineIndex {
                starts: Mutex::new(starts),
                indexed_bytes: AtomicU64::new(len),
                done: AtomicBool::new(true),
                final_newline: AtomicBool::new(bytes.last() == Some(&b'\n')),
                stamp: OnceLock::new(),
                failure: OnceLock::new(),
            }),
            source: Arc::new(Source::Memory(bytes)),
            len,
            lines: None,
        }
    }

    /// Opens a file and starts indexing (and copying) it in the background.
    pub fn open(path: &Path) -> std::io::Result<Snapshot> {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(std::io::Error::other("it is a directory, not a text file"));
        }
        let len = meta.len();
        let index = Arc::new(LineIndex {
            starts: Mutex::new(vec![0]),
            indexed_bytes: AtomicU64::new(0),
            done: AtomicBool::new(false),
            final_newline: AtomicBool::new(false),
            stamp: OnceLock::new(),
            failure: OnceLock::new(),
        });
        // Beside the file first (same disk, and /tmp may be memory), else the temporary folder.
        let copy = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(tempfile::tempfile, tempfile::tempfile_in)
            .or_else(|_| tempfile::tempfile())?;
        let writer = copy.try_clone()?;
        let shared = Arc::clone(&index);
        std::thread::Builder::new()
            .name("toklab-index".into())
            .spawn(move || index_file(file, writer, &meta, &shared))?;
        Ok(Snapshot {
            source: Arc::new(Source::Copy(copy)),
            len,
            index,
            lines: None,
        })
    }

    /// What was read from the file, once all of it was (none for a text held in memory, or
    /// when reading failed).
    pub fn stamp(&self) -> Option<Stamp> {
        self.index.stamp.get().cloned()
    }

    /// Why the file could not be read whole, if it could not.
    pub fn failure(&self) -> Option<&str> {
        self.index.failure.get().map(String::as_str)
    }

    /// The same text seen through an edited line list.
    pub(super) fn with_lines(&self, lines: Arc<Vec<LineRef>>) -> Snapshot {
        Snapshot {
            lines: Some(lines),
            ..self.clone()
        }
    }

    pub fn line_count(&self) -> usize {
        if let Some(lines) = &self.lines {
            return lines.len();
        }
        let starts = self.index.starts.lock().expect("index lock");
        // Until indexing is done, the last start found has no end yet.
        starts.len().saturating_sub(1)
    }

    pub fn is_indexed(&self) -> bool {
        self.index.done.load(Ordering::Acquire)
    }

    pub(super) fn ends_with_newline(&self) -> bool {
        self.index.final_newline.load(Ordering::Acquire)
    }

    /// Writes the text to `path` with the one writer ([`toklab::core::files`]: whole or not at
    /// all, links and mode kept, nothing replaced that `expect` does not allow). Untouched
    /// lines are written back byte for byte (their line ending and any bytes that are not
    /// UTF-8 with them); an edited line keeps the ending of the line it replaced, a new line
    /// takes the text's first ending; the final newline is kept as the original had it.
    pub fn write_to(&self, path: &Path, expect: &Expect) -> Result<Stamp, WriteError> {
        let refuse = |why: &str| WriteError::Io(path.to_path_buf(), std::io::Error::other(why));
        if !self.is_indexed() {
            return Err(refuse("the file is still being indexed"));
        }
        if let Some(failure) = self.failure() {
            return Err(refuse(&format!("the text was not read whole: {failure}")));
        }
        toklab::core::files::write_file(path, expect, |out| self.write_lines(out))
    }

    fn write_lines(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let convention = self.original_ending(0).unwrap_or(b"\n");
        let count = self.line_count();
        for n in 0..count {
            let (content, ending): LineParts<'_> = match self.lines.as_ref().map(|lines| &lines[n])
            {
                None => self.original_parts(n).unwrap_or_default(),
                Some(LineRef::Original(k)) => self.original_parts(*k).unwrap_or_default(),
                Some(LineRef::Text {
                    text, ending_of, ..
                }) => (
                    ending_of
                        .and_then(|k| self.unchanged_original(text, k))
                        .unwrap_or(Cow::Borrowed(text.as_bytes())),
                    ending_of.and_then(|k| self.original_ending(k)),
                ),
            };
            out.write_all(&content)?;
            if n + 1 < count || self.ends_with_newline() {
                out.write_all(ending.unwrap_or(convention))?;
            }
        }
        Ok(())
    }

    /// Original line `k` as bytes, split into its content and its ending (none on a final
    /// line without one).
    fn original_parts(&self, k: usize) -> Option<LineParts<'_>> {
        let mut bytes = self.original_bytes(k)?;
        let ending = line_ending(&bytes);
        let keep = bytes.len() - ending.map_or(0, <[u8]>::len);
        match &mut bytes {
            Cow::Borrowed(b) => *b = &b[..keep],
            Cow::Owned(b) => b.truncate(keep),
        }
        Some((bytes, ending))
    }

    /// Original line `k`'s bytes when `text` is still what the user was shown of them (an
    /// edit undone, a line changed and changed back): saving writes the bytes, so a line that
    /// was not UTF-8 keeps its bytes rather than the U+FFFD it was shown with.
    pub(super) fn unchanged_original(&self, text: &str, k: usize) -> Option<Cow<'_, [u8]>> {
        let (bytes, _) = self.original_parts(k)?;
        (String::from_utf8_lossy(&bytes) == text).then_some(bytes)
    }

    /// Edited lines (0-based) that will lose bytes when saved: an original line whose text
    /// went into them (the one they replaced, or one split off or joined to them) had bytes
    /// that are not UTF-8, shown as U+FFFD and so saved as U+FFFD. A line where the user deleted
    /// every U+FFFD loses nothing it still shows, and a line showing exactly its original is
    /// written as those bytes, so neither is listed. A new line is not checked.
    pub fn lossy_edits(&self) -> Vec<usize> {
        let Some(lines) = &self.lines else {
            return Vec::new();
        };
        let not_utf8 = |k: usize| {
            self.original_parts(k)
                .is_some_and(|(bytes, _)| std::str::from_utf8(&bytes).is_err())
        };
        lines
            .iter()
            .enumerate()
            .filter_map(|(n, line)| match line {
                LineRef::Text {
                    text,
                    ending_of,
                    carried,
                } if text.contains('\u{FFFD}') => {
                    if ending_of.is_some_and(|k| self.unchanged_original(text, k).is_some()) {
                        return None;
                    }
                    let lossy = ending_of.iter().chain(carried).any(|&k| not_utf8(k));
                    lossy.then_some(n)
                }
                _ => None,
            })
            .collect()
    }

    fn original_ending(&self, k: usize) -> Option<&'static [u8]> {
        line_ending(&self.original_bytes(k)?)
    }

    /// The bytes of original line `k` with its line ending.
    fn original_bytes(&self, k: usize) -> Option<Cow<'_, [u8]>> {
        let (start, end) = {
            let starts = self.index.starts.lock().expect("index lock");
            (*starts.get(k)?, *starts.get(k + 1)?)
        };
        Some(self.read(start, end))
    }

    /// How far indexing has got, 0.0 to 1.0.
    pub fn progress(&self) -> f64 {
        if self.len == 0 || self.is_indexed() {
            return 1.0;
        }
        self.index.indexed_bytes.load(Ordering::Relaxed) as f64 / self.len as f64
    }

    /// Line `n` (0-based) without its line ending (`\n` or `\r\n`), invalid UTF-8 replaced by
    /// U+FFFD; `None` past the lines known so far.
    pub fn line(&self, n: usize) -> Option<Cow<'_, str>> {
        let n = match &self.lines {
            Some(lines) => match lines.get(n)? {
                LineRef::Original(k) => *k,
                LineRef::Text { text, .. } => return Some(Cow::Borrowed(text)),
            },
            None => n,
        };
        let (bytes, _) = self.original_parts(n)?;
        Some(match bytes {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(b) => Cow::Owned(String::from_utf8_lossy(&b).into_owned()),
        })
    }

    fn read(&self, start: u64, end: u64) -> Cow<'_, [u8]> {
        match &*self.source {
            Source::Memory(bytes) => Cow::Borrowed(&bytes[start as usize..end as usize]),
            Source::Copy(file) => {
                let mut buf = vec![0; (end - start) as usize];
                // Only indexed bytes are read, and they are in the copy; a failed read shows
                // what there is (the failure is kept and refuses a save).
                let mut filled = 0;
                while filled < buf.len() {
                    match file.read_at(&mut buf[filled..], start + filled as u64) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => filled += n,
                    }
                }
                buf.truncate(filled);
                Cow::Owned(buf)
            }
        }
    }
}

/// A line's content bytes and its ending (`\n`, `\r\n`, or none).
type LineParts<'a> = (Cow<'a, [u8]>, Option<&'static [u8]>);

/// The line ending that ends `line`: `\r\n`, `\n`, or none (a final line without one).
fn line_ending(line: &[u8]) -> Option<&'static [u8]> {
    if line.ends_with(b"\r\n") {
        Some(b"\r\n")
    } else if line.ends_with(b"\n") {
        Some(b"\n")
    } else {
        None
    }
}

/// Closes the index: the text's end ends the last line (a final line without `\n` counts; the
/// empty "line" after a final `\n` does not; an empty text is one empty line).
fn finish_starts(starts: &mut Vec<u64>, len: u64) {
    if starts.last() != Some(&len) {
        starts.push(len);
    }
    if starts.len() == 1 {
        starts.push(len);
    }
}

/// Reads the file once: each piece goes to the private copy, then its line starts are
/// published (so a line is readable from the copy as soon as it is known) and it is hashed for
/// the stamp.
fn index_file(mut file: File, mut copy: File, meta: &std::fs::Metadata, index: &LineIndex) {
    let mut buf = vec![0u8; 1 << 20];
    let mut offset = 0u64;
    let mut last = None;
    let mut hash = ContentHash::default();
    let failure = loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => n,
            Err(e) => break Some(format!("reading it failed: {e}")),
        };
        if let Err(e) = copy.write_all(&buf[..n]) {
            break Some(format!("keeping a copy of it failed: {e}"));
        }
        hash.feed(&buf[..n]);
        let found = memchr::memchr_iter(b'\n', &buf[..n]).map(|i| offset + i as u64 + 1);
        index.starts.lock().expect("index lock").extend(found);
        offset += n as u64;
        last = Some(buf[n - 1]);
        index.indexed_bytes.store(offset, Ordering::Relaxed);
    };
    finish_starts(&mut index.starts.lock().expect("index lock"), offset);
    index
        .final_newline
        .store(last == Some(b'\n'), Ordering::Release);
    match failure {
        None => {
            let _ = index.stamp.set(Stamp::new(meta, hash.finish()));
        }
        Some(why) => {
            let _ = index.failure.set(why);
        }
    }
    index.done.store(true, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(doc: &Snapshot) -> Vec<String> {
        (0..doc.line_count())
            .map(|n| doc.line(n).unwrap().into_owned())
            .collect()
    }

    #[test]
    fn lines_without_endings() {
        assert_eq!(
            lines(&Snapshot::from_text("a\nb\r\n\nc")),
            ["a", "b", "", "c"]
        );
        assert_eq!(lines(&Snapshot::from_text("a\n")), ["a"]);
        assert_eq!(lines(&Snapshot::from_text("")), [""]);
        assert!(Snapshot::from_text("a").line(1).is_none());
    }

    #[test]
    fn file_is_indexed_in_the_background() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let path = file.path();
        let mut text = String::new();
        for i in 0..50_000 {
            text.push_str(&format!("line {i}\n"));
        }
        text.push_str("caf\u{e9} \u{ff}");
        let mut bytes = text.into_bytes();
        bytes.push(0xff);
        std::fs::write(path, &bytes).unwrap();
        let doc = Snapshot::open(path).unwrap();
        while !doc.is_indexed() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(doc.line_count(), 50_001);
        assert_eq!(doc.line(49_999).unwrap(), "line 49999");
        assert_eq!(doc.line(50_000).unwrap(), "café ÿ\u{fffd}");
        assert_eq!(doc.progress(), 1.0);
        assert!(!doc.ends_with_newline());
    }

    /// Another program rewrites the file in place after it was opened: the lines shown are
    /// still the text that was opened, and a save over it is refused as a change.
    #[test]
    fn a_file_rewritten_underneath_keeps_showing_what_was_opened() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("t.txt");
        std::fs::write(&path, "one\ntwo\nthree\n").unwrap();
        let doc = Snapshot::open(&path).unwrap();
        while !doc.is_indexed() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // In place (same inode), shorter lines: offsets into it would read fragments.
        std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&path)
            .unwrap()
            .write_all(b"ABCD\nEFGH\nIJKLMN\n")
            .unwrap();
        assert_eq!(lines(&doc), ["one", "two", "three"]);
        let expect = Expect::Unchanged(doc.stamp());
        let err = doc.write_to(&path, &expect).unwrap_err();
        assert!(matches!(err, WriteError::Changed(_)), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "ABCD\nEFGH\nIJKLMN\n"
        );
        // Asked to overwrite, it writes the text as shown, whole.
        doc.write_to(&path, &Expect::Replace).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\nthree\n");
    }

    #[test]
    fn a_directory_is_not_a_text() {
        let temp = tempfile::tempdir().unwrap();
        let err = Snapshot::open(temp.path()).err().unwrap();
        assert!(err.to_string().contains("directory"), "{err}");
    }
}
