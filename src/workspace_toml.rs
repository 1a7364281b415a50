//! Writing a workspace over an existing file without losing what its author wrote: the
//! comments, the key order and the layout stay (the file is edited as a TOML document with
//! `toml_edit`), and only the values that changed are replaced. A row keeps its table (and
//! the comments above it) by its spec, wherever it moved.

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

use crate::workspace::{TokenizerEntry, Workspace};

/// The file's new text: `existing` edited to say `workspace`, or (when there is no file or it
/// is not TOML) a fresh document with a header comment.
pub fn render(existing: Option<&str>, workspace: &Workspace, header: &str) -> String {
    let parsed = existing.and_then(|text| text.parse::<DocumentMut>().ok());
    let header = if parsed.is_some() { "" } else { header };
    let mut doc = parsed.unwrap_or_default();
    set_or_remove(doc.as_table_mut(), "text", workspace.text.as_deref());
    set_or_remove(doc.as_table_mut(), "view", workspace.view.as_deref());
    match workspace.split {
        Some(split) => set_if_changed(doc.as_table_mut(), "split", i64::from(split).into()),
        None => {
            doc.remove("split");
        }
    }
    set_or_remove(doc.as_table_mut(), "theme", workspace.theme.as_deref());
    match workspace.large_print {
        Some(large) => set_if_changed(doc.as_table_mut(), "large_print", large.into()),
        None => {
            doc.remove("large_print");
        }
    }
    let mut old: Vec<Option<Table>> = match doc.remove("tokenizer") {
        Some(Item::ArrayOfTables(tables)) => tables.into_iter().map(Some).collect(),
        _ => Vec::new(),
    };
    // Tables print in the order of their positions in the file: the rows take the places
    // the old rows had (and new ones the places after), in their new order.
    let first = old
        .iter()
        .filter_map(|t| t.as_ref()?.position())
        .min()
        .unwrap_or(isize::MAX / 2);
    let mut rows = ArrayOfTables::new();
    for (i, entry) in workspace.tokenizers.iter().enumerate() {
        let reused = old.iter_mut().find(|t| {
            t.as_ref()
                .and_then(|t| t.get("spec"))
                .and_then(Item::as_str)
                .is_some_and(|s| s == entry.spec)
        });
        let mut table = reused.and_then(Option::take).unwrap_or_default();
        fill(&mut table, entry);
        table.set_position(Some(first + i as isize));
        rows.push(table);
    }
    if !rows.is_empty() {
        doc.insert("tokenizer", Item::ArrayOfTables(rows));
    }
    format!("{header}{doc}")
}

/// A row's keys: spec, label and colour, set where they differ, removed where unset.
fn fill(table: &mut Table, entry: &TokenizerEntry) {
    set_or_remove(table, "label", entry.label.as_deref());
    set_or_remove(table, "spec", Some(&entry.spec));
    set_or_remove(table, "colour", entry.colour.as_deref());
}

fn set_or_remove(table: &mut Table, key: &str, new: Option<&str>) {
    match new {
        Some(v) => set_if_changed(table, key, v.into()),
        None => {
            table.remove(key);
        }
    }
}

/// Replaces a value only when it changed, so an unchanged one keeps its formatting (a
/// literal string, a trailing comment).
fn set_if_changed(table: &mut Table, key: &str, new: toml_edit::Value) {
    let same = table.get(key).and_then(Item::as_value).is_some_and(|old| {
        old.to_string().trim() == new.to_string().trim() || same_value(old, &new)
    });
    if !same {
        match table.get_mut(key).and_then(Item::as_value_mut) {
            // Keep the comments around the old value.
            Some(old) => {
                let decor = old.decor().clone();
                *old = new;
                *old.decor_mut() = decor;
            }
            None => {
                table.insert(key, value(new));
            }
        }
    }
}

fn same_value(a: &toml_edit::Value, b: &toml_edit::Value) -> bool {
    match (a, b) {
        (toml_edit::Value::String(a), toml_edit::Value::String(b)) => a.value() == b.value(),
        (toml_edit::Value::Integer(a), toml_edit::Value::Integer(b)) => a.value() == b.value(),
        (toml_edit::Value::Boolean(a), toml_edit::Value::Boolean(b)) => a.value() == b.value(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# My set-up.\ntext = \"a.txt\"  # the corpus\nview = \"trace\"\n\n\
                        # The rules I am writing.\n[[tokenizer]]\nlabel = \"mine\"\nspec = 'rules:r.txt'\n\n\
                        [[tokenizer]]\nspec = \"ws\"\n";

    fn workspace(view: &str, rows: &[(&str, Option<&str>)]) -> Workspace {
        Workspace {
            text: Some("a.txt".into()),
            view: Some(view.into()),
            split: None,
            theme: None,
            large_print: None,
            on_disk: None,
            tokenizers: rows
                .iter()
                .map(|(spec, label)| TokenizerEntry {
                    spec: spec.to_string(),
                    label: label.map(str::to_string),
                    colour: None,
                })
                .collect(),
            base: Default::default(),
        }
    }

    #[test]
    fn an_unchanged_workspace_is_written_back_as_it_was() {
        let same = workspace("trace", &[("rules:r.txt", Some("mine")), ("ws", None)]);
        assert_eq!(render(Some(FILE), &same, ""), FILE);
    }

    #[test]
    fn changes_keep_comments_key_order_and_rows_by_spec() {
        let changed = workspace(
            "stats",
            &[("ws", None), ("rules:r.txt", Some("mine")), ("words", None)],
        );
        let out = render(Some(FILE), &changed, "");
        assert_eq!(
            out,
            "# My set-up.\ntext = \"a.txt\"  # the corpus\nview = \"stats\"\n\n\
             [[tokenizer]]\nspec = \"ws\"\n\n\
             # The rules I am writing.\n[[tokenizer]]\nlabel = \"mine\"\nspec = 'rules:r.txt'\n\n\
             [[tokenizer]]\nspec = \"words\"\n"
        );
        // What was written reads back as the workspace.
        let back: Workspace = toml::from_str(&out).unwrap();
        assert_eq!(back.tokenizers, changed.tokenizers);
        assert_eq!(back.view.as_deref(), Some("stats"));
    }

    #[test]
    fn a_new_file_gets_the_header() {
        let out = render(None, &workspace("trace", &[("ws", None)]), "# header\n");
        assert!(out.starts_with("# header\n"), "{out}");
        let back: Workspace = toml::from_str(&out).unwrap();
        assert_eq!(back.tokenizers.len(), 1);
    }
}
