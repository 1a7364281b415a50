//! tiktoken rank files: one `base64(token bytes) rank` per line. The file has no merge list:
//! a pair merges when the concatenation is a token, ranked by that token's rank. The special
//! tokens and the pattern belong to the encoding, not the file, so they come by name or are
//! given: `pattern=` any regex, `specials=FILE` with `TOKEN ID` lines.

use std::path::Path;
use std::sync::OnceLock;

use super::{MAX_ID, line_of, vocab_conflict};
use crate::core::error::{Error, Result};
use crate::engines::simple::PatternError;
use crate::engines::subword::bpe::model::{Alphabet, BpeModel, PreTokenizer, Rules};
use crate::engines::subword::bpe::specials::Specials;
use crate::engines::subword::bpe::vocab::Vocab;
use crate::engines::subword::pretok::RegexFindAll;

/// An encoding tiktoken defines over a rank file: its pattern and special tokens.
pub struct Encoding {
    /// tiktoken's name for it (`cl100k_base`, ...).
    pub name: &'static str,
    /// The pre-tokenization regex.
    pub pattern: &'static str,
    /// Special tokens and their ids, which are not in the rank file.
    pub specials: &'static [(&'static str, u32)],
    /// Ids that are special tokens named `<|reserved_ID|>` besides [`Encoding::specials`].
    pub reserved: std::ops::Range<u32>,
}

impl Encoding {
    /// Every special token of the encoding with its id.
    pub fn special_tokens(&self) -> Vec<(String, u32)> {
        let named = self.specials.iter().map(|(t, id)| (t.to_string(), *id));
        let reserved = self
            .reserved
            .clone()
            .map(|id| (format!("<|reserved_{id}|>"), id));
        named.chain(reserved).collect()
    }
}

const ENDOFTEXT_50K: (&str, u32) = ("<|endoftext|>", 50256);

/// The encodings toklab knows (facts from tiktoken's `openai_public.py`).
pub const ENCODINGS: &[Encoding] = &[
    Encoding {
        name: "r50k",
        pattern: "gpt2",
        specials: &[ENDOFTEXT_50K],
        reserved: 0..0,
    },
    Encoding {
        name: "p50k",
        pattern: "gpt2",
        specials: &[ENDOFTEXT_50K],
        reserved: 0..0,
    },
    Encoding {
        name: "p50k_edit",
        pattern: "gpt2",
        specials: &[
            ENDOFTEXT_50K,
            ("<|fim_prefix|>", 50281),
            ("<|fim_middle|>", 50282),
            ("<|fim_suffix|>", 50283),
        ],
        reserved: 0..0,
    },
    Encoding {
        name: "cl100k",
        pattern: "cl100k",
        specials: &[
            ("<|endoftext|>", 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            ("<|endofprompt|>", 100276),
        ],
        reserved: 0..0,
    },
    Encoding {
        name: "o200k",
        pattern: "o200k",
        specials: &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
        reserved: 0..0,
    },
    Encoding {
        name: "o200k_harmony",
        pattern: "o200k",
        specials: &[
            ("<|startoftext|>", 199998),
            ("<|endoftext|>", 199999),
            ("<|reserved_200000|>", 200000),
            ("<|reserved_200001|>", 200001),
            ("<|return|>", 200002),
            ("<|constrain|>", 200003),
            ("<|reserved_200004|>", 200004),
            ("<|channel|>", 200005),
            ("<|start|>", 200006),
            ("<|end|>", 200007),
            ("<|message|>", 200008),
            ("<|reserved_200009|>", 200009),
            ("<|reserved_200010|>", 200010),
            ("<|reserved_200011|>", 200011),
            ("<|call|>", 200012),
            ("<|endofprompt|>", 200018),
        ],
        reserved: 200013..201088,
    },
];

/// The encoding a file name suggests (`cl100k_base.tiktoken` → `cl100k`).
pub fn encoding_from_file_name(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    // Longest names first so that `p50k_edit` is not taken for `p50k`.
    let mut names: Vec<&'static str> = ENCODINGS.iter().map(|e| e.name).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.into_iter().find(|n| name.contains(n))
}

/// The encoding of a name (`cl100k`), if toklab knows it.
pub fn encoding(name: &str) -> Option<&'static Encoding> {
    ENCODINGS.iter().find(|e| e.name == name)
}

/// Loads a rank file with the named encoding's pattern and (with `specials`) special tokens.
pub fn load(path: &Path, encoding: &str, specials: bool) -> Result<BpeModel> {
    let known = self::encoding(encoding).expect("callers pass a known encoding");
    let specials = match specials {
        true => known.special_tokens(),
        false => Vec::new(),
    };
    let pretok = PreTokenizer::named(known.pattern).expect("known pattern");
    load_with(path, pretok, &specials)
}

/// Loads a rank file with a pre-tokenizer and special tokens (given, since the file has
/// neither). A special token whose id is a token of the file is left out: the file wins.
pub fn load_with(
    path: &Path,
    pretok: PreTokenizer,
    specials: &[(String, u32)],
) -> Result<BpeModel> {
    let vocab = crate::core::model_cache::load(
        path,
        "tiktoken",
        |data| parse(path, data),
        Vocab::write_flat,
        Vocab::read_flat,
    )?;
    Ok(model_of(vocab, pretok, specials))
}

/// A tiktoken model over a vocabulary of ranks (also for formats that hold the ranks in
/// another layout: tekken, the tiktoken JSON of `claude.json`).
pub fn model_of(vocab: Vocab, pretok: PreTokenizer, specials: &[(String, u32)]) -> BpeModel {
    let mut model = BpeModel::new(vocab, Rules::Concatenation(OnceLock::new()));
    model.alphabet = Alphabet::bytes_of(&model.vocab);
    model.pretok = pretok;
    model.whole_piece_first = true;
    model.specials = Specials::new(
        specials
            .iter()
            .filter(|(_, id)| model.vocab.bytes(*id).is_none())
            .cloned()
            .collect(),
    );
    model
}

/// Why a `pattern=` value names no pre-tokenizer.
#[derive(Debug, thiserror::Error)]
pub enum PatternChoiceError {
    /// A plain word that is none of the names (a misspelt name, not a regex).
    #[error("unknown pattern `{name}` (known: {known}, or a regex)")]
    Unknown {
        /// The word given.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
    /// A regex that does not compile.
    #[error("pattern `{pattern}`: {error}")]
    Invalid {
        /// The regex given.
        pattern: String,
        /// Why it does not compile.
        error: PatternError,
    },
}

/// The pre-tokenizer of a `pattern=` value: one of the named patterns (their hand-written
/// matchers) or any regex in fancy-regex syntax, applied as tiktoken does (matches only).
pub fn pretokenizer(pattern: &str) -> std::result::Result<PreTokenizer, PatternChoiceError> {
    if let Some(known) = encoding(pattern) {
        return Ok(PreTokenizer::named(known.pattern).expect("known pattern"));
    }
    if let Some(named) = PreTokenizer::named(pattern) {
        return Ok(named);
    }
    // A plain word is a misspelt name, not a regex that would match only itself.
    if pattern
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        let known: Vec<&str> = ENCODINGS.iter().map(|e| e.name).collect();
        return Err(PatternChoiceError::Unknown {
            name: pattern.to_string(),
            known: known.join(", "),
        });
    }
    if let Some(matcher) = crate::engines::subword::pretok::matcher_of_pattern(pattern) {
        return Ok(PreTokenizer {
            name: format!("regex {pattern}"),
            matcher: Some(matcher),
        });
    }
    let findall = RegexFindAll::new(pattern).map_err(|error| PatternChoiceError::Invalid {
        pattern: pattern.to_string(),
        error,
    })?;
    Ok(PreTokenizer {
        name: format!("regex {pattern}"),
        matcher: Some(Box::new(findall)),
    })
}

/// Reads a special-token file: one `TOKEN ID` per line (the id after the last space), blank
/// lines and lines starting with `#` ignored.
pub fn read_specials(path: &Path) -> Result<Vec<(String, u32)>> {
    let text = super::read_text(path)?;
    let mut specials = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| Error::format(path, Some(index + 1), message);
        let (token, id) = line
            .rsplit_once(' ')
            .ok_or_else(|| bad("expected `TOKEN ID`, found no space".into()))?;
        let id = id
            .parse::<u64>()
            .ok()
            .filter(|&id| id < MAX_ID)
            .ok_or_else(|| bad(format!("id `{id}` is not a number below {MAX_ID}")))?;
        if token.is_empty() {
            return Err(bad("empty special token".into()));
        }
        if let Some((_, other)) = specials.iter().find(|(t, _)| t == token) {
            return Err(bad(format!(
                "special token {token:?} is declared twice (ids {other} and {id})"
            )));
        }
        specials.push((token.to_string(), id as u32));
    }
    Ok(specials)
}

/// Parses the lines of a rank file into a vocabulary (id = rank).
pub fn parse(path: &Path, data: &[u8]) -> Result<Vocab> {
    let lines = memchr::memchr_iter(b'\n', data).count() + 1;
    let mut vocab = Vocab::with_capacity(lines, data.len() / 2);
    let mut decoded = Vec::with_capacity(64);
    let mut line_start = 0;
    for (index, line) in data.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let offset = line_start;
        line_start += line.len() + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if line_start >= data.len() {
                continue; // the final newline
            }
            return Err(Error::format(path, Some(number), "empty line"));
        }
        let bad = |message: String| Error::format(path, Some(number), message);
        let Some(space) = memchr::memchr(b' ', line) else {
            return Err(bad(format!(
                "expected `base64 rank`, found no space (byte offset {offset})"
            )));
        };
        let (token, rank) = (&line[..space], &line[space + 1..]);
        decoded.clear();
        // `=` (or nothing) is the empty token, which Python's b64decode accepts and some
        // files hold (Whisper's `= 50256`); it can never be produced, so it takes no id.
        let empty = token.iter().all(|&b| b == b'=');
        if !empty {
            base64_decode(token, &mut decoded)
                .map_err(|at| bad(format!("invalid base64 at column {}", at + 1)))?;
        }
        let rank = std::str::from_utf8(rank)
            .ok()
            .and_then(|r| r.parse::<u64>().ok())
            .filter(|&r| r < MAX_ID)
            .ok_or_else(|| {
                bad(format!(
                    "rank `{}` is not a number below {MAX_ID}",
                    String::from_utf8_lossy(rank)
                ))
            })?;
        if empty {
            continue;
        }
        vocab.insert(rank as u32, &decoded).map_err(|conflict| {
            let piece = String::from_utf8_lossy(&decoded);
            vocab_conflict(path, Some(number), &piece, rank, conflict)
        })?;
    }
    if vocab.is_empty() {
        return Err(Error::format(path, Some(line_of(data, 0)), "no tokens"));
    }
    Ok(vocab)
}

/// Standard base64 with `=` padding. On error, the index of the offending character.
pub fn base64_decode(input: &[u8], out: &mut Vec<u8>) -> std::result::Result<(), usize> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    if !input.len().is_multiple_of(4) {
        return Err(input.len());
    }
    let chunks = input.len() / 4;
    for (n, chunk) in input.chunks_exact(4).enumerate() {
        let last = n + 1 == chunks;
        let pad = if last {
            chunk.iter().rev().take_while(|&&c| c == b'=').count()
        } else {
            0
        };
        if pad > 2 {
            return Err(n * 4 + 4 - pad);
        }
        let mut acc = 0u32;
        for (i, &c) in chunk[..4 - pad].iter().enumerate() {
            acc = (acc << 6) | value(c).ok_or(n * 4 + i)?;
        }
        acc <<= 6 * pad as u32;
        out.push((acc >> 16) as u8);
        if pad < 2 {
            out.push((acc >> 8) as u8);
        }
        if pad < 1 {
            out.push(acc as u8);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64() {
        let mut out = Vec::new();
        base64_decode(b"IHRoZQ==", &mut out).unwrap();
        assert_eq!(out, b" the");
        out.clear();
        base64_decode(b"YWJj", &mut out).unwrap();
        assert_eq!(out, b"abc");
        assert_eq!(base64_decode(b"YW!j", &mut out), Err(2));
        assert_eq!(base64_decode(b"YWJ", &mut out), Err(3));
    }

    #[test]
    fn bad_lines_name_the_line() {
        let e = parse(Path::new("x.tiktoken"), b"YQ== 0\nYg==\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.tiktoken:2: expected `base64 rank`"), "{e}");
        let e = parse(Path::new("x"), b"YQ== 0\nYQ== 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("x:2") && e.contains("appears twice"), "{e}");
        let e = parse(Path::new("x"), b"YQ== 99999999999\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("x:1") && e.contains("not a number"), "{e}");
    }

    #[test]
    fn the_empty_token_line_is_accepted_and_takes_no_id() {
        let vocab = parse(Path::new("w"), b"YQ== 0\n= 1\nYg== 2\n").unwrap();
        assert_eq!((vocab.id(b"a"), vocab.id(b"b")), (Some(0), Some(2)));
        assert_eq!(vocab.bytes(1), None);
    }

    #[test]
    fn any_pattern_is_applied_as_tiktoken_does() {
        let vocab = parse(Path::new("w"), b"YQ== 0\nYg== 1\nYWI= 2\nIA== 3\n").unwrap();
        let model = model_of(vocab, pretokenizer(r"\p{L}{1,1}| ").unwrap(), &[]);
        // Single letters are pieces, so `ab` never merges; `-` matches nothing and is dropped.
        assert_eq!(model.encode("ab -"), [0, 1, 3]);
        assert!(matches!(
            pretokenizer("(unclosed"),
            Err(PatternChoiceError::Invalid { pattern, .. }) if pattern == "(unclosed"
        ));
        let unknown = pretokenizer("cl100").unwrap_err();
        assert!(matches!(unknown, PatternChoiceError::Unknown { .. }));
        assert!(
            unknown
                .to_string()
                .starts_with("unknown pattern `cl100` (known: r50k, ")
        );
        assert_eq!(pretokenizer("p50k_edit").unwrap().name, "gpt2");
    }

    #[test]
    fn special_files_name_their_bad_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.txt");
        std::fs::write(
            &path,
            "# Llama 3\n<|begin_of_text|> 128000\n\n<|eot_id|> x\n",
        )
        .unwrap();
        let e = read_specials(&path).unwrap_err().to_string();
        assert!(e.contains("s.txt:4") && e.contains("`x`"), "{e}");
        std::fs::write(&path, "<|begin_of_text|> 128000\n").unwrap();
        assert_eq!(
            read_specials(&path).unwrap(),
            [("<|begin_of_text|>".to_string(), 128000)]
        );
    }

    #[test]
    fn encoding_from_name() {
        assert_eq!(
            encoding_from_file_name(Path::new("d/cl100k_base.tiktoken")),
            Some("cl100k")
        );
        assert_eq!(
            encoding_from_file_name(Path::new("p50k_edit.tiktoken")),
            Some("p50k_edit")
        );
        assert_eq!(encoding_from_file_name(Path::new("mine.tiktoken")), None);
    }
}
