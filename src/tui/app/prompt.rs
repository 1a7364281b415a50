//! The one-line prompt at the bottom of the screen (add a tokenizer, search, save as), with
//! Tab completion of spec kinds and file paths.

use std::path::{Path, PathBuf};

use toklab::Registry;

/// What the prompt is asking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    AddTokenizer,
    Search,
    /// The `:` command line.
    Command,
    OpenText,
    SaveTextAs,
    SaveWorkspaceAs,
    /// A folder for the model being trained (vocab.json + merges.txt).
    SaveModel,
    /// The text's save-as names a file that exists: Enter replaces it, or edit the name.
    OverwriteText,
    /// The workspace file exists and this session did not write it.
    OverwriteWorkspace,
    /// The text's file was changed by another program since it was read: `o` overwrites it,
    /// `r` reads it again (dropping the edits), a name saves there. The file is in `offered`.
    ChangedText,
    /// The workspace file was changed by another program since it was read or written: `o`
    /// overwrites it, a name saves there.
    ChangedWorkspace,
    /// An edited line had bytes that are not UTF-8, which the save writes as U+FFFD: Enter
    /// saves anyway.
    LossySave,
    /// Two words for the edit-distance lesson (the alignment view's matrix).
    AlignWords,
    /// A word or phrase to apply down and up to an FST row's network.
    FstApply,
}

impl PromptKind {
    pub fn title(self) -> &'static str {
        match self {
            PromptKind::AddTokenizer => "add tokenizer (spec, Tab completes)",
            PromptKind::Search => "search",
            PromptKind::Command => "command",
            PromptKind::OpenText => "open text file (Tab completes)",
            PromptKind::SaveTextAs => "save text as",
            PromptKind::SaveWorkspaceAs => "save workspace as",
            PromptKind::SaveModel => "save the trained model into folder (vocab.json, merges.txt)",
            PromptKind::OverwriteText | PromptKind::OverwriteWorkspace => {
                "file exists: Enter overwrites it, edit the name to save elsewhere, Esc cancels"
            }
            PromptKind::ChangedText => {
                "changed on disk by another program: o overwrites it, r reloads it (edits lost), \
                 or type a name to save there; Esc cancels"
            }
            PromptKind::ChangedWorkspace => {
                "changed on disk by another program: o overwrites it, or type a name to save \
                 there; Esc cancels"
            }
            PromptKind::LossySave => {
                "an edited line's non-UTF-8 bytes become U+FFFD: Enter saves anyway, Esc cancels"
            }
            PromptKind::FstApply => {
                "apply down / up to the FST row's network (apply up reads @_TOKEN_BOUND_@)"
            }
            PromptKind::AlignWords => {
                "edit distance of two words (intention execution), or two phrases split by /"
            }
        }
    }
}

/// The prompt's input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub input: String,
    /// The input as the prompt offered it (a file name to confirm), to tell a confirmation
    /// from an edited answer.
    pub offered: String,
    /// Candidates of the last completion, shown above the prompt when there are several.
    pub candidates: Vec<String>,
}

impl Prompt {
    pub fn new(kind: PromptKind, input: impl Into<String>) -> Prompt {
        let input = input.into();
        Prompt {
            kind,
            offered: input.clone(),
            input,
            candidates: Vec::new(),
        }
    }

    /// Tab: completes the input as far as it is unambiguous, against `base` for relative paths.
    pub fn complete(&mut self, base: &Path) {
        let (completed, candidates) = match self.kind {
            PromptKind::AddTokenizer => complete_spec(&self.input, base),
            PromptKind::OpenText
            | PromptKind::SaveTextAs
            | PromptKind::SaveWorkspaceAs
            | PromptKind::SaveModel
            | PromptKind::OverwriteText
            | PromptKind::OverwriteWorkspace
            | PromptKind::ChangedText
            | PromptKind::ChangedWorkspace
            | PromptKind::LossySave => complete_path(&self.input, base),
            PromptKind::Search
            | PromptKind::Command
            | PromptKind::AlignWords
            | PromptKind::FstApply => return,
        };
        self.input = completed;
        self.candidates = if candidates.len() > 1 {
            candidates
        } else {
            Vec::new()
        };
    }
}

/// Completes a spec: the kind before the first `:`, then the path argument after it.
pub fn complete_spec(input: &str, base: &Path) -> (String, Vec<String>) {
    match input.split_once(':') {
        None => {
            let names: Vec<String> = Registry::builtin()
                .kinds()
                .iter()
                .filter(|k| k.name.starts_with(input))
                .map(|k| {
                    if k.usage.contains(':') {
                        format!("{}:", k.name)
                    } else {
                        k.name.to_string()
                    }
                })
                .collect();
            (common_prefix(input, &names), names)
        }
        Some((kind, arg)) => {
            let stores = ModelStores {
                hf_cache: toklab::engines::subword::hub::cache_dir(),
                ollama: toklab::engines::subword::gguf::ollama::store_dir(),
            };
            let names = model_names(kind, arg, &stores);
            let (completed, candidates) = if names.is_empty() {
                complete_path(arg, base)
            } else {
                (common_prefix(arg, &names), names)
            };
            (format!("{kind}:{completed}"), candidates)
        }
    }
}

/// Where the models known by name are kept: the HuggingFace cache and Ollama's store.
pub struct ModelStores {
    pub hf_cache: PathBuf,
    pub ollama: PathBuf,
}

/// The models a kind takes by name that start with `arg`: the HuggingFace cache's `ORG/NAME`s
/// for `hf:`, Ollama's models for `ollama:`, the published encodings for `tiktoken:` (what
/// `toklab models` lists, and the names tiktoken users write). A path (`./`, `/`, `~`) gets
/// none: it completes as a file.
pub fn model_names(kind: &str, arg: &str, stores: &ModelStores) -> Vec<String> {
    use toklab::engines::subword::{gguf::ollama, hub};
    if arg.starts_with(['.', '/', '~']) {
        return Vec::new();
    }
    let names: Vec<String> = match kind {
        "hf" => hub::list_in(&stores.hf_cache)
            .into_iter()
            .map(|m| m.name)
            .collect(),
        "ollama" => ollama::list_in(&stores.ollama)
            .into_iter()
            .map(|m| m.name)
            .collect(),
        "tiktoken" => hub::tiktoken::PUBLISHED
            .iter()
            .map(|p| p.name.to_string())
            .collect(),
        _ => Vec::new(),
    };
    names.into_iter().filter(|n| n.starts_with(arg)).collect()
}

/// Completes a file path relative to `base`; folders get a trailing `/`.
pub fn complete_path(input: &str, base: &Path) -> (String, Vec<String>) {
    let (dir, prefix) = match input.rfind('/') {
        Some(i) => (&input[..=i], &input[i + 1..]),
        None => ("", input),
    };
    let folder = if Path::new(dir).is_absolute() {
        Path::new(dir).to_path_buf()
    } else {
        base.join(dir)
    };
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return (input.to_string(), Vec::new());
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
                return None;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            Some(format!("{dir}{name}{}", if is_dir { "/" } else { "" }))
        })
        .collect();
    names.sort();
    (common_prefix(input, &names), names)
}

/// The longest common prefix of `candidates` (at least `input`).
fn common_prefix(input: &str, candidates: &[String]) -> String {
    let Some(first) = candidates.first() else {
        return input.to_string();
    };
    let mut end = first.len();
    for c in &candidates[1..] {
        end = first
            .char_indices()
            .zip(c.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(end);
    }
    if end < input.len() {
        input.to_string()
    } else {
        first[..end].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_kinds_then_paths() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::create_dir_all(dir.join("rules")).unwrap();
        std::fs::write(dir.join("rules/eng.txt"), "").unwrap();
        std::fs::write(dir.join("rules/end.txt"), "").unwrap();
        assert_eq!(complete_spec("pre", dir).0, "pretok:");
        assert_eq!(complete_spec("w", dir).1, ["ws", "words", "wordpiece:"]);
        assert_eq!(complete_spec("wo", dir).0, "word");
        assert_eq!(complete_spec("regex:r", dir).0, "regex:rules/");
        let (done, candidates) = complete_spec("regex:rules/e", dir);
        assert_eq!(done, "regex:rules/en");
        assert_eq!(candidates, ["rules/end.txt", "rules/eng.txt"]);
        assert_eq!(
            complete_spec("regex:rules/eng", dir).0,
            "regex:rules/eng.txt"
        );
        assert_eq!(complete_path("nothing/here", dir).0, "nothing/here");
    }

    #[test]
    fn models_complete_by_name() {
        let temp = tempfile::tempdir().unwrap();
        let hf_cache = temp.path().join("hub");
        for repo in [
            "models--openai-community--gpt2",
            "models--google-bert--bert-base-cased",
        ] {
            std::fs::create_dir_all(hf_cache.join(repo).join("snapshots/abc")).unwrap();
        }
        let stores = ModelStores {
            hf_cache,
            ollama: temp.path().join("no-ollama"),
        };
        assert_eq!(
            model_names("hf", "", &stores),
            ["google-bert/bert-base-cased", "openai-community/gpt2"]
        );
        assert_eq!(
            model_names("hf", "open", &stores),
            ["openai-community/gpt2"]
        );
        assert_eq!(model_names("tiktoken", "cl", &stores), ["cl100k_base"]);
        let o200k = model_names("tiktoken", "o200k", &stores);
        assert!(o200k.contains(&"o200k_harmony".to_string()), "{o200k:?}");
        // A path completes as a file, and kinds without names have none.
        assert!(model_names("hf", "./", &stores).is_empty());
        assert!(model_names("bpe", "", &stores).is_empty());
    }
}
