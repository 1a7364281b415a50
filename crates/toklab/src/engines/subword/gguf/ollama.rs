//! Ollama's model store (`$OLLAMA_MODELS`, else `~/.ollama/models`): a model `NAME[:TAG]` has a
//! manifest under `manifests/HOST/NAMESPACE/MODEL/TAG` (host `registry.ollama.ai` and namespace
//! `library` unless the name gives them), a JSON list of layers; the layer of media type
//! `application/vnd.ollama.image.model` is the GGUF file, stored as `blobs/sha256-DIGEST`.
//! Names and digests come from files on disk, so they are checked to be plain path components
//! and hex before they become paths.

use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};

const MODEL_LAYER: &str = "application/vnd.ollama.image.model";
const DEFAULT_HOST: &str = "registry.ollama.ai";
const DEFAULT_NAMESPACE: &str = "library";

/// The store's folder.
pub fn store_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("OLLAMA_MODELS").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_default();
    Path::new(&home).join(".ollama").join("models")
}

/// A model of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// The name as `ollama list` shows it (`llama3.2:1b`, `user/model:tag`).
    pub name: String,
    /// Its GGUF file, if the manifest names one that exists.
    pub gguf: Option<PathBuf>,
}

/// The GGUF file of `name` (`NAME[:TAG]`) in the store at `store`.
pub fn resolve_in(store: &Path, name: &str) -> Result<PathBuf> {
    let (path, tag) = name.rsplit_once(':').unwrap_or((name, "latest"));
    let parts: Vec<&str> = path.split('/').collect();
    let (host, namespace, model) = match parts.as_slice() {
        [model] => (DEFAULT_HOST, DEFAULT_NAMESPACE, *model),
        [namespace, model] => (DEFAULT_HOST, *namespace, *model),
        [host, namespace, model] => (*host, *namespace, *model),
        _ => {
            return Err(not_found(
                store,
                name,
                "a name is MODEL, NAMESPACE/MODEL or HOST/NAMESPACE/MODEL",
            ));
        }
    };
    for part in [host, namespace, model, tag] {
        if !plain_component(part) {
            return Err(not_found(
                store,
                name,
                &format!("`{part}` is not a plain name"),
            ));
        }
    }
    let manifest = store
        .join("manifests")
        .join(host)
        .join(namespace)
        .join(model)
        .join(tag);
    if !manifest.is_file() {
        return Err(not_found(
            store,
            name,
            &format!("no manifest {}", manifest.display()),
        ));
    }
    model_blob(store, &manifest)
}

/// The GGUF file a manifest names.
fn model_blob(store: &Path, manifest: &Path) -> Result<PathBuf> {
    let text = std::fs::read_to_string(manifest).map_err(|e| Error::io(manifest, e))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::format(manifest, Some(e.line()), format!("not JSON: {e}")))?;
    let layers = json.get("layers").and_then(|l| l.as_array());
    let layer = layers
        .into_iter()
        .flatten()
        .find(|l| l.get("mediaType").and_then(|m| m.as_str()) == Some(MODEL_LAYER))
        .ok_or_else(|| Error::format(manifest, None, format!("no layer of type {MODEL_LAYER}")))?;
    let digest = layer.get("digest").and_then(|d| d.as_str()).unwrap_or("");
    let hex = digest.strip_prefix("sha256:").unwrap_or("");
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::format(
            manifest,
            None,
            format!("model layer digest {digest:?} is not sha256:HEX"),
        ));
    }
    let blobs = store.join("blobs");
    for candidate in [format!("sha256-{hex}"), format!("sha256:{hex}")] {
        let path = blobs.join(candidate);
        if path.is_file() {
            return Ok(path);
        }
    }
    Err(Error::format(
        manifest,
        None,
        format!("its model blob sha256-{hex} is not in {}", blobs.display()),
    ))
}

/// Every model of the store at `store`, sorted by name.
pub fn list_in(store: &Path) -> Vec<Model> {
    let mut out = Vec::new();
    let root = store.join("manifests");
    for host in dirs(&root) {
        for namespace in dirs(&host) {
            for model in dirs(&namespace) {
                let Ok(tags) = std::fs::read_dir(&model) else {
                    continue;
                };
                for tag in tags.flatten().map(|t| t.path()).filter(|t| t.is_file()) {
                    let name_of = |p: &Path| {
                        p.file_name()
                            .unwrap_or_default()
                            .to_string_lossy()
                            .into_owned()
                    };
                    let (h, n, m, t) = (
                        name_of(&host),
                        name_of(&namespace),
                        name_of(&model),
                        name_of(&tag),
                    );
                    let name = match (h.as_str(), n.as_str()) {
                        (DEFAULT_HOST, DEFAULT_NAMESPACE) => format!("{m}:{t}"),
                        (DEFAULT_HOST, _) => format!("{n}/{m}:{t}"),
                        _ => format!("{h}/{n}/{m}:{t}"),
                    };
                    out.push(Model {
                        name,
                        gguf: model_blob(store, &tag).ok(),
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn dirs(path: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(path) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

fn plain_component(part: &str) -> bool {
    !part.is_empty() && part != "." && part != ".." && !part.contains(['/', '\\', '\0'])
}

fn not_found(store: &Path, name: &str, why: &str) -> Error {
    Error::format(
        store,
        None,
        format!("ollama model `{name}` not found: {why}"),
    )
}
