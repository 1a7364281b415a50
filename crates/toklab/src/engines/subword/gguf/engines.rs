//! llama.cpp's tokenizers for one stretch of text between special tokens: SentencePiece BPE
//! (`llama`), byte-level BPE (`gpt2`) and WordPiece (`bert`), each as llama.cpp's session code
//! does it, with every token's bytes in the original text so spans follow the span model.

use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;

use super::merge::{NONE, end_of, merge, score_rank};
use super::split::Splitter;
use super::unicode::{Category, category, nfd_first, to_lower};
use super::vocab::Vocab;
use crate::core::model_cache::{FlatReader, FlatWriter};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::merge_loop::Symbol;
use crate::engines::subword::bpe::merge_table::{Merge, MergeTable};

/// A token found: its id (`None` for bytes llama.cpp drops because no token spells them) and
/// its bytes in the original text (possibly inside a character).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emit {
    /// The id.
    pub id: Option<u32>,
    /// Where it starts.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
}

/// SentencePiece BPE over `text[range]`: spaces become `▁` (and one is put in front when
/// `prefix`), characters merge by the merged token's score, and a symbol no token spells is
/// spelled in byte tokens (`<0x41>`, else the byte itself). Each token goes to `out` in order.
pub fn spm(
    vocab: &Vocab,
    text: &str,
    range: Range<usize>,
    prefix: bool,
    out: &mut dyn FnMut(Emit),
) {
    let escaped = Escaped::new(&text[range.clone()], range.start, prefix);
    let s = escaped.text.as_str();
    let mut symbols = char_symbols(s, |_| NONE);
    merge(&mut symbols, s, |both, _, _| {
        let id = vocab.id(both)?;
        Some((score_rank(vocab.scores[id as usize]), id))
    });
    let mut at = escaped.cursor();
    for i in 0..symbols.len() {
        let (start, end) = (symbols[i].start as usize, end_of(&symbols, i, s.len()));
        if let Some(id) = vocab.id(&s[start..end]) {
            out(Emit {
                id: Some(id),
                start: at.original(start),
                end: at.original(end),
            });
            continue;
        }
        byte_tokens(vocab, s, start..end, &mut at, true, out);
    }
}

/// The symbols of `s`, one a character, with the ids `id` gives them.
fn char_symbols(s: &str, id: impl Fn(&str) -> u32) -> Vec<Symbol> {
    let mut symbols = Vec::with_capacity(s.len() / 2 + 1);
    symbols.extend(s.char_indices().map(|(i, c)| Symbol {
        id: id(&s[i..i + c.len_utf8()]),
        start: i as u32,
    }));
    symbols
}

/// The merges of a BPE vocabulary over interned strings: every string a merge names gets a
/// number (a token's own id when it is a token), so merging compares numbers.
pub struct BpeTables {
    merges: MergeTable,
    extra: HashMap<String, u32>,
    bytes: [u32; 256],
    tokens: u32,
    ignore_merges: bool,
    /// Gemma 4's BPE: spaces escaped as `▁`, symbols the UTF-8 characters themselves (no
    /// byte-level alphabet), `<0xNN>` byte tokens for what no token spells, and a run of
    /// newlines that is a token kept whole.
    raw: bool,
    splitter: Splitter,
}

impl BpeTables {
    /// Interns the merges of `vocab` (the first of two equal merges counts, as in llama.cpp).
    pub fn new(vocab: &Vocab, splitter: Splitter, ignore_merges: bool, raw: bool) -> BpeTables {
        let tokens = vocab.tokens.len() as u32;
        let mut extra: HashMap<String, u32> = HashMap::default();
        let mut intern = |s: &str| -> u32 {
            if let Some(id) = vocab.id(s) {
                return id;
            }
            let next = tokens + extra.len() as u32;
            *extra.entry(s.to_string()).or_insert(next)
        };
        let mut merges = MergeTable::with_capacity(vocab.merges.len());
        for (rank, (a, b)) in vocab.merges.iter().enumerate() {
            let (left, right) = (intern(a), intern(b));
            let merged = intern(&format!("{a}{b}"));
            if merges.get(left, right).is_none() {
                let rank = rank as u32;
                merges.insert(left, right, Merge { rank, merged });
            }
        }
        let mut bytes = [0u32; 256];
        for (b, slot) in bytes.iter_mut().enumerate() {
            *slot = intern(&bytelevel::byte_to_char(b as u8).to_string());
        }
        BpeTables {
            merges,
            extra,
            bytes,
            tokens,
            ignore_merges,
            raw,
            splitter,
        }
    }

    /// Writes the tables for [`BpeTables::read_flat`]: the merge rules with their table by
    /// pair ([`MergeTable`], read back where it lies) and the strings merges make that are no token, with their numbers.
    pub fn write_flat(&self, w: &mut FlatWriter) {
        w.u32(self.tokens);
        w.u32s(self.bytes.iter().copied());
        w.usize(self.extra.len());
        for (text, &id) in &self.extra {
            w.str(text);
            w.u32(id);
        }
        self.merges.write_flat(w);
    }

    /// Reads what [`BpeTables::write_flat`] wrote for `vocab`, with the pre-tokenizer and
    /// options its `pre` names; `None` when a number is out of range.
    pub fn read_flat(
        r: &mut FlatReader,
        vocab: &Vocab,
        splitter: Splitter,
        ignore_merges: bool,
        raw: bool,
    ) -> Option<BpeTables> {
        let tokens = r.u32()?;
        if tokens as usize != vocab.tokens.len() {
            return None;
        }
        let bytes: [u32; 256] = r.u32s()?.try_into().ok()?;
        let count = r.usize()?;
        let mut extra = HashMap::with_capacity_and_hasher(count.min(1 << 20), Default::default());
        for _ in 0..count {
            let text = r.str()?.to_string();
            extra.insert(text, r.u32()?);
        }
        let bound = u32::try_from(u64::from(tokens) + extra.len() as u64).ok()?;
        if !bytes.iter().all(|&b| b < bound)
            || !extra.values().all(|&id| id < bound && id >= tokens)
        {
            return None;
        }
        let merges = MergeTable::read_flat(r, bound)?;
        Some(BpeTables {
            merges,
            extra,
            bytes,
            tokens,
            ignore_merges,
            raw,
            splitter,
        })
    }

    /// BPE over `text[range]`: the pre-tokenizer's pieces, each merged by rank. In byte-level
    /// vocabularies a symbol no token spells falls back to its printable ASCII bytes' tokens
    /// and other bytes are dropped, as llama.cpp drops them; Gemma 4 spells it in byte tokens.
    /// Each token goes to `out` in order.
    pub fn encode(
        &self,
        vocab: &Vocab,
        text: &str,
        range: Range<usize>,
        out: &mut dyn FnMut(Emit),
    ) {
        let part = &text[range.clone()];
        let mut symbols = Vec::new();
        for piece in self.splitter.split(part) {
            let base = range.start + piece.start;
            if self.raw {
                self.raw_word(vocab, &part[piece], base, out);
                continue;
            }
            let word = &part[piece];
            let bytes = word.as_bytes();
            if self.ignore_merges
                && let Some(id) = vocab.id(&bytelevel::encode(bytes))
            {
                out(Emit {
                    id: Some(id),
                    start: base,
                    end: base + bytes.len(),
                });
                continue;
            }
            symbols.clear();
            symbols.extend(bytes.iter().enumerate().map(|(i, &b)| Symbol {
                start: i as u32,
                id: self.bytes[b as usize],
            }));
            self.merge(&mut symbols, word);
            for (i, sym) in symbols.iter().enumerate() {
                let (start, end) = (sym.start as usize, end_of(&symbols, i, bytes.len()));
                if sym.id < self.tokens {
                    out(Emit {
                        id: Some(sym.id),
                        start: base + start,
                        end: base + end,
                    });
                    continue;
                }
                for (k, &byte) in bytes.iter().enumerate().take(end).skip(start) {
                    let id = (0x21..=0x7E)
                        .contains(&byte)
                        .then(|| vocab.id(&(byte as char).to_string()))
                        .flatten();
                    out(Emit {
                        id,
                        start: base + k,
                        end: base + k + 1,
                    });
                }
            }
        }
    }

    /// One piece of Gemma 4's BPE (see [`BpeTables::raw`]).
    fn raw_word(&self, vocab: &Vocab, word: &str, base: usize, out: &mut dyn FnMut(Emit)) {
        let escaped = Escaped::new(word, base, false);
        let s = escaped.text.as_str();
        if !s.is_empty()
            && s.bytes().all(|b| b == b'\n')
            && let Some(id) = vocab.id(s)
        {
            out(Emit {
                id: Some(id),
                start: base,
                end: base + word.len(),
            });
            return;
        }
        let mut symbols = char_symbols(s, |one| {
            vocab
                .id(one)
                .or_else(|| self.extra.get(one).copied())
                .unwrap_or(NONE)
        });
        self.merge(&mut symbols, s);
        let mut at = escaped.cursor();
        for (i, sym) in symbols.iter().enumerate() {
            let (start, end) = (sym.start as usize, end_of(&symbols, i, s.len()));
            if sym.id < self.tokens {
                out(Emit {
                    id: Some(sym.id),
                    start: at.original(start),
                    end: at.original(end),
                });
                continue;
            }
            byte_tokens(vocab, s, start..end, &mut at, false, out);
        }
    }

    fn merge(&self, symbols: &mut Vec<Symbol>, text: &str) {
        merge(symbols, text, |_, l, r| {
            let rule = self.merges.get(l.id, r.id)?;
            Some((rule.rank, rule.merged))
        });
    }
}

/// Text with spaces as `▁` (and one put in front when asked), and the way back from its offsets
/// to the original's.
struct Escaped<'t> {
    /// The escaped text.
    text: String,
    /// The original it was made from.
    original: &'t str,
    /// Where the original starts in the whole text.
    base: usize,
    /// Bytes put in front (0, or 3 for a `▁`).
    put: usize,
}

impl<'t> Escaped<'t> {
    /// `original` (which starts at `base` in the whole text) escaped, with a `▁` in front when
    /// `prefix`.
    fn new(original: &'t str, base: usize, prefix: bool) -> Escaped<'t> {
        let mut text = String::with_capacity(original.len() + 3);
        if prefix {
            text.push('▁');
        }
        let put = text.len();
        for c in original.chars() {
            text.push(if c == ' ' { '▁' } else { c });
        }
        Escaped {
            text,
            original,
            base,
            put,
        }
    }

    /// A cursor at the start, to be moved forward only.
    fn cursor(&self) -> Cursor<'_, 't> {
        Cursor {
            escaped: self,
            at: self.put,
            from: 0,
        }
    }
}

/// A position in escaped text and the original offset of the character there, walked forward:
/// the original offsets of a text's tokens are asked for in order, so the way back costs no
/// table.
struct Cursor<'e, 't> {
    escaped: &'e Escaped<'t>,
    /// A character boundary of the escaped text (past what was put in front).
    at: usize,
    /// The same place in the original, from its start.
    from: usize,
}

impl Cursor<'_, '_> {
    /// The original offset of escaped byte `k` (at or after the cursor's last answer): a byte
    /// of what was put in front is where the original starts, a byte of an escaped space is
    /// the space, any other byte its own place, and the end the original's end.
    fn original(&mut self, k: usize) -> usize {
        let e = self.escaped;
        if k < e.put {
            return e.base;
        }
        while self.at < k {
            let Some(c) = e.original[self.from..].chars().next() else {
                break;
            };
            let width = if c == ' ' {
                '▁'.len_utf8()
            } else {
                c.len_utf8()
            };
            if self.at + width > k {
                let inside = if c == ' ' { 0 } else { k - self.at };
                return e.base + self.from + inside;
            }
            self.at += width;
            self.from += c.len_utf8();
        }
        e.base + self.from
    }
}

/// The bytes `range` of `s` as byte tokens (`<0x41>`; with `plain`, else the ASCII byte
/// itself), each with its original offsets from `at`.
fn byte_tokens(
    vocab: &Vocab,
    s: &str,
    range: Range<usize>,
    at: &mut Cursor,
    plain: bool,
    out: &mut dyn FnMut(Emit),
) {
    for k in range {
        let byte = s.as_bytes()[k];
        let id = vocab.id(&format!("<0x{byte:02X}>")).or_else(|| {
            (plain && byte.is_ascii())
                .then(|| vocab.id(&(byte as char).to_string()))
                .flatten()
        });
        out(Emit {
            id,
            start: at.original(k),
            end: at.original(k + 1),
        });
    }
}

/// WordPiece as llama.cpp does it: each character replaced by the first of its canonical
/// decomposition and lowercased; words split at white space, and punctuation, ASCII symbols
/// and CJK ideographs made words of their own; control characters dropped; then each word,
/// with `▁` in front, matched greedily longest-first, the unknown token for a word that cannot
/// be matched to its end.
pub fn wpm(vocab: &Vocab, text: &str, range: Range<usize>, out: &mut Vec<Emit>) {
    let mut words: Vec<Vec<(char, usize, usize)>> = vec![Vec::new()];
    for (i, c) in text[range.clone()].char_indices() {
        let (start, end) = (range.start + i, range.start + i + c.len_utf8());
        let c = nfd_first(c);
        let cat = category(c);
        if c.is_whitespace() {
            if !words.last().unwrap().is_empty() {
                words.push(Vec::new());
            }
            continue;
        }
        if dropped(c, cat) {
            continue;
        }
        let lower = to_lower(c);
        if stands_alone(c, cat) {
            if !words.last().unwrap().is_empty() {
                words.push(Vec::new());
            }
            words.last_mut().unwrap().push((lower, start, end));
            words.push(Vec::new());
        } else {
            words.last_mut().unwrap().push((lower, start, end));
        }
    }
    for word in words.iter().filter(|w| !w.is_empty()) {
        wpm_word(vocab, word, out);
    }
}

fn wpm_word(vocab: &Vocab, word: &[(char, usize, usize)], out: &mut Vec<Emit>) {
    let mut s = String::from("▁");
    let first = word[0].1;
    let mut starts = vec![first; 3];
    let mut ends = vec![first; 3];
    for &(c, start, end) in word {
        s.push(c);
        starts.resize(s.len(), start);
        ends.resize(s.len(), end);
    }
    let before = out.len();
    let mut i = 0;
    while i < s.len() {
        let longest = (i + vocab.max_token_len + 1).min(s.len());
        let found = (i + 1..=longest)
            .rev()
            .filter(|&j| s.is_char_boundary(j))
            .find_map(|j| vocab.id(&s[i..j]).map(|id| (j, id)));
        let Some((j, id)) = found else {
            out.truncate(before);
            break;
        };
        out.push(Emit {
            id: Some(id),
            start: starts[i],
            end: ends[j - 1],
        });
        i = j;
    }
    if out.len() == before {
        let end = word.last().map_or(first, |w| w.2);
        out.push(Emit {
            id: vocab.unk,
            start: first,
            end,
        });
    }
}

/// Whether BERT's splitting, as llama.cpp writes it, makes the character `c` (the first of its
/// decomposition, of category `cat`) a word of its own: punctuation, ASCII symbols and CJK
/// ideographs.
fn stands_alone(c: char, cat: Category) -> bool {
    cat == Category::Punctuation || ((c as u32) < 0x7F && cat == Category::Symbol) || is_chinese(c)
}

/// Whether a word starts at the character `c` of a text whatever precedes it: [`wpm`] looks at
/// each character on its own, and makes this one a word of its own.
pub(super) fn starts_word(c: char) -> bool {
    let c = nfd_first(c);
    let cat = category(c);
    !c.is_whitespace() && !dropped(c, cat) && stands_alone(c, cat)
}

/// Whether [`wpm`] drops the character `c` (of category `cat`): NUL, U+FFFD and controls.
fn dropped(c: char, cat: Category) -> bool {
    c == '\0' || c == '\u{FFFD}' || cat == Category::Control
}

/// The CJK ideograph ranges BERT splits around (with HuggingFace's 0x2B920 where the block
/// starts at 0x2B820, as llama.cpp has it).
fn is_chinese(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}
