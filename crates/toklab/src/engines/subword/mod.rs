//! Subword models: byte-pair encoding in every format people download ([`bpe`]: GPT-2 files,
//! `tokenizer.json`, tiktoken, SentencePiece), WordPiece ([`wordpiece`]), the pre-tokenizers
//! that cut text into words first ([`pretok`]), BPE as a formal system ([`formal`]: both merge
//! semantics, their steps, dictionary analysis, incremental re-tokenization) and training new
//! merges from a text ([`train`]); chat templates rendered as `transformers` renders them
//! (`chat`, behind the `chat` feature).

pub mod bpe;
pub mod bytes;
#[cfg(feature = "chat")]
pub mod chat;
pub mod claude;
pub mod clip;
pub mod formal;
pub mod gguf;
pub mod hf;
pub mod hub;
pub mod normalizing;
pub mod pretok;
pub mod rwkv;
pub mod spm;
pub mod tekken;
pub mod train;
pub mod unigram;
pub mod wordpiece;
