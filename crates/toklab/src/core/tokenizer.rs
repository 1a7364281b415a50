//! The one shape every engine has: a `Kind` (in `spec.rs`) that loads it from a spec,
//! then tokenize and explain through [`Tokenizer`]. Nothing here names an engine: engines
//! register their kinds in the registry (`registry.rs`).

use std::any::Any;

use crate::core::error::{Error, Result};
use crate::core::pieces::Carry;
use crate::core::token::{GaveUp, Tokenization};

pub use crate::core::trace::{Role, Trace, TraceLine, TracePart, quote};

/// What [`Tokenizer::ids_into`] writes for a token that has no id (a word of a rules or
/// finite-state tokenizer, text a subword model could not place); no vocabulary reaches it.
pub const NO_ID: u32 = u32::MAX;

/// A tokenizer of any family. Engines are immutable once loaded so one instance can serve the
/// workbench's UI thread and its background workers at once.
pub trait Tokenizer: Send + Sync {
    /// A short name for labels and messages: the kind and its main argument.
    fn name(&self) -> &str;

    /// Tokenizes one text. Never fails: text an engine cannot place becomes tokens of kind
    /// `Unknown`, so no input is lost.
    fn tokenize(&self, text: &str) -> Tokenization;

    /// Appends the ids of `text`'s tokens to `ids`, [`NO_ID`] for a token without one; returns
    /// where the engine gave up, as [`Tokenization::gave_up`] does. The default tokenizes; engines
    /// whose ids need neither spans nor forms override it, so `tokenize --format ids` pays only
    /// for the ids (no token objects, no form strings, no alignment to the original text).
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let tokens = self.tokenize(text);
        ids.extend(tokens.iter().map(|t| t.id.unwrap_or(NO_ID)));
        tokens.gave_up()
    }

    /// A byte offset of `text`, at or after `from`, where the text may be cut without changing
    /// a token: tokenizing `text[..c]` and then `text[c..]` ([`Tokenizer::tokenize_piece`],
    /// with the [`Carry`] the first part left) gives the tokens (spans, forms, kinds, ids,
    /// origins) of `text`, those of the second part shifted by `c`, and the same holds for any
    /// set of cut points this method gives for one text. That lets a caller tokenize a huge
    /// line in pieces and write each before the next ([`crate::core::pieces`]), holding neither
    /// all its tokens nor all its output. Sentence ends are not kept: a piece's last token ends
    /// a sentence. The default, for engines whose context can reach across the whole text
    /// (Treebank's final period, rules with multi-word entries), knows no cut point: `None`.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let _ = (text, from);
        None
    }

    /// [`Tokenizer::cut_point`] for the piece of `text` that starts at `start`, `carry` holding
    /// what the pieces before it left: an engine whose cuts depend on the state its search of
    /// the whole text would have there (a unigram model, where the best paths of a text
    /// without spaces meet) reads that state, and may leave what it found past the cut for
    /// the piece after it. A cut given here holds for the pieces cut so far, in order, which
    /// is how [`crate::core::pieces::Pieces`] asks. The default is [`Tokenizer::cut_point`].
    fn cut_point_carried(
        &self,
        text: &str,
        start: usize,
        from: usize,
        carry: &mut Carry,
    ) -> Option<usize> {
        let _ = (start, carry);
        self.cut_point(text, from)
    }

    /// Tokenizes `piece`, a part of a longer text cut at this tokenizer's
    /// [`Tokenizer::cut_point`]s, the pieces in order: the text's start or
    /// ([`Carry::continued`]) a part after a cut. Tokens are in offsets of the piece. An engine
    /// that treats the start of a text apart (SentencePiece's dummy prefix) tokenizes a
    /// continued piece as the middle of a text, and one whose tokens depend on more of what came
    /// before than where it was cut (a unigram model's path total) takes that from `carry` and
    /// leaves its own for the next piece; for the others this is [`Tokenizer::tokenize`].
    fn tokenize_piece(&self, piece: &str, carry: &mut Carry) -> Tokenization {
        let _ = carry;
        self.tokenize(piece)
    }

    /// [`Tokenizer::tokenize_piece`], the tokens handed to `part` in consecutive parts (spans in
    /// offsets of the piece; sentence ends may be left out), so a caller that writes each part
    /// before the next holds neither all the tokens nor all the output of a piece the engine
    /// cannot cut (the rule engine's lines past utoken's depth limit, which it splits a part
    /// at a time). The default hands over the whole piece at once.
    fn tokenize_piece_in_parts(
        &self,
        piece: &str,
        carry: &mut Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        part(self.tokenize_piece(piece, carry));
    }

    /// [`Tokenizer::ids_into`] of a piece, as [`Tokenizer::tokenize_piece`] tokenizes it.
    fn ids_into_piece(&self, piece: &str, carry: &mut Carry, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let _ = carry;
        self.ids_into(piece, ids)
    }

    /// How the engine arrived at its tokens for `text`: a second call, made only when a view
    /// asks, so tokenizing stays fast.
    fn explain(&self, text: &str) -> Trace;

    /// Things the user should know about what was loaded (a skipped network, an entry that
    /// can never fire). Shown by the CLI on stderr and in the workbench.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// The files this tokenizer was loaded from, so the workbench can watch them and reload
    /// when they change on disk.
    fn sources(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// Tokenizes `new`, an edit of `old` whose tokenization was `old_tokens`. Engines that can
    /// re-tokenize only what an edit can change (BPE, the incremental algorithm) override this;
    /// the result must always equal `tokenize(new)`.
    fn retokenize(&self, old: &str, old_tokens: &Tokenization, new: &str) -> Tokenization {
        let _ = (old, old_tokens);
        self.tokenize(new)
    }

    /// Turns ids back into text with the model's own decoder (`toklab decode`). Kinds without
    /// ids keep this default, which says so.
    fn decode(&self, ids: &[u32]) -> Result<String> {
        let _ = ids;
        Err(Error::Unsupported {
            tokenizer: self.name().to_string(),
            operation: "decode ids: it has no vocabulary of ids".to_string(),
        })
    }

    /// Whether `id` is a special token (`<s>`, `[CLS]`, `<|endoftext|>`), which `toklab decode
    /// --skip-special` leaves out as HuggingFace's `decode(skip_special_tokens=True)` does.
    /// Kinds that do not know keep this default: none is.
    fn is_special(&self, id: u32) -> bool {
        let _ = id;
        false
    }

    /// The vocabulary's string for `id`: the form `detokenize` reads back (`Ġworld` in GPT-2's
    /// byte-level alphabet for byte vocabularies — tiktoken, tekken, rwkv, claude too —,
    /// `▁world` and `<0x0A>` for SentencePiece, `##ing` for WordPiece, the `tokenizer.json`
    /// key for HuggingFace). Kinds without a vocabulary of strings keep this default: none.
    fn piece(&self, id: u32) -> Option<String> {
        let _ = id;
        None
    }

    /// Joins token forms back into text the way this tokenizer's conventions ask (utoken's
    /// detokenizer for rules, Treebank's for `ptb`, the decoder for subword kinds). Kinds
    /// without a detokenizer keep this default, which says so.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        let _ = tokens;
        Err(Error::Unsupported {
            tokenizer: self.name().to_string(),
            operation: "detokenize: it has no detokenizer".to_string(),
        })
    }

    /// The engine itself, for a view that needs more of one family than the trait offers (the
    /// unigram lesson walks the lattice of the SentencePiece model behind a row): read it with
    /// [`downcast_ref`](trait.Tokenizer.html#method.downcast_ref) on a `dyn Tokenizer` instead
    /// of loading the model a second time from the spec. Engines that hand out nothing more
    /// keep this default; a wrapper that changes the text its engine sees (normalizing first)
    /// must keep it too, since its engine's model does not describe the text the caller has.
    fn as_any(&self) -> Option<&dyn Any> {
        None
    }
}

impl dyn Tokenizer {
    /// The engine as its concrete type `T`, when it is one and offers itself through
    /// [`Tokenizer::as_any`].
    pub fn downcast_ref<T: Tokenizer + 'static>(&self) -> Option<&T> {
        self.as_any()?.downcast_ref::<T>()
    }
}
