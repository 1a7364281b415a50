//! Subword models (byte-pair encoding).
pub mod bytelevel;
pub mod merge;
pub mod merges;
pub mod vocab;
