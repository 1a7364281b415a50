//! Reference tokenizations ("gold") to score tokenizers against: a plain file with one line
//! per text and its tokens separated by spaces, or CoNLL-U. Gold tokens carry no offsets, so
//! they are placed on the text by matching their characters (an edit-distance alignment of
//! characters where gold and text differ, as when the gold writes `will n't` for `won't`).

use std::path::{Path, PathBuf};

use super::boundary::Skeleton;
use super::placement::{self, Placement};
use crate::core::error::{Error, Result};
use crate::core::token::{Span, Token, TokenKind, Tokenization};

/// The two gold formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GoldFormat {
    /// One line per text, tokens separated by spaces; the texts come from the input.
    Plain,
    /// Universal Dependencies' CoNLL-U: words, sentences, and the texts in `# text =`.
    Conllu,
}

impl crate::Choice for GoldFormat {
    const ALL: &'static [GoldFormat] = &[GoldFormat::Plain, GoldFormat::Conllu];

    fn name(self) -> &'static str {
        match self {
            GoldFormat::Plain => "plain",
            GoldFormat::Conllu => "conllu",
        }
    }

    fn about(self) -> &'static str {
        match self {
            GoldFormat::Plain => "one line per text, tokens separated by spaces",
            GoldFormat::Conllu => "Universal Dependencies' CoNLL-U",
        }
    }
}

/// The gold for one text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldText {
    /// Line of the gold file where this text starts, for messages.
    pub line: usize,
    /// The text itself when the gold carries it (CoNLL-U); plain gold leaves it to the input.
    pub text: Option<String>,
    /// The gold tokens' forms, in order.
    pub tokens: Vec<String>,
    /// Indices of the last token of each sentence (empty: one sentence, as plain gold says).
    pub sentence_ends: Vec<usize>,
}

/// A gold file read whole.
#[derive(Clone, Debug)]
pub struct Gold {
    /// Where it was read from, for messages.
    pub path: PathBuf,
    /// The format it was read in.
    pub format: GoldFormat,
    /// One entry per text, in file order.
    pub texts: Vec<GoldText>,
}

impl Gold {
    /// Reads `path` in `format`, or the format its name (`.conllu`) or first data line (ten
    /// tab-separated fields) says.
    pub fn read(path: &Path, format: Option<GoldFormat>) -> Result<Gold> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let content = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
            Error::format(path, Some(line), "invalid UTF-8")
        })?;
        let format = format.unwrap_or_else(|| detect(path, &content));
        Gold::parse(path, &content, format)
    }

    /// Parses gold `content`; `path` is for messages.
    pub fn parse(path: &Path, content: &str, format: GoldFormat) -> Result<Gold> {
        let texts = match format {
            GoldFormat::Plain => parse_plain(content),
            GoldFormat::Conllu => parse_conllu(path, content)?,
        };
        Ok(Gold {
            path: path.to_path_buf(),
            format,
            texts,
        })
    }
}

fn detect(path: &Path, content: &str) -> GoldFormat {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("conllu") || e.eq_ignore_ascii_case("conll"))
    {
        return GoldFormat::Conllu;
    }
    let first = content
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    match first {
        Some(line) if line.split('\t').count() == 10 => GoldFormat::Conllu,
        _ => GoldFormat::Plain,
    }
}

fn parse_plain(content: &str) -> Vec<GoldText> {
    content
        .lines()
        .enumerate()
        .map(|(index, line)| GoldText {
            line: index + 1,
            text: None,
            tokens: line
                .trim_end_matches('\r')
                .split(' ')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect(),
            sentence_ends: Vec::new(),
        })
        .collect()
}

/// CoNLL-U: the tokens are the syntactic words (a multiword token `don't` gives `do` and
/// `n't`; empty nodes are not tokens). Sentences become texts of their own, unless the file
/// marks paragraphs or documents (`# newpar`, `# newdoc`): then each of those is one text,
/// its sentences joined by a space, and sentence ends are scored inside it.
fn parse_conllu(path: &Path, content: &str) -> Result<Vec<GoldText>> {
    let grouped = content
        .lines()
        .any(|l| l.starts_with("# newpar") || l.starts_with("# newdoc"));
    let mut texts: Vec<GoldText> = Vec::new();
    let mut unit: Option<(GoldText, Vec<String>)> = None;
    let mut sentence = Sentence::default();
    let bad = |line: usize, message: String| Error::format(path, Some(line), message);
    let lines = content.lines().map(|l| l.trim_end_matches('\r'));
    for (index, line) in lines.chain([""]).enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            if let Some(first_line) = sentence.first_line {
                let text = sentence.text.take().unwrap_or_else(|| sentence.rebuilt());
                let (gold, parts) = unit.get_or_insert_with(|| {
                    (
                        GoldText {
                            line: first_line,
                            text: None,
                            tokens: Vec::new(),
                            sentence_ends: Vec::new(),
                        },
                        Vec::new(),
                    )
                });
                gold.tokens.append(&mut sentence.words);
                if !gold.tokens.is_empty() {
                    gold.sentence_ends.push(gold.tokens.len() - 1);
                }
                parts.push(text);
                if !grouped {
                    texts.extend(finish(unit.take()));
                }
            }
            sentence = Sentence::default();
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim_start();
            if comment.starts_with("newpar") || comment.starts_with("newdoc") {
                texts.extend(finish(unit.take()));
            } else if let Some(text) = comment.strip_prefix("text =") {
                sentence.text = Some(text.trim().to_string());
            }
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 10 {
            return Err(bad(
                number,
                format!(
                    "expected 10 tab-separated fields (CoNLL-U), found {}",
                    fields.len()
                ),
            ));
        }
        sentence.first_line.get_or_insert(number);
        let (id, form, misc) = (fields[0], fields[1], fields[9]);
        let space_after = !misc.split('|').any(|m| m == "SpaceAfter=No");
        if let Some((first, last)) = id.split_once('-') {
            let range = first.parse::<usize>().ok().zip(last.parse::<usize>().ok());
            let Some((_, last)) = range else {
                return Err(bad(number, format!("bad multiword token range `{id}`")));
            };
            sentence.inside_until = last;
            sentence.surface.push((form.to_string(), space_after));
        } else if id.contains('.') {
            // An empty node (enhanced dependencies): a word with no text, not a token.
            continue;
        } else {
            let Ok(word) = id.parse::<usize>() else {
                return Err(bad(number, format!("bad word id `{id}`")));
            };
            sentence.words.push(form.to_string());
            if word > sentence.inside_until {
                sentence.surface.push((form.to_string(), space_after));
            }
        }
    }
    texts.extend(finish(unit.take()));
    Ok(texts)
}

/// A CoNLL-U sentence being read.
#[derive(Default)]
struct Sentence {
    first_line: Option<usize>,
    text: Option<String>,
    words: Vec<String>,
    /// Surface tokens (multiword tokens whole) with their SpaceAfter, to rebuild a missing
    /// `# text`.
    surface: Vec<(String, bool)>,
    inside_until: usize,
}

impl Sentence {
    fn rebuilt(&self) -> String {
        let mut text = String::new();
        for (form, space_after) in &self.surface {
            text.push_str(form);
            if *space_after {
                text.push(' ');
            }
        }
        text.trim_end().to_string()
    }
}

fn finish(unit: Option<(GoldText, Vec<String>)>) -> Option<GoldText> {
    unit.map(|(mut gold, parts)| {
        gold.text = Some(parts.join(" "));
        gold
    })
}

/// Gold tokens placed on a text.
#[derive(Clone, Debug)]
pub struct Projection {
    /// The gold as spans of the text, like any engine's output.
    pub tokenization: Tokenization,
    /// Character edits between the gold's tokens and the text (0: the gold is the text's own
    /// characters, cut into tokens).
    pub edits: u64,
}

/// Places `gold`'s tokens on `text`: their non-whitespace characters are matched with the
/// text's, by an edit-distance alignment where they differ. A token whose characters are not
/// the text under its span keeps its own form as the rewritten form; one with no characters
/// in the text gets an empty span.
pub fn project(text: &str, gold: &GoldText) -> Projection {
    let skeleton = Skeleton::new(text);
    let t: Vec<u32> = (0..skeleton.count())
        .map(|k| {
            u32::from(
                text[skeleton.char_span(k).start..]
                    .chars()
                    .next()
                    .unwrap_or(' '),
            )
        })
        .collect();
    // The gold's characters, and for each token the range of them it owns.
    let mut g = Vec::new();
    let mut owned = Vec::with_capacity(gold.tokens.len());
    for token in &gold.tokens {
        let start = g.len();
        g.extend(token.chars().filter(|c| !c.is_whitespace()).map(u32::from));
        owned.push(start..g.len());
    }
    // For each gold character: the text position before it and after it.
    let Placement {
        before,
        after,
        edits,
    } = placement::place(&g, &t);
    let mut tokens = Vec::with_capacity(gold.tokens.len());
    let mut position = 0;
    for (form, range) in gold.tokens.iter().zip(owned) {
        let (start, end) = if range.is_empty() {
            (position, position)
        } else {
            (before[range.start], after[range.end - 1])
        };
        position = end;
        let start_byte = skeleton.byte_of(start);
        let end_byte = if end > start {
            skeleton.char_span(end - 1).end
        } else {
            start_byte
        };
        let span = Span::new(start_byte, end_byte);
        let mut token = Token::new(span, TokenKind::classify(form));
        if span.slice(text) != form {
            token = token.with_form(form.as_str());
        }
        tokens.push(token);
    }
    let tokenization = Tokenization {
        sentence_ends: gold
            .sentence_ends
            .iter()
            .copied()
            .filter(|&e| e + 1 < tokens.len())
            .collect(),
        tokens,
    };
    debug_assert_eq!(tokenization.check(text), Ok(()));
    Projection {
        tokenization,
        edits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &str) -> GoldText {
        parse_plain(line).remove(0)
    }

    fn spans(p: &Projection, text: &str) -> Vec<String> {
        p.tokenization
            .tokens
            .iter()
            .map(|t| format!("{}={}", t.surface(text), t.form(text)))
            .collect()
    }

    #[test]
    fn exact_gold_is_cut_without_edits() {
        let text = "We're  here.";
        let p = project(text, &plain("We 're here ."));
        assert_eq!(p.edits, 0);
        assert_eq!(spans(&p, text), ["We=We", "'re='re", "here=here", ".=."]);
        assert_eq!(p.tokenization.tokens[2].span, Span::new(7, 11));
    }

    #[test]
    fn rewritten_gold_is_projected_by_alignment() {
        let text = "I won't go";
        let p = project(text, &plain("I will n't go"));
        assert_eq!(spans(&p, text), ["I=I", "wo=will", "n't=n't", "go=go"]);
        assert!(p.edits > 0);
        // Text the gold lacks is left uncovered; gold text the text lacks gets an empty span.
        let text = "a, b";
        let p = project(text, &plain("a b"));
        assert_eq!(spans(&p, text), ["a=a", "b=b"]);
        let p = project("ab", &plain("a x b"));
        assert_eq!(spans(&p, "ab"), ["a=a", "=x", "b=b"]);
    }

    const CONLLU: &str = "\
# newdoc id = d1
# sent_id = 1
# text = I won't go.
1\tI\tI\tPRON\t_\t_\t0\troot\t_\t_
2-3\twon't\t_\t_\t_\t_\t_\t_\t_\t_
2\two\twill\tAUX\t_\t_\t0\t_\t_\t_
3\tn't\tnot\tPART\t_\t_\t0\t_\t_\t_
4\tgo\tgo\tVERB\t_\t_\t0\t_\t_\tSpaceAfter=No
4.1\tgone\tgo\tVERB\t_\t_\t_\t_\t_\t_
5\t.\t.\tPUNCT\t_\t_\t0\t_\t_\t_

# sent_id = 2
1\tOk\tok\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No
2\t!\t!\tPUNCT\t_\t_\t0\t_\t_\t_
";

    #[test]
    fn conllu_words_sentences_and_texts() {
        let gold = Gold::parse(Path::new("g.conllu"), CONLLU, GoldFormat::Conllu).unwrap();
        assert_eq!(gold.texts.len(), 1, "one document, one text");
        let text = &gold.texts[0];
        assert_eq!(text.text.as_deref(), Some("I won't go. Ok!"));
        assert_eq!(text.tokens, ["I", "wo", "n't", "go", ".", "Ok", "!"]);
        assert_eq!(text.sentence_ends, [4, 6]);
        assert_eq!(text.line, 4);
        let p = project(text.text.as_deref().unwrap(), text);
        assert_eq!(p.edits, 0);
        assert_eq!(p.tokenization.sentence_ends, [4]);
        // Without document or paragraph marks, every sentence is a text; a missing `# text`
        // is rebuilt from the forms and SpaceAfter.
        let ungrouped = CONLLU.replace("# newdoc id = d1\n", "");
        let gold = Gold::parse(Path::new("g"), &ungrouped, GoldFormat::Conllu).unwrap();
        assert_eq!(gold.texts.len(), 2);
        assert_eq!(gold.texts[1].text.as_deref(), Some("Ok!"));
        assert_eq!(detect(Path::new("g"), &ungrouped), GoldFormat::Conllu);
        assert_eq!(detect(Path::new("g"), "a b\n"), GoldFormat::Plain);
    }

    #[test]
    fn malformed_conllu_names_the_line() {
        let broken = CONLLU.replace("3\tn't\tnot", "3\tn't");
        let e = Gold::parse(Path::new("g.conllu"), &broken, GoldFormat::Conllu).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.conllu:7: expected 10 tab-separated fields (CoNLL-U), found 9"
        );
        let broken = CONLLU.replace("2-3\t", "2-x\t");
        let e = Gold::parse(Path::new("g.conllu"), &broken, GoldFormat::Conllu).unwrap_err();
        assert!(
            e.to_string()
                .contains("g.conllu:5: bad multiword token range `2-x`"),
            "{e}"
        );
    }
}
