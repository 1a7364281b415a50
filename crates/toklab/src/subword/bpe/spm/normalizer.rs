//! SentencePiece's normalizer: the precompiled character map (a darts-clone double-array trie
//! from input prefixes to replacement strings, e.g. `nmt_nfkc`), whitespace clean-up and the
//! `▁` escape — with a map from every normalized byte back to the original text, so tokens get
//! spans of the text the user gave.

/// `▁` (U+2581), SentencePiece's visible space.
pub const SPACE: &str = "\u{2581}";

/// The precompiled map: `<trie size u32 LE><double array><NUL-terminated replacements>`.
#[derive(Clone, Debug, Default)]
pub struct CharsMap {
    units: Vec<u32>,
    replacements: Vec<u8>,
}

impl CharsMap {
    /// Decodes the blob; an error says what is inconsistent.
    pub fn parse(blob: &[u8]) -> Result<CharsMap, String> {
        if blob.len() <= 4 {
            return Err("precompiled charsmap is too short".into());
        }
        let size = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]) as usize;
        if size > blob.len() - 4 || !size.is_multiple_of(4) {
            return Err(format!(
                "precompiled charsmap: trie of {size} bytes does not fit in {} bytes",
                blob.len() - 4
            ));
        }
        let units = blob[4..4 + size]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(CharsMap {
            units,
            replacements: blob[4 + size..].to_vec(),
        })
    }

    /// The longest rule matching a prefix of `input`: its length and replacement.
    fn longest(&self, input: &[u8]) -> Option<(usize, &[u8])> {
        if self.units.is_empty() {
            return None;
        }
        let unit = |pos: usize| self.units.get(pos).copied();
        let offset = |u: u32| ((u >> 10) << ((u & (1 << 9)) >> 6)) as usize;
        let has_leaf = |u: u32| (u >> 8) & 1 == 1;
        let label = |u: u32| u & ((1 << 31) | 0xFF);
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
            }
        }
        let (len, value) = best?;
        let rest = self.replacements.get(value..)?;
        let end = memchr::memchr(0, rest).unwrap_or(rest.len());
        Some((len, &rest[..end]))
    }
}

/// How a model normalizes.
#[derive(Clone, Debug)]
pub struct Normalizer {
    pub map: CharsMap,
    pub add_dummy_prefix: bool,
    pub remove_extra_whitespaces: bool,
    pub escape_whitespaces: bool,
    pub treat_whitespace_as_suffix: bool,
    /// User-defined pieces, passed through unnormalized (longest first match).
    pub user_defined: Vec<String>,
}

/// Normalized text and, for each of its bytes and its end, the original byte offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Normalized {
    pub text: String,
    pub to_original: Vec<usize>,
}

impl Normalizer {
    /// One normalization step at the start of `input`: the replacement and the input length.
    fn prefix<'a>(&'a self, input: &'a str) -> (&'a str, usize) {
        if let Some(user) = self
            .user_defined
            .iter()
            .filter(|u| input.starts_with(u.as_str()))
            .max_by_key(|u| u.len())
        {
            return (user, user.len());
        }
        if let Some((len, replacement)) = self.map.longest(input.as_bytes())
            && input.is_char_boundary(len)
            && let Ok(replacement) = std::str::from_utf8(replacement)
        {
            return (replacement, len);
        }
        let len = input.chars().next().map_or(1, char::len_utf8);
        (&input[..len], len)
    }

    /// Normalizes `input` as SentencePiece does. `to_original` always has one entry more than
    /// the normalized text has bytes (SentencePiece leaves it empty for empty output).
    pub fn normalize(&self, input: &str) -> Normalized {
        let mut out = Normalized::default();
        let mut consumed = 0;
        let mut rest = input;
        if self.remove_extra_whitespaces {
            while !rest.is_empty() {
                let (replacement, len) = self.prefix(rest);
                if replacement != " " {
                    break;
                }
                rest = &rest[len..];
                consumed += len;
            }
        }
        if rest.is_empty() {
            out.to_original.push(consumed);
            return out;
        }
        let space = if self.escape_whitespaces { SPACE } else { " " };
        let add_space = |out: &mut Normalized, at: usize| {
            out.text.push_str(space);
            out.to_original.extend(std::iter::repeat_n(at, space.len()));
        };
        if self.add_dummy_prefix && !self.treat_whitespace_as_suffix {
            add_space(&mut out, consumed);
        }
        let mut previous_space = self.remove_extra_whitespaces;
        while !rest.is_empty() {
            let (replacement, len) = self.prefix(rest);
            let mut piece = replacement;
            while previous_space && piece.starts_with(' ') {
                piece = &piece[1..];
            }
            if !piece.is_empty() {
                for c in piece.chars() {
                    if c == ' ' {
                        add_space(&mut out, consumed);
                    } else {
                        out.text.push(c);
                        out.to_original
                            .extend(std::iter::repeat_n(consumed, c.len_utf8()));
                    }
                }
                previous_space = piece.ends_with(' ');
            }
            consumed += len;
            rest = &rest[len..];
            if !self.remove_extra_whitespaces {
                previous_space = false;
            }
        }
        if self.remove_extra_whitespaces {
            while out.text.ends_with(space) {
                let length = out.text.len() - space.len();
                consumed = out.to_original[length];
                out.text.truncate(length);
                out.to_original.truncate(length);
            }
        }
        if self.add_dummy_prefix && self.treat_whitespace_as_suffix {
            add_space(&mut out, consumed);
        }
        out.to_original.push(consumed);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Normalizer {
        Normalizer {
            map: CharsMap::default(),
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
            treat_whitespace_as_suffix: false,
            user_defined: Vec::new(),
        }
    }

    #[test]
    fn spaces_are_collapsed_escaped_and_mapped_back() {
        let n = plain().normalize("  ab   c ");
        assert_eq!(n.text, "▁ab▁c");
        assert_eq!(n.to_original.len(), n.text.len() + 1);
        // The dummy prefix points at the first kept character; the inner ▁ at the first space
        // of its run; the end at the start of the trailing space.
        assert_eq!(n.to_original[0], 2);
        assert_eq!(n.to_original[3], 2);
        assert_eq!(n.to_original[5], 4);
        assert_eq!(n.to_original[8], 7);
        assert_eq!(*n.to_original.last().unwrap(), 8);
    }

    #[test]
    fn only_spaces_normalize_to_nothing() {
        assert_eq!(plain().normalize("   ").text, "");
    }
}
