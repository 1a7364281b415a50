//! The stages of a `tokenizer.json` (added tokens, normalizer, pre-tokenizer, model,
//! post-processor (only with `special=add`) and decoder), run in the reference's order. Every
//! token's span is in the original text, through the normalizer's alignment.

use std::path::Path;

use super::added::{AddedVocabulary, Split, Stage};
use super::cached;
use super::decoders::Decoder;
use super::json::{ComponentError, TokenizerJson};
use super::meeting::first_resume;
use super::models::{Model, Piece, Steps};
use super::normalizers::Normalizer;
use super::pre_tokenizers::PreTokenizer;
use super::processors::{PostProcessor, add_post_processed};
use crate::core::error::{Error, Result};
use crate::core::model_cache::Lookup;
use crate::core::normalized::NormalizedString;
use crate::core::token::{Origin, Span, Token, TokenKind};
use crate::core::trace::{Role, TraceLine, quote};
use crate::engines::subword::bpe::load::{MAX_ID, line_of_key, text_of, tokenizer_json_error};
use crate::engines::subword::bpe::merge_loop::NO_ID;

/// Why a token has no id: what tokenizers says by raising ("Encountered an unknown token but
/// `unk_id` is missing").
const NO_UNKNOWN_TOKEN: &str =
    "the model has no unknown token (no unk_id) and its vocabulary does not cover this text";
use crate::engines::subword::bpe::render_bytes;
use crate::engines::subword::unigram::viterbi::Resume;

pub use super::specials::Specials;

/// The stages of a `tokenizer.json`.
pub struct Pipeline {
    /// The normalizer, if any.
    pub normalizer: Option<Normalizer>,
    /// The pre-tokenizer, if any.
    pub pre_tokenizer: Option<PreTokenizer>,
    /// The model.
    pub model: Model,
    /// The added tokens.
    pub added: AddedVocabulary,
    /// The post-processor, if any.
    pub post_processor: Option<PostProcessor>,
    /// The decoder, if any.
    pub decoder: Option<Decoder>,
}

/// The error for an id that is neither in the vocabulary nor an added token.
#[derive(Debug, thiserror::Error)]
#[error("id {id} (position {index}) is not in the vocabulary")]
pub struct UnknownId {
    /// The id.
    pub id: u32,
    /// Its position in the input, from 0.
    pub index: usize,
}

impl Pipeline {
    /// Reads a `tokenizer.json`, or its parsed copy from the model cache
    /// ([`crate::core::model_cache`]) when the file is the one the copy was made from. A
    /// component toklab does not build is an error naming it (and the line of its section);
    /// warnings go to `warnings`.
    pub fn load(path: &Path, specials: Specials, warnings: &mut Vec<String>) -> Result<Pipeline> {
        let mut lookup = Lookup::open(path, "tokenizer.json")?;
        if let Some(pipeline) = lookup
            .payload()
            .and_then(|r| cached::pipeline(path, r, specials, warnings))
        {
            return Ok(pipeline);
        }
        let text = text_of(path, lookup.take_source()?)?;
        let json: TokenizerJson =
            serde_json::from_str(&text).map_err(|e| tokenizer_json_error(path, &text, e))?;
        let skeleton = cached::skeleton(&text, &json);
        let mut model_warnings = Vec::new();
        let mut byte_level_seen = false;
        let pipeline = Pipeline::assemble(path, &text, json, specials, |json, byte_level| {
            byte_level_seen = byte_level;
            Model::from_json(path, &text, &json.model, byte_level, &mut model_warnings)
        })?;
        warnings.extend(model_warnings.iter().cloned());
        if let Some(skeleton) = skeleton {
            let entry = cached::entry(path, &skeleton, byte_level_seen, &model_warnings, &pipeline);
            lookup.store(&entry);
        }
        Ok(pipeline)
    }

    /// Builds the stages from the parsed file; `model` builds the model, told whether the
    /// pipeline is byte-level.
    pub(super) fn assemble(
        path: &Path,
        text: &str,
        json: TokenizerJson,
        specials: Specials,
        model: impl FnOnce(&TokenizerJson, bool) -> Result<Model>,
    ) -> Result<Pipeline> {
        let component = |section: &str| {
            let line = line_of_key(text, section);
            move |error: ComponentError| Error::format(path, line, error.to_string())
        };
        let present = |v: &Option<serde_json::Value>| v.clone().filter(|v| !v.is_null());
        let normalizer = present(&json.normalizer)
            .map(|v| {
                let normalizer = Normalizer::from_json(&v)?;
                normalizer.check_growth()?;
                Ok(normalizer)
            })
            .transpose()
            .map_err(component("normalizer"))?;
        let pre_tokenizer = present(&json.pre_tokenizer)
            .map(|v| {
                let pre = PreTokenizer::from_json(&v)?;
                pre.check()?;
                Ok(pre)
            })
            .transpose()
            .map_err(component("pre_tokenizer"))?;
        let post_processor = present(&json.post_processor)
            .map(|v| PostProcessor::from_json(&v))
            .transpose()
            .map_err(component("post_processor"))?;
        let decoder = present(&json.decoder)
            .map(|v| Decoder::from_json(&v))
            .transpose()
            .map_err(component("decoder"))?;
        let normalizer_byte_level = normalizer.as_ref().is_some_and(Normalizer::is_byte_level);
        if normalizer_byte_level && let Some(pre) = &pre_tokenizer {
            return Err(component("pre_tokenizer")(ComponentError::unsupported(
                format!(
                    "pre_tokenizer {} after a ByteLevel normalizer is not supported",
                    pre.name()
                ),
            )));
        }
        let byte_level = normalizer_byte_level
            || pre_tokenizer
                .as_ref()
                .is_some_and(PreTokenizer::is_byte_level);
        let model = model(&json, byte_level)?;
        for added in &json.added_tokens {
            if added.id >= MAX_ID {
                return Err(Error::format(
                    path,
                    line_of_key(text, &added.content),
                    format!(
                        "added token {:?} has id {} (too large)",
                        added.content, added.id
                    ),
                ));
            }
        }
        let added = AddedVocabulary::new(
            json.added_tokens,
            normalizer.as_ref(),
            specials != Specials::Ignore,
        )
        .map_err(|e| Error::format(path, None, format!("added tokens: {e}")))?;
        Ok(Pipeline {
            normalizer,
            pre_tokenizer,
            model,
            added,
            post_processor,
            decoder,
        })
    }

    /// The pieces the model encodes and the added tokens between them, in order: added tokens
    /// in the raw text, then each stretch between them normalized and searched for normalized
    /// added tokens, then pre-tokenized. Also the original offset where a pre-tokenizer's
    /// pattern gave up (past the regex engine's backtrack limit), if one did.
    pub fn pre_tokens<'t>(
        &self,
        text: &'t str,
        trace: Option<&mut Vec<TraceLine>>,
    ) -> (Vec<Split<'t>>, Option<usize>) {
        self.pre_tokens_part(text, false, trace)
    }

    /// [`Pipeline::pre_tokens`] of `text`, or (`continued`) of the part of a text after a cut
    /// inside a pre-token ([`Pipeline::meeting_cut`]), whose first pre-token goes on with
    /// the word the cut is in.
    pub(super) fn pre_tokens_part<'t>(
        &self,
        text: &'t str,
        continued: bool,
        mut trace: Option<&mut Vec<TraceLine>>,
    ) -> (Vec<Split<'t>>, Option<usize>) {
        let mut raw = Vec::new();
        self.added
            .split(Stage::Raw, NormalizedString::new(text), &mut raw);
        let mut normalized = Vec::with_capacity(raw.len());
        for split in raw {
            if split.added.is_some() {
                normalized.push(split);
                continue;
            }
            let mut piece = split.text;
            if let Some(normalizer) = &self.normalizer {
                let before = piece.normalized().len();
                normalizer.apply(&mut piece);
                if let Some(lines) = trace.as_deref_mut()
                    && (piece.is_edited() || piece.normalized().len() != before)
                {
                    let span = piece.extent();
                    lines.push(
                        TraceLine::new(0, Some(span))
                            .part(Role::Label, "normalized ")
                            .part(Role::Detail, format!("{:>9} ", span.to_string()))
                            .part(Role::Token, quote(span.slice(text)))
                            .part(Role::Plain, " → ")
                            .part(Role::Token, quote(piece.normalized())),
                    );
                }
            }
            self.added.split(Stage::Normalized, piece, &mut normalized);
        }
        let Some(pre) = &self.pre_tokenizer else {
            return (normalized, None);
        };
        let mut gave_up = None;
        let mut out = Vec::with_capacity(normalized.len() * 4);
        let mut pieces = Vec::new();
        for split in normalized {
            if split.added.is_some() {
                out.push(split);
                continue;
            }
            pieces.clear();
            let inside_word = continued && out.is_empty() && split.text.extent().start == 0;
            let gave = match inside_word {
                true => pre.apply_continued(split.text, &mut pieces),
                false => pre.apply(split.text, &mut pieces),
            };
            if let Some(at) = gave {
                gave_up = Some(gave_up.map_or(at, |g: usize| g.min(at)));
            }
            out.extend(
                pieces
                    .drain(..)
                    .filter(|p| !p.is_empty())
                    .map(|text| Split { text, added: None }),
            );
        }
        (out, gave_up)
    }

    /// The tokens of `text`; `trace` receives a line per stage.
    pub fn encode(
        &self,
        text: &str,
        specials: Specials,
        trace: Option<&mut Vec<TraceLine>>,
    ) -> Vec<Token> {
        self.encode_part(text, specials, None, trace)
    }

    /// [`Pipeline::encode`] of `text`, or of the part of a text after a cut inside a
    /// pre-token when `resume` holds where the whole pre-token's search was at the cut
    /// ([`Pipeline::meeting_cut`]).
    pub(super) fn encode_part(
        &self,
        text: &str,
        specials: Specials,
        resume: Option<&Resume<f64>>,
        trace: Option<&mut Vec<TraceLine>>,
    ) -> Vec<Token> {
        let mut all = Vec::new();
        self.encode_in_parts(text, specials, resume, trace, usize::MAX, &mut |t| all = t);
        all
    }

    /// [`Pipeline::encode_part`], the tokens handed to `part` in order, in parts of about
    /// `size` tokens when neither a trace nor a post-processor needs them all at once, so a
    /// huge pre-token costs its model's work and a part's tokens.
    pub(super) fn encode_in_parts(
        &self,
        text: &str,
        specials: Specials,
        resume: Option<&Resume<f64>>,
        mut trace: Option<&mut Vec<TraceLine>>,
        size: usize,
        part: &mut dyn FnMut(Vec<Token>),
    ) {
        let (splits, gave_up) = self.pre_tokens_part(text, resume.is_some(), trace.as_deref_mut());
        let post = (self.post_processor.as_ref()).filter(|_| specials == Specials::Add);
        let size = match trace.is_none() && post.is_none() {
            true => size,
            false => usize::MAX,
        };
        // Each part's spans made monotonic ([`ordered`]) where the last one ended, and marked
        // past where the pre-tokenizer gave up.
        let mut end = 0;
        let mut hand_over = |mut tokens: Vec<Token>| {
            if let Some(at) = gave_up {
                // Still encoded (the ids stay the model's), but the pre-tokenizer did not cut
                // this stretch: the tokens say so, and the CLI reports the line.
                for token in tokens.iter_mut().filter(|t| t.span.start >= at) {
                    token.origin = Origin::GaveUp {
                        reason: crate::engines::simple::GAVE_UP,
                    };
                }
            }
            ordered(&mut tokens, &mut end);
            part(tokens);
        };
        let mut tokens = Vec::with_capacity((text.len() / 3 + 2).min(size));
        let mut pieces: Vec<Piece> = Vec::new();
        for split in &splits {
            let piece = &split.text;
            let extent = piece.original_span(0..piece.len());
            if let Some(id) = split.added {
                let content = self.added.token(id).map_or("", |t| t.content.as_str());
                if let Some(lines) = trace.as_deref_mut() {
                    lines.push(
                        TraceLine::new(0, Some(extent))
                            .part(Role::Label, "added token ")
                            .part(Role::Detail, format!("{:>9} ", extent.to_string()))
                            .part(Role::Token, quote(content))
                            .part(Role::Detail, format!(":{id}")),
                    );
                }
                tokens.push(self.added_token(text, extent, id));
                continue;
            }
            pieces.clear();
            let norm = piece.normalized();
            let mut push = |p: &Piece, tokens: &mut Vec<Token>| {
                if tokens.len() >= size {
                    hand_over(std::mem::replace(tokens, Vec::with_capacity(size)));
                }
                tokens.push(self.model_token(text, piece, p));
            };
            match trace.as_deref_mut() {
                Some(lines) => {
                    lines.push(
                        TraceLine::new(1, Some(extent))
                            .part(Role::Label, "pre-token ")
                            .part(Role::Detail, format!("{:>9} ", extent.to_string()))
                            .part(Role::Token, quote(norm)),
                    );
                    let mut steps = Steps {
                        lines,
                        span: extent,
                    };
                    let resume = first_resume(&splits, split, resume);
                    self.tokenize_split(norm, resume, &mut pieces, Some(&mut steps));
                }
                // A BPE model's tokens made as its symbols come, no ranges kept for them all.
                None => match &self.model {
                    Model::Bpe(bpe) => bpe.each_piece(norm, &mut |p| push(&p, &mut tokens)),
                    _ => {
                        let resume = first_resume(&splits, split, resume);
                        self.tokenize_split(norm, resume, &mut pieces, None)
                    }
                },
            }
            let first = tokens.len();
            for p in &pieces {
                push(p, &mut tokens);
            }
            if let Some(lines) = trace.as_deref_mut() {
                lines.push(tokens_line(text, extent, &tokens[first..]));
            }
        }
        if let Some(post) = post {
            add_post_processed(post, text, &mut tokens, trace);
        }
        hand_over(tokens);
    }

    /// Appends the ids of `text` to `ids` as [`Pipeline::encode`] gives them, without
    /// building tokens (no spans through the alignments, no forms). Returns false, with `ids`
    /// as it was, where a token would say the pipeline gave up (a pre-tokenizer's pattern past
    /// its limit, a piece without an id): the caller then tokenizes to report where.
    pub fn encode_ids(&self, text: &str, specials: Specials, ids: &mut Vec<u32>) -> bool {
        self.encode_ids_part(text, specials, None, ids)
    }

    /// [`Pipeline::encode_ids`] as [`Pipeline::encode_part`] encodes.
    pub(super) fn encode_ids_part(
        &self,
        text: &str,
        specials: Specials,
        resume: Option<&Resume<f64>>,
        ids: &mut Vec<u32>,
    ) -> bool {
        let (mut splits, gave_up) = self.pre_tokens_part(text, resume.is_some(), None);
        if gave_up.is_some() {
            return false;
        }
        let (kept, mut before, mut after) = (ids.len(), Vec::new(), Vec::new());
        if specials == Specials::Add
            && let Some(post) = &self.post_processor
        {
            post.around(&mut before, &mut after);
        }
        ids.extend(before.iter().map(|(_, id)| *id));
        let mut pieces: Vec<Piece> = Vec::new();
        for at in 0..splits.len() {
            if let Some(id) = splits[at].added {
                ids.push(id);
                continue;
            }
            let here = ids.len();
            match &self.model {
                // A BPE model's ids straight from its symbols, the pre-token's alignment
                // dropped first (ids need no ranges).
                Model::Bpe(bpe) => {
                    let split = std::mem::replace(&mut splits[at].text, NormalizedString::new(""));
                    bpe.ids(&split.into_normalized(), ids)
                }
                _ => {
                    pieces.clear();
                    let resume = first_resume(&splits, &splits[at], resume);
                    self.tokenize_split(splits[at].text.normalized(), resume, &mut pieces, None);
                    ids.extend(pieces.iter().map(|p| p.id));
                }
            }
            if ids[here..].contains(&NO_ID) {
                ids.truncate(kept);
                return false;
            }
        }
        ids.extend(after.iter().map(|(_, id)| *id));
        true
    }

    /// An added token matched in the text.
    fn added_token(&self, text: &str, span: Span, id: u32) -> Token {
        let token = self.added.token(id);
        let content = token.map_or("", |t| t.content.as_str());
        let mut out = Token::new(
            span,
            match token.is_some_and(|t| t.special) {
                true => TokenKind::Special,
                false => TokenKind::Subword,
            },
        )
        .with_id(id)
        .with_origin(Origin::Subword { id, rank: None });
        if content != span.slice(text) {
            out = out.with_form(content);
        }
        out
    }

    /// A token of the model, its span through the piece's alignment. A token that ends inside
    /// a character (byte-level models) gets an empty span where the character starts; the token
    /// holding its last byte owns it.
    fn model_token(&self, text: &str, piece: &NormalizedString, p: &Piece) -> Token {
        let norm = piece.normalized();
        let (start, end) = (floor(norm, p.start), floor(norm, p.end));
        let span = if start >= end {
            let at = piece.original_offset(start);
            Span::new(at, at)
        } else if !piece.is_edited() {
            piece.original_span(start..end)
        } else {
            piece.original_span_owned(start..end).unwrap_or_else(|| {
                let at = piece.original_offset(start);
                Span::new(at, at)
            })
        };
        let unknown = p.id == NO_ID || Some(p.id) == self.model.unk();
        let mut token = Token::new(
            span,
            if unknown {
                TokenKind::Unknown
            } else {
                TokenKind::Subword
            },
        );
        if p.id != NO_ID {
            token = token.with_id(p.id).with_origin(Origin::Subword {
                id: p.id,
                rank: self.model.rank_of_token(p.id),
            });
        } else {
            // tokenizers raises here: a model without an unknown token cannot encode text its
            // vocabulary does not cover, so the token has no id and the line is an error.
            token = token.with_origin(Origin::GaveUp {
                reason: NO_UNKNOWN_TOKEN,
            });
        }
        let form = match self.model.vocab().bytes(p.id) {
            Some(bytes) => render_bytes(bytes),
            None => norm[start..end.max(start)].to_string(),
        };
        if form != span.slice(text) {
            token = token.with_form(form);
        }
        let end = match p.end >= norm.len() && norm.len() > p.start {
            // The pre-token's last character ends it, whether the pre-tokenizer cut the piece
            // or passed it on whole: text the normalizer removed after it belongs to no token,
            // as between pre-tokens (and a text cut before a pre-token gets the same bytes).
            true => piece.original_span(0..norm.len()).end,
            false => piece.original_byte(p.end.max(p.start)),
        };
        token.with_bytes(Span::new(piece.original_byte(p.start), end))
    }

    /// The token string of `id` as `tokenizer.json` writes it (an added token as its content).
    pub fn piece(&self, id: u32) -> Option<String> {
        match self.added.token(id) {
            Some(token) => Some(token.content.clone()),
            None => self.model.vocab().text(id),
        }
    }

    /// The id of a token string as [`piece`](Self::piece) writes it.
    pub fn piece_id(&self, piece: &str) -> Option<u32> {
        self.added
            .id(piece)
            .or_else(|| self.model.vocab().id(piece))
    }

    /// The text of `ids` by the decoder (token texts joined by spaces without one), added
    /// tokens as written.
    pub fn decode(&self, ids: &[u32]) -> std::result::Result<String, UnknownId> {
        let mut texts = Vec::with_capacity(ids.len());
        for (index, &id) in ids.iter().enumerate() {
            let text = match self.added.token(id) {
                Some(token) => token.content.clone(),
                None => self.model.vocab().text(id).ok_or(UnknownId { id, index })?,
            };
            texts.push(text);
        }
        Ok(match &self.decoder {
            Some(decoder) => decoder.decode(texts),
            None => texts.join(" "),
        })
    }
}

/// The largest character boundary of `text` at or before `at`.
fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Spans made monotonic: where alignment gives overlapping spans (byte fallback pieces of one
/// run, tokens of one expanded character), later tokens start where earlier ones end (`end`,
/// where the tokens before these ended, is carried on).
fn ordered(tokens: &mut [Token], end: &mut usize) {
    for token in tokens {
        let start = token.span.start.max(*end);
        token.set_span(Span::new(start, token.span.end.max(start)));
        *end = token.span.end;
    }
}

/// The trace line of a pre-token's tokens: each token's form and id.
fn tokens_line(text: &str, extent: Span, tokens: &[Token]) -> TraceLine {
    let mut line = TraceLine::new(2, Some(extent)).part(Role::Label, "tokens ");
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            line = line.part(Role::Plain, " ");
        }
        line = line.part(Role::Token, quote(token.form(text))).part(
            Role::Detail,
            token
                .id
                .map_or(":unknown".to_string(), |id| format!(":{id}")),
        );
    }
    line
}
