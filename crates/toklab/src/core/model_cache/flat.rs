//! The flat binary form of a cache entry: little-endian numbers, byte strings after their
//! length, and arrays of numbers written whole, so reading back a table of 250,000 entries is
//! one allocation and one pass per array rather than one per entry. Reading trusts nothing:
//! every length is checked against what is left, and anything short or out of place reads as
//! `None`, which the cache treats as a missing entry.

use std::sync::Arc;

use super::blob::Blob;

/// Builds the bytes of an entry's payload.
#[derive(Default)]
pub struct FlatWriter {
    buf: Vec<u8>,
}

impl FlatWriter {
    /// An empty payload.
    pub fn new() -> FlatWriter {
        FlatWriter::default()
    }

    /// One byte.
    pub fn u8(&mut self, value: u8) {
        self.buf.push(value);
    }

    /// A flag, as one byte.
    pub fn bool(&mut self, value: bool) {
        self.buf.push(u8::from(value));
    }

    /// A 32-bit number.
    pub fn u32(&mut self, value: u32) {
        self.buf.extend_from_slice(&value.to_le_bytes());
    }

    /// A 64-bit number.
    pub fn u64(&mut self, value: u64) {
        self.buf.extend_from_slice(&value.to_le_bytes());
    }

    /// A count or an offset.
    pub fn usize(&mut self, value: usize) {
        self.u64(value as u64);
    }

    /// A 64-bit float, bit for bit.
    pub fn f64(&mut self, value: f64) {
        self.u64(value.to_bits());
    }

    /// An optional id: `u32::MAX` stands for none, which no loader accepts as an id.
    pub fn opt_u32(&mut self, value: Option<u32>) {
        self.u32(value.unwrap_or(u32::MAX));
    }

    /// Bytes after their length.
    pub fn bytes(&mut self, value: &[u8]) {
        self.usize(value.len());
        self.buf.extend_from_slice(value);
    }

    /// A string after its length in bytes.
    pub fn str(&mut self, value: &str) {
        self.bytes(value.as_bytes());
    }

    /// 32-bit numbers after their count.
    pub fn u32s(&mut self, values: impl ExactSizeIterator<Item = u32>) {
        self.usize(values.len());
        self.buf.reserve(values.len() * 4);
        for v in values {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// 32-bit floats after their count, bit for bit.
    pub fn f32s(&mut self, values: impl ExactSizeIterator<Item = f32>) {
        self.u32s(values.map(f32::to_bits));
    }

    /// 64-bit floats after their count, bit for bit.
    pub fn f64s(&mut self, values: impl ExactSizeIterator<Item = f64>) {
        self.usize(values.len());
        self.buf.reserve(values.len() * 8);
        for v in values {
            self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }

    /// The payload written so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads a payload [`FlatWriter`] wrote, in the same order.
pub struct FlatReader<'a> {
    rest: &'a [u8],
    /// The cache entry `rest` lies in, when blobs are to be views of it rather than copies.
    entry: Option<&'a Arc<Vec<u8>>>,
}

impl<'a> FlatReader<'a> {
    /// Reads `bytes` from the start; blobs are copies.
    pub fn new(bytes: &'a [u8]) -> FlatReader<'a> {
        FlatReader {
            rest: bytes,
            entry: None,
        }
    }

    /// Reads `entry` from byte `start`; blobs are views of the entry.
    pub fn over(entry: &'a Arc<Vec<u8>>, start: usize) -> FlatReader<'a> {
        FlatReader {
            rest: entry.get(start..).unwrap_or_default(),
            entry: Some(entry),
        }
    }

    /// Bytes after their length, as a view of the entry when reading one in place (a table
    /// used where it lies), else copied.
    pub fn blob(&mut self) -> Option<Blob> {
        let bytes = self.bytes()?;
        Some(match self.entry {
            Some(entry) => {
                let start = (bytes.as_ptr() as usize).checked_sub(entry.as_ptr() as usize)?;
                Blob::Shared(entry.clone(), start..start + bytes.len())
            }
            None => Blob::Owned(bytes.to_vec()),
        })
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// A flag; a byte other than 0 or 1 is not one.
    pub fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// A 32-bit number.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    /// A 64-bit number.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    /// A count or an offset that fits this machine.
    pub fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }

    /// A 64-bit float.
    pub fn f64(&mut self) -> Option<f64> {
        Some(f64::from_bits(self.u64()?))
    }

    /// An optional id ([`FlatWriter::opt_u32`]).
    pub fn opt_u32(&mut self) -> Option<Option<u32>> {
        let value = self.u32()?;
        Some((value != u32::MAX).then_some(value))
    }

    /// Bytes after their length.
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.usize()?;
        self.take(n)
    }

    /// A string after its length; bytes that are not UTF-8 are not one.
    pub fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }

    /// The raw bytes of `count` numbers of `width` bytes, after their count.
    fn numbers(&mut self, width: usize) -> Option<&'a [u8]> {
        let count = self.usize()?;
        self.take(count.checked_mul(width)?)
    }

    /// 32-bit numbers after their count.
    pub fn u32s(&mut self) -> Option<Vec<u32>> {
        Some(self.u32_iter()?.collect())
    }

    /// 32-bit numbers after their count, read as they are walked (no copy of the array).
    pub fn u32_iter(&mut self) -> Option<impl ExactSizeIterator<Item = u32> + use<'a>> {
        let raw = self.numbers(4)?;
        Some(
            raw.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        )
    }

    /// 32-bit floats after their count.
    pub fn f32s(&mut self) -> Option<Vec<f32>> {
        Some(self.u32s()?.into_iter().map(f32::from_bits).collect())
    }

    /// 64-bit floats after their count.
    pub fn f64s(&mut self) -> Option<Vec<f64>> {
        let raw = self.numbers(8)?;
        Some(
            raw.chunks_exact(8)
                .map(|c| f64::from_bits(u64::from_le_bytes(c.try_into().unwrap_or_default())))
                .collect(),
        )
    }

    /// Whether everything was read: an entry with bytes left over is not the one expected.
    pub fn finished(&self) -> bool {
        self.rest.is_empty()
    }
}

/// A 64-bit hash of bytes read eight at a time in four independent lanes (several gigabytes
/// a second), for telling a changed source file or a damaged entry from the one recorded. Fed
/// in pieces whose lengths are multiples of [`WordHash::BLOCK`] (the last one excepted), it
/// gives what one call over all the bytes gives. Not a defence against someone who wants a
/// collision: the cache folder is the user's own, and everything read from an entry is checked
/// as it is decoded.
pub struct WordHash {
    lanes: [u64; 4],
    len: u64,
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
fn step(lane: u64, word: u64) -> u64 {
    (lane ^ word).wrapping_mul(K).rotate_left(29)
}

impl Default for WordHash {
    fn default() -> Self {
        WordHash {
            lanes: [
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ],
            len: 0,
        }
    }
}

impl WordHash {
    /// What every piece but the last is a multiple of.
    pub const BLOCK: usize = 32;

    /// Adds the next piece (a multiple of [`WordHash::BLOCK`] bytes unless it is the last).
    pub fn feed(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        let mut blocks = bytes.chunks_exact(Self::BLOCK);
        for block in &mut blocks {
            for (i, lane) in self.lanes.iter_mut().enumerate() {
                let word =
                    u64::from_le_bytes(block[i * 8..i * 8 + 8].try_into().unwrap_or_default());
                *lane = step(*lane, word);
            }
        }
        for (i, word) in blocks.remainder().chunks(8).enumerate() {
            let mut padded = [0u8; 8];
            padded[..word.len()].copy_from_slice(word);
            self.lanes[i] = step(self.lanes[i], u64::from_le_bytes(padded));
        }
    }

    /// The hash of everything fed.
    pub fn finish(self) -> u64 {
        let mut hash = self.len;
        for lane in self.lanes {
            hash = (hash ^ lane).wrapping_mul(K);
            hash ^= hash >> 32;
        }
        hash ^= hash >> 29;
        hash = hash.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        hash ^ (hash >> 32)
    }
}

/// The [`WordHash`] of one piece of bytes.
pub fn word_hash(bytes: &[u8]) -> u64 {
    let mut hash = WordHash::default();
    hash.feed(bytes);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_short_input_is_none() {
        let mut w = FlatWriter::new();
        w.u32(7);
        w.str("ab");
        w.opt_u32(None);
        w.u32s([1, 2, 3].into_iter());
        w.f64s([0.5, -1.0].into_iter());
        w.bool(true);
        let bytes = w.into_bytes();
        let mut r = FlatReader::new(&bytes);
        assert_eq!(r.u32(), Some(7));
        assert_eq!(r.str(), Some("ab"));
        assert_eq!(r.opt_u32(), Some(None));
        assert_eq!(r.u32s(), Some(vec![1, 2, 3]));
        assert_eq!(r.f64s(), Some(vec![0.5, -1.0]));
        assert_eq!(r.bool(), Some(true));
        assert!(r.finished());
        for cut in 0..bytes.len() {
            let mut r = FlatReader::new(&bytes[..cut]);
            let whole = r.u32().is_some()
                && r.str().is_some()
                && r.opt_u32().is_some()
                && r.u32s().is_some()
                && r.f64s().is_some()
                && r.bool().is_some();
            assert!(!whole, "cut at {cut} still read whole");
        }
    }

    #[test]
    fn a_huge_count_is_none_not_an_allocation() {
        let mut w = FlatWriter::new();
        w.u64(u64::MAX / 2);
        let bytes = w.into_bytes();
        assert_eq!(FlatReader::new(&bytes).u32s(), None);
    }

    #[test]
    fn the_hash_sees_every_byte_and_the_length() {
        let base: Vec<u8> = (0..100u8).collect();
        let h = word_hash(&base);
        for i in 0..base.len() {
            let mut changed = base.clone();
            changed[i] ^= 1;
            assert_ne!(word_hash(&changed), h, "byte {i}");
        }
        assert_ne!(word_hash(&base[..99]), h);
        assert_ne!(word_hash(&[0]), word_hash(&[0, 0]));
        let long: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let mut pieces = WordHash::default();
        for piece in long.chunks(64) {
            pieces.feed(piece);
        }
        assert_eq!(pieces.finish(), word_hash(&long));
    }
}
