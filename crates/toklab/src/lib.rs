//! toklab: tokenizers of three families (rule files, finite-state automata, subword models)
//! behind one span model, so their outputs can be shown side by side, explained and compared.
//!
//! Load any tokenizer from a spec string and tokenize:
//!
//! ```
//! let tokenizer = toklab::load("pretok:gpt2").unwrap();
//! let text = "We're 350 dogs!";
//! let tokens = tokenizer.tokenize(text);
//! //! assert_eq!(tokens.forms(text), ["We", "'re", " 350", " dogs", "!"]);
//! ```

#![deny(missing_docs)]

// The core: the span model, the one engine shape, specs and the registry. It names no engine.
pub mod core;

// The engines, one folder per family, each of one shape: load from a spec, tokenize, explain.
pub mod engines;

// What can be computed from tokenizations, and the pictures drawn of them.
#[cfg(feature = "analysis")]
pub mod analysis;
#[cfg(feature = "picture")]
pub mod picture;

pub use crate::core::choice::Choice;
pub use crate::core::error::{Error, Result};
pub use crate::core::normalized::NormalizedString;
pub use crate::core::registry::{Registry, load, load_in};
pub use crate::core::spec::{Kind, Spec};
pub use crate::core::token::{
    GaveUp, Origin, Provenance, SourceLoc, Span, SpanError, Token, TokenKind, Tokenization,
};
pub use crate::core::tokenizer::Tokenizer;
pub use crate::core::trace::{Role, Trace, TraceLine, TracePart};
