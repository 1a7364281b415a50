//! `toklab models`: the models of the local HuggingFace cache and the tokenizer file each one
//! resolves to (what `hf:ORG/NAME` loads), then the models of Ollama's store and their GGUF
//! files (what `ollama:NAME[:TAG]` loads), without network access.

use std::process::ExitCode;

use toklab::core::display::{Keep, terminal_safe};
use toklab::engines::subword::gguf::ollama;
use toklab::engines::subword::hub;

pub fn run() -> anyhow::Result<ExitCode> {
    let cache = hub::cache_dir();
    let models = hub::list_in(&cache);
    // Folder and file names in the cache are whatever was downloaded: shown escaped, each on
    // its one line.
    let shown = |text: &str| terminal_safe(text, Keep::Nothing).into_owned();
    let cache_shown = shown(&cache.display().to_string());
    if models.is_empty() {
        println!("no models in {cache_shown}");
    } else {
        let names: Vec<String> = models.iter().map(|m| shown(&m.name)).collect();
        let width = super::column_width(names.iter().map(String::as_str), 0);
        for (model, name) in models.iter().zip(&names) {
            match &model.tokenizer {
                Some(path) => println!("{name:<width$}  {}", shown(&path.display().to_string())),
                None => println!("{name:<width$}  (no tokenizer file)"),
            }
        }
        println!("\n{} models in {cache_shown}", models.len());
    }
    let store = ollama::store_dir();
    let store_shown = shown(&store.display().to_string());
    let models = ollama::list_in(&store);
    if models.is_empty() {
        println!("\nno Ollama models in {store_shown}");
        return Ok(ExitCode::SUCCESS);
    }
    println!();
    let specs: Vec<String> = models
        .iter()
        .map(|m| shown(&format!("ollama:{}", m.name)))
        .collect();
    let width = super::column_width(specs.iter().map(String::as_str), 0);
    for (model, spec) in models.iter().zip(&specs) {
        match &model.gguf {
            Some(path) => println!("{spec:<width$}  {}", shown(&path.display().to_string())),
            None => println!("{spec:<width$}  (no model blob)"),
        }
    }
    println!("\n{} Ollama models in {store_shown}", models.len());
    Ok(ExitCode::SUCCESS)
}
