//! The core every engine and view shares: the span model ([`token`]), the one engine shape
//! ([`tokenizer`]), specs and the registry that turns them into tokenizers, errors, offset
//! conversion, normalized text that maps back to the original, traces, and running work on
//! every core. Nothing here names an engine: engines register their kinds in [`registry`].

pub mod batch;
pub mod choice;
pub mod display;
pub mod error;
pub mod external;
pub mod files;
pub mod label;
#[cfg(feature = "subword")]
pub mod model_cache;
pub mod normalized;
pub mod offsets;
pub mod pieces;
pub mod registry;
pub mod sniff;
pub mod spec;
pub mod token;
pub mod tokenizer;
pub mod trace;
