//! The [`Tokenizer`] face of a `tokenizer.json`: a [`Pipeline`] under a name, with what loading
//! it found, so the registry and the views treat it like any other engine.

use std::path::{Path, PathBuf};

use super::meeting::{HfCarry, MEETING_WINDOW};
use super::pipeline::{Pipeline, Specials};
use crate::core::error::{Error, Result};
use crate::core::pieces::{Carry, PART_TOKENS};
use crate::core::token::{GaveUp, Tokenization};
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Role, Trace, TraceLine};
use crate::engines::subword::bpe::merge_loop::NO_ID;

/// A loaded `tokenizer.json` under a name, with what loading found.
pub struct HfTokenizer {
    name: String,
    pipeline: Pipeline,
    specials: Specials,
    warnings: Vec<String>,
    sources: Vec<PathBuf>,
}

impl HfTokenizer {
    /// Loads `path` under `name` (the spec).
    pub fn load(name: impl Into<String>, path: &Path, specials: Specials) -> Result<HfTokenizer> {
        let mut warnings = Vec::new();
        let pipeline = Pipeline::load(path, specials, &mut warnings)?;
        Ok(HfTokenizer {
            name: name.into(),
            pipeline,
            specials,
            warnings,
            sources: vec![path.to_path_buf()],
        })
    }

    /// The pipeline's stages.
    pub fn pipeline(&self) -> &Pipeline {
        &self.pipeline
    }

    /// The token ids of `text`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.ids_into(text, &mut ids);
        ids
    }
}

impl Tokenizer for HfTokenizer {
    /// The tokenizer itself: the views read its model (the unigram lesson, the merge table).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        Tokenization::new(self.pipeline.encode(text, self.specials, None))
    }

    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        self.pipeline.cut_point(text, from, self.specials)
    }

    /// A Unigram model also cuts inside a pre-token where its best paths meet
    /// (`Pipeline::meeting_cut`), when no space it may cut at comes soon.
    fn cut_point_carried(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        if !self.pipeline.meets(self.specials) {
            return self.cut_point(text, from);
        }
        let mut near = from.saturating_add(MEETING_WINDOW).min(text.len());
        while !text.is_char_boundary(near) {
            near += 1;
        }
        self.cut_point(&text[..near], from)
            .or_else(|| self.pipeline.meeting_cut(text, start, from, carry))
            .or_else(|| self.cut_point(text, near))
    }

    /// The part after a cut where the paths met goes on with the search's state there.
    fn tokenize_piece(&self, piece: &str, carry: &mut Carry) -> Tokenization {
        let resume = carry.take::<HfCarry>().unwrap_or_default();
        let tokens =
            (self.pipeline).encode_part(piece, self.specials, resume.resume.as_ref(), None);
        carry.put(HfCarry {
            resume: resume.next,
            next: None,
        });
        Tokenization::new(tokens)
    }

    /// A pre-token no cut reaches into is handed over a part at a time, so a huge one costs
    /// its model's work and a part's tokens.
    fn tokenize_piece_in_parts(
        &self,
        piece: &str,
        carry: &mut Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        let resume = carry.take::<HfCarry>().unwrap_or_default();
        (self.pipeline).encode_in_parts(
            piece,
            self.specials,
            resume.resume.as_ref(),
            None,
            PART_TOKENS,
            &mut |tokens| part(Tokenization::new(tokens)),
        );
        carry.put(HfCarry {
            resume: resume.next,
            next: None,
        });
    }

    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        self.ids_into_piece(text, &mut Carry::default(), ids)
    }

    fn ids_into_piece(&self, piece: &str, carry: &mut Carry, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let state = carry.take::<HfCarry>().unwrap_or_default();
        let resume = state.resume.as_ref();
        let whole = (self.pipeline).encode_ids_part(piece, self.specials, resume, ids);
        let tokens = (!whole).then(|| {
            self.pipeline
                .encode_part(piece, self.specials, resume, None)
        });
        carry.put(HfCarry {
            resume: state.next,
            next: None,
        });
        let tokens = Tokenization::new(tokens?);
        ids.extend(tokens.iter().map(|t| t.id.unwrap_or(NO_ID)));
        tokens.gave_up()
    }

    fn explain(&self, text: &str) -> Trace {
        let mut lines = Vec::new();
        let p = &self.pipeline;
        let mut head = TraceLine::new(0, None)
            .part(Role::Label, "pipeline ")
            .part(Role::Plain, format!("model {}", p.model.name()));
        if let Some(pre) = &p.pre_tokenizer {
            head = head.part(Role::Plain, format!(", pre-tokenizer {}", pre.name()));
        }
        head = head.part(
            Role::Plain,
            format!(", {} added tokens", p.added.tokens.len()),
        );
        lines.push(head);
        p.encode(text, self.specials, Some(&mut lines));
        Trace::new(lines)
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }

    fn decode(&self, ids: &[u32]) -> Result<String> {
        self.pipeline.decode(ids).map_err(Error::invalid)
    }

    fn piece(&self, id: u32) -> Option<String> {
        self.pipeline.piece(id)
    }

    /// Token strings as `tokenizer.json` writes them, through their ids and the file's
    /// decoder pipeline.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        crate::engines::subword::bytes::detokenize_by_ids(self, tokens, |t| {
            self.pipeline.piece_id(t)
        })
    }

    fn is_special(&self, id: u32) -> bool {
        self.pipeline.added.token(id).is_some_and(|t| t.special)
    }
}
