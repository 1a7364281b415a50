//! Reading texts line by line from a file or standard input in constant memory, with invalid
//! UTF-8 reported by line (or replaced, with `--lossy`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, bail};
pub use toklab::core::batch::Batch;

/// The most bytes toklab holds of one input at once, unless `TOKLAB_INPUT_LIMIT` says
/// otherwise: one line for the commands that read line by line, the whole file for those that
/// read it whole (training corpora, `align --pairs`). An endless line (`/dev/zero`) stops
/// with an error naming the input and line instead of exhausting memory.
pub const DEFAULT_INPUT_LIMIT: u64 = 1 << 30;

/// The input limit in force: `TOKLAB_INPUT_LIMIT` (bytes) or [`DEFAULT_INPUT_LIMIT`].
pub fn input_limit() -> anyhow::Result<u64> {
    match std::env::var("TOKLAB_INPUT_LIMIT") {
        Err(_) => Ok(DEFAULT_INPUT_LIMIT),
        Ok(value) => value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .with_context(|| {
                format!("TOKLAB_INPUT_LIMIT=`{value}` is not a number of bytes above 0")
            }),
    }
}

/// The bytes of `path` (or of standard input for `-`), read whole up to the input limit; a
/// larger input is an error naming it and the limit.
pub fn read_whole(path: &Path) -> anyhow::Result<Vec<u8>> {
    let limit = input_limit()?;
    let (reader, name): (Box<dyn Read>, String) = if path == Path::new("-") {
        (Box::new(io::stdin()), "<stdin>".into())
    } else {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        (Box::new(file), path.display().to_string())
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {name}"))?;
    if bytes.len() as u64 > limit {
        bail!("{name}: more than {limit} bytes, the input limit (TOKLAB_INPUT_LIMIT sets it)");
    }
    Ok(bytes)
}

/// A source of texts: each line is one text, without its `\n` (or `\r\n`).
pub struct Lines {
    reader: Box<dyn BufRead>,
    name: String,
    line: usize,
    /// The longest line taken, in bytes ([`input_limit`]).
    limit: u64,
    lossy: bool,
    /// Lines in which invalid UTF-8 was replaced.
    pub replaced: usize,
    /// An error met inside a batch, returned after the texts before it.
    pending_error: Option<anyhow::Error>,
    /// How many lines the next batch may take: it doubles from batch to batch
    /// ([`BATCH_LINES`]).
    batch_lines: usize,
}

impl Lines {
    /// Opens `path`, or standard input for `None` or `-`.
    pub fn open(path: Option<&Path>, lossy: bool) -> anyhow::Result<Lines> {
        let (reader, name): (Box<dyn Read>, String) = match path {
            None => (Box::new(io::stdin()), "<stdin>".into()),
            Some(p) if p == Path::new("-") => (Box::new(io::stdin()), "<stdin>".into()),
            Some(p) => (
                Box::new(File::open(p).with_context(|| format!("cannot open {}", p.display()))?),
                p.display().to_string(),
            ),
        };
        Ok(Lines {
            reader: Box::new(BufReader::with_capacity(1 << 16, reader)),
            name,
            line: 0,
            limit: input_limit()?,
            lossy,
            replaced: 0,
            pending_error: None,
            batch_lines: BATCH_LINES.start,
        })
    }

    /// The next text, or `None` at the end of the input.
    pub fn next_text(&mut self) -> anyhow::Result<Option<String>> {
        let mut buf = Vec::new();
        if !self.read_line(&mut buf)? {
            return Ok(None);
        }
        // The line's bytes become the text without a copy: on a line of hundreds of megabytes
        // a second copy would double what reading it costs.
        match String::from_utf8(buf) {
            Ok(text) => Ok(Some(text)),
            Err(e) if self.lossy => {
                self.replaced += 1;
                Ok(Some(String::from_utf8_lossy(e.as_bytes()).into_owned()))
            }
            Err(e) => Err(self.invalid(self.line, e.utf8_error())),
        }
    }

    /// Reads the next line onto the end of `buf`, without its `\n` or `\r\n`; false at the
    /// end of the input.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> anyhow::Result<bool> {
        let start = buf.len();
        let n = (&mut self.reader)
            .take(self.limit + 1)
            .read_until(b'\n', buf)
            .with_context(|| format!("reading {}", self.name))?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        if n as u64 > self.limit && buf.last() != Some(&b'\n') {
            bail!(
                "{}:{}: the line is longer than {} bytes, the input limit (TOKLAB_INPUT_LIMIT \
                 sets it)",
                self.name,
                self.line,
                self.limit
            );
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.len() > start && buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        Ok(true)
    }

    /// The error for invalid UTF-8 on line `line`.
    fn invalid(&self, line: usize, error: std::str::Utf8Error) -> anyhow::Error {
        anyhow::anyhow!(
            "{}:{line}: invalid UTF-8 at byte {} of the line (use --lossy to replace it with U+FFFD)",
            self.name,
            error.valid_up_to() + 1
        )
    }

    /// The input's name in messages (the file, or `<stdin>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Prints the `--lossy` summary if anything was replaced.
    pub fn report(&self) {
        if self.replaced > 0 {
            super::warn(&format!(
                "{}: invalid UTF-8 replaced with U+FFFD in {} line{}",
                self.name,
                self.replaced,
                if self.replaced == 1 { "" } else { "s" }
            ));
        }
    }
}

/// Lines read together and handed to one worker. The first batches are small, so every core
/// gets work on a short input; each batch may then take twice the lines of the one before, so on
/// a long input the hand-over (a worker woken, a result sent back) costs nothing next to
/// tokenizing: with a cheap tokenizer such as `ws`, batches of 256 lines had the threads wake
/// each other thousands of times and cost up to 2.7 times the CPU of one thread.
const BATCH_LINES: std::ops::Range<usize> = 256..16_384;
/// The most bytes a batch takes (a line longer than this is a batch of its own). Small enough
/// that a batch and its output stay in a core's cache (1 MB here) and that the batches in flight
/// with two threads touch few pages one thread does not: at 512 KB two threads on 16 MB of
/// `fst` took 3,700 page faults against 1,400, at 128 KB 1,400 against 1,100, for 67 context
/// switches instead of 35.
const BATCH_BYTES: usize = 1 << 17;

/// A batch's buffer larger than this, after a line longer than a batch, is freed rather than
/// refilled, so an exceptional line is not held to the end.
const KEPT_BATCH_BYTES: usize = 4 * BATCH_BYTES;

impl Lines {
    /// The next batch of texts, or `None` at the end. An input error after some texts of a
    /// batch returns those first and the error on the next call, so what precedes a bad line
    /// is written as one thread writes it.
    ///
    /// `spare` is a batch written, whose buffers the lines are read into: a long input then
    /// costs no allocation a line once the first batches are read (and, with several threads,
    /// no memory of this thread's is freed on another: see `toklab::core::batch`).
    pub fn next_batch(&mut self, spare: Option<Batch>) -> anyhow::Result<Option<Batch>> {
        if let Some(e) = self.pending_error.take() {
            return Err(e);
        }
        let (text, mut ends) = spare.map(Batch::into_parts).unwrap_or_default();
        let mut bytes = match text.capacity() > KEPT_BATCH_BYTES {
            true => Vec::new(),
            false => text.into_bytes(),
        };
        let first = self.line + 1;
        let lines = self.batch_lines;
        self.batch_lines = (lines * 2).min(BATCH_LINES.end);
        while ends.len() < lines && bytes.len() < BATCH_BYTES {
            match self.read_line(&mut bytes) {
                Ok(true) => ends.push(bytes.len()),
                Ok(false) => break,
                Err(e) => {
                    self.pending_error = Some(e);
                    break;
                }
            }
        }
        let batch = self.checked(first, bytes, ends);
        if batch.is_empty() {
            return self.pending_error.take().map_or(Ok(None), Err);
        }
        Ok(Some(batch))
    }

    /// The lines read (`bytes` cut at `ends`) as a batch of texts. Invalid UTF-8 is replaced
    /// with `--lossy`; otherwise the batch ends before the first line with it, and the error
    /// is returned next.
    fn checked(&mut self, first: usize, bytes: Vec<u8>, ends: Vec<usize>) -> Batch {
        // One pass over the whole batch when all is well, which is the rule.
        let (bytes, ends) = match String::from_utf8(bytes) {
            Ok(text) => match Batch::from_parts(first, text, ends) {
                Ok(batch) => return batch,
                // A line ends inside a character that the next line completes.
                Err((text, ends)) => (text.into_bytes(), ends),
            },
            Err(e) => (e.into_bytes(), ends),
        };
        let mut batch = Batch::default();
        batch.clear(first);
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            let line = &bytes[start..end];
            start = end;
            match std::str::from_utf8(line) {
                Ok(text) => batch.push(text),
                Err(_) if self.lossy => {
                    self.replaced += 1;
                    batch.push(&String::from_utf8_lossy(line));
                }
                Err(e) => {
                    // Any error met further on comes after this one.
                    self.pending_error = Some(self.invalid(first + i, e));
                    break;
                }
            }
        }
        batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8], lossy: bool) -> (tempfile::TempDir, Lines) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.txt");
        std::fs::write(&path, bytes).unwrap();
        let lines = Lines::open(Some(&path), lossy).unwrap();
        (dir, lines)
    }

    /// Batches read into batches written give the input's lines, each once and in order, in
    /// the buffer of the batch written: the first batch's lines are long, so the short lines
    /// after them fit in its buffer.
    #[test]
    fn a_batch_is_read_into_the_buffer_of_one_written() {
        let first = BATCH_LINES.start;
        let expected: Vec<String> = (0..first + 3000)
            .map(|i| match i < first {
                true => format!("{i} {}", "long ".repeat(390)),
                false => format!("{i}\t{}", "short ".repeat(i % 3)),
            })
            .collect();
        let (_dir, mut lines) = lines_of((expected.join("\r\n") + "\n").as_bytes(), false);
        let (mut read, mut spare) = (Vec::new(), None::<Batch>);
        let mut buffer = None;
        while let Some(batch) = lines.next_batch(spare.take()).unwrap() {
            assert_eq!(batch.first, read.len() + 1);
            read.extend(batch.iter().map(str::to_string));
            let start = batch.get(0).as_ptr();
            assert_eq!(*buffer.get_or_insert(start), start, "line {}", batch.first);
            spare = Some(batch);
        }
        assert_eq!(read.len(), expected.len());
        assert!(read == expected);
    }

    /// A character cut by a line end is invalid on both lines, even though the batch's bytes
    /// together are valid: the error names the first line, after the lines before it.
    #[test]
    fn invalid_utf8_is_found_per_line_in_a_batch() {
        let text = b"fine\nab\xC3\n\xA9cd\nlast\n";
        let (_dir, mut lines) = lines_of(text, false);
        let batch = lines.next_batch(None).unwrap().unwrap();
        assert_eq!(batch.iter().collect::<Vec<_>>(), ["fine"]);
        let error = lines.next_batch(Some(batch)).unwrap_err().to_string();
        assert!(error.ends_with("lines.txt:2: invalid UTF-8 at byte 3 of the line (use --lossy to replace it with U+FFFD)"), "{error}");
        let (_dir, mut lines) = lines_of(text, true);
        let batch = lines.next_batch(None).unwrap().unwrap();
        assert_eq!(
            batch.iter().collect::<Vec<_>>(),
            ["fine", "ab\u{FFFD}", "\u{FFFD}cd", "last"]
        );
        assert_eq!(lines.replaced, 2);
        assert!(lines.next_batch(Some(batch)).unwrap().is_none());
    }
}
