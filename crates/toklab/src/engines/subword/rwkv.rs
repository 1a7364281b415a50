//! The RWKV "world" vocabulary (`rwkv_vocab_v20230424.txt`, `rwkv:FILE`): lines `ID LITERAL
//! LENGTH`, the literal a Python string or bytes literal, and an encoder that is not BPE: the
//! greedy longest match over the UTF-8 bytes of the whole text, left to right, as the
//! reference `TRIE_TOKENIZER` does. No pre-tokenizer, no normalization, no special tokens;
//! every byte is a token, so every text encodes and decodes back to its bytes.
//!
//! The literal grammar is parsed rather than evaluated: `'…'`, `"…"` or `b'…'` with the escapes
//! `\xNN` (a code point in a string, a byte in bytes), `\uNNNN`, `\n`, `\t`, `\r`, `\\`, `\'`
//! and `\"`. LENGTH, the token's byte length, is checked.

use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Origin, Span, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::vocab::Vocab;
use crate::engines::subword::bytes;

/// `rwkv:FILE`: an RWKV world vocabulary.
pub const KIND: Kind = Kind::new(
    "rwkv",
    "rwkv:FILE",
    "RWKV world vocabulary (ID LITERAL LENGTH lines): greedy longest match on bytes",
    load,
);

/// Loads `rwkv:FILE`.
pub fn load(_registry: &Registry, spec: Spec) -> Result<Box<dyn Tokenizer>> {
    spec.finish(&[])?;
    let path = spec.path();
    Ok(Box::new(Rwkv::load(spec.text.trim(), &path)?))
}

/// An RWKV vocabulary and its greedy encoder.
pub struct Rwkv {
    name: String,
    vocab: Vocab,
    /// The longest token, in bytes: how far a match can reach.
    max_len: usize,
    path: PathBuf,
}

impl Rwkv {
    /// Reads the vocabulary file.
    pub fn load(name: &str, path: &Path) -> Result<Rwkv> {
        let text = crate::engines::subword::bpe::load::read_text(path)?;
        let mut vocab = Vocab::with_capacity(65_536, text.len());
        let mut max_len = 0;
        for (index, line) in text.lines().enumerate() {
            let bad = |message: String| Error::format(path, Some(index + 1), message);
            if line.trim().is_empty() {
                continue;
            }
            let (id, rest) = line
                .split_once(' ')
                .ok_or_else(|| bad("expected `ID LITERAL LENGTH`".into()))?;
            let id: u32 = id
                .parse()
                .ok()
                .filter(|&id| u64::from(id) < crate::engines::subword::bpe::load::MAX_ID)
                .ok_or_else(|| bad(format!("id `{id}` is not a number")))?;
            let (bytes, rest) = literal(rest).map_err(|e| bad(e.0))?;
            let length: usize = rest
                .trim()
                .parse()
                .map_err(|_| bad(format!("length `{}` is not a number", rest.trim())))?;
            if length != bytes.len() {
                return Err(bad(format!(
                    "the token is {} bytes long but the line says {length}",
                    bytes.len()
                )));
            }
            if bytes.is_empty() {
                return Err(bad("empty token".into()));
            }
            max_len = max_len.max(bytes.len());
            vocab.insert(id, &bytes).map_err(|conflict| {
                let piece = String::from_utf8_lossy(&bytes);
                crate::engines::subword::bpe::load::vocab_conflict(
                    path,
                    Some(index + 1),
                    &piece,
                    id.into(),
                    conflict,
                )
            })?;
        }
        if let Some(byte) = (0..=255u8).find(|b| vocab.id(&[*b]).is_none()) {
            return Err(Error::format(
                path,
                None,
                format!("byte 0x{byte:02X} is not a token, so some texts cannot be encoded"),
            ));
        }
        Ok(Rwkv {
            name: name.to_string(),
            vocab,
            max_len,
            path: path.to_path_buf(),
        })
    }

    /// The greedy longest-match tokens of `text`: (byte range, id).
    pub fn encode_ranges(&self, text: &[u8]) -> Vec<(usize, usize, u32)> {
        let mut out = Vec::with_capacity(text.len() / 3);
        let mut at = 0;
        while at < text.len() {
            let (len, id) = self.longest(text, at);
            out.push((at, at + len, id));
            at += len;
        }
        out
    }

    /// The longest token of `text` at `at` (`at` < its length): its length and id.
    fn longest(&self, text: &[u8], at: usize) -> (usize, u32) {
        let longest = self.max_len.min(text.len() - at);
        (1..=longest)
            .rev()
            .find_map(|len| Some((len, self.vocab.id(&text[at..at + len])?)))
            .expect("every byte is a token (checked at load)")
    }

    /// The ids of `text`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        self.encode_ranges(text.as_bytes())
            .into_iter()
            .map(|(_, _, id)| id)
            .collect()
    }
}

/// A vocabulary literal Python would not read, with what is wrong in it; the loader adds
/// the file and line.
#[derive(Debug)]
struct BadLiteral(String);

impl std::fmt::Display for BadLiteral {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadLiteral {}

/// Parses a Python literal at the start of `s`: its bytes and the rest of the line.
fn literal(s: &str) -> std::result::Result<(Vec<u8>, &str), BadLiteral> {
    let (is_bytes, body) = match s.strip_prefix('b') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let quote = body
        .chars()
        .next()
        .filter(|c| *c == '\'' || *c == '"')
        .ok_or_else(|| {
            BadLiteral(format!(
                "expected a quoted literal, found {:?}",
                s.chars().next()
            ))
        })?;
    let mut out = Vec::new();
    let mut chars = body[1..].char_indices();
    let hex = |digits: &str| u32::from_str_radix(digits, 16).ok();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Ok((out, &body[1 + i + 1..]));
        }
        if c != '\\' {
            if is_bytes && !c.is_ascii() {
                return Err(BadLiteral(format!("non-ASCII {c:?} in a bytes literal")));
            }
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let (_, escape) = chars
            .next()
            .ok_or_else(|| BadLiteral("the literal ends in a backslash".into()))?;
        let mut take = |n: usize| -> std::result::Result<u32, BadLiteral> {
            let digits: String = (0..n)
                .filter_map(|_| chars.next().map(|(_, c)| c))
                .collect();
            hex(&digits)
                .filter(|_| digits.len() == n)
                .ok_or_else(|| BadLiteral(format!("bad escape \\{escape}{digits}")))
        };
        let code = match escape {
            'x' => take(2)?,
            'u' if !is_bytes => take(4)?,
            'n' => 10,
            't' => 9,
            'r' => 13,
            '\\' | '\'' | '"' => escape as u32,
            other => return Err(BadLiteral(format!("unknown escape \\{other}"))),
        };
        if is_bytes {
            out.push(code as u8);
        } else {
            let c = char::from_u32(code)
                .ok_or_else(|| BadLiteral(format!("\\u{code:04x} is not a character")))?;
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Err(BadLiteral("the literal is not closed".into()))
}

impl Tokenizer for Rwkv {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let tokens = self.encode_ranges(text.as_bytes());
        Tokenization::new(
            tokens
                .into_iter()
                .map(|(start, end, id)| {
                    let span = bytes::char_span(text, start, end);
                    let mut token = bytes::byte_token(text, start, end, TokenKind::Subword)
                        .with_id(id)
                        .with_origin(Origin::Subword { id, rank: None });
                    let bytes = &text.as_bytes()[start..end];
                    if bytes != span.slice(text).as_bytes() {
                        token = token.with_form(bytes::render(bytes));
                    }
                    token
                })
                .collect(),
        )
    }

    /// The first character boundary at or after `from` that no token of the vocabulary
    /// spelled in the text reaches over (none starts before it and ends after it). Every
    /// greedy walk stops there, whatever position it starts from, so the walk of the whole
    /// text does, the walk of the part before it is the whole one's (none of its tokens
    /// needed the bytes after), and the part after starts where the whole walk goes on.
    /// Since a token reaches at most `max_len` bytes, one pass from `max_len` bytes before
    /// `from` keeps the farthest end of a token seen so far.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        let start = from.saturating_sub(self.max_len);
        let mut reach = start;
        for at in start..bytes.len() {
            reach = reach.max(at + self.longest(bytes, at).0);
            let cut = at + 1;
            if cut >= from && reach <= cut && cut < bytes.len() && text.is_char_boundary(cut) {
                return Some(cut);
            }
        }
        None
    }

    fn explain(&self, text: &str) -> Trace {
        let lines = self
            .encode_ranges(text.as_bytes())
            .into_iter()
            .map(|(start, end, id)| {
                let span = bytes::char_span(text, start, end);
                let bytes = &text.as_bytes()[start..end];
                TraceLine::new(0, Some(span))
                    .part(Role::Label, "longest ")
                    .part(
                        Role::Detail,
                        format!("{:>9} ", Span::new(start, end).to_string()),
                    )
                    .part(Role::Token, quote(&bytes::render(bytes)))
                    .part(Role::Detail, format!(":{id} ({} bytes)", bytes.len()))
            })
            .collect();
        Trace::new(lines)
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }

    fn decode(&self, ids: &[u32]) -> Result<String> {
        bytes::decode_ids(self.name(), ids, |id, out| {
            self.vocab
                .bytes(id)
                .map(|b| out.extend_from_slice(b))
                .is_some()
        })
    }

    /// The token's bytes in GPT-2's byte-level alphabet: the file's Python literals are not
    /// tokens one can type on a line.
    fn piece(&self, id: u32) -> Option<String> {
        self.vocab.bytes(id).map(bytelevel::encode)
    }

    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        bytes::detokenize_by_ids(self, tokens, |t| {
            bytelevel::decode(t).and_then(|b| self.vocab.id(&b))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_parse_as_python_reads_them() {
        let lit = |s: &str| literal(s).map(|(b, rest)| (b, rest.to_string()));
        assert_eq!(
            lit("'\\xa0' 2").unwrap(),
            ("\u{a0}".as_bytes().to_vec(), " 2".into())
        );
        assert_eq!(lit("b'\\xa0' 1").unwrap().0, [0xA0]);
        assert_eq!(lit("\"it's\" 4").unwrap().0, b"it's");
        assert_eq!(lit("'\\u2002' 3").unwrap().0, "\u{2002}".as_bytes());
        assert_eq!(lit("'a b\\n' 4").unwrap(), (b"a b\n".to_vec(), " 4".into()));
        assert!(lit("'open").unwrap_err().0.contains("not closed"));
        assert!(lit("'\\q'").unwrap_err().0.contains("\\q"));
    }

    #[test]
    fn greedy_longest_match_over_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.txt");
        let mut lines: Vec<String> = (0..=255u8)
            .map(|b| format!("{} b'\\x{b:02x}' 1", u32::from(b) + 1))
            .collect();
        lines.push("257 'ab' 2".into());
        lines.push("258 'abc' 3".into());
        lines.push("259 'bcd' 3".into());
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let rwkv = Rwkv::load("rwkv", &path).unwrap();
        // Greedy: `abc` first, then `d`, though `a` + `bcd` would also spell it.
        assert_eq!(rwkv.encode("abcd"), [258, u32::from(b'd') + 1]);
        assert_eq!(rwkv.decode(&rwkv.encode("é abcd")).unwrap(), "é abcd");
        let tokens = rwkv.tokenize("é");
        tokens.check("é").unwrap();
        // `abc` reaches over the offsets after `a` and `b`, `bcd` over the one after `c`.
        let text = "xabcd abc";
        let cuts: Vec<usize> = (0..text.len())
            .filter_map(|from| rwkv.cut_point(text, from))
            .collect();
        assert_eq!(cuts, [1, 1, 5, 5, 5, 5, 6]);
        std::fs::write(&path, "1 'ab' 3\n").unwrap();
        let e = Rwkv::load("rwkv", &path).err().unwrap().to_string();
        assert!(e.contains("v.txt:1") && e.contains("2 bytes"), "{e}");
    }
}
