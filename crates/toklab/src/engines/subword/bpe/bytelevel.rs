//! GPT-2's byte-level alphabet: every byte is written as one printable character, so a
//! vocabulary of byte strings can be stored as JSON text (`Ġthe` is the bytes ` the`).
//! Loaders decode vocabulary entries with it; the encoder itself works on raw bytes.

use std::sync::LazyLock;

struct Tables {
    to_char: [char; 256],
    /// Indexed by code point (all of the alphabet lies below U+0144).
    to_byte: [Option<u8>; 324],
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut to_char = ['\0'; 256];
    let mut to_byte = [None; 324];
    // Printable Latin-1 bytes stand for themselves; the rest are shifted to U+0100 and up,
    // in byte order.
    let printable = |b: u32| (0x21..=0x7E).contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    let mut next = 0x100u32;
    for byte in 0..=255u32 {
        let code = if printable(byte) {
            byte
        } else {
            next += 1;
            next - 1
        };
        let c = char::from_u32(code).expect("alphabet is in the BMP");
        to_char[byte as usize] = c;
        to_byte[code as usize] = Some(byte as u8);
    }
    Tables { to_char, to_byte }
});

/// The character that stands for `byte` in byte-level vocabularies.
pub fn byte_to_char(byte: u8) -> char {
    TABLES.to_char[byte as usize]
}

/// Decodes a byte-level vocabulary entry into its bytes; `None` if a character is not in the
/// byte alphabet (the vocabulary is then not byte-level).
pub fn decode(entry: &str) -> Option<Vec<u8>> {
    let tables = &*TABLES;
    entry
        .chars()
        .map(|c| tables.to_byte.get(c as usize).copied().flatten())
        .collect()
}

/// Writes bytes in the byte-level alphabet (for writing GPT-2-format files and for display).
pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| byte_to_char(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_characters() {
        assert_eq!(byte_to_char(b' '), 'Ġ');
        assert_eq!(byte_to_char(b'\n'), 'Ċ');
        assert_eq!(byte_to_char(b'a'), 'a');
        assert_eq!(byte_to_char(0xAD), 'Ń');
        assert_eq!(decode("Ġthe"), Some(b" the".to_vec()));
        assert_eq!(decode("▁the"), None);
    }

    #[test]
    fn round_trip_all_bytes() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&encode(&all)), Some(all));
    }
}
