//! Unigram language models (Kudo 2018): a text's segmentation is the path through its lattice
//! of candidate pieces with the highest total log-probability. One home for the lattice and its
//! search, shared by SentencePiece's unigram `.model` files, the `hf:` Unigram model, the
//! trainer and the lesson: [`viterbi`] is the best-path search, [`lattice`] the whole lattice
//! (n best paths, sampling, forward–backward sums: the trainer's E step), [`lesson`] the search
//! step by step for the workbench.
//!
//! ```
//! use toklab::engines::subword::unigram::viterbi::{Viterbi, best_path};
//!
//! // Pieces with their log-probabilities.
//! let pieces = [("u", -4.0), ("n", -4.0), ("d", -4.0), ("o", -4.0), ("e", -4.0),
//!               ("un", -3.0), ("do", -3.0), ("ne", -3.0), ("undo", -5.5)];
//! let text = "undone";
//! let options = Viterbi { unknown: None, reset: None, record: false };
//! let path = best_path(text, &options, |search| {
//!     for (id, (piece, score)) in pieces.iter().enumerate() {
//!         if text[search.start()..].starts_with(piece) {
//!             search.offer(piece.len(), id as u32, *score);
//!         }
//!     }
//! })
//! .unwrap();
//! // `undo` + `ne` (-8.5) beats `un` + `do` + `ne` (-9) and every path with letters.
//! assert_eq!(path.pieces, [(0, 4, 8), (4, 6, 7)]);
//! assert_eq!(path.score, -8.5);
//! ```

pub mod lattice;
pub mod lesson;
mod model;
pub(crate) mod trie;
pub mod viterbi;

pub use model::SpmUnigram;
