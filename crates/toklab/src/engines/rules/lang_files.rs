//! `rules:DIR` without `?lang=`: utoken then loads no language file at all, which a rule
//! author rarely means (the language's abbreviations and contractions silently vanish), so the
//! load says so and names the language files the folder has.

use std::path::Path;

use super::diag::Diagnostic;

/// The language codes of the folder's `tok-resource-LC.txt` files (without `eng-global`,
/// which is loaded anyway), sorted.
pub(crate) fn language_files(dir: &Path) -> Vec<String> {
    let mut codes: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let code = name.strip_prefix("tok-resource-")?.strip_suffix(".txt")?;
            (code != "eng-global" && !code.is_empty()).then(|| code.to_string())
        })
        .collect();
    codes.sort();
    codes
}

/// The warning for a folder loaded without `?lang=` (None when it has no language files, so
/// nothing is being left out).
pub(crate) fn no_lang_warning(dir: &Path) -> Option<Diagnostic> {
    let codes = language_files(dir);
    let first = codes.first()?;
    let files: Vec<String> = codes
        .iter()
        .map(|c| format!("tok-resource-{c}.txt"))
        .collect();
    Some(Diagnostic::warning(
        dir,
        0,
        0,
        format!(
            "no ?lang= given, so no language file is loaded (found {}); add ?lang={first} to use {}",
            files.join(", "),
            files[0]
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_language_files_of_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "tok-resource-eng.txt",
            "tok-resource-deu.txt",
            "tok-resource-eng-global.txt",
            "tok-resource.txt",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        assert_eq!(language_files(dir.path()), ["deu", "eng"]);
        let warning = no_lang_warning(dir.path()).unwrap();
        assert!(!warning.is_error());
        assert!(
            warning
                .message
                .contains("found tok-resource-deu.txt, tok-resource-eng.txt); add ?lang=deu"),
            "{}",
            warning.message
        );
    }

    #[test]
    fn a_folder_without_language_files_needs_no_warning() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tok-resource.txt"), "").unwrap();
        assert!(no_lang_warning(dir.path()).is_none());
    }
}
