//! `toklab models`: the models of the local HuggingFace cache and the tokenizer file each one
//! resolves to (what `hf:ORG/NAME` loads), without network access.

use std::process::ExitCode;

use toklab::engines::subword::hub;

pub fn run() -> anyhow::Result<ExitCode> {
    let cache = hub::cache_dir();
    let models = hub::list_in(&cache);
    if models.is_empty() {
        println!("no models in {}", cache.display());
        return Ok(ExitCode::SUCCESS);
    }
    let width = models.iter().map(|m| m.name.len()).max().unwrap_or(0);
    for model in &models {
        match &model.tokenizer {
            Some(path) => println!("{:<width$}  {}", model.name, path.display()),
            None => println!("{:<width$}  (no tokenizer file)", model.name),
        }
    }
    println!("\n{} models in {}", models.len(), cache.display());
    Ok(ExitCode::SUCCESS)
}
