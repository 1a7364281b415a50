//! A cache of parsed models, so that the second load of a large model (a 17 MB
//! `tokenizer.json`, a SentencePiece `.model`, a tiktoken rank file, a GGUF file) costs reading
//! a flat copy of its tables instead of parsing and checking the file again.
//!
//! One entry per source file and loader, named by a hash of the loader's name and the file's
//! canonical path, in [`cache_dir`]. The entry's header records what it was made from: the
//! file's size, modification time (to the nanosecond), inode and device, and a 64-bit hash of
//! all its bytes (a file rewritten with the same size and its old time restored is caught by
//! the hash; for a format whose tokenizer sits at the start of files of many gigabytes, a GGUF
//! model, the hash covers only that start, whose length the entry records); then the entry format, toklab's version, the loader's name and a hash of the
//! payload. An entry is used only when every one of these matches and its payload then decodes
//! whole; anything else (damaged, cut short, written by another version or for another file)
//! is ignored and rewritten after the file is parsed. A cache that cannot be read or written
//! changes nothing but the time a load takes: no error, no message.
//!
//! Engines decide what their payload holds ([`FlatWriter`], [`FlatReader`]); the cache knows
//! nothing of them.

mod blob;
mod flat;

pub use blob::{Blob, set_u32, set_u64, u32_in, u64_in};
pub use flat::{FlatReader, FlatWriter, WordHash, word_hash};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::core::error::{Error, Result};
use crate::core::files::{Expect, write_file};

/// The layout of entries; changing what any engine writes changes this (as does a new toklab
/// version, which the header also records).
const FORMAT: u32 = 10;
const MAGIC: &[u8; 8] = b"toklabMC";

/// Where entries live: `$TOKLAB_CACHE_DIR`, else `$XDG_CACHE_HOME/toklab/models`, else
/// `~/.cache/toklab/models`. `None` when `TOKLAB_NO_CACHE` is set (to anything but `0` or
/// nothing) or no folder can be named.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if var("TOKLAB_NO_CACHE").is_some_and(|v| v != "0") {
        return None;
    }
    if let Some(dir) = var("TOKLAB_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    let base = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(base.join("toklab").join("models"))
}

/// What the header says the entry was made from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    path: Vec<u8>,
    len: u64,
    modified_ns: u128,
    inode: u64,
    device: u64,
    /// How many bytes from the file's start the hash covers (the whole file but for
    /// [`Lookup::open_prefix`]).
    hashed: u64,
    hash: u64,
}

/// A model file and its cache entry, if a valid one exists. On a hit the file is only
/// hashed, a block at a time, never held whole; its bytes are read when a loader asks.
pub struct Lookup {
    path: PathBuf,
    /// The source file's bytes, once read.
    source: Option<Vec<u8>>,
    /// The entry's bytes and where its payload starts, when the entry is valid (shared by
    /// the tables read from it in place).
    entry: Option<(Arc<Vec<u8>>, usize)>,
    /// Where to store a new entry and what it is made from (`None`: no cache).
    slot: Option<(PathBuf, Origin)>,
    kind: &'static str,
}

impl Lookup {
    /// Opens `path` and looks for its entry under the loader name `kind`. Fails only when the
    /// file itself cannot be read.
    pub fn open(path: &Path, kind: &'static str) -> Result<Lookup> {
        let mut lookup = Lookup::find(path, kind, false)?;
        if lookup.entry.is_none() {
            lookup.read_source()?;
        }
        Ok(lookup)
    }

    /// Like [`Lookup::open`] for a file whose model is in its first bytes and whose rest may be
    /// gigabytes never read: an entry is checked against the hash of the start it records, and
    /// on a miss nothing of the file is read here (the loader reads what it needs and calls
    /// [`Lookup::store_prefix`]).
    pub fn open_prefix(path: &Path, kind: &'static str) -> Result<Lookup> {
        Lookup::find(path, kind, true)
    }

    fn find(path: &Path, kind: &'static str, prefix: bool) -> Result<Lookup> {
        let io = |e| Error::io(path, e);
        let mut file = std::fs::File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        let mut slot = cache_dir().and_then(|dir| {
            let canonical = std::fs::canonicalize(path).ok()?;
            let origin = origin_of(&canonical, &meta);
            let mut name = kind.as_bytes().to_vec();
            name.push(0);
            name.extend_from_slice(&origin.path);
            Some((dir.join(format!("{:016x}.entry", word_hash(&name))), origin))
        });
        let mut lookup = Lookup {
            path: path.to_path_buf(),
            source: None,
            entry: None,
            slot: None,
            kind,
        };
        if let Some((file_name, origin)) = &mut slot
            && let Some((bytes, start, recorded)) = read_entry(file_name, kind, origin)
            && (recorded.hashed == origin.len || prefix && recorded.hashed <= origin.len)
        {
            origin.hashed = recorded.hashed;
            origin.hash = hash_of(&mut file, recorded.hashed).map_err(io)?;
            if origin.hash == recorded.hash {
                lookup.entry = Some((Arc::new(bytes), start));
            }
        }
        lookup.slot = slot;
        Ok(lookup)
    }

    /// Reads the source file (again, if it was only hashed) and records the hash of exactly
    /// the bytes read, which is what a new entry is stored under.
    fn read_source(&mut self) -> Result<&[u8]> {
        if self.source.is_none() {
            let bytes = std::fs::read(&self.path).map_err(|e| Error::io(&self.path, e))?;
            if let Some((_, origin)) = &mut self.slot {
                origin.hash = word_hash(&bytes);
                origin.hashed = bytes.len() as u64;
            }
            self.source = Some(bytes);
        }
        Ok(self.source.as_deref().unwrap_or_default())
    }

    /// The source file's bytes.
    pub fn source(&mut self) -> Result<&[u8]> {
        self.read_source()
    }

    /// The source file's bytes, taken out (a loader parses them on a miss).
    pub fn take_source(&mut self) -> Result<Vec<u8>> {
        self.read_source()?;
        Ok(self.source.take().unwrap_or_default())
    }

    /// A reader of the payload of a valid entry, whose blobs are views of the entry.
    pub fn payload(&self) -> Option<FlatReader<'_>> {
        self.entry
            .as_ref()
            .map(|(bytes, start)| FlatReader::over(bytes, *start))
    }

    /// Writes the entry for this file with `payload` (through the one atomic writer). Failing
    /// to write is not an error: the next load parses the file again.
    pub fn store(&self, payload: &[u8]) {
        let Some((file, origin)) = &self.slot else {
            return;
        };
        write_entry(file, &header(self.kind, origin, payload), payload);
    }

    /// Writes the entry of a file opened with [`Lookup::open_prefix`], made from its first
    /// `prefix` bytes: they are hashed now, and nothing is written when the file's size, time,
    /// inode or device are no longer those seen when it was opened (it changed while it was
    /// being read, so the hash may not be of the bytes the payload was made from).
    pub fn store_prefix(&self, payload: &[u8], prefix: u64) {
        let Some((file, origin)) = &self.slot else {
            return;
        };
        let Ok(mut source) = std::fs::File::open(&self.path) else {
            return;
        };
        let unchanged = |source: &std::fs::File| {
            source.metadata().is_ok_and(|meta| {
                let now = origin_of(Path::new(""), &meta);
                (now.len, now.modified_ns, now.inode, now.device)
                    == (origin.len, origin.modified_ns, origin.inode, origin.device)
            })
        };
        if prefix > origin.len || !unchanged(&source) {
            return;
        }
        let Ok(hash) = hash_of(&mut source, prefix) else {
            return;
        };
        if !unchanged(&source) {
            return;
        }
        let origin = Origin {
            hashed: prefix,
            hash,
            ..origin.clone()
        };
        write_entry(file, &header(self.kind, &origin, payload), payload);
    }
}

/// Writes an entry through the one atomic writer; failing is not an error (the next load
/// parses the file again).
fn write_entry(file: &Path, header: &[u8], payload: &[u8]) {
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = write_file(file, &Expect::Replace, |out: &mut dyn Write| {
        out.write_all(header)?;
        out.write_all(payload)
    });
}

/// The [`word_hash`] of a file's first `len` bytes, read a megabyte at a time; a file
/// shorter than that hashes as what it has (which is not the hash recorded for `len`).
fn hash_of(file: &mut std::fs::File, len: u64) -> std::io::Result<u64> {
    use std::io::Read;
    let mut file = file.take(len);
    let mut hash = WordHash::default();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        // Fill the buffer whole, so every piece but the last is a multiple of the block.
        let mut filled = 0;
        while filled < buf.len() {
            match file.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        hash.feed(&buf[..filled]);
        if filled < buf.len() {
            return Ok(hash.finish());
        }
    }
}

/// Loads what `parse` makes of the file at `path`, or its copy from the cache: the loaders of
/// formats whose whole parsed form is one value (a tiktoken file's vocabulary) use this; the
/// flat form is `write`'s and `read`'s.
pub fn load<T>(
    path: &Path,
    kind: &'static str,
    parse: impl FnOnce(&[u8]) -> Result<T>,
    write: impl FnOnce(&T, &mut FlatWriter),
    read: impl FnOnce(&mut FlatReader) -> Option<T>,
) -> Result<T> {
    let mut lookup = Lookup::open(path, kind)?;
    if let Some(mut r) = lookup.payload()
        && let Some(value) = read(&mut r).filter(|_| r.finished())
    {
        return Ok(value);
    }
    let value = parse(lookup.source()?)?;
    let mut w = FlatWriter::new();
    write(&value, &mut w);
    lookup.store(&w.into_bytes());
    Ok(value)
}

/// Writes a loader's warnings. A warning that starts with the file's name keeps only the rest,
/// so a cached load names the file as the user gave it this time.
pub fn write_warnings(w: &mut FlatWriter, path: &Path, warnings: &[String]) {
    let prefix = format!("{}: ", path.display());
    w.usize(warnings.len());
    for warning in warnings {
        match warning.strip_prefix(&prefix) {
            Some(rest) => {
                w.bool(true);
                w.str(rest);
            }
            None => {
                w.bool(false);
                w.str(warning);
            }
        }
    }
}

/// Reads what [`write_warnings`] wrote, naming the file as `path`.
pub fn read_warnings(r: &mut FlatReader, path: &Path) -> Option<Vec<String>> {
    let count = r.usize()?;
    let mut warnings = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        let named = r.bool()?;
        let text = r.str()?;
        warnings.push(match named {
            true => format!("{}: {text}", path.display()),
            false => text.to_string(),
        });
    }
    Some(warnings)
}

/// What the header records of a file, its hash still to be taken.
fn origin_of(canonical: &Path, meta: &std::fs::Metadata) -> Origin {
    let modified_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    #[cfg(unix)]
    let (inode, device) = {
        use std::os::unix::fs::MetadataExt;
        (meta.ino(), meta.dev())
    };
    #[cfg(not(unix))]
    let (inode, device) = (0, 0);
    Origin {
        path: canonical.as_os_str().as_encoded_bytes().to_vec(),
        len: meta.len(),
        modified_ns,
        inode,
        device,
        hashed: meta.len(),
        hash: 0,
    }
}

fn header(kind: &str, origin: &Origin, payload: &[u8]) -> Vec<u8> {
    let mut w = FlatWriter::new();
    for &b in MAGIC {
        w.u8(b);
    }
    w.u32(FORMAT);
    w.str(env!("CARGO_PKG_VERSION"));
    w.str(kind);
    w.bytes(&origin.path);
    w.u64(origin.len);
    w.u64(origin.modified_ns as u64);
    w.u64((origin.modified_ns >> 64) as u64);
    w.u64(origin.inode);
    w.u64(origin.device);
    w.u64(origin.hashed);
    w.u64(origin.hash);
    w.usize(payload.len());
    w.u64(word_hash(payload));
    w.into_bytes()
}

/// The entry at `file`, where its payload starts and what it records of the source (the
/// hash and how many bytes it covers), if it was made by this version for `kind` from a file
/// with `origin`'s path, size, time, inode and device, and its payload is whole.
fn read_entry(file: &Path, kind: &str, origin: &Origin) -> Option<(Vec<u8>, usize, Origin)> {
    let bytes = std::fs::read(file).ok()?;
    let mut r = FlatReader::new(&bytes);
    if r.take(MAGIC.len())? != MAGIC
        || r.u32()? != FORMAT
        || r.str()? != env!("CARGO_PKG_VERSION")
        || r.str()? != kind
    {
        return None;
    }
    let recorded = Origin {
        path: r.bytes()?.to_vec(),
        len: r.u64()?,
        modified_ns: u128::from(r.u64()?) | (u128::from(r.u64()?) << 64),
        inode: r.u64()?,
        device: r.u64()?,
        hashed: r.u64()?,
        hash: r.u64()?,
    };
    let same_file = Origin {
        hashed: origin.hashed,
        hash: origin.hash,
        ..recorded.clone()
    } == *origin;
    if !same_file {
        return None;
    }
    let len = r.usize()?;
    let hash = r.u64()?;
    let payload = r.take(len)?;
    if !r.finished() || word_hash(payload) != hash {
        return None;
    }
    let start = bytes.len() - len;
    Some((bytes, start, recorded))
}
