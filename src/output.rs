//! Writing tokenizations in the command line's formats. Each writer handles one text (one
//! input line) so `toklab tokenize` can stream in constant memory.

use std::io::{self, Write};

use serde::Serialize;

use toklab::core::offsets::CodePoints;
use toklab::core::token::Tokenization;

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
    for (i, token) in tokens.tokens.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        out.write_all(token.form(text).as_bytes())?;
    }
    out.write_all(b"\n")
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

fn write_datok(out: &mut dyn Write, text: &str, tokens: &Tokenization) -> io::Result<()> {
    for (i, token) in tokens.tokens.iter().enumerate() {
        out.write_all(token.form(text).as_bytes())?;
        out.write_all(b"\n")?;
        if tokens.ends_sentence(i) {
            out.write_all(b"\n")?;
        }
    }
    if tokens.is_empty() {
        // Datok closes a sentence even when the text had no token.
        out.write_all(b"\n")?;
    }
    out.write_all(b"\n")
}

fn write_ids(out: &mut dyn Write, tokens: &Tokenization) -> io::Result<()> {
    let mut line = String::with_capacity(tokens.len() * 6);
    for (i, token) in tokens.tokens.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        match token.id {
            Some(id) => {
                use std::fmt::Write as _;
                let _ = write!(line, "{id}");
            }
            None => line.push('-'),
        }
    }
    line.push('\n');
    out.write_all(line.as_bytes())
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
    fn empty_text() {
        let mut out = Vec::new();
        write(&mut out, Format::Datok, "  ", &Tokenization::default()).unwrap();
        assert_eq!(out, b"\n\n");
        let mut out = Vec::new();
        write(&mut out, Format::Offsets, "  ", &Tokenization::default()).unwrap();
        assert_eq!(out, b"\n\n");
    }
}
