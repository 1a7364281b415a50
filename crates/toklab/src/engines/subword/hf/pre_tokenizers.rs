//! The pre-tokenizers of `tokenizer.json` (HuggingFace's `pre_tokenizers/`): each cuts a
//! piece of normalized text into smaller pieces (slices of the same [`NormalizedString`], so
//! they keep their original offsets), which the model then encodes one by one.

use serde_json::Value;

use super::json::{ComponentError, flag, kind, list, single_char, string};
use super::pattern::{Behavior, Pattern, split};
use crate::core::normalized::NormalizedString;
use crate::engines::subword::gguf::{AtSpaces, at_spaces};
use crate::engines::subword::wordpiece::basic::is_punctuation;

/// Where `Metaspace` puts its replacement character in front of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrependScheme {
    /// Before every piece that does not start with it.
    Always,
    /// Only before the piece at the start of the text.
    First,
    /// Never.
    Never,
}

/// One pre-tokenizer of the pipeline.
#[derive(Debug)]
pub enum PreTokenizer {
    /// Each in turn, on every piece the previous one made.
    Sequence(Vec<PreTokenizer>),
    /// `ByteLevel`: a space before each piece not starting with one (`add_prefix_space`), then
    /// GPT-2's split (`use_regex`). Its byte alphabet is applied by making the model
    /// byte-level; `trim_offsets` only trims offsets, which toklab's spans do not need.
    ByteLevel {
        /// Put a space before each piece that does not start with one.
        add_prefix_space: bool,
        /// Split with GPT-2's pattern.
        use_regex: bool,
    },
    /// `Split`: a pattern, a behaviour and `invert`.
    Split {
        /// What is looked for.
        pattern: Pattern,
        /// What becomes of the matches.
        behavior: Behavior,
        /// Swap matches and the text between them.
        invert: bool,
    },
    /// `Metaspace`: spaces become the replacement, which goes in front by the scheme; with
    /// `split` each replacement starts a new piece.
    Metaspace {
        /// The character standing for a space (`▁`).
        replacement: char,
        /// Where it is put in front of pieces.
        prepend: PrependScheme,
        /// Start a new piece at each replacement character.
        split: bool,
    },
    /// `Whitespace`: runs of word characters and runs of other non-space characters.
    Whitespace,
    /// `WhitespaceSplit`: cut at whitespace, which is dropped.
    WhitespaceSplit,
    /// `BertPreTokenizer`: cut at whitespace (dropped) and around each punctuation character.
    Bert,
    /// `Punctuation`: each punctuation character cut off by the behaviour.
    Punctuation(Behavior),
    /// `Digits`: digits cut off, each alone or in runs.
    Digits {
        /// Each digit a piece of its own.
        individual: bool,
    },
    /// `CharDelimiterSplit`: cut at a character, which is dropped.
    CharDelimiterSplit(char),
    /// `UnicodeScripts`: cut where the Unicode script changes.
    UnicodeScripts,
}

/// HuggingFace's punctuation for BERT: ASCII punctuation and Unicode's P categories.
fn is_bert_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || is_punctuation(c)
}

impl PreTokenizer {
    /// Whether an ASCII space between ASCII letters always ends one piece and starts the
    /// next, with no stage looking across it: whitespace splitters (the space is dropped),
    /// GPT-2's pattern (the space starts the next word's piece, and a piece starting with a
    /// space gets no prefix space), a `Split` whose matches are the pieces by one of the
    /// patterns matched by hand (cl100k's as Llama 3 and GPT-3.5 write it, o200k's as GPT-4o
    /// does: no match reaches over a space that starts a letter run, and the next match starts
    /// at it), a `Split` by a regex known to split there (DeepSeek V3's), `Metaspace` when it
    /// splits, and, in a sequence with one of those, stages that cut only around punctuation or
    /// digits or leave the pieces as they are (`ByteLevel` without its regex or a prefix space,
    /// a `Split` that keeps such spaces apart). What lets the pipeline cut a text there.
    pub fn splits_at_spaces(&self) -> bool {
        match self {
            PreTokenizer::Sequence(all) => {
                all.iter().any(PreTokenizer::splits_at_spaces)
                    && all.iter().all(|p| {
                        p.splits_at_spaces()
                            || matches!(
                                p,
                                PreTokenizer::Punctuation(_)
                                    | PreTokenizer::Digits { .. }
                                    | PreTokenizer::ByteLevel {
                                        add_prefix_space: false,
                                        use_regex: false
                                    }
                            )
                            || p.keeps_spaces_apart()
                    })
            }
            PreTokenizer::Whitespace | PreTokenizer::WhitespaceSplit | PreTokenizer::Bert => true,
            // Each space becomes the replacement, which starts a new piece; a piece starting
            // with it gets none put in front.
            PreTokenizer::Metaspace { split, .. } => *split,
            PreTokenizer::ByteLevel { use_regex, .. } => *use_regex,
            // Matches cover the text, so the pieces are the matches either way.
            PreTokenizer::Split {
                pattern: Pattern::Known(..),
                behavior,
                invert,
            } => matches!(
                (behavior, invert),
                (Behavior::Isolated, false) | (Behavior::Removed, true)
            ),
            // A regex known to end a piece at such a space and start the next there (DeepSeek
            // V3's, as llama.cpp lists it too).
            PreTokenizer::Split {
                pattern: Pattern::Regex(regex),
                behavior: Behavior::Isolated,
                invert: false,
            } => at_spaces(regex.as_str()) == AtSpaces::Splits,
            _ => false,
        }
    }

    /// Whether it is a `Split` by a regex no match of which holds an ASCII space between ASCII
    /// letters, the matches near one reading only their side (digit runs, kana and Han runs:
    /// [`AtSpaces::Apart`]): the stretch that holds such a space is cut in two there, which a
    /// stage that splits at spaces ([`PreTokenizer::splits_at_spaces`]) cuts alike.
    fn keeps_spaces_apart(&self) -> bool {
        matches!(
            self,
            PreTokenizer::Split {
                pattern: Pattern::Regex(regex),
                invert: false,
                ..
            } if at_spaces(regex.as_str()) == AtSpaces::Apart
        )
    }

    /// Whether a piece always ends before the character `c`, whatever comes before it, and
    /// the pieces on either side of it are those each side makes alone: what lets the
    /// pipeline cut a text before `c` ([`super::pipeline::Pipeline::cut_point`]). Splitters
    /// at white space end a piece before it (and drop it); `BertPreTokenizer` and
    /// `Punctuation` (when the punctuation starts a piece: isolated, removed or merged with
    /// the next) before each punctuation character. In a sequence, one stage that ends a
    /// piece there is enough when every stage only cuts between characters by what they are
    /// ([`PreTokenizer::cuts_by_class`]).
    pub fn ends_piece_before(&self, c: char) -> bool {
        match self {
            PreTokenizer::Sequence(all) => {
                all.iter().all(PreTokenizer::cuts_by_class)
                    && all.iter().any(|p| p.ends_piece_before(c))
            }
            PreTokenizer::Whitespace | PreTokenizer::WhitespaceSplit => c.is_whitespace(),
            PreTokenizer::Bert => c.is_whitespace() || is_bert_punctuation(c),
            PreTokenizer::Punctuation(behavior) => {
                is_bert_punctuation(c)
                    && matches!(
                        behavior,
                        Behavior::Isolated | Behavior::Removed | Behavior::MergedWithNext
                    )
            }
            PreTokenizer::CharDelimiterSplit(delimiter) => c == *delimiter,
            _ => false,
        }
    }

    /// Whether it cuts a piece only between characters, by the classes of the two (white
    /// space, word characters, punctuation, digits, a delimiter), dropping only characters of
    /// a class: cut text pre-tokenizes part by part as the whole does, but for the piece
    /// across the cut.
    fn cuts_by_class(&self) -> bool {
        matches!(
            self,
            PreTokenizer::Whitespace
                | PreTokenizer::WhitespaceSplit
                | PreTokenizer::Bert
                | PreTokenizer::Punctuation(_)
                | PreTokenizer::Digits { .. }
                | PreTokenizer::CharDelimiterSplit(_)
        )
    }

    /// Reads a pre-tokenizer; an unknown type is an error naming it.
    pub fn from_json(value: &Value) -> Result<PreTokenizer, ComponentError> {
        Ok(match kind(value) {
            "Sequence" => PreTokenizer::Sequence(
                list(value, "pretokenizers")?
                    .iter()
                    .map(PreTokenizer::from_json)
                    .collect::<Result<_, ComponentError>>()?,
            ),
            "ByteLevel" => PreTokenizer::ByteLevel {
                add_prefix_space: flag(value, "add_prefix_space", true)?,
                use_regex: flag(value, "use_regex", true)?,
            },
            "Split" => PreTokenizer::Split {
                pattern: Pattern::from_json(value)?,
                behavior: Behavior::parse(string(value, "behavior")?.unwrap_or("Removed"))?,
                invert: flag(value, "invert", false)?,
            },
            "Metaspace" => {
                let prepend = match string(value, "prepend_scheme")? {
                    Some("always") => PrependScheme::Always,
                    Some("first") => PrependScheme::First,
                    Some("never") => PrependScheme::Never,
                    Some(other) => {
                        return Err(ComponentError::unsupported(format!(
                            "Metaspace prepend_scheme {other} is not supported"
                        )));
                    }
                    // Files older than prepend_scheme say add_prefix_space.
                    None => match flag(value, "add_prefix_space", true)? {
                        true => PrependScheme::Always,
                        false => PrependScheme::Never,
                    },
                };
                PreTokenizer::Metaspace {
                    replacement: single_char(value, "replacement")?,
                    prepend,
                    split: flag(value, "split", true)?,
                }
            }
            "Whitespace" => PreTokenizer::Whitespace,
            "WhitespaceSplit" => PreTokenizer::WhitespaceSplit,
            "BertPreTokenizer" => PreTokenizer::Bert,
            "UnicodeScripts" => PreTokenizer::UnicodeScripts,
            "Punctuation" => PreTokenizer::Punctuation(Behavior::parse(
                string(value, "behavior")?.unwrap_or("Isolated"),
            )?),
            "Digits" => PreTokenizer::Digits {
                individual: flag(value, "individual_digits", false)?,
            },
            "CharDelimiterSplit" => {
                PreTokenizer::CharDelimiterSplit(single_char(value, "delimiter")?)
            }
            other => {
                return Err(ComponentError::unsupported(format!(
                    "pre_tokenizer {other} is not supported"
                )));
            }
        })
    }

    /// Whether this pre-tokenizer makes the pipeline byte-level.
    pub fn is_byte_level(&self) -> bool {
        match self {
            PreTokenizer::ByteLevel { .. } => true,
            PreTokenizer::Sequence(all) => all.iter().any(PreTokenizer::is_byte_level),
            _ => false,
        }
    }

    /// Checks what toklab cannot follow: a stage after `ByteLevel` would see its byte
    /// alphabet, which toklab never writes out.
    pub fn check(&self) -> Result<(), ComponentError> {
        if let PreTokenizer::Sequence(all) = self {
            let mut seen_byte_level = false;
            for stage in all {
                stage.check()?;
                if seen_byte_level {
                    return Err(ComponentError::unsupported(format!(
                        "pre_tokenizer {} after ByteLevel is not supported",
                        stage.name()
                    )));
                }
                seen_byte_level |= stage.is_byte_level();
            }
        }
        Ok(())
    }

    /// The type name, as the file writes it.
    pub fn name(&self) -> &'static str {
        match self {
            PreTokenizer::Sequence(_) => "Sequence",
            PreTokenizer::ByteLevel { .. } => "ByteLevel",
            PreTokenizer::Split { .. } => "Split",
            PreTokenizer::Metaspace { .. } => "Metaspace",
            PreTokenizer::Whitespace => "Whitespace",
            PreTokenizer::WhitespaceSplit => "WhitespaceSplit",
            PreTokenizer::Bert => "BertPreTokenizer",
            PreTokenizer::Punctuation(_) => "Punctuation",
            PreTokenizer::Digits { .. } => "Digits",
            PreTokenizer::UnicodeScripts => "UnicodeScripts",
            PreTokenizer::CharDelimiterSplit(_) => "CharDelimiterSplit",
        }
    }

    /// Whether a text may be cut inside a piece, the part after the cut pre-tokenized with
    /// [`PreTokenizer::apply_continued`]: `Metaspace` (whose pieces of the part after a cut
    /// that no replacement is next to are the whole text's from there, but for the one in
    /// front) and no pre-tokenizer at all.
    pub fn cuts_inside_pieces(this: Option<&PreTokenizer>) -> bool {
        this.is_none_or(|pre| matches!(pre, PreTokenizer::Metaspace { .. }))
    }

    /// [`PreTokenizer::apply`] to the part of a text after a cut inside a piece
    /// ([`PreTokenizer::cuts_inside_pieces`]): it continues a word, so `Metaspace` puts no
    /// replacement in front of it.
    pub fn apply_continued<'o>(
        &self,
        piece: NormalizedString<'o>,
        out: &mut Vec<NormalizedString<'o>>,
    ) -> Option<usize> {
        match self {
            PreTokenizer::Metaspace {
                replacement,
                split: cut,
                ..
            } => metaspace(*replacement, PrependScheme::Never, *cut, piece, out),
            _ => self.apply(piece, out),
        }
    }

    /// Cuts `piece`, appending the non-empty pieces to `out`. Returns the original offset
    /// where a pattern gave up (see [`split`]), the first if several did.
    pub fn apply<'o>(
        &self,
        piece: NormalizedString<'o>,
        out: &mut Vec<NormalizedString<'o>>,
    ) -> Option<usize> {
        match self {
            PreTokenizer::Sequence(all) => sequence(all, piece, out),
            PreTokenizer::ByteLevel {
                add_prefix_space,
                use_regex,
            } => byte_level(*add_prefix_space, *use_regex, piece, out),
            PreTokenizer::Split {
                pattern,
                behavior,
                invert,
            } => split(&piece, pattern, *behavior, *invert, out),
            PreTokenizer::Metaspace {
                replacement,
                prepend,
                split: cut,
            } => metaspace(*replacement, *prepend, *cut, piece, out),
            PreTokenizer::Whitespace => split(&piece, &WORDS, Behavior::Removed, true, out),
            PreTokenizer::WhitespaceSplit => split(
                &piece,
                &Pattern::Chars(char::is_whitespace),
                Behavior::Removed,
                false,
                out,
            ),
            PreTokenizer::Bert => {
                bert(&piece, out);
                None
            }
            PreTokenizer::Punctuation(behavior) => split(
                &piece,
                &Pattern::Chars(is_bert_punctuation),
                *behavior,
                false,
                out,
            ),
            PreTokenizer::UnicodeScripts => {
                super::scripts::split_by_script(&piece, out);
                None
            }
            PreTokenizer::Digits { individual } => split(
                &piece,
                &Pattern::Chars(char::is_numeric),
                match individual {
                    true => Behavior::Isolated,
                    false => Behavior::Contiguous,
                },
                false,
                out,
            ),
            PreTokenizer::CharDelimiterSplit(delimiter) => {
                let mut buffer = [0u8; 4];
                split(
                    &piece,
                    &Pattern::Literal(delimiter.encode_utf8(&mut buffer).to_string()),
                    Behavior::Removed,
                    false,
                    out,
                )
            }
        }
    }
}

/// `Sequence`: each stage on every piece the one before made.
fn sequence<'o>(
    all: &[PreTokenizer],
    piece: NormalizedString<'o>,
    out: &mut Vec<NormalizedString<'o>>,
) -> Option<usize> {
    let mut pieces = vec![piece];
    let mut gave_up: Option<usize> = None;
    for stage in all {
        let mut next = Vec::with_capacity(pieces.len() * 2);
        for piece in pieces {
            let here = stage.apply(piece, &mut next);
            gave_up = gave_up.into_iter().chain(here).min();
        }
        pieces = next;
    }
    out.extend(pieces);
    gave_up
}

/// `ByteLevel`: the prefix space, then GPT-2's split when `use_regex`.
fn byte_level<'o>(
    add_prefix_space: bool,
    use_regex: bool,
    piece: NormalizedString<'o>,
    out: &mut Vec<NormalizedString<'o>>,
) -> Option<usize> {
    let mut piece = piece;
    if add_prefix_space && !piece.normalized().starts_with(' ') {
        piece.prepend(" ");
    }
    match use_regex {
        true => split(&piece, &GPT2, Behavior::Isolated, false, out),
        false => {
            out.push(piece);
            None
        }
    }
}

/// `Metaspace`: spaces become the replacement, put in front by the scheme, split before each
/// when `cut`.
fn metaspace<'o>(
    replacement: char,
    prepend: PrependScheme,
    cut: bool,
    piece: NormalizedString<'o>,
    out: &mut Vec<NormalizedString<'o>>,
) -> Option<usize> {
    let mut piece = piece;
    let mut buffer = [0u8; 4];
    let replacement_text = replacement.encode_utf8(&mut buffer);
    piece.replace(" ", replacement_text);
    let put_in_front = match prepend {
        PrependScheme::Always => true,
        PrependScheme::First => piece.extent().start == 0,
        PrependScheme::Never => false,
    };
    if put_in_front && !piece.normalized().starts_with(replacement) {
        piece.prepend(replacement_text);
    }
    match cut {
        true => split(
            &piece,
            &Pattern::Literal(replacement_text.to_string()),
            Behavior::MergedWithNext,
            false,
            out,
        ),
        false => {
            out.push(piece);
            None
        }
    }
}

/// `BertPreTokenizer`: whitespace dropped, each punctuation character a piece.
fn bert<'o>(piece: &NormalizedString<'o>, out: &mut Vec<NormalizedString<'o>>) {
    // Character classes: these patterns cannot give up.
    let mut words = Vec::new();
    split(
        piece,
        &Pattern::Chars(char::is_whitespace),
        Behavior::Removed,
        false,
        &mut words,
    );
    for word in &words {
        split(
            word,
            &Pattern::Chars(is_bert_punctuation),
            Behavior::Isolated,
            false,
            out,
        );
    }
}

/// GPT-2's pattern, which `ByteLevel` splits with (by the hand-written matcher).
static GPT2: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    Pattern::regex(crate::engines::subword::pretok::GPT2_PATTERN).expect("GPT-2's pattern")
});

/// `Whitespace`'s pattern: its matches are the pieces.
static WORDS: std::sync::LazyLock<Pattern> =
    std::sync::LazyLock::new(|| Pattern::regex(r"\w+|[^\w\s]+").expect("a valid pattern"));

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(json: &str, text: &str) -> Vec<String> {
        let pre = PreTokenizer::from_json(&serde_json::from_str(json).unwrap()).unwrap();
        pre.check().unwrap();
        let mut out = Vec::new();
        pre.apply(NormalizedString::new(text), &mut out);
        out.iter().map(|p| p.normalized().to_string()).collect()
    }

    #[test]
    fn each_pre_tokenizer() {
        assert_eq!(
            pieces(r#"{"type":"Whitespace"}"#, "Hey, you!"),
            ["Hey", ",", "you", "!"]
        );
        assert_eq!(
            pieces(r#"{"type":"WhitespaceSplit"}"#, "Hey, you!"),
            ["Hey,", "you!"]
        );
        assert_eq!(
            pieces(r#"{"type":"BertPreTokenizer"}"#, "Hey, you!!"),
            ["Hey", ",", "you", "!", "!"]
        );
        assert_eq!(
            pieces(
                r#"{"type":"Punctuation","behavior":"MergedWithPrevious"}"#,
                "a,b."
            ),
            ["a,", "b."]
        );
        assert_eq!(
            pieces(r#"{"type":"Digits","individual_digits":true}"#, "a12"),
            ["a", "1", "2"]
        );
        assert_eq!(
            pieces(r#"{"type":"Digits","individual_digits":false}"#, "a12"),
            ["a", "12"]
        );
        assert_eq!(
            pieces(r#"{"type":"CharDelimiterSplit","delimiter":"|"}"#, "a|b"),
            ["a", "b"]
        );
        assert_eq!(
            pieces(
                r#"{"type":"ByteLevel","add_prefix_space":true,"use_regex":true}"#,
                "Hi you"
            ),
            [" Hi", " you"]
        );
    }

    #[test]
    fn metaspace_schemes() {
        let meta = |scheme: &str, split: bool| {
            format!(
                r#"{{"type":"Metaspace","replacement":"▁","prepend_scheme":"{scheme}","split":{split}}}"#
            )
        };
        assert_eq!(pieces(&meta("always", true), "Hi you"), ["▁Hi", "▁you"]);
        assert_eq!(pieces(&meta("never", true), "Hi you"), ["Hi", "▁you"]);
        assert_eq!(pieces(&meta("first", false), "Hi you"), ["▁Hi▁you"]);
        assert_eq!(
            pieces(
                r#"{"type":"Metaspace","replacement":"▁","add_prefix_space":true}"#,
                "a b"
            ),
            ["▁a", "▁b"]
        );
    }

    #[test]
    fn nothing_may_follow_byte_level() {
        let json =
            r#"{"type":"Sequence","pretokenizers":[{"type":"ByteLevel"},{"type":"Digits"}]}"#;
        let pre = PreTokenizer::from_json(&serde_json::from_str(json).unwrap()).unwrap();
        assert_eq!(
            pre.check().unwrap_err(),
            ComponentError::unsupported("pre_tokenizer Digits after ByteLevel is not supported")
        );
    }
}
