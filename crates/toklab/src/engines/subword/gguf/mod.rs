//! The tokenizer inside a GGUF file (`gguf:FILE`), the format of llama.cpp, Ollama and most
//! local language models, and models of Ollama's store (`ollama:NAME[:TAG]`). Only the file's
//! metadata is read ([`reader`]), so a model of many gigabytes loads its tokenizer in a
//! fraction of a second. Tokenizing follows llama.cpp (`llama_tokenize` with
//! `add_special = false`, `parse_special = true`), the reference, also where it differs from
//! HuggingFace's `tokenizers`: special tokens are cut out first, longest first ([`vocab`]);
//! then `llama` vocabularies run SentencePiece BPE over scores, `gpt2` ones byte-level BPE
//! after the pre-tokenizer `tokenizer.ggml.pre` names ([`split`]; no NFC normalization),
//! `gemma4` ones BPE over UTF-8 with spaces as `▁`, `bert` ones WordPiece ([`engines`]), and
//! `t5` ones llama.cpp's unigram tokenizer with the precompiled character map ([`ugm`]).
//! `rwkv` and `plamo2` vocabularies are refused with an error that says so.
//!
//! Spec: `gguf:FILE?special=all|none` — `none` matches only user-defined tokens in text, as
//! llama.cpp does with `parse_special = false`.

mod cached;
mod cuts;
mod engines;
mod merge;
pub mod ollama;
pub mod reader;
pub(crate) mod split;
pub use split::NAMES as PRE_NAMES;
pub use split::{AtSpaces, at_spaces};
mod table;
pub mod tokens;
mod ugm;
mod unicode;
pub mod vocab;
pub mod write;

use std::path::{Path, PathBuf};

use aho_corasick::AhoCorasick;

use crate::core::error::{Error, Result};
use crate::core::pieces::{
    Carry, PART_TOKENS, char_boundary_where, nearest_cut, space_between_ascii_letters,
};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{GaveUp, Origin, Span, Token, TokenKind, Tokenization};
use crate::core::tokenizer::{NO_ID, Tokenizer};
use crate::core::trace::{Role, Trace, TraceLine, quote};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bytes::{byte_token, char_span, render};
use crate::engines::subword::unigram::viterbi::Resume;
use cuts::{Cuts, PieceCarry};
use engines::{BpeTables, Emit};
use ugm::UgmCarry;
use vocab::{Family, Vocab, attr};

/// `gguf:FILE`: the tokenizer of a GGUF model file.
pub const KIND: Kind = Kind::new(
    "gguf",
    "gguf:FILE.gguf",
    "the tokenizer of a GGUF model (llama.cpp's tokenization; metadata only); ?special=all|none",
    load,
)
.with_options();

/// `ollama:NAME[:TAG]`: the tokenizer of a model in Ollama's store.
pub const OLLAMA: Kind = Kind::new(
    "ollama",
    "ollama:NAME[:TAG]",
    "the tokenizer of a model in Ollama's store ($OLLAMA_MODELS or ~/.ollama/models); ?special=all|none",
    load_ollama,
)
.with_options();

fn special_option(spec: &mut Spec) -> Result<bool> {
    match spec.take_option("special").as_deref() {
        None | Some("all") => Ok(true),
        Some("none") => Ok(false),
        Some(other) => Err(spec.bad(format!("option `special` wants all or none, not `{other}`"))),
    }
}

/// Loads `gguf:FILE`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let parse_special = special_option(&mut spec)?;
    spec.finish(&["special"])?;
    Ok(Box::new(Gguf::load(
        spec.text.trim(),
        &spec.path(),
        parse_special,
    )?))
}

/// Loads `ollama:NAME[:TAG]`.
pub fn load_ollama(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let parse_special = special_option(&mut spec)?;
    spec.finish(&["special"])?;
    let path = ollama::resolve_in(&ollama::store_dir(), spec.arg.trim())?;
    Ok(Box::new(Gguf::load(
        spec.text.trim(),
        &path,
        parse_special,
    )?))
}

/// What runs between special tokens.
enum Engine {
    Spm,
    Bpe(Box<BpeTables>),
    Wpm,
    Ugm(Box<ugm::Ugm>),
}

/// A GGUF file's tokenizer.
pub struct Gguf {
    name: String,
    path: PathBuf,
    vocab: Vocab,
    engine: Engine,
    /// The special tokens matched in text, longest first, and a search for all of them at once
    /// that tells which occur in a text before the longest-first passes run.
    matched: Vec<u32>,
    finder: Option<AhoCorasick>,
    /// Where a text may be cut ([`Gguf::cut_rule`]).
    cuts: Cuts,
    warnings: Vec<String>,
}

/// A stretch of the input: text for the engine, or a special token (with any white space its
/// strip attributes took).
enum Fragment {
    Text(usize, usize),
    Special(u32, usize, usize),
}

impl Gguf {
    /// Reads the tokenizer of the GGUF file at `path`; `parse_special` as in llama.cpp.
    pub fn load(name: &str, path: &Path, parse_special: bool) -> Result<Gguf> {
        let cached::Parsed {
            vocab,
            engine,
            warnings,
        } = cached::load(path)?;
        let skip = if parse_special {
            0
        } else {
            attr::CONTROL | attr::UNKNOWN
        };
        let matched: Vec<u32> = vocab
            .specials
            .iter()
            .copied()
            .filter(|&id| !vocab.has(id, skip))
            .collect();
        let finder = if matched.is_empty() {
            None
        } else {
            let texts = matched.iter().map(|&id| vocab.tokens.bytes(id));
            Some(
                AhoCorasick::new(texts)
                    .map_err(|e| Error::format(path, None, format!("special tokens: {e}")))?,
            )
        };
        let cuts = Self::cut_rule(&vocab, &matched);
        Ok(Gguf {
            name: name.to_string(),
            path: path.to_path_buf(),
            vocab,
            engine,
            matched,
            finder,
            cuts,
            warnings,
        })
    }

    /// The vocabulary, for callers that want ids and token types.
    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// The ids llama.cpp gives `text` (`add_special = false`); bytes llama.cpp drops have none.
    pub fn ids(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.emits(text, &mut Carry::default(), &mut |e, _| ids.extend(e.id));
        ids
    }

    /// llama.cpp's `tokenizer_st_partition`: for each special token, longest first, every
    /// occurrence in every text fragment left so far is cut out.
    fn partition(&self, text: &str) -> Vec<Fragment> {
        if text.is_empty() {
            return Vec::new();
        }
        let mut fragments = vec![Fragment::Text(0, text.len())];
        let Some(finder) = &self.finder else {
            return fragments;
        };
        let mut present = vec![false; self.matched.len()];
        for m in finder.find_overlapping_iter(text) {
            present[m.pattern().as_usize()] = true;
        }
        for (_, &id) in self.matched.iter().enumerate().filter(|&(k, _)| present[k]) {
            let needle = self.vocab.tokens.text(id);
            let (lstrip, rstrip) = (
                self.vocab.has(id, attr::LSTRIP),
                self.vocab.has(id, attr::RSTRIP),
            );
            let mut next = Vec::with_capacity(fragments.len() + 2);
            for fragment in fragments {
                let Fragment::Text(mut start, end) = fragment else {
                    next.push(fragment);
                    continue;
                };
                while let Some(found) = text[start..end].find(needle) {
                    let at = start + found;
                    let mut left_end = at;
                    if lstrip {
                        while left_end > start && is_space(text.as_bytes()[left_end - 1]) {
                            left_end -= 1;
                        }
                    }
                    if left_end > start {
                        next.push(Fragment::Text(start, left_end));
                    }
                    let mut right = at + needle.len();
                    if rstrip {
                        while right < end && is_space(text.as_bytes()[right]) {
                            right += 1;
                        }
                    }
                    next.push(Fragment::Special(id, left_end, right));
                    start = right;
                }
                if start < end {
                    next.push(Fragment::Text(start, end));
                }
            }
            fragments = next;
        }
        fragments
    }

    /// Every token of `text`, with whether it is a special token from the partition, handed
    /// to `each` in order; `text` is a piece of a longer text as `carry` says
    /// ([`Tokenizer::tokenize_piece`], [`PieceCarry`]): a text after a special token gets
    /// SentencePiece's `▁` in front, and a `t5` vocabulary's search of a text fragment cut
    /// inside a word goes on from the state the piece before left (`Gguf::meeting_cut`).
    /// Nothing is gathered for the whole text: a huge fragment costs its merge, not its tokens.
    fn emits(&self, text: &str, carry: &mut Carry, each: &mut dyn FnMut(Emit, bool)) {
        let state = carry.take::<PieceCarry>().unwrap_or_default();
        let mut previous_special = !carry.continued() || state.ended_special;
        let state = state.ugm;
        let mut left = None;
        let mut found = Vec::new();
        for fragment in self.partition(text) {
            match fragment {
                Fragment::Special(id, start, end) => {
                    let id = Some(id);
                    each(Emit { id, start, end }, true);
                    previous_special = true;
                }
                Fragment::Text(start, end) => {
                    let mut out = |emit| each(emit, false);
                    match &self.engine {
                        Engine::Spm => {
                            let prefix = self.vocab.add_space_prefix && previous_special;
                            engines::spm(&self.vocab, text, start..end, prefix, &mut out)
                        }
                        Engine::Bpe(tables) => {
                            tables.encode(&self.vocab, text, start..end, &mut out)
                        }
                        Engine::Wpm => {
                            found.clear();
                            engines::wpm(&self.vocab, text, start..end, &mut found);
                            found.iter().for_each(|&e| out(e));
                        }
                        Engine::Ugm(ugm) => {
                            let continued = start == 0 && carry.continued();
                            let resume = match (continued, &state.resume) {
                                (true, Some(resume)) => resume,
                                _ => &Resume::at(0.0),
                            };
                            found.clear();
                            let len =
                                ugm.encode_resumed(text, start..end, continued, resume, &mut found);
                            found.iter().for_each(|&e| out(e));
                            if end == text.len() {
                                left = state.next.as_ref().filter(|(at, _)| *at == len);
                            }
                        }
                    }
                    previous_special = false;
                }
            }
        }
        let resume = left.map(|(_, resume)| resume.clone());
        carry.put(PieceCarry {
            ended_special: previous_special,
            ugm: UgmCarry { resume, next: None },
        });
    }

    /// The tokens of `text` (a piece as `carry` says), handed to `part` in parts of about
    /// `size` tokens, in order. Runs of bytes llama.cpp drops are one unknown token, so nothing
    /// of the text is lost; only the last token can still grow that way, so a part is handed
    /// over when the token after it comes.
    fn tokens(&self, text: &str, carry: &mut Carry, size: usize, part: &mut dyn FnMut(Vec<Token>)) {
        let mut tokens: Vec<Token> = Vec::new();
        let mut unknown = false;
        self.emits(text, carry, &mut |emit, special| {
            if emit.id.is_none() {
                if unknown
                    && let Some(last) = tokens.last_mut()
                    && last.span.end <= emit.start
                {
                    let start = last.span.start;
                    *last = self.token(text, Emit { start, ..emit }, false);
                    return;
                }
                unknown = true;
            } else {
                unknown = false;
            }
            if tokens.len() >= size {
                part(std::mem::replace(&mut tokens, Vec::with_capacity(size)));
            }
            tokens.push(self.token(text, emit, special));
        });
        part(tokens);
    }

    /// The token a found id becomes.
    fn token(&self, text: &str, emit: Emit, special: bool) -> Token {
        let span = char_span(text, emit.start, emit.end);
        let Some(id) = emit.id else {
            return byte_token(text, emit.start, emit.end, TokenKind::Unknown)
                .with_form(render(&text.as_bytes()[emit.start..emit.end]));
        };
        let kind = if special {
            TokenKind::Special
        } else if Some(id) == self.vocab.unk {
            TokenKind::Unknown
        } else {
            TokenKind::Subword
        };
        let mut token = byte_token(text, emit.start, emit.end, kind)
            .with_id(id)
            .with_origin(Origin::Subword { id, rank: None });
        let form = self.form(id);
        if form != span.slice(text) {
            token = token.with_form(form);
        }
        token
    }

    /// A token as text: byte-level tokens decoded, others as the vocabulary writes them.
    fn form(&self, id: u32) -> String {
        let piece = self.vocab.tokens.text(id);
        match &self.engine {
            Engine::Bpe(_) if !self.vocab.has(id, attr::CONTROL | attr::USER_DEFINED) => {
                bytelevel::decode(piece).map_or_else(|| piece.to_string(), |b| render(&b))
            }
            _ => piece.to_string(),
        }
    }

    /// The bytes a token stands for when decoding.
    fn bytes_of(&self, id: u32) -> Vec<u8> {
        let piece = self.vocab.tokens.text(id);
        if self
            .vocab
            .has(id, attr::CONTROL | attr::USER_DEFINED | attr::UNKNOWN)
        {
            return piece.as_bytes().to_vec();
        }
        match self.vocab.family {
            Family::Bpe => bytelevel::decode(piece).unwrap_or_else(|| piece.as_bytes().to_vec()),
            _ if self.vocab.has(id, attr::BYTE) => piece
                .strip_prefix("<0x")
                .and_then(|h| h.strip_suffix('>'))
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .map_or_else(|| piece.as_bytes().to_vec(), |b| vec![b]),
            _ => piece.replace('▁', " ").into_bytes(),
        }
    }
}

/// `isspace` in the C locale, which llama.cpp's strip attributes use.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

impl Tokenizer for Gguf {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        self.tokenize_piece(text, &mut Carry::default())
    }

    /// A piece after a cut follows text, or a special token when the piece before ended with
    /// one; a `t5` vocabulary's search of a fragment cut inside a word goes on from the state
    /// the piece before left (both in [`PieceCarry`]).
    fn tokenize_piece(&self, text: &str, carry: &mut Carry) -> Tokenization {
        let mut all = Vec::new();
        self.tokens(text, carry, usize::MAX, &mut |tokens| all = tokens);
        Tokenization::new(all)
    }

    /// A fragment no cut reaches into is handed over a part at a time, so a huge one costs its
    /// merge and a part's tokens.
    fn tokenize_piece_in_parts(
        &self,
        text: &str,
        carry: &mut Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        self.tokens(text, carry, PART_TOKENS, &mut |tokens| {
            part(Tokenization::new(tokens))
        });
    }

    /// The ids as [`Tokenizer::tokenize_piece`]'s tokens have them ([`NO_ID`] for a run of
    /// dropped bytes), without making the tokens.
    fn ids_into_piece(&self, text: &str, carry: &mut Carry, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let mut unknown: Option<(usize, usize)> = None;
        self.emits(text, carry, &mut |emit, _| match emit.id {
            Some(id) => {
                unknown = None;
                ids.push(id);
            }
            None => {
                if let Some((start, end)) = unknown
                    && char_span(text, start, end).end <= emit.start
                {
                    unknown = Some((start, emit.end));
                    return;
                }
                unknown = Some((emit.start, emit.end));
                ids.push(NO_ID);
            }
        });
        None
    }

    /// Where the vocabulary allows it ([`Gguf::cut_rule`]).
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        match &self.cuts {
            Cuts::Nowhere => None,
            Cuts::BetweenLetters => space_between_ascii_letters(text, from),
            Cuts::Words(held) => {
                let starts = |c: char| held.binary_search(&c).is_err() && engines::starts_word(c);
                let words =
                    |text: &str, from: usize| char_boundary_where(text, from, |_, at| starts(at));
                nearest_cut(text, from, &[&space_between_ascii_letters, &words])
            }
            Cuts::AfterAscii(cuts) => cuts.cut_point(text, from, text.len()),
        }
    }

    /// A `t5` vocabulary cuts inside a text fragment where its best paths meet
    /// (`Gguf::meeting_cut`).
    fn cut_point_carried(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        match &self.engine {
            Engine::Ugm(ugm) if from < text.len() => {
                self.meeting_cut(ugm, text, start, from, carry)
            }
            _ => self.cut_point(text, from),
        }
    }

    fn explain(&self, text: &str) -> Trace {
        let family = match self.vocab.family {
            Family::Spm => "SentencePiece BPE (llama)".to_string(),
            Family::Bpe => format!("byte-level BPE (gpt2), pre-tokenizer {}", self.vocab.pre),
            Family::Ugm => "unigram (t5) with the precompiled character map".to_string(),
            _ => "WordPiece (bert)".to_string(),
        };
        let mut lines = vec![TraceLine::new(0, None).part(Role::Label, family)];
        for fragment in self.partition(text) {
            let line = match fragment {
                Fragment::Special(id, s, e) => TraceLine::new(1, Some(Span::new(s, e)))
                    .part(Role::Label, "special ")
                    .part(Role::Token, quote(self.vocab.tokens.text(id)))
                    .part(Role::Detail, format!(" id {id}")),
                Fragment::Text(s, e) => TraceLine::new(1, Some(Span::new(s, e)))
                    .part(Role::Label, "text ")
                    .part(Role::Plain, quote(&text[s..e])),
            };
            lines.push(line);
        }
        Trace::new(lines)
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }

    fn decode(&self, ids: &[u32]) -> Result<String> {
        let mut bytes = Vec::new();
        for (index, &id) in ids.iter().enumerate() {
            if id as usize >= self.vocab.tokens.len() {
                return Err(crate::engines::subword::bytes::unknown_id(
                    &self.name, id, index,
                ));
            }
            bytes.extend(self.bytes_of(id));
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn is_special(&self, id: u32) -> bool {
        self.vocab.has(id, attr::CONTROL)
    }

    fn piece(&self, id: u32) -> Option<String> {
        ((id as usize) < self.vocab.tokens.len()).then(|| self.vocab.tokens.text(id).to_string())
    }

    /// Token strings as the vocabulary spells them (`Ġa`, `▁a`, `##a`): back to their ids,
    /// then decoded, so detokenizing the pieces of some ids equals decoding them.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| self.vocab.id(t))
    }
}
