//! The engines, one folder per family. Each has the same parts: a kind in the registry that
//! loads it from a spec, a constructor, `tokenize` and `explain` (through [`crate::Tokenizer`]).

pub mod fst;
pub mod lex;
pub mod rules;
pub mod segment;
pub mod simple;
pub mod subword;
