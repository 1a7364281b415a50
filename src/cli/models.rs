//! `toklab models`: the models of the local HuggingFace cache and the tokenizer file each one
//! resolves to (what `hf:ORG/NAME` loads), then the models of Ollama's store and their GGUF
//! files (what `ollama:NAME[:TAG]` loads), without network access.

use std::process::ExitCode;

use toklab::engines::subword::gguf::ollama;
use toklab::engines::subword::hub;

pub fn run() -> anyhow::Result<ExitCode> {
    let cache = hub::cache_dir();
    let models = hub::list_in(&cache);
    if models.is_empty() {
        println!("no models in {}", cache.display());
    } else {
        let width = models.iter().map(|m| m.name.len()).max().unwrap_or(0);
        for model in &models {
            match &model.tokenizer {
                Some(path) => println!("{:<width$}  {}", model.name, path.display()),
                None => println!("{:<width$}  (no tokenizer file)", model.name),
            }
        }
        println!("\n{} models in {}", models.len(), cache.display());
    }
    let store = ollama::store_dir();
    let models = ollama::list_in(&store);
    if models.is_empty() {
        println!("\nno Ollama models in {}", store.display());
        return Ok(ExitCode::SUCCESS);
    }
    println!();
    let width = models.iter().map(|m| m.name.len() + 7).max().unwrap_or(0);
    for model in &models {
        let spec = format!("ollama:{}", model.name);
        match &model.gguf {
            Some(path) => println!("{spec:<width$}  {}", path.display()),
            None => println!("{spec:<width$}  (no model blob)"),
        }
    }
    println!("\n{} Ollama models in {}", models.len(), store.display());
    Ok(ExitCode::SUCCESS)
}
