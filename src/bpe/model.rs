//! The BPE model every loader produces: vocabulary, merge rules, special tokens and
//! pre-tokenizer, and the encoding pipeline over them (special tokens → pre-tokenizer pieces →
//! merges). Merge-step replay, analysis and training build on this type.

use std::sync::OnceLock;

use super::merge::{self, ByConcatenation, MergeStep, NO_ID, Symbol};
use super::merges::MergeTable;
use super::specials::Specials;
use super::vocab::Vocab;
use crate::simple::Matcher;
use crate::token::Span;

/// What the initial symbols of a piece are.
#[derive(Clone, Debug)]
pub enum Alphabet {
    /// Bytes, each mapped to the id of its single-byte token (byte-level models: GPT-2,
    /// tiktoken). `NO_ID` where the vocabulary lacks the byte.
    Bytes(Box<[u32; 256]>),
    /// Characters, each looked up in the vocabulary (SentencePiece, character-level models).
    Chars,
}

impl Alphabet {
    /// The byte alphabet of a vocabulary: the id of each single-byte token.
    pub fn bytes_of(vocab: &Vocab) -> Alphabet {
        let mut ids = Box::new([NO_ID; 256]);
        for (byte, id) in ids.iter_mut().enumerate() {
            *id = vocab.id(&[byte as u8]).unwrap_or(NO_ID);
        }
        Alphabet::Bytes(ids)
    }
}

/// The pre-tokenizer: a named matcher, or none (the whole text is one piece).
pub struct PreTokenizer {
    /// `gpt2`, `cl100k`, `o200k`, `none`, or `regex …` for a `Split` pattern: for messages.
    pub name: String,
    /// `None` leaves the text in one piece.
    pub matcher: Option<Box<dyn Matcher>>,
}

impl PreTokenizer {
    /// One of the named patterns (`gpt2`, `r50k`, `p50k`, `cl100k`, `o200k`) or `none`.
    pub fn named(name: &str) -> Option<PreTokenizer> {
        if name == "none" {
            return Some(PreTokenizer::none());
        }
        Some(PreTokenizer {
            name: name.to_string(),
            matcher: Some(crate::pretok::matcher(name)?),
        })
    }

    pub fn none() -> PreTokenizer {
        PreTokenizer {
            name: "none".into(),
            matcher: None,
        }
    }
}

impl std::fmt::Debug for PreTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PreTokenizer({})", self.name)
    }
}

/// A piece of input the encoder handled as a unit, and the tokens it became.
#[derive(Debug)]
pub struct Piece<'a> {
    /// The piece in the original text.
    pub span: Span,
    /// The bytes that were merged: the piece, with an inserted leading space when the model
    /// adds one (`add_prefix_space`).
    pub bytes: &'a [u8],
    /// Bytes at the start of `bytes` that are not in the original text (0 or 1).
    pub inserted: usize,
    /// The pre-tokenizer alternative that matched, or `special`.
    pub alternative: &'static str,
    /// The tokens: ids (`NO_ID` for bytes the vocabulary lacks) and start offsets in `bytes`.
    pub symbols: &'a [Symbol],
    /// A special token matched in the text (one symbol, its id).
    pub special: bool,
}

impl Piece<'_> {
    /// The original-text byte range of symbol `i` (exact bytes, possibly inside a character).
    pub fn symbol_range(&self, i: usize) -> (usize, usize) {
        let end = self
            .symbols
            .get(i + 1)
            .map_or(self.bytes.len(), |s| s.start as usize);
        let start = self.symbols[i].start as usize;
        let map = |x: usize| self.span.start + x.saturating_sub(self.inserted);
        (map(start), map(end))
    }
}

/// Where a model's merge rules come from.
#[derive(Debug)]
pub enum Rules {
    /// A merge list (GPT-2, HuggingFace) or rules derived at load (SentencePiece scores).
    Table(MergeTable),
    /// A rank-only vocabulary (tiktoken): a pair merges iff its concatenation is a token,
    /// ranked by that token's rank. The encoder looks concatenations up directly; the table of
    /// these rules is built only when asked for ([`BpeModel::merges`]).
    Concatenation(OnceLock<MergeTable>),
}

/// A byte-pair-encoding model.
#[derive(Debug)]
pub struct BpeModel {
    pub vocab: Vocab,
    pub rules: Rules,
    pub specials: Specials,
    pub pretok: PreTokenizer,
    pub alphabet: Alphabet,
    /// Look the whole piece up before merging (tiktoken; HuggingFace `ignore_merges`).
    pub whole_piece_first: bool,
    /// Insert a space before text that does not start with one (HuggingFace ByteLevel
    /// `add_prefix_space`).
    pub prefix_space: bool,
    /// The id that stands for text the vocabulary cannot spell.
    pub unk: Option<u32>,
    /// With byte fallback, unknown characters become these byte tokens (`<0x41>`).
    pub byte_fallback: Option<Box<[u32; 256]>>,
}

impl BpeModel {
    /// A model with no special tokens, no pre-tokenizer and the byte alphabet of `vocab`.
    pub fn new(vocab: Vocab, rules: Rules) -> BpeModel {
        BpeModel {
            alphabet: Alphabet::bytes_of(&vocab),
            vocab,
            rules,
            specials: Specials::default(),
            pretok: PreTokenizer::none(),
            whole_piece_first: false,
            prefix_space: false,
            unk: None,
            byte_fallback: None,
        }
    }

    /// Every merge rule as a table (built on first call for rank-only vocabularies).
    pub fn merges(&self) -> &MergeTable {
        match &self.rules {
            Rules::Table(table) => table,
            Rules::Concatenation(table) => {
                table.get_or_init(|| MergeTable::from_vocab(&self.vocab, |_| true, |id| id, false))
            }
        }
    }

    /// The rank of the rule that makes token `id`; `None` for base symbols and tokens no rule
    /// makes.
    pub fn rank_of_token(&self, id: u32) -> Option<u32> {
        match &self.rules {
            Rules::Table(table) => table.rank_of_token(id),
            Rules::Concatenation(_) => self.vocab.bytes(id).filter(|b| b.len() > 1).map(|_| id),
        }
    }

    /// Applies the merge rules to the symbols of `piece`.
    pub fn merge_symbols(
        &self,
        piece: &[u8],
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn FnMut(MergeStep),
    ) {
        match &self.rules {
            Rules::Table(table) => merge::merge(symbols, piece, table, observe),
            Rules::Concatenation(_) => {
                merge::merge(symbols, piece, &ByConcatenation(&self.vocab), observe)
            }
        }
    }

    /// The token ids of `text`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 3);
        self.encode_pieces(text, &mut |piece| {
            ids.extend(piece.symbols.iter().map(|s| s.id));
        });
        ids
    }

    /// Encodes `text`, handing each piece and its tokens to `emit`.
    pub fn encode_pieces(&self, text: &str, emit: &mut dyn FnMut(&Piece)) {
        let mut symbols = Vec::new();
        self.walk(text, &mut symbols, &mut |_| {}, emit);
    }

    /// Encodes `text`, reporting each merge step (before the piece it belongs to is emitted).
    pub fn encode_traced(
        &self,
        text: &str,
        observe: &mut dyn FnMut(MergeStep),
        emit: &mut dyn FnMut(&Piece),
    ) {
        let mut symbols = Vec::new();
        self.walk(text, &mut symbols, observe, emit);
    }

    fn walk(
        &self,
        text: &str,
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn FnMut(MergeStep),
        emit: &mut dyn FnMut(&Piece),
    ) {
        let mut at = 0;
        loop {
            let special = self.specials.find(text, at);
            let end = special.map_or(text.len(), |(span, _)| span.start);
            if end > at {
                self.segment(text, at, end, symbols, observe, emit);
            }
            let Some((span, id)) = special else { break };
            let one = [Symbol { id, start: 0 }];
            emit(&Piece {
                span,
                bytes: &text.as_bytes()[span.start..span.end],
                inserted: 0,
                alternative: "special",
                symbols: &one,
                special: true,
            });
            at = span.end;
        }
    }

    /// Pre-tokenizes and merges the text between special tokens.
    fn segment(
        &self,
        text: &str,
        start: usize,
        end: usize,
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn FnMut(MergeStep),
        emit: &mut dyn FnMut(&Piece),
    ) {
        let original = &text[start..end];
        let prefixed;
        let (segment, inserted) = if self.prefix_space && !original.starts_with(' ') {
            prefixed = format!(" {original}");
            (prefixed.as_str(), 1)
        } else {
            (original, 0)
        };
        let mut piece = |span: Span, alternative: &'static str| {
            let piece_text = span.slice(segment);
            self.merge_piece(piece_text, symbols, &mut *observe);
            let shift = if span.start == 0 { inserted } else { 0 };
            let original_start = start + span.start.saturating_sub(inserted);
            emit(&Piece {
                span: Span::new(original_start, start + span.end - inserted),
                bytes: piece_text.as_bytes(),
                inserted: shift,
                alternative,
                symbols,
                special: false,
            });
        };
        match &self.pretok.matcher {
            Some(matcher) => matcher.find(segment, &mut piece),
            None => piece(Span::new(0, segment.len()), "text"),
        }
    }

    /// The tokens of one piece, in `symbols`.
    pub fn merge_piece(
        &self,
        piece: &str,
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn FnMut(MergeStep),
    ) {
        symbols.clear();
        if self.whole_piece_first
            && let Some(id) = self.vocab.id(piece.as_bytes())
        {
            symbols.push(Symbol { id, start: 0 });
            return;
        }
        self.initial_symbols(piece, symbols);
        self.merge_symbols(piece.as_bytes(), symbols, observe);
        if symbols.iter().any(|s| s.id == NO_ID) {
            self.resolve_unknown(piece.as_bytes(), symbols);
        }
    }

    /// The symbols before any merge: bytes or characters.
    pub fn initial_symbols(&self, piece: &str, symbols: &mut Vec<Symbol>) {
        match &self.alphabet {
            Alphabet::Bytes(ids) => {
                symbols.extend(piece.bytes().enumerate().map(|(i, b)| Symbol {
                    id: ids[b as usize],
                    start: i as u32,
                }))
            }
            Alphabet::Chars => symbols.extend(piece.char_indices().map(|(i, c)| {
                Symbol {
                    id: self
                        .vocab
                        .id(c.encode_utf8(&mut [0; 4]).as_bytes())
                        .unwrap_or(NO_ID),
                    start: i as u32,
                }
            })),
        }
    }

    /// Unknown symbols after merging: byte tokens with byte fallback; otherwise one token per
    /// run of unknown symbols, with the model's unknown id (or `NO_ID` if it has none).
    fn resolve_unknown(&self, piece: &[u8], symbols: &mut Vec<Symbol>) {
        let old = std::mem::take(symbols);
        for (i, s) in old.iter().enumerate() {
            if s.id != NO_ID {
                symbols.push(*s);
                continue;
            }
            if let Some(bytes) = &self.byte_fallback {
                let end = old.get(i + 1).map_or(piece.len(), |n| n.start as usize);
                for at in s.start as usize..end {
                    symbols.push(Symbol {
                        id: bytes[piece[at] as usize],
                        start: at as u32,
                    });
                }
                continue;
            }
            let unk = self.unk.unwrap_or(NO_ID);
            if i > 0 && old[i - 1].id == NO_ID {
                continue;
            }
            symbols.push(Symbol {
                id: unk,
                start: s.start,
            });
        }
    }

    /// The bytes that `ids` stand for. Fails on an id outside the vocabulary, giving its index.
    pub fn decode(&self, ids: &[u32]) -> Result<Vec<u8>, usize> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for (index, &id) in ids.iter().enumerate() {
            match self.vocab.bytes(id) {
                Some(bytes) => out.extend_from_slice(bytes),
                None => out.extend_from_slice(self.specials.text(id).ok_or(index)?.as_bytes()),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::merges::Merge;

    fn small(alphabet_chars: bool) -> BpeModel {
        let mut vocab = Vocab::default();
        for (id, t) in ["a", "b", "ab", "<unk>"].iter().enumerate() {
            vocab.insert(id as u32, t.as_bytes()).unwrap();
        }
        let mut table = MergeTable::default();
        table.insert(0, 1, Merge { rank: 0, merged: 2 });
        let mut model = BpeModel::new(vocab, Rules::Table(table));
        if alphabet_chars {
            model.alphabet = Alphabet::Chars;
        }
        model
    }

    #[test]
    fn runs_of_unknown_symbols_become_one_token() {
        let model = small(false);
        assert_eq!(model.encode("abéé"), [2, NO_ID]);
        let mut with_unk = small(true);
        with_unk.unk = Some(3);
        assert_eq!(with_unk.encode("aééb"), [0, 3, 1]);
    }

    #[test]
    fn byte_fallback_spells_unknown_characters_in_bytes() {
        let mut model = small(true);
        let mut bytes = Box::new([0u32; 256]);
        for (byte, id) in bytes.iter_mut().enumerate() {
            *id = 1000 + byte as u32;
        }
        model.byte_fallback = Some(bytes);
        assert_eq!(model.encode("aé"), [0, 1000 + 0xC3, 1000 + 0xA9]);
    }
}
