//! The BPE model every loader produces: vocabulary, merge rules, special tokens and
//! pre-tokenizer, and the encoding pipeline over them (special tokens → pre-tokenizer pieces →
//! merges). The merge loop follows either formal semantics: the fast loop for Definition 3
//! (what every reference library does), the formal dictionary (`super::formal`, built on first
//! use) for Definition 4. Traces, analysis and incremental re-tokenization use the same
//! dictionary.

use crate::core::trace::Observer;
use std::sync::OnceLock;

pub use super::pieces::{Piece, PreToken, PreTokenizer};

use super::dictionary::FormalDictionary;
use super::merge_loop::{self, ByConcatenation, MergeStep, NO_ID, Symbol};
use super::merge_table::MergeTable;
use super::specials::Specials;
use super::vocab::Vocab;
use crate::core::token::Span;
use crate::engines::subword::formal::Semantics;

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

/// Where a model's merge rules come from.
#[derive(Debug)]
#[non_exhaustive]
pub enum Rules {
    /// A merge list (GPT-2 `vocab.bpe`, the merges of a `tokenizer.json`): the rules and their
    /// order exactly as written, proper or not.
    Table(MergeTable),
    /// Rules a ranked vocabulary implies, built at load (SentencePiece: a pair merges when the
    /// concatenation is a piece, ranked by the piece's score).
    Implied(MergeTable),
    /// A rank-only vocabulary (tiktoken): a pair merges iff its concatenation is a token,
    /// ranked by that token's rank. The encoder looks concatenations up directly; the table of
    /// these rules is built only when asked for ([`BpeModel::merges`]).
    Concatenation(OnceLock<MergeTable>),
}

/// A byte-pair-encoding model.
#[derive(Debug)]
pub struct BpeModel {
    /// Token ids and their byte strings.
    pub vocab: Vocab,
    /// How pairs merge.
    pub rules: Rules,
    /// Special tokens, matched whole before pre-tokenization.
    pub specials: Specials,
    /// How text is cut into pieces that merges never cross.
    pub pretok: PreTokenizer,
    /// What the initial symbols are: bytes (with their ids) or characters.
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
    /// Which formal semantics the merge loop follows (`semantics=sp|hf`); every reference
    /// library follows Definition 3, so that is the default.
    pub semantics: Semantics,
    /// The rules as a formal dictionary, built on first use.
    formal: OnceLock<FormalDictionary>,
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
            semantics: Semantics::SentencePiece,
            formal: OnceLock::new(),
        }
    }

    /// The rules as a formal dictionary (built on the first call): what the Definition 4
    /// encoder, traces, `toklab bpe check` and incremental re-tokenization work on.
    pub fn formal(&self) -> &FormalDictionary {
        self.formal.get_or_init(|| FormalDictionary::of(self))
    }

    /// The dictionary of [`BpeModel::formal`] itself.
    pub fn dictionary(&self) -> &crate::engines::subword::formal::Dictionary {
        &self.formal().dict
    }

    /// Every merge rule as a table (built on first call for rank-only vocabularies).
    pub fn merges(&self) -> &MergeTable {
        match &self.rules {
            Rules::Table(table) | Rules::Implied(table) => table,
            Rules::Concatenation(table) => {
                table.get_or_init(|| MergeTable::from_vocab(&self.vocab, |_| true, |id| id, false))
            }
        }
    }

    /// The rank of the rule that makes token `id`; `None` for base symbols and tokens no rule
    /// makes.
    pub fn rank_of_token(&self, id: u32) -> Option<u32> {
        match &self.rules {
            Rules::Table(table) | Rules::Implied(table) => table.rank_of_token(id),
            Rules::Concatenation(_) => self.vocab.bytes(id).filter(|b| b.len() > 1).map(|_| id),
        }
    }

    /// Applies the merge rules to the symbols of `piece` under the model's semantics.
    pub fn merge_symbols(
        &self,
        piece: &[u8],
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn Observer<MergeStep>,
    ) {
        match self.semantics {
            Semantics::SentencePiece => self.merge_fast(piece, symbols, observe),
            semantics => self
                .formal()
                .merge(&self.vocab, piece, semantics, symbols, observe),
        }
    }

    /// The fast merge loop (Definition 3), whatever the model's semantics.
    pub fn merge_fast(
        &self,
        piece: &[u8],
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn Observer<MergeStep>,
    ) {
        match &self.rules {
            Rules::Table(table) | Rules::Implied(table) => {
                merge_loop::merge(symbols, piece, table, observe)
            }
            Rules::Concatenation(_) => {
                merge_loop::merge(symbols, piece, &ByConcatenation(&self.vocab), observe)
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

    /// Where `text` may be cut without changing a token ([`crate::Tokenizer::cut_point`]): the
    /// pre-tokenizer's cut points (a space between letters, punctuation after a letter) that
    /// fall inside no special token's text, when no special token holds a space. Merges never
    /// cross a piece, and the text after the cut starts with a space or punctuation, so it gets
    /// no prefix space either.
    pub fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        if self
            .specials
            .iter()
            .any(|(special, _)| special.contains(' '))
        {
            return None;
        }
        let matcher = self.pretok.matcher.as_ref()?;
        let mut from = from;
        loop {
            let cut = matcher.cut_point(text, from)?;
            if !self.special_spans(text, cut) {
                return Some(cut);
            }
            from = cut + 1;
        }
    }

    /// Whether the text of a special token lies across byte `at` of `text` (starting before
    /// it and ending after it), where a cut would split what may be matched as one token.
    fn special_spans(&self, text: &str, at: usize) -> bool {
        let bytes = text.as_bytes();
        self.specials.iter().any(|(special, _)| {
            let special = special.as_bytes();
            (1..special.len()).any(|inside| {
                at >= inside
                    && bytes
                        .get(at - inside..at - inside + special.len())
                        .is_some_and(|window| window == special)
            })
        })
    }

    /// Encodes `text`, handing each piece and its tokens to `emit`.
    pub fn encode_pieces(&self, text: &str, emit: &mut dyn FnMut(&Piece)) {
        let mut symbols = Vec::new();
        self.pretokenize(text, 0..text.len(), &mut |pre| match pre.special {
            Some(id) => emit(&pre.with_symbols(&[Symbol { id, start: 0 }])),
            None => {
                self.merge_piece(pre.bytes, &mut symbols, &mut |_| {});
                emit(&pre.with_symbols(&symbols));
            }
        });
    }

    /// Cuts `text[range]` into the pieces the encoder merges one by one: special tokens first,
    /// then the pre-tokenizer's pieces of the text between them. The model's prefix space goes
    /// in front of each stretch between special tokens that starts at the start of the text or
    /// right after a special token (so a range starting mid-text gets none). Incremental
    /// re-tokenization cuts a window of the text this way.
    pub fn pretokenize(
        &self,
        text: &str,
        range: std::ops::Range<usize>,
        each: &mut dyn FnMut(&PreToken),
    ) {
        let window = &text[..range.end];
        let mut at = range.start;
        let mut after_special = range.start == 0;
        loop {
            let special = self.specials.find(window, at);
            let end = special.map_or(range.end, |(span, _)| span.start);
            if end > at {
                self.segment(text, at, end, after_special, each);
            }
            let Some((span, id)) = special else { break };
            each(&PreToken {
                span,
                bytes: &text.as_bytes()[span.start..span.end],
                inserted: 0,
                alternative: "special",
                special: Some(id),
            });
            at = span.end;
            after_special = true;
        }
    }

    /// The pre-tokenizer's pieces of `text[start..end]`, which holds no special token.
    fn segment(
        &self,
        text: &str,
        start: usize,
        end: usize,
        prefix: bool,
        each: &mut dyn FnMut(&PreToken),
    ) {
        let original = &text[start..end];
        let prefixed;
        let (segment, inserted) = if prefix && self.prefix_space && !original.starts_with(' ') {
            prefixed = format!(" {original}");
            (prefixed.as_str(), 1)
        } else {
            (original, 0)
        };
        let mut piece = |span: Span, alternative: &'static str| {
            each(&PreToken {
                span: Span::new(
                    start + span.start.saturating_sub(inserted),
                    start + span.end - inserted,
                ),
                bytes: span.slice(segment).as_bytes(),
                inserted: if span.start == 0 { inserted } else { 0 },
                alternative,
                special: None,
            })
        };
        match &self.pretok.matcher {
            Some(matcher) => matcher.find(segment, &mut piece),
            None => piece(Span::new(0, segment.len()), "text"),
        }
    }

    /// The tokens of one piece, in `symbols`: the whole piece when the model looks it up
    /// first and has it, else the merges, then what becomes of unknown symbols.
    pub fn merge_piece(
        &self,
        piece: &[u8],
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn Observer<MergeStep>,
    ) {
        symbols.clear();
        if self.whole_piece_first
            && let Some(id) = self.vocab.id(piece)
        {
            symbols.push(Symbol { id, start: 0 });
            return;
        }
        self.merge_only(piece, symbols, observe);
        self.resolve_unknown(piece, symbols);
    }

    /// The merged symbols of `piece` before unknown ones are resolved, with no whole-piece
    /// lookup: the tokenization in the formal sense, which incremental re-tokenization glues.
    pub fn merge_only(
        &self,
        piece: &[u8],
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn Observer<MergeStep>,
    ) {
        symbols.clear();
        self.initial_symbols(piece, symbols);
        self.merge_symbols(piece, symbols, observe);
    }

    /// The symbols before any merge: bytes, or characters (a byte that is not UTF-8 is a
    /// symbol of its own, which no vocabulary of characters has).
    pub fn initial_symbols(&self, piece: &[u8], symbols: &mut Vec<Symbol>) {
        match &self.alphabet {
            Alphabet::Bytes(ids) => {
                symbols.extend(piece.iter().enumerate().map(|(i, &b)| Symbol {
                    id: ids[b as usize],
                    start: i as u32,
                }))
            }
            Alphabet::Chars => {
                let mut at = 0;
                for chunk in piece.utf8_chunks() {
                    for c in chunk.valid().chars() {
                        let bytes = &piece[at..at + c.len_utf8()];
                        let id = self.vocab.id(bytes).unwrap_or(NO_ID);
                        symbols.push(Symbol {
                            id,
                            start: at as u32,
                        });
                        at += bytes.len();
                    }
                    for _ in chunk.invalid() {
                        symbols.push(Symbol {
                            id: NO_ID,
                            start: at as u32,
                        });
                        at += 1;
                    }
                }
            }
        }
    }

    /// Unknown symbols after merging: byte tokens with byte fallback; otherwise one token per
    /// run of unknown symbols, with the model's unknown id (or `NO_ID` if it has none).
    pub fn resolve_unknown(&self, piece: &[u8], symbols: &mut Vec<Symbol>) {
        if symbols.iter().all(|s| s.id != NO_ID) {
            return;
        }
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

    /// The token string of `id`: its bytes in GPT-2's byte-level alphabet for byte-level
    /// models (tiktoken files have no strings: this is the alphabet HuggingFace's
    /// conversions of them use), as text for character models, a special token as written.
    pub fn piece(&self, id: u32) -> Option<String> {
        match (self.vocab.bytes(id), &self.alphabet) {
            (Some(bytes), Alphabet::Bytes(_)) => Some(super::bytelevel::encode(bytes)),
            (Some(bytes), Alphabet::Chars) => String::from_utf8(bytes.to_vec()).ok(),
            (None, _) => self.specials.text(id).map(str::to_string),
        }
    }

    /// The id of a token string as [`piece`](Self::piece) writes it.
    pub fn piece_id(&self, piece: &str) -> Option<u32> {
        let found = match &self.alphabet {
            Alphabet::Bytes(_) => {
                super::bytelevel::decode(piece).and_then(|bytes| self.vocab.id(&bytes))
            }
            Alphabet::Chars => self.vocab.id(piece.as_bytes()),
        };
        found.or_else(|| {
            self.specials
                .iter()
                .find(|&(text, _)| text == piece)
                .map(|(_, id)| id)
        })
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
    use crate::engines::subword::bpe::merge_table::Merge;

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
