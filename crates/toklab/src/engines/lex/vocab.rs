//! The POS vocabulary: the segments Algorithm 1 selects from a word set, with how many
//! words gave each; built by `toklab lex vocab`, read by `lex:VOCAB`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::wordmap::{Cleaning, position_counts, segments, z_scores};
use crate::core::error::{Error, Result};

/// How a vocabulary is built from a word set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildOptions {
    /// The z-score that separates the frequent from the rare positions of a word.
    pub threshold: f64,
    /// How each wordmap is cleaned.
    pub cleaning: Cleaning,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            threshold: 0.0,
            cleaning: Cleaning::Runs,
        }
    }
}

/// One word's analysis: its positional sums, z-scores and segments (what `lex vocab
/// --show` prints).
#[derive(Clone, Debug, PartialEq)]
pub struct WordAnalysis {
    /// The word.
    pub word: String,
    /// Summed cleaned wordmaps, one per character.
    pub counts: Vec<u32>,
    /// Their z-scores.
    pub z: Vec<f64>,
    /// The selected segments.
    pub segments: Vec<String>,
}

/// Analyses every word of the set against the whole set.
pub fn analyse(words: &[String], options: BuildOptions) -> Vec<WordAnalysis> {
    let chars: Vec<Vec<char>> = words.iter().map(|w| w.chars().collect()).collect();
    chars
        .iter()
        .zip(words)
        .map(|(target, word)| {
            let counts = position_counts(target, &chars, options.cleaning);
            let z = z_scores(&counts);
            let segments = segments(&z, options.threshold)
                .into_iter()
                .map(|(a, b)| target[a..b].iter().collect())
                .collect();
            WordAnalysis {
                word: word.clone(),
                counts,
                z,
                segments,
            }
        })
        .collect()
}

/// A POS vocabulary: segments in file order (the order the segmenter tries them), each
/// with the number of words that gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    /// (segment, count), most frequent first when built.
    pub entries: Vec<(String, u32)>,
}

impl Vocabulary {
    /// The vocabulary of analysed words: every segment, most frequent first, ties in
    /// alphabetical order.
    pub fn from_analyses(analyses: &[WordAnalysis]) -> Vocabulary {
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for a in analyses {
            for s in &a.segments {
                *counts.entry(s).or_default() += 1;
            }
        }
        let mut entries: Vec<(String, u32)> = counts
            .into_iter()
            .map(|(s, c)| (s.to_string(), c))
            .collect();
        entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Vocabulary { entries }
    }

    /// The vocabulary file: a comment saying how it was made, then `segment<TAB>count`.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for (s, c) in &self.entries {
            out.push_str(&format!("{s}\t{c}\n"));
        }
        out
    }

    /// Parses a vocabulary file: `segment` or `segment<TAB>count` per line; `#` starts a
    /// comment line; blank lines are skipped.
    pub fn parse(path: &Path, text: &str) -> Result<Vocabulary> {
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (segment, count) = match line.split_once('\t') {
                Some((s, c)) => {
                    let count = c.trim().parse::<u32>().map_err(|_| Error::Format {
                        path: path.to_path_buf(),
                        line: Some(i + 1),
                        column: Some(s.chars().count() + 2),
                        message: format!("the count `{c}` is not a whole number"),
                    })?;
                    (s, count)
                }
                None => (line, 1),
            };
            if segment.chars().any(char::is_whitespace) || segment.is_empty() {
                return Err(Error::Format {
                    path: path.to_path_buf(),
                    line: Some(i + 1),
                    column: Some(1),
                    message: "a segment must be one word without spaces".into(),
                });
            }
            entries.push((segment.to_lowercase(), count));
        }
        Ok(Vocabulary { entries })
    }

    /// Reads a vocabulary file.
    pub fn load(path: &Path) -> Result<Vocabulary> {
        let text = read(path)?;
        Vocabulary::parse(path, &text)
    }
}

/// Reads a word list (one word per line, `#` comment lines and blank lines skipped;
/// words are lower-cased, as the segmenter compares lower-cased text).
pub fn load_words(path: &Path) -> Result<Vec<String>> {
    let text = read(path)?;
    let mut words = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let word = line.trim();
        if word.is_empty() || word.starts_with('#') {
            continue;
        }
        if word.chars().any(char::is_whitespace) {
            return Err(Error::Format {
                path: path.to_path_buf(),
                line: Some(i + 1),
                column: None,
                message: "one word per line: this line has a space".into(),
            });
        }
        words.push(word.to_lowercase());
    }
    Ok(words)
}

fn read(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        path: PathBuf::from(path),
        cause: e,
    })?;
    String::from_utf8(bytes).map_err(|e| Error::Format {
        path: path.to_path_buf(),
        line: None,
        column: None,
        message: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vocabulary_round_trips_and_bad_counts_name_the_line() {
        let v = Vocabulary {
            entries: vec![("ver".into(), 3), ("steh".into(), 1)],
        };
        let text = v.to_text("made by a test");
        assert_eq!(Vocabulary::parse(Path::new("v"), &text).unwrap(), v);
        let e = Vocabulary::parse(Path::new("v.txt"), "ver\t3\nen\tx\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("v.txt") && e.contains('2'), "{e}");
    }

    #[test]
    fn the_verb_set_separates_prefix_stem_and_ending() {
        // Expected values from an independent Python transcription of Algorithm 1.
        let words: Vec<String> =
            "verstehen vergehen verleben verraten gehen stehen leben raten verlernen lernen"
                .split(' ')
                .map(str::to_string)
                .collect();
        let analyses = analyse(&words, BuildOptions::default());
        assert_eq!(analyses[0].counts, [5, 5, 5, 2, 2, 4, 4, 10, 10]);
        assert_eq!(analyses[0].segments, ["versteh", "en"]);
        assert_eq!(analyses[8].segments, ["ver", "lern", "en"]);
        let vocab = Vocabulary::from_analyses(&analyses);
        assert!(vocab.entries.iter().any(|(s, _)| s == "ver"));
    }
}
