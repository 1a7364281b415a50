//! utoken's chart (its `--annotation_file` JSON) as data: for one line, utoken's `snt` and one
//! entry per token with its code-point span into `snt`, its chart type and semantic class. The
//! program writes it as utoken's `json.dumps` does; the library only computes it.
//!
//! `snt` and the spans are utoken's, quirks included: `snt` is the line after the
//! replacements that change its length (`&nbsp;` → U+00A0), and the spans go through
//! utoken's vertex map, which does not know about zero-width and variation-selector
//! deletions (so spans after one are shifted as in utoken).

use serde::Serialize;

use super::normalize::normalize;
use super::origin::RuleOrigin;
use crate::core::offsets::CodePoints;
use crate::core::token::Tokenization;

/// utoken's chart of one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chart {
    /// The line as utoken's spans count it.
    pub snt: String,
    /// One entry per token, in order.
    pub chart: Vec<ChartEntry>,
}

/// One token of a [`Chart`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChartEntry {
    /// Code-point span into [`Chart::snt`], end exclusive.
    pub span: (u32, u32),
    /// utoken's type (`ABBREV`, `DECONTRACTION`, …; the token kind in capitals for tokens that
    /// came from no rule).
    #[serde(rename = "type")]
    pub chart_type: String,
    /// The rule's `::sem-class`, when it has one.
    #[serde(rename = "sem-class", skip_serializing_if = "Option::is_none")]
    pub sem_class: Option<String>,
    /// The token's surface.
    pub surf: String,
}

/// The chart of one line as utoken writes it.
pub fn chart(text: &str, tokens: &Tokenization) -> Chart {
    let (sentence, map) = normalize(text, true);
    let map = map.unwrap_or_default();
    // Sentence index of each original byte start / end.
    let origins = sentence.char_origins();
    let index_of_start = |byte: usize| origins.binary_search_by_key(&(byte as u32), |o| o.0).ok();
    let index_of_end = |byte: usize| origins.binary_search_by_key(&(byte as u32), |o| o.1).ok();
    let mut cp = CodePoints::new(text);
    let chart = tokens
        .tokens
        .iter()
        .map(|token| {
            let span = match (
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
            ChartEntry {
                span,
                chart_type,
                sem_class: sem_class.map(|s| s.to_string()),
                surf: token.form(text).to_string(),
            }
        })
        .collect();
    Chart {
        snt: map.snt,
        chart,
    }
}
