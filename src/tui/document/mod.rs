//! The text being looked at and edited. The file is read lazily ([`source`]); edits are kept
//! as a line list over it, materialized on the first edit, so an untouched 100 MB file never
//! costs more than its line index.

mod source;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use source::LineRef;
pub use source::Snapshot;
use toklab::core::files::{Expect, Stamp, WriteError};

/// The document: a snapshot of the file plus the user's edits.
pub struct Document {
    pub path: Option<PathBuf>,
    base: Snapshot,
    /// The lines after editing, once anything was edited.
    lines: Option<Vec<LineRef>>,
    dirty: bool,
    /// The file as this session last wrote it (else as it was read): a save compares.
    written: Option<Stamp>,
}

/// Why an edit could not be made.
#[derive(Debug, PartialEq, Eq)]
pub enum EditError {
    /// The file is still being indexed; edits wait until every line is known.
    StillIndexing,
    NoSuchLine(usize),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::StillIndexing => {
                f.write_str("the file is still being indexed; try again in a moment")
            }
            EditError::NoSuchLine(n) => write!(f, "there is no line {}", n + 1),
        }
    }
}

impl Document {
    /// A document held in memory (a text given on the command line, tests).
    pub fn from_text(text: &str) -> Document {
        Document {
            path: None,
            base: Snapshot::from_text(text),
            lines: None,
            dirty: false,
            written: None,
        }
    }

    /// Opens a file and starts indexing it in the background.
    pub fn open(path: &Path) -> std::io::Result<Document> {
        Ok(Document {
            path: Some(path.to_path_buf()),
            base: Snapshot::open(path)?,
            lines: None,
            dirty: false,
            written: None,
        })
    }

    /// What the text's file held when it was read or last saved: a save over it expects that.
    pub fn on_disk(&self) -> Option<Stamp> {
        self.written.clone().or_else(|| self.base.stamp())
    }

    /// Lines known so far (all of them once indexing is done).
    pub fn line_count(&self) -> usize {
        match &self.lines {
            Some(lines) => lines.len(),
            None => self.base.line_count(),
        }
    }

    pub fn is_indexed(&self) -> bool {
        self.base.is_indexed()
    }

    /// How far indexing has got, 0.0 to 1.0.
    pub fn progress(&self) -> f64 {
        self.base.progress()
    }

    /// Whether there are unsaved edits.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Line `n` (0-based) without its line ending; `None` past the lines known so far.
    pub fn line(&self, n: usize) -> Option<Cow<'_, str>> {
        match &self.lines {
            Some(lines) => match lines.get(n)? {
                LineRef::Original(k) => self.base.line(*k),
                LineRef::Text { text, .. } => Some(Cow::Borrowed(text)),
            },
            None => self.base.line(n),
        }
    }

    /// A read-only view of the current state for background work (statistics, search).
    pub fn snapshot(&self) -> Snapshot {
        match &self.lines {
            Some(lines) => self.base.with_lines(Arc::new(lines.clone())),
            None => self.base.clone(),
        }
    }

    fn edit_lines(&mut self) -> Result<&mut Vec<LineRef>, EditError> {
        if self.lines.is_none() {
            if !self.base.is_indexed() {
                return Err(EditError::StillIndexing);
            }
            self.lines = Some((0..self.base.line_count()).map(LineRef::Original).collect());
        }
        self.dirty = true;
        Ok(self.lines.as_mut().expect("just materialized"))
    }

    /// Replaces line `n`; returns what it was.
    pub fn set_line(&mut self, n: usize, text: String) -> Result<String, EditError> {
        let old = self.line(n).ok_or(EditError::NoSuchLine(n))?.into_owned();
        let line = &mut self.edit_lines()?[n];
        let (ending_of, carried) = match line {
            LineRef::Original(k) => (Some(*k), Vec::new()),
            LineRef::Text {
                ending_of, carried, ..
            } => (*ending_of, std::mem::take(carried)),
        };
        *line = LineRef::Text {
            text,
            ending_of,
            carried,
        };
        Ok(old)
    }

    /// The original lines whose text line `n` holds: the one it is or replaced, and any split
    /// off or joined to it (see [`Document::carry`]).
    pub fn sources(&self, n: usize) -> Vec<usize> {
        match self.lines.as_ref().map(|lines| lines.get(n)) {
            None if n < self.line_count() => vec![n],
            Some(Some(LineRef::Original(k))) => vec![*k],
            Some(Some(LineRef::Text {
                ending_of, carried, ..
            })) => ending_of.iter().chain(carried).copied().collect(),
            _ => Vec::new(),
        }
    }

    /// Records that line `n` now also holds text from the original lines `sources` (Enter
    /// inside a line, a join, an undone join), so saving asks before their bytes that are
    /// not UTF-8 become U+FFFD.
    pub fn carry(&mut self, n: usize, sources: &[usize]) -> Result<(), EditError> {
        if sources.is_empty() {
            return Ok(());
        }
        let text = self.line(n).ok_or(EditError::NoSuchLine(n))?.into_owned();
        // A new line showing exactly one of its sources (an undone join) is that line again:
        // saved as its bytes, with its ending.
        let is_source = sources
            .iter()
            .copied()
            .find(|&k| self.base.unchanged_original(&text, k).is_some());
        let line = &mut self.edit_lines()?[n];
        if let LineRef::Original(k) = *line {
            *line = LineRef::Text {
                text,
                ending_of: Some(k),
                carried: Vec::new(),
            };
        }
        if let LineRef::Text {
            ending_of, carried, ..
        } = line
        {
            if ending_of.is_none() {
                *ending_of = is_source;
            }
            for &k in sources {
                if *ending_of != Some(k) && !carried.contains(&k) {
                    carried.push(k);
                }
            }
        }
        Ok(())
    }

    /// Inserts a line before line `n` (`n == line_count()` appends).
    pub fn insert_line(&mut self, n: usize, text: String) -> Result<(), EditError> {
        if n > self.line_count() {
            return Err(EditError::NoSuchLine(n));
        }
        self.edit_lines()?.insert(
            n,
            LineRef::Text {
                text,
                ending_of: None,
                carried: Vec::new(),
            },
        );
        Ok(())
    }

    /// Removes line `n`; returns its text. The last remaining line is emptied, not removed, so
    /// there is always a current line.
    pub fn remove_line(&mut self, n: usize) -> Result<String, EditError> {
        let old = self.line(n).ok_or(EditError::NoSuchLine(n))?.into_owned();
        let lines = self.edit_lines()?;
        if lines.len() == 1 {
            lines[0] = LineRef::Text {
                text: String::new(),
                ending_of: None,
                carried: Vec::new(),
            };
        } else {
            lines.remove(n);
        }
        Ok(old)
    }

    /// Writes the document to `path` (its own path when `None`, which must not have changed
    /// on disk since it was read) and marks it saved.
    pub fn save(&mut self, path: Option<&Path>) -> Result<PathBuf, WriteError> {
        let target = match path.or(self.path.as_deref()) {
            Some(p) => p.to_path_buf(),
            None => {
                return Err(WriteError::Io(
                    PathBuf::new(),
                    std::io::Error::other("this text has no file yet: give a path"),
                ));
            }
        };
        let expect = if self.path.as_ref() == Some(&target) {
            Expect::Unchanged(self.on_disk())
        } else {
            Expect::Absent
        };
        let stamp = self.snapshot().write_to(&target, &expect)?;
        self.mark_saved(target.clone(), stamp);
        Ok(target)
    }

    /// The text was written to `path` (by [`Snapshot::write_to`]) as `stamp`: it is the
    /// text's file now, with nothing unsaved.
    pub fn mark_saved(&mut self, path: PathBuf, stamp: Stamp) {
        self.path = Some(path);
        self.dirty = false;
        self.written = Some(stamp);
    }

    /// A short name for titles and the status bar.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(doc: &Document) -> Vec<String> {
        (0..doc.line_count())
            .map(|n| doc.line(n).unwrap().into_owned())
            .collect()
    }

    #[test]
    fn edits_overlay_the_original() {
        let mut doc = Document::from_text("a\nb\nc\n");
        assert_eq!(doc.set_line(1, "B".into()).unwrap(), "b");
        doc.insert_line(0, "zero".into()).unwrap();
        assert_eq!(doc.remove_line(3).unwrap(), "c");
        assert_eq!(lines(&doc), ["zero", "a", "B"]);
        assert!(doc.is_dirty());
        assert_eq!(
            doc.set_line(9, String::new()),
            Err(EditError::NoSuchLine(9))
        );
        let snap = doc.snapshot();
        assert_eq!(snap.line(2).unwrap(), "B");
    }

    #[test]
    fn last_line_is_emptied_not_removed() {
        let mut doc = Document::from_text("only");
        doc.remove_line(0).unwrap();
        assert_eq!(lines(&doc), [""]);
    }

    #[test]
    fn save_keeps_the_final_newline_convention() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        for (original, expected) in [("a\nb\n", "a\nX\n"), ("a\nb", "a\nX")] {
            let path = dir.join("t.txt");
            std::fs::write(&path, original).unwrap();
            let mut doc = Document::open(&path).unwrap();
            while !doc.is_indexed() {
                std::thread::yield_now();
            }
            doc.set_line(1, "X".into()).unwrap();
            doc.save(None).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
            assert!(!doc.is_dirty());
        }
    }

    fn saved_after(original: &[u8], edit: impl FnOnce(&mut Document)) -> Vec<u8> {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("t.txt");
        std::fs::write(&path, original).unwrap();
        let mut doc = Document::open(&path).unwrap();
        while !doc.is_indexed() {
            std::thread::yield_now();
        }
        edit(&mut doc);
        doc.save(None).unwrap();
        std::fs::read(&path).unwrap()
    }

    #[test]
    fn save_writes_untouched_lines_byte_for_byte() {
        // CRLF endings, a Latin-1 byte and a lone CR inside a line survive; only line 2 changes,
        // keeping its own CRLF.
        let original = b"caf\xe9\r\nb\r\nx\ry\r\nlast";
        assert_eq!(
            saved_after(original, |doc| {
                doc.set_line(1, "B".into()).unwrap();
            }),
            b"caf\xe9\r\nB\r\nx\ry\r\nlast"
        );
        // Nothing edited: the file comes back exactly as it was.
        assert_eq!(saved_after(original, |_| {}), original);
    }

    #[test]
    fn new_lines_take_the_texts_ending() {
        assert_eq!(
            saved_after(b"a\r\nb", |doc| {
                doc.insert_line(2, "c".into()).unwrap();
                doc.insert_line(0, "z".into()).unwrap();
            }),
            b"z\r\na\r\nb\r\nc"
        );
        assert_eq!(
            saved_after(b"a\r\nb\r\n", |doc| {
                doc.remove_line(1).unwrap();
                doc.insert_line(1, "n".into()).unwrap();
            }),
            b"a\r\nn\r\n"
        );
    }
}
