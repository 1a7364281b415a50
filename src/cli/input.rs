//! Reading texts line by line from a file or standard input in constant memory, with invalid
//! UTF-8 reported by line (or replaced, with `--lossy`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, bail};

/// A source of texts: each line is one text, without its `\n` (or `\r\n`).
pub struct Lines {
    reader: Box<dyn BufRead>,
    name: String,
    line: usize,
    buf: Vec<u8>,
    lossy: bool,
    /// Lines in which invalid UTF-8 was replaced.
    pub replaced: usize,
    /// An error met inside a batch, returned after the texts before it.
    pending_error: Option<anyhow::Error>,
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
            lossy,
            replaced: 0,
            pending_error: None,
        })
    }

    /// The next text, or `None` at the end of the input.
    pub fn next_text(&mut self) -> anyhow::Result<Option<String>> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .with_context(|| format!("reading {}", self.name))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        match std::str::from_utf8(&self.buf) {
            Ok(text) => Ok(Some(text.to_string())),
            Err(e) if self.lossy => {
                let _ = e;
                self.replaced += 1;
                Ok(Some(String::from_utf8_lossy(&self.buf).into_owned()))
            }
            Err(e) => bail!(
                "{}:{}: invalid UTF-8 at byte {} of the line (use --lossy to replace it with U+FFFD)",
                self.name,
                self.line,
                e.valid_up_to() + 1
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
            eprintln!(
                "toklab: warning: {}: invalid UTF-8 replaced with U+FFFD in {} line{}",
                self.name,
                self.replaced,
                if self.replaced == 1 { "" } else { "s" }
            );
        }
    }
}

/// Lines read together and handed to one worker: large enough that the hand-over costs
/// nothing next to tokenizing them, small enough that every core gets work on short inputs.
const BATCH_LINES: usize = 256;
const BATCH_BYTES: usize = 1 << 18;

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
        while batch.texts.len() < BATCH_LINES && bytes < BATCH_BYTES {
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
