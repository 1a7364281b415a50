//! The word list of maximum matching: one word per line, as segmentation dictionaries for
//! Chinese and Japanese are usually kept. Lines starting with `#` are comments; blank lines
//! are skipped; what cannot be used is a warning, never silently dropped.

use std::path::Path;

use rustc_hash::FxHashSet;

use super::automaton::Automaton;
use crate::core::error::{Error, Result};

/// A set of words, with the automata that find the longest of them at each point in time
/// linear in the text.
#[derive(Clone, Debug, Default)]
pub struct WordList {
    words: FxHashSet<Box<str>>,
    /// The longest word, in characters.
    max_chars: usize,
    /// The words as written: the longest word ending at each point (backward matching).
    ending: Automaton,
    /// The words reversed, run over the reversed text: the longest word starting at each
    /// point (forward matching).
    starting: Automaton,
    warnings: Vec<String>,
}

impl WordList {
    /// Reads a word list file.
    pub fn load(path: &Path) -> Result<WordList> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        WordList::parse(path, &bytes)?.with_words(path)
    }

    /// A word list file without a word is refused: maximum matching would cut every character
    /// apart, silently.
    fn with_words(self, path: &Path) -> Result<WordList> {
        if self.words.is_empty() {
            return Err(Error::format(
                path,
                None,
                "the word list has no words (only blank lines and comments): maximum matching would cut every character apart",
            ));
        }
        Ok(self)
    }

    /// Parses a word list; `path` names it in errors and warnings.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<WordList> {
        let mut list = WordList::default();
        let mut duplicates = Vec::new();
        for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let line_no = number + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = std::str::from_utf8(line).map_err(|e| Error::Format {
                path: path.to_path_buf(),
                line: Some(line_no),
                column: Some(e.valid_up_to() + 1),
                message: "invalid UTF-8".into(),
            })?;
            let word = line.trim();
            if word.is_empty() || word.starts_with('#') {
                continue;
            }
            if word.chars().any(char::is_whitespace) {
                list.warnings.push(format!(
                    "{}:{line_no}: `{word}` contains whitespace and can never match (text is split at whitespace first)",
                    path.display()
                ));
                continue;
            }
            if !list.words.insert(word.into()) {
                duplicates.push(line_no);
                continue;
            }
            list.max_chars = list.max_chars.max(word.chars().count());
        }
        if let Some(first) = duplicates.first() {
            list.warnings.push(format!(
                "{}: {} duplicate word(s), first on line {first}",
                path.display(),
                duplicates.len()
            ));
        }
        list.ending = Automaton::new(list.words.iter().map(|w| w.chars()));
        list.starting = Automaton::new(list.words.iter().map(|w| w.chars().rev()));
        Ok(list)
    }

    /// For each character of `run`, the length in characters of the longest word that ends
    /// with it (0: none).
    pub fn longest_ending(&self, run: &str) -> Vec<u32> {
        self.ending.longest_ending(run.chars())
    }

    /// For each character of `run`, the length in characters of the longest word that starts
    /// with it (0: none).
    pub fn longest_starting(&self, run: &str) -> Vec<u32> {
        let mut lengths = self.starting.longest_ending(run.chars().rev());
        lengths.reverse();
        lengths
    }

    /// Whether `word` is in the list, exactly as written.
    pub fn contains(&self, word: &str) -> bool {
        self.words.contains(word)
    }

    /// How many distinct words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the list has no words (every character is then its own piece).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The longest word in characters: no match is tried beyond it.
    pub fn max_chars(&self) -> usize {
        self.max_chars
    }

    /// Lines read in an unexpected way, for the user.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_warnings() {
        let list = WordList::parse(
            Path::new("d.txt"),
            "# words\n研究\n\n研究生\r\n研究\nnew york\n".as_bytes(),
        )
        .unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list.max_chars(), 3);
        assert!(list.contains("研究生"));
        assert_eq!(list.warnings().len(), 2);
        assert!(
            list.warnings()[0].contains("d.txt:6"),
            "{:?}",
            list.warnings()
        );
        assert!(list.warnings()[1].contains("first on line 5"));
    }

    #[test]
    fn a_list_without_words_is_refused() {
        for empty in [&b""[..], b"\n\n", b"# only a comment\n  \n"] {
            let e = WordList::parse(Path::new("d.txt"), empty)
                .and_then(|list| list.with_words(Path::new("d.txt")))
                .unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("d.txt: the word list has no words"),
                "{e}"
            );
        }
    }

    #[test]
    fn invalid_utf8_names_line_and_column() {
        let e = WordList::parse(Path::new("d.txt"), b"ok\nab\xffc\n").unwrap_err();
        assert_eq!(e.to_string(), "d.txt:2:3: invalid UTF-8");
    }
}
