//! The probing the vocabulary's and the merge table's open-addressing tables share. Each table
//! keeps, beside its 16-byte slots, one tag byte per slot: 0 for an empty slot, else the high
//! bit and seven bits of the key's hash. A lookup walks the tags (a table of a million slots has
//! a megabyte of them, which stays in the cache) and reads a slot only when its tag matches, so
//! the misses most lookups are (most adjacent pairs have no merge rule) cost no read of the big
//! slot array at all.

/// The tag of an empty slot.
pub(super) const EMPTY: u8 = 0;

/// Where the probe for `hash` starts in a table of `slots` slots (a power of two): the hash's
/// top bits, the best mixed ones (the low bits of a multiplicative hash cluster).
#[inline]
pub(super) fn home(hash: u64, slots: usize) -> usize {
    (hash >> (64 - slots.trailing_zeros())) as usize
}

/// The tag of a full slot holding a key with `hash`: seven bits from the middle of the hash,
/// below those `home` uses for any table of up to 2^32 slots.
#[inline]
pub(super) fn tag(hash: u64) -> u8 {
    0x80 | ((hash >> 24) as u8 & 0x7F)
}

/// The slots a table for `count` keys has: a power of two at most three quarters full.
pub(super) fn slots_for(count: usize) -> usize {
    (count + count / 3 + 1).next_power_of_two().max(8)
}

/// The slots whose tag is `hash`'s, in probe order, up to the first empty slot. Bounded by the
/// number of slots, so damaged tags without an empty slot cannot loop for ever.
pub(super) struct Probe<'a> {
    tags: &'a [u8],
    at: usize,
    left: usize,
    want: u8,
}

impl<'a> Probe<'a> {
    /// The probe for `hash` over `tags` (a power of two of them, or none).
    #[inline]
    pub(super) fn new(tags: &'a [u8], hash: u64) -> Probe<'a> {
        let slots = tags.len();
        let at = if slots == 0 { 0 } else { home(hash, slots) };
        Probe {
            tags,
            at,
            left: slots,
            want: tag(hash),
        }
    }
}

impl Iterator for Probe<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.left > 0 {
            self.left -= 1;
            let here = self.at;
            let found = *self.tags.get(here)?;
            if found == EMPTY {
                self.left = 0;
                return None;
            }
            self.at = (here + 1) & (self.tags.len() - 1);
            if found == self.want {
                return Some(here);
            }
        }
        None
    }
}

/// The first empty slot of `hash`'s probe, where a new key goes; `None` for a full table.
pub(super) fn free_slot(tags: &[u8], hash: u64) -> Option<usize> {
    let slots = tags.len();
    if slots == 0 {
        return None;
    }
    let mut at = home(hash, slots);
    for _ in 0..slots {
        if tags[at] == EMPTY {
            return Some(at);
        }
        at = (at + 1) & (slots - 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_yields_matching_tags_and_stops_at_an_empty_slot() {
        let hash = 5u64 << 61 | 0x3C << 24;
        let want = tag(hash);
        let other = want ^ 1;
        // Eight slots; the probe starts at 5 and wraps.
        let mut tags = [EMPTY; 8];
        tags[5] = want;
        tags[6] = other;
        tags[7] = want;
        tags[0] = want;
        let found: Vec<usize> = Probe::new(&tags, hash).collect();
        assert_eq!(found, [5, 7, 0]);
        assert_eq!(free_slot(&tags, hash), Some(1));
        // Full tags: the probe ends after one round, and there is no free slot.
        let full = [want; 8];
        assert_eq!(Probe::new(&full, hash).count(), 8);
        assert_eq!(free_slot(&full, hash), None);
        assert_eq!(Probe::new(&[], hash).count(), 0);
    }
}
