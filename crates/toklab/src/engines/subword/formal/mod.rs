//! BPE merges as the formal objects of Berglund & van der Merwe, *Formalizing BPE
//! Tokenization* (seeds/berglund-formalizing-bpe.txt): a dictionary of ordered rules, the two
//! semantics (SentencePiece, Definition 3; HuggingFace, Definition 4) as step lists, analysis
//! of a dictionary (properness, useful rules, lookahead bounds), incremental re-tokenization
//! (Algorithm 1, Remark 3) and training with a step log (Jurafsky §2.4).
//!
//! Everything works on [`Dictionary`], a plain ordered rule list. Loaded models convert into
//! it once, lazily (`crate::engines::subword::bpe::BpeModel::dictionary`): a merge list keeps its order (rank =
//! line), a rank-only vocabulary (tiktoken, SentencePiece) gives each token the one rule that
//! can make it. The BPE encoder follows Definition 4 through this module
//! (`semantics=hf`) and its traces are [`WordSteps`].

mod analysis;
mod dict;
mod encode;
mod incremental;
mod steps;
mod trace;

pub use analysis::{Analysis, Improper, RuleSide, chain_bound, improper_rules, never_useful};
pub use dict::{DictError, Dictionary, NO_ID, Rule, SymbolUnit, symbol_ends};
pub use encode::{MergeEvent, Semantics, encode_ends, encode_observed, encode_strings};
pub use incremental::{Edit, EncodeFn, MAX_ROUNDS, Retokenized, retokenize};
pub use steps::{Comparison, Derivation, Step, parting_step, split_at_ends};
pub use trace::{MergeTrace, OtherSemantics, WordSteps};
