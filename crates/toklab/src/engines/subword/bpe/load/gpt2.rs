//! GPT-2's release format: a folder with `encoder.json` (or `vocab.json`), the vocabulary in
//! the byte-level alphabet, and `vocab.bpe` (or `merges.txt`), one merge `left right` per line
//! in priority order after a `#version` line.

use std::path::{Path, PathBuf};

use super::{JsonVocab, json_error, line_of_key, read_text, vocab_from_json};
use crate::core::error::{Error, Result};
use crate::engines::subword::bpe::bytelevel;
use crate::engines::subword::bpe::merge_table::{Merge, MergeTable};
use crate::engines::subword::bpe::model::{Alphabet, BpeModel, Rules};
use crate::engines::subword::bpe::specials::Specials;
use crate::engines::subword::bpe::vocab::Vocab;

/// The two files of a model folder.
pub fn files(dir: &Path) -> Result<(PathBuf, PathBuf)> {
    let find = |names: &[&str]| names.iter().map(|n| dir.join(n)).find(|p| p.is_file());
    let vocab = find(&["encoder.json", "vocab.json"]);
    let merges = find(&["vocab.bpe", "merges.txt"]);
    match (vocab, merges) {
        (Some(v), Some(m)) => Ok((v, m)),
        (None, _) => Err(Error::format(
            dir,
            None,
            "no encoder.json or vocab.json in this folder",
        )),
        (_, None) => Err(Error::format(
            dir,
            None,
            "no vocab.bpe or merges.txt in this folder",
        )),
    }
}

/// What a loader returns besides the model: things the user should know.
pub struct Loaded {
    /// The model, ready to tokenize with.
    pub model: BpeModel,
    /// Entries read in an unexpected way (a non-byte-level vocabulary, a repeated merge).
    pub warnings: Vec<String>,
    /// The files read, for the workbench to watch.
    pub sources: Vec<PathBuf>,
}

/// Loads a GPT-2 model folder.
pub fn load(dir: &Path) -> Result<Loaded> {
    let (vocab_path, merges_path) = files(dir)?;
    let text = read_text(&vocab_path)?;
    let entries: JsonVocab = serde_json::from_str(&text).map_err(|e| json_error(&vocab_path, e))?;
    // A GPT-2 vocabulary is byte-level: an entry outside the byte alphabet means the file is
    // not what it claims, and reading every entry as plain text instead would give wrong ids
    // on every line, so it is refused, naming the entry.
    if let Some((piece, _)) = entries
        .0
        .iter()
        .find(|(p, _)| bytelevel::decode(p).is_none())
    {
        let outside = entries
            .0
            .iter()
            .filter(|(p, _)| bytelevel::decode(p).is_none())
            .count();
        return Err(Error::format(
            &vocab_path,
            line_of_key(&text, piece),
            format!(
                "entry {piece:?} is not in GPT-2's byte alphabet ({outside} of {} entries are not): a GPT-2 vocabulary must be byte-level",
                entries.0.len()
            ),
        ));
    }
    let (vocab, byte_level) = vocab_from_json(&vocab_path, &text, &entries, true)?;
    let mut warnings = Vec::new();
    let merges_text = read_text(&merges_path)?;
    let decode = |s: &str| match byte_level {
        true => bytelevel::decode(s),
        false => Some(s.as_bytes().to_vec()),
    };
    let merges = parse_merges(
        &merges_path,
        merges_text
            .lines()
            .map(|l| l.strip_suffix('\r').unwrap_or(l)),
        &vocab,
        decode,
        &mut warnings,
    )?;
    let mut model = BpeModel::new(vocab, Rules::Table(merges));
    model.alphabet = match byte_level {
        true => Alphabet::bytes_of(&model.vocab),
        false => Alphabet::Chars,
    };
    model.pretok = crate::engines::subword::bpe::model::PreTokenizer::named("gpt2").expect("known");
    model.specials = unmade_tokens_as_specials(&model, byte_level, &merges_path)?;
    Ok(Loaded {
        model,
        warnings,
        sources: vec![vocab_path, merges_path],
    })
}

/// Parses merge lines `left right` (1-based line numbers in errors; a first line starting
/// with `#version` is skipped). Each side and their concatenation must be tokens.
pub fn parse_merges<'a>(
    path: &Path,
    lines: impl Iterator<Item = &'a str>,
    vocab: &Vocab,
    decode: impl Fn(&str) -> Option<Vec<u8>>,
    warnings: &mut Vec<String>,
) -> Result<MergeTable> {
    let mut table = MergeTable::with_capacity(vocab.len());
    let mut rank = 0u32;
    let mut first_line_of_rank: Vec<usize> = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 1;
        if index == 0 && line.starts_with("#version") {
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let bad = |message: String| Error::format(path, Some(number), message);
        let mut parts = line.split(' ');
        let (Some(left), Some(right), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad(format!(
                "expected a merge `left right`, found {line:?}"
            )));
        };
        let id = |side: &str| -> Result<(u32, Vec<u8>)> {
            let bytes = decode(side)
                .ok_or_else(|| bad(format!("{side:?} is not in the byte-level alphabet")))?;
            let id = vocab
                .id(&bytes)
                .ok_or_else(|| bad(format!("{side:?} is not in the vocabulary")))?;
            Ok((id, bytes))
        };
        let (left_id, mut bytes) = id(left)?;
        let (right_id, right_bytes) = id(right)?;
        bytes.extend_from_slice(&right_bytes);
        let merged = vocab.id(&bytes).ok_or_else(|| {
            bad(format!(
                "the merge of {left:?} and {right:?} is not in the vocabulary"
            ))
        })?;
        let merge = Merge { rank, merged };
        if let Some(old) = table.insert(left_id, right_id, merge) {
            warnings.push(format!(
                "{}:{number}: merge {left:?} {right:?} repeats line {}; the later rank counts, as in GPT-2's encoder.py and HuggingFace tokenizers",
                path.display(),
                first_line_of_rank[old.rank as usize]
            ));
        }
        first_line_of_rank.push(number);
        rank += 1;
    }
    Ok(table)
}

/// Tokens of more than one symbol that no merge makes are GPT-2's way of declaring special
/// tokens (`<|endoftext|>`), matched literally in the text, when they are written as control
/// tokens are (`<…>`, `[…]`). Any other unmade token (`Hello`) means the merge list does not
/// cover the vocabulary (an empty or truncated `vocab.bpe`, or one of another model): that is
/// an error naming the merge file, not a silent special token.
pub fn unmade_tokens_as_specials(
    model: &BpeModel,
    byte_level: bool,
    merges_path: &Path,
) -> Result<Specials> {
    let mut specials = Vec::new();
    let mut unmade = Vec::new();
    for (id, bytes) in model.vocab.iter() {
        let single = match byte_level {
            true => bytes.len() == 1,
            false => std::str::from_utf8(bytes).is_ok_and(|s| s.chars().count() == 1),
        };
        if single || model.rank_of_token(id).is_some() {
            continue;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) if looks_like_a_control_token(text) => specials.push((text.to_string(), id)),
            _ => unmade.push((id, bytes)),
        }
    }
    if let Some(&(id, bytes)) = unmade.iter().min_by_key(|(id, _)| *id) {
        return Err(Error::format(
            merges_path,
            None,
            format!(
                "{} vocabulary entr{} no merge makes (the first, id {id}: {:?}): the merge list does not cover the vocabulary (empty, truncated, or from another model)",
                unmade.len(),
                if unmade.len() == 1 { "y" } else { "ies" },
                String::from_utf8_lossy(bytes)
            ),
        ));
    }
    Ok(Specials::new(specials))
}

/// Whether `text` is written as models write their control tokens: `<…>` or `[…]` around
/// something without spaces (`<|endoftext|>`, `<s>`, `[CLS]`).
fn looks_like_a_control_token(text: &str) -> bool {
    let inner = text
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .or_else(|| text.strip_prefix('[').and_then(|t| t.strip_suffix(']')));
    inner.is_some_and(|inner| !inner.is_empty() && !inner.chars().any(char::is_whitespace))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocab {
        let mut v = Vocab::default();
        for (id, t) in ["a", "b", "ab", "<|x|>"].iter().enumerate() {
            v.insert(id as u32, t.as_bytes()).unwrap();
        }
        v
    }

    fn merges(text: &str) -> Result<MergeTable> {
        parse_merges(
            Path::new("m.txt"),
            text.lines(),
            &vocab(),
            |s| Some(s.as_bytes().to_vec()),
            &mut Vec::new(),
        )
    }

    #[test]
    fn entries_outside_the_byte_alphabet_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vocab.json"),
            "{\"a\": 0,\n \"b\": 1,\n \"\u{2581}ab\": 2}",
        )
        .unwrap();
        std::fs::write(dir.path().join("merges.txt"), "#version: 0.2\na b\n").unwrap();
        let e = load(dir.path()).err().unwrap().to_string();
        assert!(
            e.contains("vocab.json:3") && e.contains("\"\u{2581}ab\"") && e.contains("1 of 3"),
            "{e}"
        );
    }

    #[test]
    fn merge_lines_and_their_errors() {
        let t = merges("#version: 0.2\na b\n").unwrap();
        assert_eq!(t.get(0, 1), Some(Merge { rank: 0, merged: 2 }));
        let e = merges("#version: 0.2\na b\na c\n").unwrap_err().to_string();
        assert_eq!(e, "m.txt:3: \"c\" is not in the vocabulary");
        let e = merges("a b c\n").unwrap_err().to_string();
        assert!(e.starts_with("m.txt:1: expected a merge"), "{e}");
        let e = merges("b a\n").unwrap_err().to_string();
        assert!(e.contains("merge of \"b\" and \"a\" is not in"), "{e}");
    }

    #[test]
    fn unmade_control_tokens_are_special() {
        let model = BpeModel::new(vocab(), Rules::Table(merges("a b").unwrap()));
        let specials = unmade_tokens_as_specials(&model, true, Path::new("m.txt")).unwrap();
        assert_eq!(specials.iter().collect::<Vec<_>>(), [("<|x|>", 3)]);
    }

    #[test]
    fn unmade_words_mean_the_merge_list_is_short() {
        // An empty merge list: `ab` is made by nothing, and it is no control token.
        let model = BpeModel::new(vocab(), Rules::Table(merges("#version: 0.2\n").unwrap()));
        let e = unmade_tokens_as_specials(&model, true, Path::new("m.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("m.txt: 1 vocabulary entry no merge makes (the first, id 2: \"ab\")"),
            "{e}"
        );
    }
}
