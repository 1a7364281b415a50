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

mod choice;

pub mod align;
pub mod bpe;
pub mod compare;
pub mod engine;
pub mod error;
pub mod fst;
pub mod maxmatch;
pub mod merges;
pub mod normalized;
pub mod offsets;
pub mod output;
pub mod pretok;
pub mod rules;
pub mod simple;
pub mod spec;
pub mod token;
pub mod wordpiece;

pub use choice::Choice;
pub use engine::{Role, Tokenizer, Trace, TraceLine};
pub use error::{Error, Result};
pub use normalized::NormalizedString;
pub use spec::{Spec, load, load_in};
pub use token::{Origin, Span, Token, TokenKind, Tokenization};
