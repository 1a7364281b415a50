//! Unigram language models (Kudo 2018): a text's segmentation is the path through its lattice
//! of candidate pieces with the highest total log-probability. One home for the lattice and its
//! search, shared by SentencePiece's unigram `.model` files, the `hf:` Unigram model, the
//! trainer and the lesson: [`viterbi`] is the best-path search, [`lattice`] the whole lattice
//! (n best paths, sampling, forward sums), [`lesson`] the search step by step for the workbench.

pub mod lattice;
pub mod lesson;
mod model;
mod trie;
pub mod viterbi;

pub use model::SpmUnigram;
