//! Writes GGUF files with a tokenizer in their metadata: small models for tests and examples,
//! and the large padded files that show loading reads only the metadata (one tensor whose data
//! region is a hole in a sparse file, so a file of gigabytes costs no disk).

use std::io::Write;
use std::path::Path;

/// A value to write.
#[derive(Clone, Copy, Debug)]
pub enum Val<'a> {
    /// A string.
    Str(&'a str),
    /// A `u32`.
    U32(u32),
    /// A boolean.
    Bool(bool),
    /// An array of strings.
    Strs(&'a [&'a str]),
    /// An array of `i32`.
    I32s(&'a [i32]),
    /// An array of `f32`.
    F32s(&'a [f32]),
    /// An array of `u8`.
    Bytes(&'a [u8]),
}

/// The key-value pairs of a GGUF file being built.
pub struct Builder {
    version: u32,
    pairs: Vec<u8>,
    count: u64,
}

impl Builder {
    /// A file of format `version` (1 to 3).
    pub fn new(version: u32) -> Builder {
        Builder {
            version,
            pairs: Vec::new(),
            count: 0,
        }
    }

    /// Adds a key-value pair.
    pub fn put(&mut self, key: &str, value: Val) -> &mut Builder {
        let mut out = std::mem::take(&mut self.pairs);
        self.string(&mut out, key);
        match value {
            Val::Str(s) => {
                out.extend(8u32.to_le_bytes());
                self.string(&mut out, s);
            }
            Val::U32(n) => {
                out.extend(4u32.to_le_bytes());
                out.extend(n.to_le_bytes());
            }
            Val::Bool(b) => {
                out.extend(7u32.to_le_bytes());
                out.push(b as u8);
            }
            Val::Strs(list) => {
                self.array_head(&mut out, 8, list.len());
                for s in list {
                    self.string(&mut out, s);
                }
            }
            Val::I32s(list) => {
                self.array_head(&mut out, 5, list.len());
                list.iter().for_each(|n| out.extend(n.to_le_bytes()));
            }
            Val::F32s(list) => {
                self.array_head(&mut out, 6, list.len());
                list.iter().for_each(|n| out.extend(n.to_le_bytes()));
            }
            Val::Bytes(list) => {
                self.array_head(&mut out, 0, list.len());
                out.extend_from_slice(list);
            }
        }
        self.pairs = out;
        self.count += 1;
        self
    }

    /// Writes the file: header, the pairs, then, when `data` is not 0, one tensor info and a
    /// data region of `data` bytes left as a hole (the file is sparse where the file system
    /// allows it).
    pub fn write(&self, path: &Path, data: u64) -> std::io::Result<()> {
        let mut out = b"GGUF".to_vec();
        out.extend(self.version.to_le_bytes());
        let tensors = u64::from(data > 0);
        self.count_to(&mut out, tensors);
        self.count_to(&mut out, self.count);
        out.extend_from_slice(&self.pairs);
        if data > 0 {
            // One f32 tensor of data/4 elements at offset 0 of the data region.
            self.string(&mut out, "weights");
            out.extend(1u32.to_le_bytes());
            out.extend((data / 4).to_le_bytes());
            out.extend(0u32.to_le_bytes());
            out.extend(0u64.to_le_bytes());
            while !out.len().is_multiple_of(32) {
                out.push(0);
            }
        }
        let mut file = std::fs::File::create(path)?;
        file.write_all(&out)?;
        if data > 0 {
            file.set_len(out.len() as u64 + data)?;
        }
        Ok(())
    }

    fn array_head(&self, out: &mut Vec<u8>, kind: u32, len: usize) {
        out.extend(9u32.to_le_bytes());
        out.extend(kind.to_le_bytes());
        self.count_to(out, len as u64);
    }

    fn string(&self, out: &mut Vec<u8>, s: &str) {
        self.count_to(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    }

    fn count_to(&self, out: &mut Vec<u8>, n: u64) {
        if self.version >= 2 {
            out.extend(n.to_le_bytes());
        } else {
            out.extend((n as u32).to_le_bytes());
        }
    }
}
