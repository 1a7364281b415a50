//! Incremental re-tokenization for SentencePiece BPE models. SentencePiece has no
//! pre-tokenizer: the normalized text is one piece, so an edit goes through Algorithm 1
//! (`crate::engines::subword::bpe::incremental::remerge`) on the normalized text, keeping the old tokens before
//! and after the edit and merging again only around the seams. The normalizer runs on both
//! texts whole (it is linear and cheap next to merging).
//!
//! Falls back to tokenizing the new text whole where the old tokens do not give the merge
//! result exactly: unigram models, models with unused pieces (split back after merging),
//! text with user-defined pieces, byte fallback or unknown characters, and short texts.

use super::SpmModel;
use crate::core::token::Tokenization;
use crate::engines::subword::bpe::incremental::{LONG_PIECE, raw_ends, remerge};

/// The tokens of `new`, an edit of `old` whose tokens (by this model) are `old_tokens`, by
/// Algorithm 1 on the normalized text; `None` where that does not apply (see above).
pub fn remerged(
    model: &SpmModel,
    old: &str,
    old_tokens: &Tokenization,
    new: &str,
) -> Option<Tokenization> {
    if model.unigram.is_some() || model.has_unused() {
        return None;
    }
    let old_norm = model.normalizer.normalize(old);
    let new_norm = model.normalizer.normalize(new);
    let one_segment = |text: &str| {
        model
            .user_defined
            .as_ref()
            .is_none_or(|(matcher, _)| matcher.find(text).is_none())
    };
    let (old_text, new_text) = (old_norm.normalized(), new_norm.normalized());
    let (old_bytes, new_bytes) = (old_text.as_bytes(), new_text.as_bytes());
    if new_bytes.len() < LONG_PIECE || !one_segment(old_text) || !one_segment(new_text) {
        return None;
    }
    let ends = raw_ends(&model.bpe, old_bytes, &old_tokens.tokens)?;
    let ids: Vec<u32> = old_tokens.tokens.iter().filter_map(|t| t.id).collect();
    let done = remerge(&model.bpe, old_bytes, &ends, &ids, new_bytes);
    let mut tokens = Vec::with_capacity(done.symbols.len());
    model.push_symbols(&done.symbols, new_bytes.len(), &[], 0, &mut tokens);
    Some(Tokenization::new(
        tokens
            .iter()
            .map(|t| model.token(new, &new_norm, t))
            .collect(),
    ))
}
