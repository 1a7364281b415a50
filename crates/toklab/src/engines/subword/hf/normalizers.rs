//! The normalizers of `tokenizer.json` (HuggingFace's `normalizers/`), each a rewrite of a
//! [`NormalizedString`] so every normalized character keeps the original range it came from.

use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

use super::json::{ComponentError, flag, kind, list, required, string};
use super::pattern::Pattern;
use crate::core::normalized::{CharsMap, Form, NormalizedString};
use crate::engines::subword::wordpiece::basic::{is_control, is_nonspacing_mark, is_whitespace};

/// How many times longer the `Replace` normalizers of a pipeline may make a text (real
/// models' replacements grow it a few times at most, `" "` → `"▁"` three times).
pub const MAX_GROWTH: f64 = 1024.0;

/// A `Replace` pattern as an error names it.
fn pattern_name(pattern: &Pattern) -> String {
    match pattern {
        Pattern::Literal(literal) => format!("{:?}", abbreviated(literal)),
        Pattern::Regex(regex) => format!("regex {:?}", abbreviated(regex.as_str())),
        _ => "pattern".to_string(),
    }
}

/// The first 40 characters of `text`, with `…` when there are more.
fn abbreviated(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// One normalizer of the pipeline.
#[derive(Debug)]
pub enum Normalizer {
    /// Each in turn (an empty sequence changes nothing).
    Sequence(Vec<Normalizer>),
    /// Unicode normalization: `NFC`, `NFD`, `NFKC`, `NFKD`.
    Unicode(Form),
    /// `Lowercase`: character by character.
    Lowercase,
    /// `Strip`: whitespace at the start and/or the end.
    Strip {
        /// Strip the start.
        left: bool,
        /// Strip the end.
        right: bool,
    },
    /// `StripAccents`: combining marks removed (on text decomposed before, usually by `NFD`).
    StripAccents,
    /// `Replace`: every match of a string or regex by `content`.
    Replace {
        /// What is replaced.
        pattern: Pattern,
        /// What replaces it.
        content: String,
    },
    /// `Prepend`: text put before any non-empty text.
    Prepend(String),
    /// `BertNormalizer`, each flag on its own.
    Bert {
        /// Remove control characters, NUL and U+FFFD; whitespace becomes a space.
        clean_text: bool,
        /// Put spaces around CJK ideographs.
        handle_chinese_chars: bool,
        /// Decompose and drop non-spacing marks (when the file says null: as `lowercase`).
        strip_accents: bool,
        /// Lowercase.
        lowercase: bool,
    },
    /// `Precompiled`: SentencePiece's character map, grapheme by grapheme as the reference
    /// applies it.
    Precompiled(CharsMap),
    /// `Nmt`: ASCII control characters removed, other space-like characters (tab, line
    /// breaks, zero-width spaces, `▁`, BOM, U+FFFD) become a space.
    Nmt,
    /// `ByteLevel`: the text becomes GPT-2's byte alphabet. toklab's byte-level models work on
    /// bytes directly, so this changes no text: it makes the model byte-level.
    ByteLevel,
}

/// Whether a `Replace` leaves an ASCII space between ASCII letters a space, and no match of
/// it reaches across one: a literal with no white space in it or in what replaces it (curly
/// quotes made straight), or a run of spaces made one space (` {2,}`, ` +`), which a single
/// space between letters is either not part of or stays.
fn replaces_locally(pattern: &Pattern, content: &str) -> bool {
    match pattern {
        Pattern::Literal(literal) => {
            !literal.is_empty()
                && !literal.contains(char::is_whitespace)
                && !content.contains(char::is_whitespace)
        }
        Pattern::Regex(regex) => {
            let runs = regex.as_str().strip_prefix(' ').is_some_and(|rest| {
                rest == "+"
                    || rest
                        .strip_prefix('{')
                        .and_then(|r| r.strip_suffix('}'))
                        .is_some_and(|r| {
                            r.contains(',') && r.chars().all(|c| c.is_ascii_digit() || c == ',')
                        })
            });
            runs && content == " "
        }
        _ => false,
    }
}

impl Normalizer {
    /// Whether it changes each character on its own, so that an ASCII space between ASCII
    /// letters stays a space and nothing it does reaches across one: what lets the pipeline
    /// cut a text there ([`super::pipeline::Pipeline::cut_point`]). Unicode forms count: a
    /// space is a starter that composes with nothing on either side.
    pub fn is_char_local(&self) -> bool {
        match self {
            Normalizer::Sequence(all) => all.iter().all(Normalizer::is_char_local),
            Normalizer::Unicode(_)
            | Normalizer::Lowercase
            | Normalizer::StripAccents
            | Normalizer::Bert { .. }
            | Normalizer::Nmt
            | Normalizer::ByteLevel => true,
            Normalizer::Replace { pattern, content } => replaces_locally(pattern, content),
            Normalizer::Strip { .. } | Normalizer::Prepend(_) | Normalizer::Precompiled(_) => false,
        }
    }

    /// Whether each character is normalized on its own, whatever is next to it, so a text
    /// cut between two characters that are not white space normalizes, part by part, as the
    /// whole does: what lets the pipeline cut a word where a unigram model's paths meet
    /// (`Pipeline::meeting_cut`). Stricter than [`Normalizer::is_char_local`]: Unicode
    /// forms compose and reorder across characters, and a literal of several characters
    /// spans a cut between them.
    pub fn cuts_between_chars(&self) -> bool {
        match self {
            Normalizer::Sequence(all) => all.iter().all(Normalizer::cuts_between_chars),
            Normalizer::Lowercase | Normalizer::Nmt | Normalizer::ByteLevel => true,
            Normalizer::Replace { pattern, content } => {
                let one_char = match pattern {
                    Pattern::Literal(literal) => literal.chars().count() == 1,
                    _ => true,
                };
                one_char && replaces_locally(pattern, content)
            }
            _ => false,
        }
    }

    /// Reads a normalizer; an unknown type is an error naming it.
    pub fn from_json(value: &Value) -> Result<Normalizer, ComponentError> {
        Ok(match kind(value) {
            "Sequence" => Normalizer::Sequence(
                list(value, "normalizers")?
                    .iter()
                    .map(Normalizer::from_json)
                    .collect::<Result<_, ComponentError>>()?,
            ),
            "NFC" => Normalizer::Unicode(Form::Nfc),
            "NFD" => Normalizer::Unicode(Form::Nfd),
            "NFKC" => Normalizer::Unicode(Form::Nfkc),
            "NFKD" => Normalizer::Unicode(Form::Nfkd),
            "Lowercase" => Normalizer::Lowercase,
            "Strip" => Normalizer::Strip {
                left: flag(value, "strip_left", true)?,
                right: flag(value, "strip_right", true)?,
            },
            "StripAccents" => Normalizer::StripAccents,
            "Replace" => Normalizer::Replace {
                pattern: Pattern::from_json(value)?,
                content: required(value, "content")?.to_string(),
            },
            "Prepend" => Normalizer::Prepend(required(value, "prepend")?.to_string()),
            "BertNormalizer" => {
                let lowercase = flag(value, "lowercase", true)?;
                Normalizer::Bert {
                    clean_text: flag(value, "clean_text", true)?,
                    handle_chinese_chars: flag(value, "handle_chinese_chars", true)?,
                    strip_accents: flag(value, "strip_accents", lowercase)?,
                    lowercase,
                }
            }
            "Precompiled" => {
                let encoded = string(value, "precompiled_charsmap")?.unwrap_or("");
                let blob = base64_decode(encoded).ok_or_else(|| {
                    ComponentError::invalid("Precompiled precompiled_charsmap is not base64")
                })?;
                if blob.is_empty() {
                    // An empty map rewrites nothing.
                    Normalizer::Sequence(Vec::new())
                } else {
                    Normalizer::Precompiled(CharsMap::parse(&blob).map_err(|e| {
                        ComponentError::invalid(format!("Precompiled precompiled_charsmap: {e}"))
                    })?)
                }
            }
            "Nmt" => Normalizer::Nmt,
            "ByteLevel" => Normalizer::ByteLevel,
            other => {
                return Err(ComponentError::unsupported(format!(
                    "normalizer {other} is not supported"
                )));
            }
        })
    }

    /// Refuses a normalizer whose replacements, one after another, could make a text more than
    /// [`MAX_GROWTH`] times longer: five chained `Replace a → a×100` make one `a` ten billion
    /// bytes. Each `Replace` can grow a text by its content's length over its pattern's
    /// shortest match (a regex: one byte, as only non-empty matches are replaced); the error
    /// names the `Replace` at which the product passes the bound.
    pub fn check_growth(&self) -> Result<(), ComponentError> {
        self.growth(1.0).map(|_| ())
    }

    /// The most the text can have grown after this normalizer, given `before`.
    fn growth(&self, before: f64) -> Result<f64, ComponentError> {
        match self {
            Normalizer::Sequence(all) => all.iter().try_fold(before, |g, n| n.growth(g)),
            Normalizer::Replace { pattern, content } => {
                let shortest = match pattern {
                    Pattern::Literal(literal) => literal.len().max(1),
                    _ => 1,
                };
                let after = before * (content.len() as f64 / shortest as f64).max(1.0);
                if after > MAX_GROWTH {
                    return Err(ComponentError::invalid(format!(
                        "normalizer Replace {} → {:?}: with the replacements before it, it can make \
                         a text {after:.0} times longer; toklab takes normalizers that grow a text \
                         at most {MAX_GROWTH:.0} times",
                        pattern_name(pattern),
                        abbreviated(content)
                    )));
                }
                Ok(after)
            }
            _ => Ok(before),
        }
    }

    /// Whether the pipeline is byte-level because of this normalizer.
    pub fn is_byte_level(&self) -> bool {
        match self {
            Normalizer::ByteLevel => true,
            Normalizer::Sequence(all) => all.iter().any(Normalizer::is_byte_level),
            _ => false,
        }
    }

    /// Normalizes `text` in place.
    pub fn apply(&self, text: &mut NormalizedString) {
        match self {
            Normalizer::Sequence(all) => all.iter().for_each(|n| n.apply(text)),
            Normalizer::Unicode(form) => text.unicode(*form),
            Normalizer::Lowercase => text.lowercase(),
            Normalizer::Strip { left, right } => {
                if *left {
                    text.lstrip();
                }
                if *right {
                    text.rstrip();
                }
            }
            Normalizer::StripAccents => text.map_chars(drop_reference_mark),
            Normalizer::Replace { pattern, content } => replace(text, pattern, content),
            Normalizer::Prepend(prefix) => {
                if !text.is_empty() {
                    text.prepend(prefix);
                }
            }
            Normalizer::Bert {
                clean_text,
                handle_chinese_chars,
                strip_accents,
                lowercase,
            } => {
                if *clean_text {
                    text.map_chars(clean);
                }
                if *handle_chinese_chars && text.normalized().chars().any(is_chinese_char) {
                    text.map_chars(pad_chinese);
                }
                if *strip_accents {
                    text.nfd();
                    text.map_chars(drop_nonspacing_mark);
                }
                if *lowercase {
                    text.lowercase();
                }
            }
            Normalizer::Precompiled(map) => precompiled(text, map),
            Normalizer::Nmt => text.map_chars(nmt),
            Normalizer::ByteLevel => {}
        }
    }
}

/// `BertNormalizer`'s `clean_text` of one character: control characters, NUL and U+FFFD
/// removed, white space made a space.
pub(super) fn clean(c: char, out: &mut String) {
    if c == '\0' || c == '\u{FFFD}' || is_control(c) {
        return;
    }
    out.push(if is_whitespace(c) { ' ' } else { c });
}

/// `BertNormalizer`'s `handle_chinese_chars` of one character: a CJK ideograph between spaces.
pub(super) fn pad_chinese(c: char, out: &mut String) {
    if is_chinese_char(c) {
        out.extend([' ', c, ' ']);
    } else {
        out.push(c);
    }
}

/// `BertNormalizer`'s accent stripping of one decomposed character: non-spacing marks removed.
pub(super) fn drop_nonspacing_mark(c: char, out: &mut String) {
    if !is_nonspacing_mark(c) {
        out.push(c);
    }
}

/// `StripAccents` of one character: the reference's combining marks removed.
pub(super) fn drop_reference_mark(c: char, out: &mut String) {
    if !is_reference_mark(c) {
        out.push(c);
    }
}

/// `Nmt` of one character.
pub(super) fn nmt(c: char, out: &mut String) {
    match c as u32 {
        0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0x8F | 0x9F => {}
        0x09
        | 0x0A
        | 0x0C
        | 0x0D
        | 0x1680
        | 0x200B..=0x200F
        | 0x2028
        | 0x2029
        | 0x2581
        | 0xFEFF
        | 0xFFFD => out.push(' '),
        _ => out.push(c),
    }
}

/// The CJK ideograph blocks of HuggingFace's `BertNormalizer` (its own list, which differs
/// from BERT's original in one block).
fn is_chinese_char(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// Every non-empty match of `pattern`, left to right, replaced by `content`.
pub fn replace(text: &mut NormalizedString, pattern: &Pattern, content: &str) {
    if let Pattern::Literal(literal) = pattern {
        text.replace(literal, content);
        return;
    }
    let mut found = Vec::new();
    pattern.matches(text.normalized(), &mut |start, end| {
        if end > start {
            found.push((start, end));
        }
    });
    if found.is_empty() {
        return;
    }
    let mut next = found.into_iter().peekable();
    let mut at = 0;
    text.rewrite(|rest, out| {
        let taken = match next.peek() {
            Some(&(start, end)) if start == at => {
                next.next();
                out.push_str(content);
                end - start
            }
            Some(&(start, _)) => {
                out.push_str(&rest[..start - at]);
                start - at
            }
            None => {
                out.push_str(rest);
                rest.len()
            }
        };
        at += taken;
        taken
    });
}

/// SentencePiece's character map as HuggingFace's `Precompiled` applies it: a grapheme shorter
/// than six bytes that some rule matches the start of is replaced whole by the replacement of
/// the *shortest* such rule (the reference's first common-prefix hit, kept as it is because
/// models were checked against it); otherwise each character is, the same way.
fn precompiled(text: &mut NormalizedString, map: &CharsMap) {
    let rule = |part: &str| {
        map.shortest(part.as_bytes())
            .map(|(_, replacement)| String::from_utf8_lossy(replacement).into_owned())
    };
    // ASCII that no rule changes is passed a byte at a time without graphemes or lookups.
    let bytes = text.normalized().as_bytes();
    if (0..bytes.len()).all(|at| map.keeps_ascii(&bytes[at..])) {
        return;
    }
    let changes = text.normalized().graphemes(true).any(|g| {
        (g.len() < 6 && rule(g).is_some())
            || g.char_indices()
                .any(|(i, c)| rule(&g[i..i + c.len_utf8()]).is_some())
    });
    if !changes {
        return;
    }
    text.rewrite(|rest, out| {
        if map.keeps_ascii(rest.as_bytes()) {
            out.push_str(&rest[..1]);
            return 1;
        }
        let grapheme = rest.graphemes(true).next().unwrap_or(rest);
        if grapheme.len() < 6
            && let Some(replacement) = rule(grapheme)
        {
            out.push_str(&replacement);
            return grapheme.len();
        }
        let c = grapheme.chars().next().unwrap_or(' ');
        let part = &rest[..c.len_utf8()];
        match rule(part) {
            Some(replacement) => out.push_str(&replacement),
            None => out.push_str(part),
        }
        part.len()
    });
}

/// Standard base64 (with or without padding); `None` if it is not.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for c in text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
    {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    Some(out)
}

/// Whether `StripAccents` removes `c`: a combining mark in the Unicode tables tokenizers uses
/// (older than Rust's: U+1CF2 is a mark there and a letter now, and hundreds of marks added
/// since are not marks to it), so the ids stay equal to the reference's.
fn is_reference_mark(c: char) -> bool {
    let c = c as u32;
    super::marks_table::MARKS
        .binary_search_by(|&(first, last)| {
            if last < c {
                std::cmp::Ordering::Less
            } else if first > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
#[path = "normalizers_tests.rs"]
mod tests;
