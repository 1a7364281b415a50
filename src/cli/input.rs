//! Reading texts line by line from a file or standard input in constant memory, with invalid
//! UTF-8 reported by line (or replaced, with `--lossy`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, bail};

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
    buf: Vec<u8>,
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
            buf: Vec::new(),
            limit: input_limit()?,
            lossy,
            replaced: 0,
            pending_error: None,
            batch_lines: BATCH_LINES.start,
        })
    }

    /// The next text, or `None` at the end of the input.
    pub fn next_text(&mut self) -> anyhow::Result<Option<String>> {
        self.buf.clear();
        let n = (&mut self.reader)
            .take(self.limit + 1)
            .read_until(b'\n', &mut self.buf)
            .with_context(|| format!("reading {}", self.name))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if n as u64 > self.limit && self.buf.last() != Some(&b'\n') {
            bail!(
                "{}:{}: the line is longer than {} bytes, the input limit (TOKLAB_INPUT_LIMIT \
                 sets it)",
                self.name,
                self.line,
                self.limit
            );
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        // The line's bytes become the text without a copy: on a line of hundreds of megabytes
        // a second copy would double what reading it costs.
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(text) => Ok(Some(text)),
            Err(e) if self.lossy => {
                self.replaced += 1;
                Ok(Some(String::from_utf8_lossy(e.as_bytes()).into_owned()))
            }
            Err(e) => bail!(
                "{}:{}: invalid UTF-8 at byte {} of the line (use --lossy to replace it with U+FFFD)",
                self.name,
                self.line,
                e.utf8_error().valid_up_to() + 1
            ),
        }
    }

    /// Prints the `--lossy` summary if anything was replaced.
    /// The input's name in messages (the file, or `<stdin>`).
    pub fn name(&self) -> &str {
        &self.name
    }

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
/// The most bytes a batch takes (a line longer than this is a batch of its own).
const BATCH_BYTES: usize = 1 << 19;

/// Consecutive texts of the input, with the line number of the first.
pub struct Batch {
    /// The 1-based number of the first text.
    pub first: usize,
    /// The texts, in order.
    pub texts: Vec<String>,
}

impl Lines {
    /// The next batch of texts, or `None` at the end. An input error after some texts of a
    /// batch returns those first and the error on the next call, so what precedes a bad line
    /// is written as one thread writes it.
    pub fn next_batch(&mut self) -> anyhow::Result<Option<Batch>> {
        if let Some(e) = self.pending_error.take() {
            return Err(e);
        }
        let mut batch = Batch {
            first: self.line + 1,
            texts: Vec::new(),
        };
        let mut bytes = 0;
        let lines = self.batch_lines;
        self.batch_lines = (lines * 2).min(BATCH_LINES.end);
        while batch.texts.len() < lines && bytes < BATCH_BYTES {
            match self.next_text() {
                Ok(Some(text)) => {
                    bytes += text.len();
                    batch.texts.push(text);
                }
                Ok(None) => break,
                Err(e) if batch.texts.is_empty() => return Err(e),
                Err(e) => {
                    self.pending_error = Some(e);
                    break;
                }
            }
        }
        Ok((!batch.texts.is_empty()).then_some(batch))
    }
}
