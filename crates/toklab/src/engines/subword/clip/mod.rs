//! OpenAI CLIP's BPE (`bpe_simple_vocab_16e6.txt.gz`, `clip:FILE`), as open_clip's
//! `SimpleTokenizer` encodes: the text cleaned up (`normalize.rs`: ftfy, HTML entities,
//! whitespace, lowercase), cut by CLIP's pattern (letters, single digits, other non-space runs;
//! whitespace dropped), each piece's bytes in GPT-2's byte alphabet with `</w>` on the last
//! symbol, merged by rank as GPT-2 merges.
//!
//! The file holds only merges: the ids are built — 256 byte symbols in `bytes_to_unicode`
//! order, the same with `</w>`, one per merge (only the first 48,894 merges are used, as the
//! reference's `merges[1:49152-256-2+1]`), then `<start_of_text>` and `<end_of_text>`.

mod normalize;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use crate::core::error::{Error, Result};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{Origin, Span, TokenKind, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine, quote};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bytes;
use crate::engines::subword::normalizing::Normalizing;

/// `clip:FILE[?unicode=15]`: CLIP's merges file (gzip or plain text); `unicode=15` lowercases
/// as Python up to 3.13 does (Unicode 14.0–15.1), for ids made there.
pub const KIND: Kind = Kind::new(
    "clip",
    "clip:bpe_simple_vocab_16e6.txt.gz[?unicode=15]",
    "OpenAI CLIP BPE merges (open_clip SimpleTokenizer): clean-up, lowercase, </w> word ends",
    load,
)
.with_options();

/// How many merges CLIP uses: its vocabulary is 49,408 = 512 + merges + 2.
const MERGES_USED: usize = 49152 - 256 - 2;
const END_OF_WORD: &str = "</w>";
const SPECIALS: [&str; 2] = ["<start_of_text>", "<end_of_text>"];

static PATTERN: LazyLock<fancy_regex::Regex> = LazyLock::new(|| {
    fancy_regex::Regex::new(
        r"(?i)<start_of_text>|<end_of_text>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+",
    )
    .expect("valid pattern")
});

/// A character in a class of CLIP's pattern: `\p{L}`, `\p{N}`.
fn in_class(class: &regex::Regex, c: char) -> bool {
    class.is_match(c.encode_utf8(&mut [0; 4]))
}

static LETTER: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^\p{L}$").expect("valid pattern"));
static NUMBER: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^\p{N}$").expect("valid pattern"));

/// Whether CLIP's pattern ends a piece before `at` whatever precedes `before`, and starts the
/// next at `at` whatever follows: beside white space, which no piece holds; or after a letter
/// before what is neither a letter nor a digit, where a run of letters ends and what starts
/// (punctuation, a contraction) is matched from there on alone, unless a special token holds a
/// letter followed by `at` (`t>`, `t_`).
fn cuts_between(before: char, at: char) -> bool {
    if before.is_whitespace() || at.is_whitespace() {
        return true;
    }
    let in_special = SPECIALS.iter().any(|special| {
        special
            .chars()
            .zip(special.chars().skip(1))
            .any(|(letter, next)| letter.is_alphabetic() && next == at)
    });
    in_class(&LETTER, before) && !in_class(&LETTER, at) && !in_class(&NUMBER, at) && !in_special
}

/// A token of a piece: its id and byte range in the piece.
type Symbol = (u32, usize, usize);

/// Loads `clip:FILE`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let clean: crate::engines::subword::normalizing::NormalizeFn = match spec
        .take_option("unicode")
        .as_deref()
    {
        None | Some("17") => normalize::clean,
        Some("14" | "15" | "15.1") => normalize::clean_unicode_15,
        Some(other) => {
            return Err(spec.bad(format!(
                    "option `unicode` is 15 (lowercase as Python 3.11-3.13 do) or 17 (the default: Rust's own tables), not `{other}`"
                )));
        }
    };
    spec.finish(&["unicode"])?;
    let name = spec.text.trim();
    let bpe = ClipBpe::load(name, &spec.path())?;
    let cutting = Normalizing::new(name, clean, bpe)
        .with_cuts(normalize::keeps)
        .only_in(normalize::cuttable);
    Ok(Box::new(cutting))
}

/// CLIP's vocabulary and merges, encoding text that is already cleaned up.
pub struct ClipBpe {
    name: String,
    /// Token strings (byte-alphabet characters, `</w>` at word ends) by id.
    tokens: Vec<String>,
    ids: HashMap<String, u32>,
    /// (left id, right id) → (rank, merged id).
    merges: HashMap<(u32, u32), (u32, u32)>,
    path: PathBuf,
}

impl ClipBpe {
    /// Reads the merges file (gzip when it starts with gzip's magic bytes).
    pub fn load(name: &str, path: &Path) -> Result<ClipBpe> {
        let raw = crate::engines::subword::bpe::load::read_bytes(path)?;
        let text = match raw.starts_with(&[0x1f, 0x8b]) {
            true => {
                let mut text = String::new();
                flate2::read::GzDecoder::new(&raw[..])
                    .read_to_string(&mut text)
                    .map_err(|e| Error::format(path, None, format!("gzip: {e}")))?;
                text
            }
            false => String::from_utf8(raw)
                .map_err(|e| Error::format(path, None, format!("invalid UTF-8: {e}")))?,
        };
        let mut tokens: Vec<String> = bytelevel_order().collect();
        tokens.extend(bytelevel_order().map(|c| format!("{c}{END_OF_WORD}")));
        let mut lines = text.split('\n');
        lines.next(); // the `#version` header
        let merge_lines: Vec<(usize, &str)> = lines.enumerate().take(MERGES_USED).collect();
        if merge_lines.len() < MERGES_USED {
            return Err(Error::format(
                path,
                None,
                format!(
                    "{} merges, fewer than the {MERGES_USED} CLIP uses",
                    merge_lines.len()
                ),
            ));
        }
        let mut pairs = Vec::with_capacity(MERGES_USED);
        for (index, line) in merge_lines {
            let (left, right) = line.split_once(' ').ok_or_else(|| {
                Error::format(path, Some(index + 2), "expected a merge `LEFT RIGHT`")
            })?;
            pairs.push((left, right));
            tokens.push(format!("{left}{right}"));
        }
        tokens.extend(SPECIALS.iter().map(|s| s.to_string()));
        let ids: HashMap<String, u32> = tokens
            .iter()
            .enumerate()
            .map(|(id, t)| (t.clone(), id as u32))
            .collect();
        let mut merges = HashMap::with_capacity(pairs.len());
        for (rank, (left, right)) in pairs.into_iter().enumerate() {
            let id_of = |s: &str| {
                ids.get(s).copied().ok_or_else(|| {
                    Error::format(
                        path,
                        Some(rank + 2),
                        format!("merge side {s:?} is no token made before it"),
                    )
                })
            };
            let merged = ids[&format!("{left}{right}")];
            merges
                .entry((id_of(left)?, id_of(right)?))
                .or_insert((rank as u32, merged));
        }
        Ok(ClipBpe {
            name: name.to_string(),
            tokens,
            ids,
            merges,
            path: path.to_path_buf(),
        })
    }

    /// The tokens of one piece (cleaned text): ids with their byte ranges in the piece.
    fn encode_piece(&self, piece: &str) -> Vec<Symbol> {
        if let Some(i) = SPECIALS.iter().position(|s| *s == piece) {
            return vec![((self.tokens.len() - 2 + i) as u32, 0, piece.len())];
        }
        let bytes = piece.as_bytes();
        let mut symbols: Vec<Symbol> = bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| (byte_id(b), i, i + 1))
            .collect();
        if let Some(last) = symbols.last_mut() {
            last.0 += 256;
        }
        loop {
            let best = symbols
                .windows(2)
                .filter_map(|w| self.merges.get(&(w[0].0, w[1].0)))
                .min_by_key(|(rank, _)| *rank);
            let Some(&(rank, merged)) = best else { break };
            let mut out = Vec::with_capacity(symbols.len());
            let mut i = 0;
            while i < symbols.len() {
                if i + 1 < symbols.len()
                    && self.merges.get(&(symbols[i].0, symbols[i + 1].0)) == Some(&(rank, merged))
                {
                    out.push((merged, symbols[i].1, symbols[i + 1].2));
                    i += 2;
                } else {
                    out.push(symbols[i]);
                    i += 1;
                }
            }
            symbols = out;
        }
        symbols
    }

    /// Pieces of cleaned text with their tokens.
    fn pieces(&self, text: &str) -> Vec<(Span, Vec<Symbol>)> {
        PATTERN
            .find_iter(text)
            .map_while(|m| m.ok())
            .map(|m| {
                let span = Span::new(m.start(), m.end());
                (span, self.encode_piece(m.as_str()))
            })
            .collect()
    }

    /// The id of a token string (`hello</w>`), for tools that look tokens up.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }
}

/// The 256 byte-alphabet characters in `bytes_to_unicode`'s order (printable bytes first).
fn bytelevel_order() -> impl Iterator<Item = String> {
    BYTE_ORDER
        .iter()
        .map(|&b| bytelevel::byte_to_char(b).to_string())
}

/// The bytes in `bytes_to_unicode`'s order: `!`–`~`, `¡`–`¬`, `®`–`ÿ`, then the rest.
static BYTE_ORDER: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut order: Vec<u8> = (0..=255u8).filter(|&b| printable(b)).collect();
    order.extend((0..=255u8).filter(|&b| !printable(b)));
    order
});

/// The id of byte `b`'s symbol (its position in `bytes_to_unicode`'s order).
fn byte_id(b: u8) -> u32 {
    static IDS: LazyLock<[u32; 256]> = LazyLock::new(|| {
        let mut ids = [0; 256];
        for (i, &b) in BYTE_ORDER.iter().enumerate() {
            ids[b as usize] = i as u32;
        }
        ids
    });
    IDS[b as usize]
}

impl ClipBpe {
    /// The bytes of token `id` (no `</w>`), or `None` for an id outside the vocabulary.
    fn token_bytes(&self, id: u32) -> Option<Vec<u8>> {
        let token = self.tokens.get(id as usize)?;
        if SPECIALS.contains(&token.as_str()) {
            return Some(token.as_bytes().to_vec());
        }
        bytelevel::decode(token.strip_suffix(END_OF_WORD).unwrap_or(token))
    }
}

impl Tokenizer for ClipBpe {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = Vec::new();
        for (piece, symbols) in self.pieces(text) {
            for (id, start, end) in symbols {
                let (start, end) = (piece.start + start, piece.start + end);
                let span = bytes::char_span(text, start, end);
                let kind = match id as usize >= self.tokens.len() - 2 {
                    true => TokenKind::Special,
                    false => TokenKind::Subword,
                };
                let mut token = bytes::byte_token(text, start, end, kind)
                    .with_id(id)
                    .with_origin(Origin::Subword { id, rank: None });
                let form = &self.tokens[id as usize];
                if form != span.slice(text) {
                    token = token.with_form(form.as_str());
                }
                tokens.push(token);
            }
        }
        Tokenization::new(tokens)
    }

    /// Where [`cuts_between`] holds: the pattern's pieces, each encoded alone, are the same on
    /// both sides of such a cut.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        crate::core::pieces::char_boundary_where(text, from, cuts_between)
    }

    fn explain(&self, text: &str) -> Trace {
        let mut lines = Vec::new();
        for (piece, symbols) in self.pieces(text) {
            let line = TraceLine::new(0, Some(piece))
                .part(Role::Label, "piece ")
                .part(Role::Token, quote(piece.slice(text)))
                .part(Role::Plain, " → ");
            lines.push(symbols.iter().fold(line, |line, (id, _, _)| {
                line.part(Role::Token, quote(&self.tokens[*id as usize]))
                    .part(Role::Detail, format!(":{id} "))
            }));
        }
        Trace::new(lines)
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }

    /// open_clip's decoder: the tokens' bytes, `</w>` as a space, the end trimmed. What the
    /// clean-up changed (case, whitespace, entities) does not come back.
    fn decode(&self, ids: &[u32]) -> Result<String> {
        let text = bytes::decode_ids(&self.name, ids, |id, out| {
            let Some(bytes) = self.token_bytes(id) else {
                return false;
            };
            out.extend_from_slice(&bytes);
            if self.tokens[id as usize].ends_with(END_OF_WORD) {
                out.push(b' ');
            }
            true
        })?;
        Ok(text.trim_end().to_string())
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.tokens.get(id as usize).cloned()
    }

    /// Token strings as the merges file writes them (`world</w>` ends a word).
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        bytes::detokenize_by_ids(self, tokens, |t| self.ids.get(t).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_is_bytes_to_unicode() {
        assert_eq!(byte_id(b'!'), 0);
        assert_eq!(byte_id(0xA1), 94);
        assert_eq!(byte_id(0xAE), 106);
        assert_eq!(byte_id(0), 188);
        assert_eq!(bytelevel_order().nth(188).as_deref(), Some("Ā"));
    }

    #[test]
    fn the_pattern_is_cut_beside_spaces_and_where_letters_end() {
        for (before, at) in [
            ('a', ' '),
            (' ', 'b'),
            ('は', '、'),
            ('x', '\''),
            ('x', '!'),
        ] {
            assert!(cuts_between(before, at), "{before:?} {at:?}");
        }
        // Inside a run of letters, of punctuation, before a digit, after punctuation (`'s`),
        // and inside a special token (`<end_of_text>`).
        for (before, at) in [
            ('a', 'b'),
            ('は', 'カ'),
            ('!', '?'),
            ('a', '1'),
            ('\'', 's'),
            ('t', '>'),
            ('d', '_'),
        ] {
            assert!(!cuts_between(before, at), "{before:?} {at:?}");
        }
    }
}
