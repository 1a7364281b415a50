//! The bytes a model's tables live in. A table built while a file is parsed owns its bytes; a
//! table read back from a cache entry is a view of the entry's one buffer, shared by every
//! table of the model, so a second load neither copies an array nor rebuilds a hash table.
//! Numbers in a blob are little-endian whichever way it was made, so the lookup code is the
//! same for both, and every read is checked: a damaged entry gives `None`, never a panic.

use std::ops::Range;
use std::sync::Arc;

/// Owned bytes, or a range of a cache entry's buffer.
#[derive(Clone)]
pub enum Blob {
    /// Bytes built in memory (a parsed file).
    Owned(Vec<u8>),
    /// Bytes of a cache entry, read in place.
    Shared(Arc<Vec<u8>>, Range<usize>),
}

impl Default for Blob {
    fn default() -> Self {
        Blob::Owned(Vec::new())
    }
}

impl std::ops::Deref for Blob {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Blob::Owned(bytes) => bytes,
            Blob::Shared(buffer, range) => buffer.get(range.clone()).unwrap_or_default(),
        }
    }
}

impl Blob {
    /// Owned bytes to change: a view is copied first (a table changed after a cached load, which
    /// loaders do not do, pays for the copy then).
    pub fn to_mut(&mut self) -> &mut Vec<u8> {
        if let Blob::Shared(..) = self {
            *self = Blob::Owned(self.to_vec());
        }
        match self {
            Blob::Owned(bytes) => bytes,
            Blob::Shared(..) => unreachable!("made owned above"),
        }
    }

    /// The `index`th 32-bit number.
    #[inline]
    pub fn u32_at(&self, index: usize) -> Option<u32> {
        u32_in(self, index)
    }

    /// The `index`th 64-bit number.
    #[inline]
    pub fn u64_at(&self, index: usize) -> Option<u64> {
        u64_in(self, index)
    }

    /// How many 32-bit numbers the blob holds.
    pub fn u32_len(&self) -> usize {
        self.len() / 4
    }
}

/// The `index`th 32-bit number of `bytes`.
#[inline]
pub fn u32_in(bytes: &[u8], index: usize) -> Option<u32> {
    let at = index.checked_mul(4)?;
    let bytes = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// The `index`th 64-bit number of `bytes`.
#[inline]
pub fn u64_in(bytes: &[u8], index: usize) -> Option<u64> {
    let at = index.checked_mul(8)?;
    let bytes = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(bytes.try_into().ok()?))
}

/// Sets the `index`th 32-bit number of `bytes` (which holds it).
#[inline]
pub fn set_u32(bytes: &mut [u8], index: usize, value: u32) {
    bytes[index * 4..index * 4 + 4].copy_from_slice(&value.to_le_bytes());
}

/// Sets the `index`th 64-bit number of `bytes` (which holds it).
#[inline]
pub fn set_u64(bytes: &mut [u8], index: usize, value: u64) {
    bytes[index * 8..index * 8 + 8].copy_from_slice(&value.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_as_its_range_and_is_copied_before_a_change() {
        let buffer = Arc::new(vec![1, 0, 0, 0, 2, 0, 0, 0, 9]);
        let mut view = Blob::Shared(buffer.clone(), 4..8);
        assert_eq!((view.u32_at(0), view.u32_at(1)), (Some(2), None));
        set_u32(view.to_mut(), 0, 7);
        assert_eq!(view.u32_at(0), Some(7));
        assert_eq!(buffer[4], 2);
        // A range outside the buffer reads as nothing, never a panic.
        assert!(Blob::Shared(buffer, 8..20).is_empty());
        assert_eq!(u64_in(&[0; 15], 1), None);
    }
}
