//! The engines, one folder per family. Each has the same parts: a kind in the registry that
//! loads it from a spec, a constructor, `tokenize` and `explain` (through [`crate::Tokenizer`]).

#[cfg(feature = "fst")]
pub mod fst;
#[cfg(feature = "lex")]
pub mod lex;
#[cfg(feature = "rules")]
pub mod rules;
pub mod segment;
pub mod simple;
#[cfg(feature = "subword")]
pub mod subword;
