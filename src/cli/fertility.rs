//! The fertility and compression table of `toklab compare`, as text and as JSON.

use std::io::{self, Write};

use serde_json::{Value, json};
use toklab::analysis::{Fertility, FertilityTable};

/// The label of the whole input's rows.
const ALL: &str = "all";

/// The groups to show: the whole input, then each group when there are several.
fn sections(table: &FertilityTable) -> Vec<(&str, &[Fertility])> {
    let mut sections = vec![(ALL, table.total.as_slice())];
    if table.groups.len() > 1 {
        sections.extend(table.groups.iter().map(|(n, f)| (n.as_str(), f.as_slice())));
    }
    sections
}

/// Writes the table: per group and tokenizer, tokens per word, characters and bytes per token
/// and the share of words split.
pub fn write_table(
    out: &mut impl Write,
    names: &[String],
    table: &FertilityTable,
) -> io::Result<()> {
    let sections = sections(table);
    let group_width = super::column_width(sections.iter().map(|(g, _)| &**g), 5);
    let name_width = super::column_width(names.iter().map(String::as_str), 9);
    writeln!(out)?;
    writeln!(
        out,
        "Fertility and compression (words: whitespace-separated; characters and bytes of the whole text):"
    )?;
    writeln!(
        out,
        "  {:group_width$}  {:name_width$}  {:>7}  {:>11}  {:>11}  {:>11}  {:>11}",
        "group", "tokenizer", "words", "tokens/word", "chars/token", "bytes/token", "words split"
    )?;
    for (group, figures) in sections {
        for (name, f) in names.iter().zip(figures) {
            writeln!(
                out,
                "  {group:group_width$}  {name:name_width$}  {:>7}  {:>11.3}  {:>11.3}  {:>11.3}  {:>10.1}%",
                f.words,
                f.tokens_per_word(),
                f.chars_per_token(),
                f.bytes_per_token(),
                100.0 * f.split_share()
            )?;
        }
    }
    Ok(())
}

/// The table as JSON: `{"all": [row per tokenizer], "groups": {"tag": [...]}}`.
pub fn to_json(names: &[String], table: &FertilityTable) -> Value {
    let rows = |figures: &[Fertility]| -> Value {
        names
            .iter()
            .zip(figures)
            .map(|(name, f)| {
                json!({
                    "tokenizer": name,
                    "words": f.words,
                    "tokens": f.tokens,
                    "chars": f.chars,
                    "bytes": f.bytes,
                    "split_words": f.split_words,
                    "tokens_per_word": f.tokens_per_word(),
                    "chars_per_token": f.chars_per_token(),
                    "bytes_per_token": f.bytes_per_token(),
                    "split_share": f.split_share(),
                })
            })
            .collect()
    };
    let groups: serde_json::Map<String, Value> = table
        .groups
        .iter()
        .map(|(group, figures)| (group.clone(), rows(figures)))
        .collect();
    json!({ ALL: rows(&table.total), "groups": groups })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> (Vec<String>, FertilityTable) {
        let ws = toklab::load("ws").unwrap();
        let letters = toklab::load(r"regex:\S").unwrap();
        let mut table = FertilityTable::new(2);
        for (group, text) in [("en", "ab c"), ("de", "def")] {
            table.add(
                Some(group),
                text,
                &[ws.tokenize(text), letters.tokenize(text)],
            );
        }
        (vec!["ws".into(), "letters".into()], table)
    }

    #[test]
    fn the_table_has_a_row_per_group_and_tokenizer() {
        let (names, table) = table();
        let mut out = Vec::new();
        write_table(&mut out, &names, &table).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = text.lines().skip(3).map(str::trim_end).collect();
        assert_eq!(
            rows,
            [
                "  all    ws               3        1.000        2.333        2.333         0.0%",
                "  all    letters          3        2.000        1.167        1.167        66.7%",
                "  en     ws               2        1.000        2.000        2.000         0.0%",
                "  en     letters          2        1.500        1.333        1.333        50.0%",
                "  de     ws               1        1.000        3.000        3.000         0.0%",
                "  de     letters          1        3.000        1.000        1.000       100.0%",
            ]
        );
    }

    #[test]
    fn json_carries_counts_and_ratios_per_group() {
        let (names, table) = table();
        let value = to_json(&names, &table);
        assert_eq!(value["all"][1]["tokens"], 6);
        assert_eq!(value["all"][1]["split_words"], 2);
        assert_eq!(value["groups"]["de"][1]["tokens_per_word"], 3.0);
        assert_eq!(value["groups"]["en"][0]["tokenizer"], "ws");
    }
}
