//! What you can compute from tokenizations, independent of how they are shown: the workbench's
//! panes and the command line both draw on it, so a figure means the same wherever it appears.
//!
//! [`TokenStats`] are the per-tokenizer statistics over many texts (token counts, characters
//! per token, sentences, tokens per text, a token-length histogram), built text by text and
//! merged across batches computed in parallel; [`VocabularyGrowth`] follows the types against
//! the tokens as a file is read and fits Heaps' law to them.
//!
//! ```
//! use toklab::analysis::TokenStats;
//!
//! let tokenizer = toklab::load("ws").unwrap();
//! let mut stats = TokenStats::default();
//! for text in ["a bb ccc", "dddd"] {
//!     stats.add(text, &tokenizer.tokenize(text));
//! }
//! assert_eq!((stats.tokens, stats.chars, stats.texts()), (4, 10, 2));
//! assert_eq!(stats.chars_per_token(), 2.5);
//! ```

pub mod align;
pub mod compare;
mod fertility;
mod heaps;
mod stats;

pub use fertility::{Fertility, FertilityTable};
pub use heaps::{HeapsCurve, HeapsFit, VocabularyGrowth, fit as fit_heaps};
pub use stats::{LENGTH_BUCKETS, TokenStats, text_chars_per_token};
