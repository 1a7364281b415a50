//! Writing tokenizations in the command line's formats. Each writer handles one text (one
//! input line) so `toklab tokenize` can stream in constant memory.

use std::io::{self, Write};

use serde::Serialize;

use toklab::core::offsets::CodePoints;
use toklab::core::token::Tokenization;
use toklab::core::tokenizer::NO_ID;

/// The output formats of `toklab tokenize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Token forms joined by single spaces, one line per text.
    Text,
    /// One JSON object per text, with code point and byte offsets.
    Json,
    /// Datok's stream: a token per line, an empty line after each sentence, one more per text.
    Datok,
    /// Datok's offset lines: token offsets, then sentence offsets (code points).
    Offsets,
    /// The token ids of each text separated by spaces, one line per text (`-` for a token
    /// without an id).
    Ids,
    /// utoken's chart: one JSON object per text with code-point spans, types and forms.
    Chart,
}

impl toklab::Choice for Format {
    const ALL: &'static [Format] = &[
        Format::Text,
        Format::Json,
        Format::Datok,
        Format::Offsets,
        Format::Ids,
        Format::Chart,
    ];

    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Datok => "datok",
            Format::Offsets => "offsets",
            Format::Ids => "ids",
            Format::Chart => "chart",
        }
    }

    fn about(self) -> &'static str {
        match self {
            Format::Text => "token forms joined by single spaces, one line per text",
            Format::Json => "one JSON object per text, with code point and byte offsets",
            Format::Datok => "Datok's stream: a token per line, an empty line after each sentence",
            Format::Offsets => "Datok's offset lines: token offsets, then sentence offsets",
            Format::Ids => "the token ids of each text separated by spaces",
            Format::Chart => "utoken's chart: one JSON object per text with spans, types, forms",
        }
    }
}

/// Writes `tokens` of `text` in `format`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    text: &str,
    tokens: &Tokenization,
) -> io::Result<()> {
    write_record(out, format, 1, text, tokens)
}

/// Writes `tokens` of `text` in `format` as record `number` (1-based; formats that number
/// their records, such as `chart`, show it).
pub fn write_record(
    out: &mut dyn Write,
    format: Format,
    number: usize,
    text: &str,
    tokens: &Tokenization,
) -> io::Result<()> {
    match format {
        Format::Chart => write_chart(out, number, text, tokens),
        Format::Text => write_text(out, text, tokens),
        Format::Json => write_json(out, text, tokens),
        Format::Datok => write_datok(out, text, tokens),
        Format::Offsets => write_offsets(out, text, tokens),
        Format::Ids => write_ids(out, tokens),
    }
}

/// utoken's chart record of one line, written exactly as utoken's
/// `json.dumps(…, ensure_ascii=False)` writes it (`", "` and `": "` separators).
fn write_chart(
    out: &mut dyn Write,
    id: usize,
    text: &str,
    tokens: &Tokenization,
) -> io::Result<()> {
    let chart = toklab::engines::rules::chart::chart(text, tokens);
    write!(
        out,
        "{{\"ID\": \"{id}\", \"snt\": {}, \"chart\": [",
        json_string(&chart.snt)
    )?;
    for (i, entry) in chart.chart.iter().enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        let (from, to) = entry.span;
        write!(
            out,
            "{{\"span\": \"{from}-{to}\", \"type\": {}",
            json_string(&entry.chart_type)
        )?;
        if let Some(sem) = &entry.sem_class {
            write!(out, ", \"sem-class\": {}", json_string(sem))?;
        }
        write!(out, ", \"surf\": {}}}", json_string(&entry.surf))?;
    }
    out.write_all(b"]}\n")
}

/// A JSON string as Python's `json.dumps(ensure_ascii=False)` writes it.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn write_text(out: &mut dyn Write, text: &str, tokens: &Tokenization) -> io::Result<()> {
    let mut record = Vec::with_capacity(text.len() + tokens.len() + 1);
    push_forms(&mut record, text, tokens, false);
    record.push(b'\n');
    out.write_all(&record)
}

/// Appends the forms of `tokens` (of `text`) separated by spaces, after a space when `more`
/// (the forms continue a record already begun), as the `text` format writes them.
pub fn push_forms(out: &mut Vec<u8>, text: &str, tokens: &Tokenization, more: bool) {
    for (i, token) in tokens.tokens.iter().enumerate() {
        if i > 0 || more {
            out.push(b' ');
        }
        out.extend_from_slice(token.form(text).as_bytes());
    }
}

#[derive(Serialize)]
struct JsonText<'a> {
    text: &'a str,
    tokens: Vec<JsonToken<'a>>,
    sentences: Vec<[usize; 2]>,
}

#[derive(Serialize)]
struct JsonToken<'a> {
    form: &'a str,
    kind: &'static str,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u32>,
}

fn write_json(out: &mut dyn Write, text: &str, tokens: &Tokenization) -> io::Result<()> {
    let mut cp = CodePoints::new(text);
    let json_tokens = tokens
        .tokens
        .iter()
        .map(|t| JsonToken {
            form: t.form(text),
            kind: t.kind.name(),
            start: cp.at(t.span.start),
            end: cp.at(t.span.end),
            byte_start: t.bytes().start,
            byte_end: t.bytes().end,
            id: t.id,
        })
        .collect();
    let mut cp = CodePoints::new(text);
    let sentences = tokens
        .sentences()
        .iter()
        .map(|s| [cp.at(s.start), cp.at(s.end)])
        .collect();
    serde_json::to_writer(
        &mut *out,
        &JsonText {
            text,
            tokens: json_tokens,
            sentences,
        },
    )?;
    out.write_all(b"\n")
}

/// Datok's stream, gathered into one buffer and written at once: a token is two small writes,
/// which through `dyn Write` cost more than the copy.
fn write_datok(out: &mut dyn Write, text: &str, tokens: &Tokenization) -> io::Result<()> {
    let mut record = Vec::with_capacity(text.len() + 2 * tokens.len() + 3);
    let mut ends = tokens.sentence_ends.iter().peekable();
    for (i, token) in tokens.tokens.iter().enumerate() {
        record.extend_from_slice(token.form(text).as_bytes());
        record.push(b'\n');
        // The sentence ends are in order, so they are met in turn rather than searched.
        while ends.next_if(|&&end| end < i).is_some() {}
        if ends.peek() == Some(&&i) || i + 1 == tokens.len() {
            record.push(b'\n');
        }
    }
    if tokens.is_empty() {
        // Datok closes a sentence even when the text had no token.
        record.push(b'\n');
    }
    record.push(b'\n');
    out.write_all(&record)
}

fn write_ids(out: &mut dyn Write, tokens: &Tokenization) -> io::Result<()> {
    let ids: Vec<u32> = tokens.iter().map(|t| t.id.unwrap_or(NO_ID)).collect();
    let mut line = Vec::with_capacity(ids.len() * 6 + 1);
    push_ids(&mut line, &ids);
    out.write_all(&line)
}

/// Appends one record of the `ids` format: the ids in decimal separated by spaces, `-` for
/// [`NO_ID`], then a newline. Written digit pairs at a time into the caller's buffer, since
/// formatting through `fmt` costs more than encoding the ids on a long text.
pub fn push_ids(out: &mut Vec<u8>, ids: &[u32]) {
    push_id_list(out, ids, false);
    out.push(b'\n');
}

/// Appends `ids` as [`push_ids`] does but without the newline, after a space when `more`
/// (the ids continue a record already begun): a long line's record is written piece by piece.
pub fn push_id_list(out: &mut Vec<u8>, ids: &[u32], more: bool) {
    out.reserve(ids.len() * 6 + 1);
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 || more {
            out.push(b' ');
        }
        match id {
            NO_ID => out.push(b'-'),
            id => push_decimal(out, id),
        }
    }
}

/// The two-digit numbers 00..99 as ASCII, for writing decimals two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        digits[at] = b'0' + n as u8;
    }
    out.extend_from_slice(&digits[at..]);
}

fn write_offsets(out: &mut dyn Write, text: &str, tokens: &Tokenization) -> io::Result<()> {
    let mut cp = CodePoints::new(text);
    let spans: Vec<String> = tokens
        .tokens
        .iter()
        .map(|t| format!("{} {}", cp.at(t.span.start), cp.at(t.span.end)))
        .collect();
    writeln!(out, "{}", spans.join(" "))?;
    let mut cp = CodePoints::new(text);
    let sentences: Vec<String> = tokens
        .sentences()
        .iter()
        .map(|s| format!("{} {}", cp.at(s.start), cp.at(s.end)))
        .collect();
    writeln!(out, "{}", sentences.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::core::token::{Span, Token, TokenKind};

    fn sample() -> (&'static str, Tokenization) {
        let text = "Hé ran. Ok";
        let spans = [(0, 3), (4, 7), (7, 8), (9, 11)];
        let tokens = spans
            .iter()
            .map(|&(s, e)| Token::new(Span::new(s, e), TokenKind::classify(&text[s..e])))
            .collect();
        (
            text,
            Tokenization {
                tokens,
                sentence_ends: vec![2],
            },
        )
    }

    fn render(format: Format) -> String {
        let (text, tokens) = sample();
        let mut out = Vec::new();
        write(&mut out, format, text, &tokens).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_strings_match_python() {
        assert_eq!(
            json_string("a\"b\\c\u{1}é\u{7f}"),
            "\"a\\\"b\\\\c\\u0001é\u{7f}\""
        );
        assert_eq!(json_string("\t\n"), "\"\\t\\n\"");
    }

    #[test]
    fn text_format() {
        assert_eq!(render(Format::Text), "Hé ran . Ok\n");
    }

    #[test]
    fn datok_format_ends_with_sentence_and_text_end() {
        assert_eq!(render(Format::Datok), "Hé\nran\n.\n\nOk\n\n\n");
    }

    #[test]
    fn offsets_count_code_points() {
        assert_eq!(render(Format::Offsets), "0 2 3 6 6 7 8 10\n0 7 8 10\n");
    }

    #[test]
    fn json_has_both_offset_kinds() {
        let json: serde_json::Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(json["tokens"][1]["start"], 3);
        assert_eq!(json["tokens"][1]["byte_start"], 4);
        assert_eq!(json["tokens"][2]["kind"], "punct");
        assert_eq!(json["sentences"], serde_json::json!([[0, 7], [8, 10]]));
    }

    #[test]
    fn ids_format() {
        let (text, mut tokens) = sample();
        tokens.tokens[0].id = Some(7);
        tokens.tokens[2].id = Some(12);
        let mut out = Vec::new();
        write(&mut out, Format::Ids, text, &tokens).unwrap();
        assert_eq!(out, b"7 - 12 -\n");
    }

    #[test]
    fn decimals_of_every_width() {
        let ids = [0, 7, 10, 99, 100, 12_345, 1_000_000, NO_ID, NO_ID - 1];
        let mut out = Vec::new();
        push_ids(&mut out, &ids);
        let expected = "0 7 10 99 100 12345 1000000 - 4294967294\n";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        let mut out = Vec::new();
        for n in (0..=1_000_000)
            .step_by(997)
            .chain([9, 10, 11, 999, 1000, 1001])
        {
            out.clear();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }

    #[test]
    fn empty_text() {
        let mut out = Vec::new();
        write(&mut out, Format::Datok, "  ", &Tokenization::default()).unwrap();
        assert_eq!(out, b"\n\n");
        let mut out = Vec::new();
        write(&mut out, Format::Offsets, "  ", &Tokenization::default()).unwrap();
        assert_eq!(out, b"\n\n");
    }
}
