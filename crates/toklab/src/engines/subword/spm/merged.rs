//! A SentencePiece BPE model's stretch of text merged, and the unused pieces merging made
//! split back as SentencePiece splits them, each token handed on as it is found.

use super::proto::PieceType;
use super::{SpmModel, SpmToken};
use crate::engines::subword::bpe::merge_loop::{MergeStep, NO_ID, Symbol};

impl SpmModel {
    /// The tokens of a BPE model's stretch `norm[start..end]`, each handed to `each` in order
    /// (the ids path keeps none of them).
    pub(super) fn merge_segment(
        &self,
        norm: &str,
        start: usize,
        end: usize,
        each: &mut dyn FnMut(SpmToken),
    ) {
        let mut symbols = Vec::new();
        let mut unused = Vec::new();
        self.bpe.merge_piece(
            &norm.as_bytes()[start..end],
            &mut symbols,
            &mut |step: MergeStep| {
                if self.pieces.kind(step.merged as usize) == PieceType::Unused {
                    unused.push(step);
                }
            },
        );
        self.each_token(&symbols, end - start, &unused, start, each);
    }

    /// Appends the tokens of a merged stretch (symbols relative to `base`, the stretch `len`
    /// bytes long), splitting back the unused pieces made by the steps in `unused`.
    pub fn push_symbols(
        &self,
        symbols: &[Symbol],
        len: usize,
        unused: &[MergeStep],
        base: usize,
        out: &mut Vec<SpmToken>,
    ) {
        self.each_token(symbols, len, unused, base, &mut |t| out.push(t));
    }

    /// [`SpmModel::push_symbols`], each token handed to `each`.
    pub(super) fn each_token(
        &self,
        symbols: &[Symbol],
        len: usize,
        unused: &[MergeStep],
        base: usize,
        each: &mut dyn FnMut(SpmToken),
    ) {
        for (i, s) in symbols.iter().enumerate() {
            let end = symbols.get(i + 1).map_or(len, |n| n.start as usize);
            self.resegment(s.id, s.start as usize, end, unused, base, each);
        }
    }

    /// SentencePiece never outputs an unused piece: it is split back into the pair that made
    /// it, recursively.
    fn resegment(
        &self,
        id: u32,
        start: usize,
        end: usize,
        unused: &[MergeStep],
        base: usize,
        out: &mut dyn FnMut(SpmToken),
    ) {
        let is_unused = id != NO_ID && self.pieces.kind(id as usize) == PieceType::Unused;
        if let Some(step) = unused
            .iter()
            .rev()
            .find(|s| is_unused && s.merged == id && s.start as usize == start)
        {
            let left_len = self.bpe.vocab.bytes(step.left).map_or(0, <[u8]>::len);
            self.resegment(step.left, start, start + left_len, unused, base, out);
            self.resegment(step.right, start + left_len, end, unused, base, out);
            return;
        }
        out(SpmToken {
            id,
            start: base + start,
            end: base + end,
        });
    }
}
