//! The text being looked at, read lazily: a background thread indexes line starts while the
//! first frame is drawn from what is indexed so far, and lines are read on demand, so a 100 MB
//! file opens at once and memory stays at the size of the index.

use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where the bytes are.
enum Source {
    Memory(Vec<u8>),
    File(File),
}

/// Line starts found so far, shared with the indexing thread.
struct LineIndex {
    /// Byte offset of the start of every line found, and of the end of the file once done.
    starts: Mutex<Vec<u64>>,
    indexed_bytes: AtomicU64,
    done: AtomicBool,
}

/// A text file (or an in-memory text) as lines.
pub struct Document {
    pub path: Option<PathBuf>,
    source: Source,
    len: u64,
    index: Arc<LineIndex>,
}

impl Document {
    /// A document held in memory (a text given on the command line, tests).
    pub fn from_text(text: &str) -> Document {
        let bytes = text.as_bytes().to_vec();
        let index = LineIndex {
            starts: Mutex::new(line_starts(&bytes, 0)),
            indexed_bytes: AtomicU64::new(bytes.len() as u64),
            done: AtomicBool::new(true),
        };
        let mut starts = index.starts.lock().expect("fresh lock");
        let len = bytes.len() as u64;
        finish_starts(&mut starts, len);
        drop(starts);
        Document {
            path: None,
            len,
            source: Source::Memory(bytes),
            index: Arc::new(index),
        }
    }

    /// Opens a file and starts indexing it in the background.
    pub fn open(path: &Path) -> std::io::Result<Document> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let index = Arc::new(LineIndex {
            starts: Mutex::new(vec![0]),
            indexed_bytes: AtomicU64::new(0),
            done: AtomicBool::new(false),
        });
        let reader = file.try_clone()?;
        let shared = Arc::clone(&index);
        std::thread::Builder::new()
            .name("toklab-index".into())
            .spawn(move || index_file(reader, &shared))?;
        Ok(Document {
            path: Some(path.to_path_buf()),
            source: Source::File(file),
            len,
            index,
        })
    }

    /// Lines known so far (all of them once indexing is done).
    pub fn line_count(&self) -> usize {
        let starts = self.index.starts.lock().expect("index lock");
        if self.index.done.load(Ordering::Acquire) {
            starts.len() - 1
        } else {
            // The last start found has no end yet.
            starts.len().saturating_sub(1)
        }
    }

    pub fn is_indexed(&self) -> bool {
        self.index.done.load(Ordering::Acquire)
    }

    /// How far indexing has got, 0.0 to 1.0.
    pub fn progress(&self) -> f64 {
        if self.len == 0 {
            return 1.0;
        }
        self.index.indexed_bytes.load(Ordering::Relaxed) as f64 / self.len as f64
    }

    /// Line `n` (0-based) without its line ending, invalid UTF-8 replaced by U+FFFD; `None`
    /// past the lines known so far.
    pub fn line(&self, n: usize) -> Option<Cow<'_, str>> {
        let (start, end) = {
            let starts = self.index.starts.lock().expect("index lock");
            (*starts.get(n)?, *starts.get(n + 1)?)
        };
        let mut bytes = self.read(start, end);
        if bytes.last() == Some(&b'\n') {
            bytes.to_mut().pop();
            if bytes.last() == Some(&b'\r') {
                bytes.to_mut().pop();
            }
        }
        Some(match bytes {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(b) => Cow::Owned(String::from_utf8_lossy(&b).into_owned()),
        })
    }

    fn read(&self, start: u64, end: u64) -> Cow<'_, [u8]> {
        match &self.source {
            Source::Memory(bytes) => Cow::Borrowed(&bytes[start as usize..end as usize]),
            Source::File(file) => {
                let mut buf = vec![0; (end - start) as usize];
                // A file that shrank since it was indexed reads short; show what is there.
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

    /// A short name for the status bar.
    pub fn name(&self) -> String {
        match &self.path {
            Some(p) => p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            None => "(text)".to_string(),
        }
    }
}

fn line_starts(bytes: &[u8], base: u64) -> Vec<u64> {
    let mut starts = if base == 0 { vec![0] } else { Vec::new() };
    starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| base + i as u64 + 1));
    starts
}

/// Closes the index: the file's end ends the last line (a final line without `\n` counts; the
/// empty "line" after a final `\n` does not).
fn finish_starts(starts: &mut Vec<u64>, len: u64) {
    if starts.last() != Some(&len) {
        starts.push(len);
    }
    if starts.len() == 1 {
        // An empty file is one empty line, so there is always a current line.
        starts.push(len);
    }
}

fn index_file(mut file: File, index: &LineIndex) {
    let mut buf = vec![0u8; 1 << 20];
    let mut offset = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let found = memchr::memchr_iter(b'\n', &buf[..n]).map(|i| offset + i as u64 + 1);
        index.starts.lock().expect("index lock").extend(found);
        offset += n as u64;
        index.indexed_bytes.store(offset, Ordering::Relaxed);
    }
    let mut starts = index.starts.lock().expect("index lock");
    finish_starts(&mut starts, offset);
    drop(starts);
    index.done.store(true, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(doc: &Document) -> Vec<String> {
        (0..doc.line_count())
            .map(|n| doc.line(n).unwrap().into_owned())
            .collect()
    }

    #[test]
    fn lines_without_endings() {
        assert_eq!(
            lines(&Document::from_text("a\nb\r\n\nc")),
            ["a", "b", "", "c"]
        );
        assert_eq!(lines(&Document::from_text("a\n")), ["a"]);
        assert_eq!(lines(&Document::from_text("")), [""]);
        assert!(Document::from_text("a").line(1).is_none());
    }

    #[test]
    fn file_is_indexed_in_the_background() {
        let path = std::env::temp_dir().join(format!("toklab-doc-{}.txt", std::process::id()));
        let mut text = String::new();
        for i in 0..50_000 {
            text.push_str(&format!("line {i}\n"));
        }
        text.push_str("caf\u{e9} \u{ff}");
        let mut bytes = text.into_bytes();
        bytes.push(0xff);
        std::fs::write(&path, &bytes).unwrap();
        let doc = Document::open(&path).unwrap();
        while !doc.is_indexed() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(doc.line_count(), 50_001);
        assert_eq!(doc.line(49_999).unwrap(), "line 49999");
        assert_eq!(doc.line(50_000).unwrap(), "café ÿ\u{fffd}");
        assert_eq!(doc.progress(), 1.0);
        std::fs::remove_file(&path).ok();
    }
}
