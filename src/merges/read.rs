//! A minimal reader of the two table formats `toklab bpe check` needs before the real model
//! loaders (src/bpe/) are merged: a GPT-2 merge list (`vocab.bpe` / `merges.txt`, in GPT-2's
//! byte-level alphabet) and a tiktoken rank file (`base64(token) rank` per line). The
//! integrator replaces it with an adapter from the loaded `Vocab` + `MergeTable`.

use std::path::{Path, PathBuf};

use super::dict::{Dictionary, Rule, Unit};
use super::encode::{Semantics, encode_ends};
use crate::error::{Error, Result};

/// A dictionary read from a file, with what the conversion noticed.
#[derive(Debug)]
pub struct Loaded {
    pub dict: Dictionary,
    pub path: PathBuf,
    /// What format it was: `gpt2 merges` or `tiktoken ranks`.
    pub format: &'static str,
    /// Tokens of a rank file that no merge of two lower-ranked tokens makes (tiktoken can
    /// never output them): their ranks.
    pub unreachable: Vec<u32>,
}

/// Reads a model: a GPT-2 directory (its `vocab.bpe` or `merges.txt`), a merges file, or a
/// `.tiktoken` rank file.
pub fn read_model(path: &Path) -> Result<Loaded> {
    let file = if path.is_dir() {
        ["vocab.bpe", "merges.txt"]
            .iter()
            .map(|name| path.join(name))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                Error::format(path, None, "no vocab.bpe or merges.txt in this directory")
            })?
    } else {
        path.to_path_buf()
    };
    let bytes = std::fs::read(&file).map_err(|e| Error::io(&file, e))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        Error::format(&file, None, format!("invalid UTF-8 at byte {offset}"))
    })?;
    if file.extension().is_some_and(|e| e == "tiktoken") {
        read_ranks(&file, &text)
    } else {
        read_merges(&file, &text)
    }
}

/// A GPT-2 merge list: an optional `#version` line, then `left right` per line, priority by
/// line. Sides are written in the byte-level alphabet (`Ġ` is a space).
pub fn read_merges(path: &Path, text: &str) -> Result<Loaded> {
    let mut dict = Dictionary::new(Unit::Byte, Vec::new()).expect("empty dictionary");
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        if line.is_empty() || (number == 0 && line.starts_with("#version")) {
            continue;
        }
        let mut sides = line.split(' ');
        let (Some(left), Some(right), None) = (sides.next(), sides.next(), sides.next()) else {
            return Err(Error::format(
                path,
                Some(line_no),
                format!("expected `left right`, got `{line}`"),
            ));
        };
        let decode = |side: &str| {
            from_byte_level(side).ok_or_else(|| {
                Error::format(
                    path,
                    Some(line_no),
                    format!("`{side}` is not in the byte-level alphabet"),
                )
            })
        };
        let rule = Rule::new(decode(left)?, decode(right)?, dict.len() as u32);
        dict.push(rule)
            .map_err(|e| Error::format(path, Some(line_no), e.to_string()))?;
    }
    Ok(Loaded {
        dict,
        path: path.to_path_buf(),
        format: "gpt2 merges",
        unreachable: Vec::new(),
    })
}

/// A tiktoken rank file. Each token of two or more bytes becomes the rule its own bytes end
/// with when encoded by the lower-ranked rules (tiktoken merges a pair when their
/// concatenation has a rank, so this is the one split that can ever apply); a token whose
/// bytes encode to three or more pieces is unreachable and reported.
pub fn read_ranks(path: &Path, text: &str) -> Result<Loaded> {
    let mut tokens = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let bad = |message: String| Error::format(path, Some(number + 1), message);
        let (b64, rank) = line
            .split_once(' ')
            .ok_or_else(|| bad(format!("expected `base64 rank`, got `{line}`")))?;
        let bytes = decode_base64(b64).ok_or_else(|| bad(format!("`{b64}` is not base64")))?;
        let rank: u32 = rank
            .parse()
            .map_err(|_| bad(format!("`{rank}` is not a rank")))?;
        tokens.push((rank, bytes, number + 1));
    }
    tokens.sort_by_key(|t| t.0);
    let mut dict = Dictionary::new(Unit::Byte, Vec::new()).expect("empty dictionary");
    let mut unreachable = Vec::new();
    let mut ends = Vec::new();
    for (rank, bytes, line) in tokens {
        if bytes.len() < 2 {
            continue;
        }
        ends.clear();
        encode_ends(&dict, &bytes, Semantics::SentencePiece, &mut ends);
        if ends.len() != 2 {
            unreachable.push(rank);
            continue;
        }
        let rule = Rule::new(&bytes[..ends[0]], &bytes[ends[0]..], rank);
        dict.push(rule)
            .map_err(|e| Error::format(path, Some(line), e.to_string()))?;
    }
    Ok(Loaded {
        dict,
        path: path.to_path_buf(),
        format: "tiktoken ranks",
        unreachable,
    })
}

/// The character GPT-2's byte-level alphabet writes for `byte`: printable Latin-1 bytes stand
/// for themselves, the others are shifted to U+0100 and up in byte order.
pub fn byte_level_char(byte: u8) -> char {
    let printable = |b: u32| (0x21..=0x7E).contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    let b = u32::from(byte);
    if printable(b) {
        return char::from(byte);
    }
    let shifted = (0..b).filter(|&x| !printable(x)).count() as u32;
    char::from_u32(0x100 + shifted).expect("below U+0144")
}

/// Bytes of a byte-level string; `None` if a character is outside the alphabet.
pub fn from_byte_level(s: &str) -> Option<Vec<u8>> {
    static TABLE: std::sync::LazyLock<Vec<Option<u8>>> = std::sync::LazyLock::new(|| {
        let mut table = vec![None; 0x144];
        for b in 0..=255u8 {
            table[byte_level_char(b) as usize] = Some(b);
        }
        table
    });
    s.chars()
        .map(|c| TABLE.get(c as usize).copied().flatten())
        .collect()
}

/// A string in the byte-level alphabet (for writing GPT-2-format files).
pub fn to_byte_level(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| byte_level_char(b)).collect()
}

fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let s = s.trim_end_matches('=').as_bytes();
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
        let mut acc = 0u32;
        for &c in chunk {
            acc = (acc << 6) | u32::from(value(c)?);
        }
        acc <<= 6 * (4 - chunk.len() as u32);
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_level_alphabet() {
        assert_eq!(byte_level_char(b' '), 'Ġ');
        assert_eq!(byte_level_char(b'\n'), 'Ċ');
        assert_eq!(byte_level_char(b'a'), 'a');
        for b in 0..=255u8 {
            assert_eq!(from_byte_level(&to_byte_level(&[b])), Some(vec![b]));
        }
        assert_eq!(from_byte_level("€"), None);
    }

    #[test]
    fn base64() {
        assert_eq!(decode_base64("IQ==").unwrap(), b"!");
        assert_eq!(decode_base64("IHRoZQ==").unwrap(), b" the");
        assert_eq!(decode_base64("aGVsbG8").unwrap(), b"hello");
        assert!(decode_base64("a").is_none());
        assert!(decode_base64("a*b=").is_none());
    }

    #[test]
    fn merges_errors_name_the_line() {
        let p = Path::new("m.txt");
        let e = read_merges(p, "#version: 0.2\na b\nabc\n").unwrap_err();
        assert_eq!(e.to_string(), "m.txt:3: expected `left right`, got `abc`");
        let e = read_merges(p, "a €\n").unwrap_err();
        assert!(e.to_string().starts_with("m.txt:1: `€` is not"), "{e}");
        let ok = read_merges(p, "#version: 0.2\nĠ t\nĠt he\n").unwrap();
        assert_eq!(ok.dict.rules()[1].merged(), b" the");
    }

    #[test]
    fn ranks_become_rules() {
        // a, b, c, ab, bc, abc, abcb, abcbc: each token's rule is where its own bytes end up.
        let text = "YQ== 0\nYg== 1\nYw== 2\nYWI= 3\nYmM= 4\nYWJj 5\nYWJjYg== 6\nYWJjYmM= 7\n";
        let loaded = read_ranks(Path::new("t.tiktoken"), text).unwrap();
        let shown: Vec<String> = (0..loaded.dict.len())
            .map(|i| loaded.dict.show_rule(i))
            .collect();
        assert_eq!(
            shown,
            [
                "«a» ⟩ «b»",
                "«b» ⟩ «c»",
                "«ab» ⟩ «c»",
                "«abc» ⟩ «b»",
                "«abc» ⟩ «bc»"
            ]
        );
        assert!(loaded.unreachable.is_empty());
        // «aba» with only a and b below it encodes to three pieces: tiktoken never makes it.
        let loaded = read_ranks(Path::new("t.tiktoken"), "YQ== 0\nYg== 1\nYWJh 2\n").unwrap();
        assert_eq!(loaded.unreachable, [2]);
        let e = read_ranks(Path::new("t.tiktoken"), "YQ== x\n").unwrap_err();
        assert_eq!(e.to_string(), "t.tiktoken:1: `x` is not a rank");
    }
}
