//! toklab: tokenizers of three families (rule files, finite-state automata, subword models)
//! behind one span model, so their outputs can be shown side by side, explained and compared.
//!
//! Load any tokenizer from a spec string and tokenize:
//!
//! ```
//! let tokenizer = toklab::load("pretok:gpt2").unwrap();
//! let text = "We're 350 dogs!";
//! let tokens = tokenizer.tokenize(text);
//! let forms: Vec<&str> = tokens.tokens.iter().map(|t| t.form(text)).collect();
//! assert_eq!(forms, ["We", "'re", " 350", " dogs", "!"]);
//! ```

#![warn(missing_docs)]

mod choice;

// The core: the span model, the one engine shape, specs and the registry. It names no engine.
pub mod error;
pub mod label;
pub mod normalized;
pub mod offsets;
pub mod output;
pub mod picture;
pub mod registry;
pub mod spec;
pub mod token;
pub mod tokenizer;
pub mod trace;

// The engines, one folder per family.
pub mod fst;
pub mod lex;
pub mod rules;
pub mod sentence;
pub mod simple;
pub mod subword;

// What can be computed from tokenizations, and running it on every core.
pub mod analysis;
pub mod batch;

pub use choice::Choice;
pub use error::{Error, Result};
pub use normalized::NormalizedString;
pub use registry::{Registry, load, load_in};
pub use spec::{Kind, Spec};
pub use token::{
    GaveUp, Origin, Provenance, SourceLoc, Span, SpanError, Token, TokenKind, Tokenization,
};
pub use tokenizer::Tokenizer;
pub use trace::{Role, Trace, TraceLine, TracePart};
