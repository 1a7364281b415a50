//! Writes `samples/bpe/sample.gguf`, the shipped GGUF model of the fuzzing harness and the
//! examples: the project's own GPT-2-format sample (`samples/bpe/gpt2`: `vocab.json` and
//! `merges.txt`) as a `gpt2` GGUF vocabulary with the `gpt-2` pre-tokenizer, `<|endoftext|>` a
//! control token. Run from the repository root: `cargo run -p toklab --example gguf_sample`.

use std::path::Path;

use toklab::engines::subword::gguf::write::{Builder, Val};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = Path::new("samples/bpe/gpt2");
    let vocab: std::collections::BTreeMap<String, usize> =
        serde_json::from_str(&std::fs::read_to_string(folder.join("vocab.json"))?)?;
    let mut tokens = vec![String::new(); vocab.len()];
    for (token, id) in vocab {
        let slot = tokens.get_mut(id).ok_or("vocab.json: ids are not 0..n")?;
        *slot = token;
    }
    let types: Vec<i32> = tokens
        .iter()
        .map(|t| if t == "<|endoftext|>" { 3 } else { 1 })
        .collect();
    let merges_text = std::fs::read_to_string(folder.join("merges.txt"))?;
    let merges: Vec<&str> = merges_text
        .lines()
        .filter(|l| !l.starts_with("#version") && !l.is_empty())
        .collect();
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let mut b = Builder::new(3);
    b.put("general.architecture", Val::Str("gpt2"))
        .put("general.name", Val::Str("toklab sample"))
        .put("tokenizer.ggml.model", Val::Str("gpt2"))
        .put("tokenizer.ggml.pre", Val::Str("gpt-2"))
        .put("tokenizer.ggml.tokens", Val::Strs(&tokens))
        .put("tokenizer.ggml.token_type", Val::I32s(&types))
        .put("tokenizer.ggml.merges", Val::Strs(&merges));
    b.write(Path::new("samples/bpe/sample.gguf"), 0)?;
    Ok(())
}
