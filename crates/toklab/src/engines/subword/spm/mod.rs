//! SentencePiece models (`.model` files): the protobuf read by hand, the normalizer with its
//! precompiled character map, and encoding on top of the shared BPE model — pieces are
//! characters, a pair merges when the concatenation is a piece, the higher score first
//! (leftmost on ties), `▁` for spaces, byte fallback or `<unk>` for characters the vocabulary
//! lacks. Unigram models encode by the Viterbi best segmentation.

mod cached;
pub(crate) mod cuts;
mod explain;
mod incremental;
mod merged;
/// The unigram lattice, at home in [`crate::engines::subword::unigram`].
pub use crate::engines::subword::unigram::{lattice, lesson};
mod normalizer;
mod piece_list;
pub mod pieces;
pub(crate) mod proto;
pub use proto::ModelType;
pub mod regularize;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use self::normalizer::{CharsMap, Normalizer, SPACE, UserMatcher, user_matcher, user_pieces};
use self::piece_list::vocab_of;
use self::pieces::Pieces;
use self::proto::PieceType;
use super::bpe::merge_loop::NO_ID;
use super::bpe::merge_table::MergeTable;
use super::bpe::model::{Alphabet, BpeModel, Rules};
use super::bpe::tokenizer::subword_token;
use crate::core::error::{Error, Result};
use crate::core::normalized::NormalizedString;
use crate::core::pieces::{Carry, PART_TOKENS};
use crate::core::token::{GaveUp, Span, Token, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::Trace;
use crate::engines::subword::formal::Semantics;
use crate::engines::subword::unigram::viterbi::Resume;
use cuts::UnigramCarry;

/// A SentencePiece model.
pub struct SpmModel {
    /// Vocabulary, merge rules implied by the scores, unknown id and byte fallback.
    pub bpe: BpeModel,
    /// The model's text normalization, with the map back to the original text.
    pub normalizer: Normalizer,
    /// The pieces as the file lists them, with types and scores.
    pub pieces: Pieces,
    /// Unigram or BPE: which encoder runs.
    pub model_type: ModelType,
    /// Finds user-defined pieces in normalized text: they are never split or merged.
    user_defined: UserMatcher,
    /// The Viterbi lattice for unigram models.
    pub(crate) unigram: Option<crate::engines::subword::unigram::SpmUnigram>,
}

/// A token of the normalized text: id and byte range in the normalized text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpmToken {
    /// The piece id.
    pub id: u32,
    /// Byte offset of the start, in the normalized text.
    pub start: usize,
    /// Byte offset of the end, in the normalized text.
    pub end: usize,
}

impl SpmModel {
    /// Builds a model from a decoded `ModelProto`.
    pub fn from_proto(path: &Path, proto: proto::ModelProto) -> Result<SpmModel> {
        let bad = |message: String| Error::format(path, None, message);
        let (vocab, unk) = vocab_of(&proto.pieces).map_err(|e| bad(e.to_string()))?;
        let mergeable = |id: u32| {
            matches!(
                proto.pieces[id as usize].kind,
                PieceType::Normal | PieceType::UserDefined | PieceType::Unused
            )
        };
        // Higher score merges first: rank = position among the distinct scores, descending.
        // Scores compare as SentencePiece's C++ floats do, where -0.0 equals 0.0 (its trainer
        // gives the first learned piece -0.0 and user-defined pieces 0.0): `+ 0.0` turns -0.0
        // into 0.0 before the total order sorts them.
        let score_of = |id: u32| proto.pieces[id as usize].score + 0.0;
        let mut scores: Vec<f32> = (0..proto.pieces.len() as u32)
            .filter(|&id| mergeable(id))
            .map(score_of)
            .collect();
        scores.sort_by(|a, b| b.total_cmp(a));
        scores.dedup_by(|a, b| a.total_cmp(b).is_eq());
        let rank = |id: u32| {
            let score = score_of(id);
            scores.partition_point(|s| s.total_cmp(&score).is_gt()) as u32
        };
        let merges = match proto.model_type {
            ModelType::Bpe => MergeTable::from_vocab(&vocab, mergeable, rank, true),
            _ => MergeTable::default(),
        };
        let mut bpe = BpeModel::new(vocab, Rules::Implied(merges));
        bpe.alphabet = Alphabet::Chars;
        bpe.unk = Some(unk);
        if proto.byte_fallback {
            let mut ids = Box::new([0u32; 256]);
            for (byte, id) in ids.iter_mut().enumerate() {
                let piece = format!("<0x{byte:02X}>");
                *id = bpe
                    .vocab
                    .id(piece.as_bytes())
                    .ok_or_else(|| bad(format!("byte_fallback is set but {piece} is missing")))?;
            }
            bpe.byte_fallback = Some(ids);
        }
        let map = match proto.normalizer.charsmap.is_empty() {
            true => CharsMap::default(),
            false => CharsMap::parse(&proto.normalizer.charsmap).map_err(|e| bad(e.to_string()))?,
        };
        let pieces = Pieces::from(&proto.pieces[..]);
        let normalizer = Normalizer {
            map,
            add_dummy_prefix: proto.normalizer.add_dummy_prefix,
            remove_extra_whitespaces: proto.normalizer.remove_extra_whitespaces,
            escape_whitespaces: proto.normalizer.escape_whitespaces,
            treat_whitespace_as_suffix: proto.treat_whitespace_as_suffix,
            user_defined: user_pieces(&pieces),
        };
        let user_defined = user_matcher(path, &pieces)?;
        let unigram = (proto.model_type == ModelType::Unigram)
            .then(|| crate::engines::subword::unigram::SpmUnigram::new(&pieces));
        Ok(SpmModel {
            bpe,
            normalizer,
            pieces,
            model_type: proto.model_type,
            user_defined,
            unigram,
        })
    }

    /// Loads a `.model` file, or its parsed copy from the model cache
    /// ([`crate::core::model_cache`]) when the file is the one the copy was made from.
    pub fn load(path: &Path) -> Result<SpmModel> {
        crate::core::model_cache::load(
            path,
            "sentencepiece",
            |data| SpmModel::from_bytes(path, data),
            SpmModel::write_flat,
            |r| SpmModel::read_flat(path, r),
        )
    }

    /// Builds a model from the bytes of a `.model` file (`path` names it in errors), so a
    /// model made in memory, such as one being trained, runs like one read from disk.
    pub fn from_bytes(path: &Path, data: &[u8]) -> Result<SpmModel> {
        let proto = proto::parse(data).map_err(|e| {
            let message = match e.offset {
                0 => e.message,
                at => format!("{} at byte offset {at}", e.message),
            };
            Error::format(path, None, message)
        })?;
        SpmModel::from_proto(path, proto)
    }

    /// Normalizes `text` and encodes it; tokens are ranges of the normalized text.
    pub fn encode_normalized<'t>(&self, text: &'t str) -> (NormalizedString<'t>, Vec<SpmToken>) {
        self.encode_part(text, &mut Carry::default())
    }

    /// [`SpmModel::encode_normalized`] of a piece of a longer text cut where [`cuts`] allows,
    /// after its start when [`Carry::continued`] ([`Normalizer::normalize_part`]).
    fn encode_part<'t>(
        &self,
        text: &'t str,
        carry: &mut Carry,
    ) -> (NormalizedString<'t>, Vec<SpmToken>) {
        let normalized = self.normalizer.normalize_part(text, carry.continued());
        let mut tokens = Vec::new();
        self.encode_norm(normalized.normalized(), carry, &mut tokens);
        (normalized, tokens)
    }

    /// Appends the tokens of normalized text `norm`, a piece of a longer text as `carry`
    /// says, to `out`.
    fn encode_norm(&self, norm: &str, carry: &mut Carry, out: &mut Vec<SpmToken>) {
        // The unigram lattice holds user-defined pieces itself (scored to always win) and its
        // `f32` totals run across them, so the text is not cut at them as for BPE. Its paths
        // continue from the best total at the cut before the piece, as the whole text's do.
        if let Some(unigram) = &self.unigram {
            let state = carry.take::<UnigramCarry>().unwrap_or_default();
            let resume = state.resume.unwrap_or(Resume::at(0.0));
            let total = unigram.encode_resumed(self, &resume, norm, 0, out);
            let resume = match state.next {
                Some((len, next)) if len == norm.len() => next,
                _ => Resume::at(total),
            };
            carry.put(UnigramCarry {
                resume: Some(resume),
                next: None,
            });
            return;
        }
        self.segments(norm, &mut |start, end, user| match user {
            Some(id) => out.push(SpmToken { id, start, end }),
            None => self.encode_segment(norm, start, end, out),
        });
    }

    /// Cuts normalized text into what is encoded as a unit: the user-defined pieces (each one
    /// token, its id given) and the stretches between them.
    pub fn segments(&self, norm: &str, each: &mut dyn FnMut(usize, usize, Option<u32>)) {
        let mut at = 0;
        if let Some((matcher, ids)) = &self.user_defined {
            for m in matcher.find_iter(norm.as_bytes()) {
                if m.start() > at {
                    each(at, m.start(), None);
                }
                each(m.start(), m.end(), Some(ids[m.pattern().as_usize()]));
                at = m.end();
            }
        }
        if at < norm.len() {
            each(at, norm.len(), None);
        }
    }

    /// The tokens of `norm[start..end]`, a stretch without user-defined pieces.
    pub fn encode_segment(&self, norm: &str, start: usize, end: usize, out: &mut Vec<SpmToken>) {
        match &self.unigram {
            Some(unigram) => unigram.encode(self, &norm[start..end], start, out),
            None => self.merge_segment(norm, start, end, &mut |t| out.push(t)),
        }
    }

    /// Whether the model has unused pieces, which merging can make and SentencePiece then
    /// splits back: the tokens then do not show the merges that made them.
    pub fn has_unused(&self) -> bool {
        self.pieces.ids_of(PieceType::Unused).next().is_some()
    }

    /// The ids of `text`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.encode_into(text, &mut ids);
        ids
    }

    /// Appends the ids of `text` to `ids` ([`NO_ID`] where a stretch has none).
    pub fn encode_into(&self, text: &str, ids: &mut Vec<u32>) {
        self.encode_part_into(text, &mut Carry::default(), ids);
    }

    /// [`SpmModel::encode_into`] of a piece of a longer text, as `carry` says.
    fn encode_part_into(&self, text: &str, carry: &mut Carry, ids: &mut Vec<u32>) {
        // Ids need no spans: the text is normalized without alignments, into buffers kept
        // per thread so that a line costs no allocation but its ids.
        thread_local! {
            static SCRATCH: std::cell::RefCell<(String, Vec<SpmToken>)> = Default::default();
        }
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let (norm, tokens) = &mut *scratch;
            self.normalizer
                .normalize_plain(text, norm, carry.continued());
            tokens.clear();
            if self.unigram.is_some() {
                self.encode_norm(norm, carry, tokens);
                return ids.extend(tokens.iter().map(|t| t.id));
            }
            // A BPE model's ids as its stretches are merged, no tokens kept.
            self.segments(norm, &mut |start, end, user| match user {
                Some(id) => ids.push(id),
                None => self.merge_segment(norm, start, end, &mut |t| ids.push(t.id)),
            });
        })
    }

    /// Text from ids: `▁` becomes a space, byte pieces their bytes, control pieces nothing, the
    /// unknown piece ` ⁇ `; the space of the dummy prefix is dropped. Fails on an unknown id,
    /// giving its index.
    pub fn decode(&self, ids: &[u32]) -> Result<Vec<u8>, usize> {
        let mut out = Vec::new();
        for (index, &id) in ids.iter().enumerate() {
            let piece = self.pieces.get(id as usize).ok_or(index)?;
            match piece.kind {
                PieceType::Control => {}
                PieceType::Unknown => out.extend_from_slice(" \u{2047} ".as_bytes()),
                PieceType::Byte => out.push(
                    u8::from_str_radix(
                        piece.piece.trim_start_matches("<0x").trim_end_matches('>'),
                        16,
                    )
                    .map_err(|_| index)?,
                ),
                _ => out.extend_from_slice(piece.piece.replace(SPACE, " ").as_bytes()),
            }
        }
        if self.normalizer.add_dummy_prefix && out.first() == Some(&b' ') {
            out.remove(0);
        }
        Ok(out)
    }
}

/// `spm:FILE.model` as a [`Tokenizer`].
pub struct SpmTokenizer {
    name: String,
    model: Arc<SpmModel>,
    sources: Vec<PathBuf>,
    unigram_options: regularize::UnigramOptions,
    sampler: Option<regularize::Sampler>,
    /// Where a long text may be cut, worked out from the model when first asked.
    cuts: std::sync::OnceLock<Option<cuts::SpaceCuts>>,
}

impl SpmTokenizer {
    /// Loads `spm:FILE.model` under a name (the spec), with the merge loop following
    /// `semantics`. SentencePiece matches no special tokens in text (control pieces such as
    /// `<s>` are only ever added by callers).
    pub fn load(name: String, path: &Path, semantics: Option<Semantics>) -> Result<SpmTokenizer> {
        let mut model = SpmModel::load(path)?;
        if matches!(model.model_type, ModelType::Word | ModelType::Char) {
            return Err(Error::format(
                path,
                None,
                format!(
                    "model type {:?} is not supported (BPE and unigram are)",
                    model.model_type
                ),
            ));
        }
        if let Some(semantics) = semantics {
            if model.unigram.is_some() {
                return Err(Error::format(
                    path,
                    None,
                    "a unigram model does not merge, so it has no merge semantics to choose",
                ));
            }
            model.bpe.semantics = semantics;
        }
        Ok(SpmTokenizer {
            name,
            model: Arc::new(model),
            sources: vec![path.to_path_buf()],
            unigram_options: regularize::UnigramOptions::default(),
            sampler: None,
            cuts: std::sync::OnceLock::new(),
        })
    }

    /// A tokenizer over a model made in memory (a model being trained): it has no file.
    pub fn from_model(name: String, model: SpmModel) -> SpmTokenizer {
        SpmTokenizer {
            name,
            model: Arc::new(model),
            sources: Vec::new(),
            unigram_options: regularize::UnigramOptions::default(),
            sampler: None,
            cuts: std::sync::OnceLock::new(),
        }
    }

    /// Sets the n-best, sampling and lattice options, which only a unigram model has.
    pub fn with_unigram_options(
        mut self,
        options: regularize::UnigramOptions,
    ) -> Result<SpmTokenizer> {
        if options.any() && self.model.unigram.is_none() {
            let file = self
                .sources
                .first()
                .cloned()
                .unwrap_or_else(|| PathBuf::from(&self.name));
            return Err(Error::format(
                &file,
                None,
                "nbest, alpha and lattice need a unigram model; this one is BPE",
            ));
        }
        self.sampler = options
            .sampling
            .map(|s| regularize::Sampler::new(s, options.seed));
        self.unigram_options = options;
        Ok(self)
    }

    /// The model, for views that show pieces, scores or the normalized text.
    pub fn model(&self) -> &Arc<SpmModel> {
        &self.model
    }
}

impl SpmModel {
    /// A token of the normalized text as a token of the original text.
    pub fn token(&self, text: &str, normalized: &NormalizedString, t: &SpmToken) -> Token {
        let span = Span::new(
            normalized.original_offset(t.start),
            normalized.original_offset(t.end),
        );
        let form = match t.id {
            NO_ID => &normalized.normalized().as_bytes()[t.start..t.end],
            id => self.pieces.bytes(id as usize),
        };
        subword_token(&self.bpe, text, span, t.id, false, form).with_bytes(Span::new(
            normalized.original_byte(t.start),
            normalized.original_byte(t.end),
        ))
    }
}

impl Tokenizer for SpmTokenizer {
    /// The tokenizer itself: the views read its model (the unigram lesson, the merge table).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        self.tokenize_piece(text, &mut Carry::default())
    }

    /// A continued piece starts with the space before which it was cut, which becomes the
    /// `▁` it is in the whole text ([`cuts`]); a unigram model's paths go on from the total
    /// they had there.
    fn tokenize_piece(&self, text: &str, carry: &mut Carry) -> Tokenization {
        let mut all = Tokenization::default();
        self.tokens_in_parts(text, carry, usize::MAX, &mut |tokens| all = tokens);
        all
    }

    /// A piece no cut reaches into (text without spaces) is handed over a part at a time, so
    /// a huge one costs its merge and a part's tokens.
    fn tokenize_piece_in_parts(
        &self,
        text: &str,
        carry: &mut Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        self.tokens_in_parts(text, carry, PART_TOKENS, part);
    }

    /// The ids straight from the normalized text: no spans, no token objects. A sampling
    /// tokenizer draws its segmentation in `tokenize`, so it goes through it.
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        self.ids_into_piece(text, &mut Carry::default(), ids)
    }

    fn ids_into_piece(&self, text: &str, carry: &mut Carry, ids: &mut Vec<u32>) -> Option<GaveUp> {
        match &self.sampler {
            Some(_) => {
                let tokens = self.tokenize(text);
                ids.extend(tokens.iter().map(|t| t.id.unwrap_or(NO_ID)));
            }
            None => self.model.encode_part_into(text, carry, ids),
        }
        None
    }

    /// Before a space after an ASCII letter or digit, where the model lets nothing reach
    /// across ([`cuts`]); nowhere for sampling tokenizers.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        if self.sampler.is_some() {
            return None;
        }
        let cuts = self.cuts.get_or_init(|| cuts::SpaceCuts::of(&self.model));
        cuts.as_ref()?.cut_point(text, from, text.len())
    }

    /// A unigram model also cuts where its best paths meet (`cuts::meeting_cut`), when no
    /// space it may cut before comes soon.
    fn cut_point_carried(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        if self.sampler.is_some() || self.model.unigram.is_none() {
            return self.cut_point(text, from);
        }
        let spaces = self.cuts.get_or_init(|| cuts::SpaceCuts::of(&self.model));
        cuts::unigram_cut(&self.model, spaces.as_ref(), text, start, from, carry)
    }

    fn explain(&self, text: &str) -> Trace {
        let trace = self.trace(text).into_trace(text);
        let options = &self.unigram_options;
        if !options.any() {
            return trace;
        }
        let mut lines = trace.lines().to_vec();
        if let Some(n) = options.nbest {
            lines.extend(regularize::nbest_lines(&self.model, text, n));
        }
        if let Some(sampler) = &self.sampler
            && let Some((tokens, score)) = sampler.tokenize(&self.model, text)
        {
            lines.push(regularize::sample_lines(
                sampler.sampling,
                score,
                &tokens,
                text,
            ));
        }
        if options.lattice {
            lines.extend(regularize::lattice_lines(&self.model, text));
        }
        crate::core::trace::cap_lines(&mut lines);
        Trace::new(lines)
    }

    fn retokenize(&self, old: &str, old_tokens: &Tokenization, new: &str) -> Tokenization {
        match old == new {
            true => old_tokens.clone(),
            false => incremental::remerged(&self.model, old, old_tokens, new)
                .unwrap_or_else(|| self.tokenize(new)),
        }
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }

    /// SentencePiece's decoder: `▁` as a space, byte pieces as their bytes, control pieces
    /// as nothing, the unknown piece as ` ⁇ `, the dummy prefix's space dropped.
    fn decode(&self, ids: &[u32]) -> Result<String> {
        let bytes = self.model.decode(ids).map_err(|index| {
            crate::engines::subword::bytes::unknown_id(&self.name, ids[index], index)
        })?;
        crate::engines::subword::bytes::utf8(&self.name, bytes)
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.model
            .pieces
            .get(id as usize)
            .map(|p| p.piece.to_string())
    }

    /// Pieces as the model lists them (`▁world`, `<0x0A>`), through their ids and `decode`.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| {
            self.model.bpe.vocab.id(t.as_bytes())
        })
    }
}

#[cfg(test)]
mod tests;
