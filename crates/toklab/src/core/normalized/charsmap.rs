//! SentencePiece's precompiled character map (`precompiled_charsmap` in a `.model` file or
//! a `tokenizer.json` `Precompiled` normalizer): a darts-clone double-array trie from input
//! prefixes to replacement strings, e.g. `nmt_nfkc`.

use super::NormalizedString;

/// Why a precompiled charsmap cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CharsMapError {
    /// Not even the trie's size is there.
    #[error("precompiled charsmap is too short")]
    TooShort,
    /// The trie's size is not a whole number of units or runs past the blob.
    #[error("precompiled charsmap: trie of {trie} bytes does not fit in {room} bytes")]
    TrieDoesNotFit {
        /// The size the blob announces.
        trie: usize,
        /// The bytes there are after the size.
        room: usize,
    },
}

/// The precompiled map: `<trie size u32 LE><double array><NUL-terminated replacements>`.
#[derive(Clone, Debug, Default)]
pub struct CharsMap {
    units: Vec<u32>,
    replacements: Vec<u8>,
    /// Bit `b` is set when no rule starts with the ASCII byte `b`, which therefore stays as
    /// it is: normalizers pass such bytes without walking the trie.
    ascii_kept: u128,
    /// Bit `b` is set when the ASCII byte `b` stays as it is before another ASCII byte (or at
    /// the end): it is no rule by itself and no rule continues it with an ASCII byte (NFKC's
    /// rules from a letter all continue with a combining mark).
    ascii_kept_before_ascii: u128,
}

impl CharsMap {
    /// The precompiled form [`CharsMap::parse`] reads (empty for the empty map), for keeping a
    /// parsed model in the model cache.
    pub fn to_blob(&self) -> Vec<u8> {
        if self.units.is_empty() {
            return Vec::new();
        }
        let mut blob = Vec::with_capacity(4 + self.units.len() * 4 + self.replacements.len());
        blob.extend_from_slice(&((self.units.len() * 4) as u32).to_le_bytes());
        for unit in &self.units {
            blob.extend_from_slice(&unit.to_le_bytes());
        }
        blob.extend_from_slice(&self.replacements);
        blob
    }

    /// Decodes the blob; an error says what is inconsistent.
    pub fn parse(blob: &[u8]) -> Result<CharsMap, CharsMapError> {
        if blob.len() <= 4 {
            return Err(CharsMapError::TooShort);
        }
        let size = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]) as usize;
        if size > blob.len() - 4 || !size.is_multiple_of(4) {
            return Err(CharsMapError::TrieDoesNotFit {
                trie: size,
                room: blob.len() - 4,
            });
        }
        let units = blob[4..4 + size]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut map = CharsMap {
            units,
            replacements: blob[4 + size..].to_vec(),
            ascii_kept: 0,
            ascii_kept_before_ascii: 0,
        };
        for byte in 0..128u8 {
            match map.child(map.root(), byte) {
                None => map.ascii_kept |= 1 << byte,
                Some(node) if !Self::has_leaf(map.units[node]) => {
                    let next = node ^ Self::offset(map.units[node]);
                    if (0..128u8).all(|c| map.child(Some(next), c).is_none()) {
                        map.ascii_kept_before_ascii |= 1 << byte;
                    }
                }
                Some(_) => {}
            }
        }
        Ok(map)
    }

    /// Whether the first byte of `rest` is ASCII that no rule changes there, so it maps to
    /// itself: a cheap test before [`CharsMap::longest`] for the common case of ASCII text.
    #[inline]
    pub fn keeps_ascii(&self, rest: &[u8]) -> bool {
        let Some(&byte) = rest.first().filter(|b| b.is_ascii()) else {
            return false;
        };
        let empty = self.units.is_empty();
        empty
            || self.ascii_kept & (1 << byte) != 0
            || (self.ascii_kept_before_ascii & (1 << byte) != 0
                && rest.get(1).is_none_or(u8::is_ascii))
    }

    /// The ASCII bytes that some rule has after its first byte: where none of them is, no
    /// rule reaches across a position from before it, so a text cut there normalizes as the
    /// two parts do (what SentencePiece's cut points rest on). Walks the whole trie.
    pub fn ascii_inside_rules(&self) -> u128 {
        let Some(root) = self.root() else {
            return 0;
        };
        let mut inside = 0u128;
        let mut seen = vec![false; self.units.len()];
        // Nodes to visit: the first bytes of rules, then every byte below them.
        let mut stack: Vec<usize> = (0..=255u8)
            .filter_map(|byte| self.child(Some(root), byte))
            .collect();
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node], true) {
                continue;
            }
            let next = node ^ Self::offset(self.units[node]);
            for byte in 0..=255u8 {
                if let Some(child) = self.child(Some(next), byte).filter(|&c| c != next) {
                    if byte < 128 {
                        inside |= 1 << byte;
                    }
                    stack.push(child);
                }
            }
        }
        inside
    }

    /// The position children of the root are found from, when there is a trie.
    fn root(&self) -> Option<usize> {
        self.units.first().map(|&u| Self::offset(u))
    }

    /// The unit of the child reached by `byte` from the node whose children start at `from`.
    fn child(&self, from: Option<usize>, byte: u8) -> Option<usize> {
        let pos = from? ^ byte as usize;
        let unit = *self.units.get(pos)?;
        (Self::label(unit) == u32::from(byte)).then_some(pos)
    }

    /// Whether a unit ends a rule (its value is the next unit).
    #[inline]
    fn has_leaf(unit: u32) -> bool {
        (unit >> 8) & 1 == 1
    }

    /// Where a unit's children start (darts-clone's encoding).
    #[inline]
    fn offset(unit: u32) -> usize {
        ((unit >> 10) << ((unit & (1 << 9)) >> 6)) as usize
    }

    /// The byte a unit is reached by (with the leaf flag bit 31).
    #[inline]
    fn label(unit: u32) -> u32 {
        unit & ((1 << 31) | 0xFF)
    }

    /// The longest rule matching a prefix of `input`: its length and replacement.
    #[inline]
    pub fn longest(&self, input: &[u8]) -> Option<(usize, &[u8])> {
        self.prefix_rule(input, false)
    }

    /// The shortest rule matching a prefix of `input`: its length and replacement (what
    /// HuggingFace's `Precompiled` normalizer takes, the first hit of a common-prefix search).
    #[inline]
    pub fn shortest(&self, input: &[u8]) -> Option<(usize, &[u8])> {
        self.prefix_rule(input, true)
    }

    /// The longest (or, with `first`, the shortest) rule matching a prefix of `input`.
    #[inline]
    fn prefix_rule(&self, input: &[u8], first: bool) -> Option<(usize, &[u8])> {
        if self.units.is_empty() {
            return None;
        }
        let unit = |pos: usize| self.units.get(pos).copied();
        let (offset, label, has_leaf) = (Self::offset, Self::label, Self::has_leaf);
        let mut pos = offset(unit(0)?);
        let mut best = None;
        for (i, &byte) in input.iter().enumerate() {
            pos ^= byte as usize;
            let u = unit(pos)?;
            if label(u) != u32::from(byte) {
                break;
            }
            pos ^= offset(u);
            if has_leaf(u) {
                let value = (unit(pos)? & ((1 << 31) - 1)) as usize;
                best = Some((i + 1, value));
                if first {
                    break;
                }
            }
        }
        let (len, value) = best?;
        let rest = self.replacements.get(value..)?;
        let end = memchr::memchr(0, rest).unwrap_or(rest.len());
        Some((len, &rest[..end]))
    }

    /// The rule for the start of `input` as text: the replacement and the input length it
    /// replaces, when a rule matches whole characters and yields valid UTF-8.
    #[inline]
    pub fn rule<'m>(&'m self, input: &str) -> Option<(&'m str, usize)> {
        let (len, replacement) = self.longest(input.as_bytes())?;
        if !input.is_char_boundary(len) {
            return None;
        }
        Some((std::str::from_utf8(replacement).ok()?, len))
    }
}

impl NormalizedString<'_> {
    /// Rewrites the text with a precompiled map as SentencePiece does: left to right, the
    /// longest matching prefix is replaced, characters no rule matches stay.
    pub fn apply_charsmap(&mut self, map: &CharsMap) {
        self.rewrite(|rest, out| match map.rule(rest) {
            Some((replacement, len)) => {
                out.push_str(replacement);
                len
            }
            None => {
                let len = rest.chars().next().map_or(1, char::len_utf8);
                out.push_str(&rest[..len]);
                len
            }
        });
    }
}
