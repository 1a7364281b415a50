//! The metadata of a GGUF file (ggml's model format, versions 1 to 3, little-endian): the
//! header and the key-value section, nothing after it. A model of many gigabytes keeps its
//! tokenizer in the first few megabytes, so reading stops where the tensor infos begin and the
//! tensor data is never touched. Only the keys a tokenizer needs are kept (`tokenizer.*`,
//! `general.name`, `general.architecture`); every other value is stepped over without being
//! allocated. Every length and count is checked against the bytes left in the file before
//! anything is read or allocated, so a truncated or hostile file is an error naming the file and
//! the byte offset, never a panic or a huge allocation.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::core::error::{Error, Result};

/// The most entries an array the tokenizer keeps may have (the largest real vocabularies
/// have about 260 000 tokens).
const MAX_ARRAY: u64 = 1 << 23;
/// The longest string that is kept (chat templates, the longest strings in real files, are
/// a few hundred kilobytes).
const MAX_STRING: u64 = 1 << 26;

/// A value of the key-value section that the tokenizer reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Any unsigned integer type.
    Uint(u64),
    /// Any signed integer type.
    Int(i64),
    /// `f32` or `f64`.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string (invalid UTF-8 replaced, see [`Metadata::lossy`]).
    Str(String),
    /// An array of strings.
    Strings(Vec<String>),
    /// An array of integers of any type.
    Ints(Vec<i64>),
    /// An array of floats.
    Floats(Vec<f32>),
    /// An array of `u8` or `i8`, as bytes.
    Bytes(Vec<u8>),
    /// An array of another element type, or of arrays: not kept.
    Other,
}

/// The kept keys of a GGUF file and what the header says.
#[derive(Debug, Default)]
pub struct Metadata {
    /// The format version (1, 2 or 3).
    pub version: u32,
    /// How many tensors the file describes (never read).
    pub tensor_count: u64,
    /// Where the key-value section ends: the bytes read.
    pub end: u64,
    /// The kept keys.
    pub values: HashMap<String, Value>,
    /// Kept strings that were not UTF-8 (replacement characters stand in their place).
    pub lossy: usize,
}

/// Whether a key is one the tokenizer reads.
fn kept(key: &str) -> bool {
    key.starts_with("tokenizer.") || key == "general.name" || key == "general.architecture"
}

/// Reads the metadata of the GGUF file at `path`.
pub fn read(path: &Path) -> Result<Metadata> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut reader = Reader {
        path,
        inner: BufReader::with_capacity(1 << 16, file),
        at: 0,
        len,
        wide: true,
    };
    reader.metadata()
}

struct Reader<'p> {
    path: &'p Path,
    inner: BufReader<File>,
    at: u64,
    len: u64,
    /// Version 2 and later: counts and string lengths are `u64` (version 1: `u32`).
    wide: bool,
}

impl Reader<'_> {
    fn metadata(&mut self) -> Result<Metadata> {
        let mut magic = [0u8; 4];
        self.bytes(&mut magic, "the magic number")?;
        if &magic != b"GGUF" {
            return Err(self.bad(0, "not a GGUF file (it does not start with `GGUF`)".into()));
        }
        let version = self.u32("the version")?;
        if version.swap_bytes() >= 1 && version.swap_bytes() <= 3 {
            return Err(self.bad(
                4,
                "a big-endian GGUF file: only little-endian is read".into(),
            ));
        }
        if !(1..=3).contains(&version) {
            return Err(self.bad(
                4,
                format!("GGUF version {version}: versions 1 to 3 are read"),
            ));
        }
        self.wide = version >= 2;
        let tensor_count = self.count("the tensor count")?;
        let kv_count = self.count("the key-value count")?;
        // A key-value pair takes at least a key length, a type and a one-byte value.
        let min = if self.wide { 13 } else { 9 };
        self.check_count(kv_count, min, "key-value pairs")?;
        let mut metadata = Metadata {
            version,
            tensor_count,
            ..Metadata::default()
        };
        for _ in 0..kv_count {
            let key_at = self.at;
            let key = self.string("a key", MAX_STRING)?;
            let key = String::from_utf8(key)
                .map_err(|_| self.bad(key_at, "a key that is not UTF-8".into()))?;
            let kind = self.u32("a value type")?;
            let keep = kept(&key);
            let value = self.value(kind, keep, &mut metadata.lossy)?;
            if keep {
                metadata.values.insert(key, value);
            }
        }
        metadata.end = self.at;
        Ok(metadata)
    }

    /// One value of type `kind`; kept only when `keep` (otherwise stepped over).
    fn value(&mut self, kind: u32, keep: bool, lossy: &mut usize) -> Result<Value> {
        let at = self.at;
        Ok(match kind {
            0 => Value::Uint(self.fixed::<1>("a u8")?[0] as u64),
            1 => Value::Int(self.fixed::<1>("an i8")?[0] as i8 as i64),
            2 => Value::Uint(u16::from_le_bytes(self.fixed("a u16")?) as u64),
            3 => Value::Int(i16::from_le_bytes(self.fixed("an i16")?) as i64),
            4 => Value::Uint(self.u32("a u32")? as u64),
            5 => Value::Int(i32::from_le_bytes(self.fixed("an i32")?) as i64),
            6 => Value::Float(f32::from_le_bytes(self.fixed("an f32")?) as f64),
            7 => Value::Bool(self.fixed::<1>("a bool")?[0] != 0),
            8 if keep => Value::Str(self.text(lossy)?),
            8 => {
                self.skip_string()?;
                Value::Other
            }
            9 => self.array(keep, lossy)?,
            10 => Value::Uint(u64::from_le_bytes(self.fixed("a u64")?)),
            11 => Value::Int(i64::from_le_bytes(self.fixed("an i64")?)),
            12 => Value::Float(f64::from_le_bytes(self.fixed("an f64")?)),
            other => return Err(self.bad(at - 4, format!("unknown value type {other}"))),
        })
    }

    fn array(&mut self, keep: bool, lossy: &mut usize) -> Result<Value> {
        let kind_at = self.at;
        let kind = self.u32("an array's element type")?;
        let count = self.count("an array's length")?;
        let size = match kind {
            0 | 1 | 7 => 1,
            2 | 3 => 2,
            4..=6 => 4,
            10..=12 => 8,
            8 => {
                if self.wide {
                    8
                } else {
                    4
                }
            }
            9 => 12,
            other => {
                return Err(self.bad(kind_at, format!("unknown array element type {other}")));
            }
        };
        self.check_count(count, size, "array elements")?;
        if !keep || kind == 9 || kind == 7 {
            if kind == 8 {
                for _ in 0..count {
                    self.skip_string()?;
                }
            } else if kind == 9 {
                for _ in 0..count {
                    self.array(false, lossy)?;
                }
            } else {
                self.skip(count * size)?;
            }
            return Ok(Value::Other);
        }
        if count > MAX_ARRAY {
            return Err(self.bad(
                kind_at,
                format!("an array of {count} entries (toklab reads at most {MAX_ARRAY})"),
            ));
        }
        let n = count as usize;
        Ok(match kind {
            8 => {
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    out.push(self.text(lossy)?);
                }
                Value::Strings(out)
            }
            0 | 1 => {
                let mut out = vec![0u8; n];
                self.bytes(&mut out, "array bytes")?;
                Value::Bytes(out)
            }
            6 => {
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    out.push(f32::from_le_bytes(self.fixed("an f32")?));
                }
                Value::Floats(out)
            }
            12 => {
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    out.push(f64::from_le_bytes(self.fixed("an f64")?) as f32);
                }
                Value::Floats(out)
            }
            _ => {
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    out.push(self.int(kind)?);
                }
                Value::Ints(out)
            }
        })
    }

    fn int(&mut self, kind: u32) -> Result<i64> {
        Ok(match kind {
            2 => u16::from_le_bytes(self.fixed("a u16")?) as i64,
            3 => i16::from_le_bytes(self.fixed("an i16")?) as i64,
            4 => self.u32("a u32")? as i64,
            5 => i32::from_le_bytes(self.fixed("an i32")?) as i64,
            10 => u64::from_le_bytes(self.fixed("a u64")?) as i64,
            _ => i64::from_le_bytes(self.fixed("an i64")?),
        })
    }

    fn text(&mut self, lossy: &mut usize) -> Result<String> {
        let bytes = self.string("a string", MAX_STRING)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                *lossy += 1;
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        })
    }

    fn string(&mut self, what: &str, max: u64) -> Result<Vec<u8>> {
        let at = self.at;
        let n = self.count(what)?;
        self.check_count(n, 1, what)?;
        if n > max {
            return Err(self.bad(at, format!("{what} of {n} bytes (at most {max} are read)")));
        }
        let mut out = vec![0u8; n as usize];
        self.bytes(&mut out, what)?;
        Ok(out)
    }

    fn skip_string(&mut self) -> Result<()> {
        let n = self.count("a string's length")?;
        self.check_count(n, 1, "string bytes")?;
        self.skip(n)
    }

    fn skip(&mut self, n: u64) -> Result<()> {
        let offset =
            i64::try_from(n).map_err(|_| self.bad(self.at, "a length too large".into()))?;
        self.inner
            .seek_relative(offset)
            .map_err(|e| Error::io(self.path, e))?;
        self.at += n;
        Ok(())
    }

    /// A count or string length: `u64`, or `u32` in version 1.
    fn count(&mut self, what: &str) -> Result<u64> {
        if self.wide {
            Ok(u64::from_le_bytes(self.fixed(what)?))
        } else {
            Ok(self.u32(what)? as u64)
        }
    }

    /// That `count` items of at least `size` bytes each fit in what is left of the file.
    fn check_count(&self, count: u64, size: u64, what: &str) -> Result<()> {
        let left = self.len.saturating_sub(self.at);
        if count.checked_mul(size).is_none_or(|need| need > left) {
            return Err(self.bad(
                self.at,
                format!("{count} {what} do not fit in the {left} bytes left in the file"),
            ));
        }
        Ok(())
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.fixed(what)?))
    }

    fn fixed<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        self.bytes(&mut out, what)?;
        Ok(out)
    }

    fn bytes(&mut self, out: &mut [u8], what: &str) -> Result<()> {
        let at = self.at;
        if (out.len() as u64) > self.len.saturating_sub(at) {
            return Err(self.bad(at, format!("the file ends inside {what}")));
        }
        self.inner.read_exact(out).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                self.bad(at, format!("the file ends inside {what}"))
            }
            _ => Error::io(self.path, e),
        })?;
        self.at += out.len() as u64;
        Ok(())
    }

    fn bad(&self, at: u64, message: String) -> Error {
        Error::format(self.path, None, format!("at byte {at}: {message}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::gguf::write::{Builder, Val};

    #[test]
    fn reads_kept_keys_and_steps_over_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        let mut b = Builder::new(3);
        b.put("general.name", Val::Str("tiny"));
        b.put("other.list", Val::Strs(&["x", "y"]));
        b.put("tokenizer.ggml.tokens", Val::Strs(&["a", "b"]));
        b.put("tokenizer.ggml.token_type", Val::I32s(&[1, 3]));
        b.put("tokenizer.ggml.bos_token_id", Val::U32(1));
        b.write(&path, 0).unwrap();
        let m = read(&path).unwrap();
        assert_eq!(m.version, 3);
        assert_eq!(m.values.len(), 4);
        assert_eq!(
            m.values["tokenizer.ggml.tokens"],
            Value::Strings(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            m.values["tokenizer.ggml.token_type"],
            Value::Ints(vec![1, 3])
        );
        assert_eq!(m.values["tokenizer.ggml.bos_token_id"], Value::Uint(1));
        assert_eq!(m.end, std::fs::metadata(&path).unwrap().len());
    }

    #[test]
    fn version_one_has_32_bit_lengths() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.gguf");
        let mut b = Builder::new(1);
        b.put("tokenizer.ggml.model", Val::Str("llama"));
        b.write(&path, 0).unwrap();
        let m = read(&path).unwrap();
        assert_eq!(m.values["tokenizer.ggml.model"], Value::Str("llama".into()));
    }

    #[test]
    fn every_truncation_is_an_error_with_a_byte_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.gguf");
        let mut b = Builder::new(3);
        b.put("tokenizer.ggml.model", Val::Str("gpt2"));
        b.put("tokenizer.ggml.tokens", Val::Strs(&["a", "bc"]));
        b.put("tokenizer.ggml.scores", Val::F32s(&[0.5, -1.0]));
        b.write(&path, 0).unwrap();
        let whole = std::fs::read(&path).unwrap();
        for cut in 0..whole.len() {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let e = read(&path).unwrap_err().to_string();
            assert!(
                e.contains("t.gguf") && e.contains("at byte "),
                "cut {cut}: {e}"
            );
        }
    }

    #[test]
    fn a_huge_count_is_refused_before_allocating() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.gguf");
        let mut bytes = b"GGUF".to_vec();
        bytes.extend(3u32.to_le_bytes());
        bytes.extend(0u64.to_le_bytes());
        bytes.extend(1u64.to_le_bytes());
        bytes.extend(21u64.to_le_bytes());
        bytes.extend(b"tokenizer.ggml.tokens");
        bytes.extend(9u32.to_le_bytes());
        bytes.extend(8u32.to_le_bytes());
        bytes.extend(u64::MAX.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("at byte 69") && e.contains("do not fit"), "{e}");
    }

    #[test]
    fn not_gguf_and_big_endian_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.gguf");
        std::fs::write(&path, b"GGML\x03\0\0\0").unwrap();
        assert!(
            read(&path)
                .unwrap_err()
                .to_string()
                .contains("not a GGUF file")
        );
        std::fs::write(&path, b"GGUF\0\0\0\x03").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("big-endian"));
    }
}
