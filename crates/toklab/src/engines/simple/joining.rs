//! The detokenizer of the kinds whose tokens carry no joining marks (`ws`, `words`, `regex:`,
//! `pretok:`, `maxmatch:`, `lex:`, `fst:`): one place decides how their forms become text
//! again, so `toklab detokenize` gives text for every kind.
//!
//! Word tokens are joined by Treebank's detokenizer (the `ptb` kind's): it needs no rule
//! files, and for plain words it gives English spacing — none before closing punctuation,
//! none after an opening bracket, contractions (`do n't`, `it 's`) joined. Two things are
//! added around it because plain tokens are not Treebank's: straight double quotes are read
//! as opening and closing in turn (Treebank spells them ``` `` ``` and `''`), and tokens
//! written in scripts without spaces between words (Han, kana, Thai, …) are joined with
//! no space between them.

use std::sync::LazyLock;

use super::ptb::PtbTokenizer;

/// How a kind's tokens become text again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joining {
    /// A single space between tokens: exact for `ws`, whose tokens are the text between
    /// whitespace (runs of whitespace become one space; leading and trailing go).
    Spaces,
    /// The tokens as they are, one after the other: exact for tokens that keep their spaces
    /// (a BPE pre-tokenizer's ` world`).
    Concatenate,
    /// English word spacing (see the module): for tokens with the whitespace dropped.
    Words,
    /// [`Concatenate`](Joining::Concatenate) when some token holds whitespace (the pattern
    /// kept the spaces), [`Words`](Joining::Words) otherwise: for `regex:`, whose pattern
    /// decides, and `pretok:`, whose pieces lose their spaces in `toklab tokenize`'s text.
    KeptSpacesOrWords,
}

static TREEBANK: LazyLock<PtbTokenizer> = LazyLock::new(|| PtbTokenizer::new(false));

impl Joining {
    /// The text the tokens stand for, in time linear in their length.
    pub fn join(self, tokens: &[&str]) -> String {
        match self {
            Joining::Spaces => tokens.join(" "),
            Joining::Concatenate => tokens.concat(),
            Joining::Words => words(tokens),
            Joining::KeptSpacesOrWords => {
                if tokens.iter().any(|t| t.contains(char::is_whitespace)) {
                    tokens.concat()
                } else {
                    words(tokens)
                }
            }
        }
    }
}

/// Treebank's joining over the tokens, with straight quotes paired and unspaced scripts glued.
fn words(tokens: &[&str]) -> String {
    let mut groups: Vec<String> = Vec::with_capacity(tokens.len());
    let mut open_quote = false;
    for &token in tokens {
        if token == "\"" {
            groups.push(if open_quote { "''" } else { "``" }.to_string());
            open_quote = !open_quote;
            continue;
        }
        match groups.last_mut() {
            Some(last) if glued(last, token) => last.push_str(token),
            _ => groups.push(token.to_string()),
        }
    }
    let refs: Vec<&str> = groups.iter().map(String::as_str).collect();
    TREEBANK.detokenize_tokens(&refs)
}

/// Whether two tokens meet with no space: both sides are letters of a script written
/// without spaces between words.
fn glued(before: &str, after: &str) -> bool {
    let end = before.chars().next_back();
    let start = after.chars().next();
    matches!((end, start), (Some(a), Some(b)) if unspaced(a) && unspaced(b))
}

/// Letters of scripts written without spaces between words: Han, Hiragana, Katakana, Thai,
/// Lao, Khmer, Myanmar, Tibetan, and the CJK punctuation that sits between them.
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF       // Thai, Lao
        | 0x0F00..=0x0FFF     // Tibetan
        | 0x1000..=0x109F     // Myanmar
        | 0x1780..=0x17FF     // Khmer
        | 0x3000..=0x303F     // CJK symbols and punctuation
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0xFF00..=0xFFEF     // full-width forms
        | 0x20000..=0x3134F   // CJK extensions B–G
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> String {
        let tokens: Vec<&str> = line.split(' ').collect();
        Joining::Words.join(&tokens)
    }

    #[test]
    fn words_get_english_spacing() {
        assert_eq!(
            words("She said , \" we 're late \" ( again ) ; do n't wait !"),
            "She said, \"we're late\" (again); don't wait!"
        );
        assert_eq!(
            words("It costs $ 5 , or 20 % less ."),
            "It costs $5, or 20% less."
        );
    }

    #[test]
    fn unspaced_scripts_are_glued_and_meet_other_words_with_a_space() {
        assert_eq!(words("研究生 命 起源"), "研究生命起源");
        assert_eq!(words("東京 に 行く 。"), "東京に行く。");
        assert_eq!(words("BERT 模型 很 好"), "BERT 模型很好");
    }

    #[test]
    fn spaces_and_concatenation_are_exact() {
        assert_eq!(Joining::Spaces.join(&["a", "(b", "c."]), "a (b c.");
        assert_eq!(
            Joining::Concatenate.join(&["Hi", ",", " there"]),
            "Hi, there"
        );
        assert_eq!(
            Joining::KeptSpacesOrWords.join(&["Hi", ",", " there"]),
            "Hi, there"
        );
        assert_eq!(
            Joining::KeptSpacesOrWords.join(&["Hi", ",", "there"]),
            "Hi, there"
        );
    }
}
