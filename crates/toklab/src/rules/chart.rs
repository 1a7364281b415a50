//! utoken's chart (its `--annotation_file` JSON), one object per line:
//! `{"ID": "1", "snt": "…", "chart": [{"span": "0-5", "type": "ABBREV", "sem-class": "…",
//! "surf": "Capt."}, …]}` with code-point spans into `snt`, written exactly as utoken's
//! `json.dumps(…, ensure_ascii=False)` writes it.
//!
//! `snt` and the spans are utoken's, quirks included: `snt` is the line after the
//! replacements that change its length (`&nbsp;` → U+00A0), and the spans go through
//! utoken's vertex map, which does not know about zero-width and variation-selector
//! deletions (so spans after one are shifted as in utoken).

use std::io::{self, Write};

use super::normalize::normalize;
use super::origin::RuleOrigin;
use crate::offsets::CodePoints;
use crate::token::Tokenization;

/// Writes the chart record of one line.
pub fn write(out: &mut dyn Write, id: usize, text: &str, tokens: &Tokenization) -> io::Result<()> {
    let (sentence, map) = normalize(text, true);
    let map = map.unwrap_or_default();
    // Sentence index of each original byte start / end.
    let origins = sentence.char_origins();
    let index_of_start = |byte: usize| origins.binary_search_by_key(&(byte as u32), |o| o.0).ok();
    let index_of_end = |byte: usize| origins.binary_search_by_key(&(byte as u32), |o| o.1).ok();
    let mut cp = CodePoints::new(text);
    write!(
        out,
        "{{\"ID\": \"{id}\", \"snt\": {}, \"chart\": [",
        json_string(&map.snt)
    )?;
    for (i, token) in tokens.tokens.iter().enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        let (from, to) = match (
            index_of_start(token.span.start),
            index_of_end(token.span.end),
        ) {
            (Some(a), Some(b)) if !token.span.is_empty() => map.span(a, b + 1),
            _ => (cp.at(token.span.start) as u32, cp.at(token.span.end) as u32),
        };
        let (chart_type, sem_class) = match token.origin.detail_as::<RuleOrigin>() {
            Some(o) => (o.chart_type.as_str().to_string(), o.sem_class.clone()),
            None => (token.kind.name().to_uppercase(), None),
        };
        write!(
            out,
            "{{\"span\": \"{from}-{to}\", \"type\": {}",
            json_string(&chart_type)
        )?;
        if let Some(sem) = sem_class {
            write!(out, ", \"sem-class\": {}", json_string(&sem))?;
        }
        write!(out, ", \"surf\": {}}}", json_string(token.form(text)))?;
    }
    out.write_all(b"]}\n")
}

/// A JSON string as Python's `json.dumps(ensure_ascii=False)` writes it.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_match_python() {
        assert_eq!(
            json_string("a\"b\\c\u{1}é\u{7f}"),
            "\"a\\\"b\\\\c\\u0001é\u{7f}\""
        );
        assert_eq!(json_string("\t\n"), "\"\\t\\n\"");
    }
}
