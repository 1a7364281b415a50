//! The `tojson` filter of transformers' chat templates: Python's `json.dumps(x,
//! ensure_ascii=False, indent=None, separators=None, sort_keys=False)`, byte for byte, since
//! templates write tool schemas and arguments with it and every byte is a token. (Jinja's own
//! `tojson`, and minijinja's, escape `<`, `>`, `&` and `'` for HTML; transformers replaces it.)

use minijinja::value::{Kwargs, Rest, ValueKind};
use minijinja::{Error, ErrorKind, Value};

/// How `json.dumps` lays out its output.
struct Layout {
    ensure_ascii: bool,
    /// `None`: everything on one line; `Some(unit)`: one item a line, indented by `unit` per level.
    indent: Option<String>,
    item_separator: String,
    key_separator: String,
    sort_keys: bool,
}

/// The filter: `value | tojson`, `tojson(indent=2)`, `tojson(separators=(",", ":"))`, … with
/// Python's positional order (ensure_ascii, indent, separators, sort_keys) also accepted.
pub fn tojson(value: &Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let names = ["ensure_ascii", "indent", "separators", "sort_keys"];
    if args.len() > names.len() {
        return Err(Error::new(
            ErrorKind::TooManyArguments,
            "tojson takes at most 4 arguments",
        ));
    }
    let arg = |i: usize| -> Result<Option<Value>, Error> {
        let named: Option<Value> = kwargs.get(names[i])?;
        Ok(named.or_else(|| args.get(i).cloned()))
    };
    let ensure_ascii = arg(0)?.is_some_and(|v| v.is_true());
    let indent = match arg(1)? {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) => Some(match v.as_i64() {
            Some(n) => " ".repeat(n.max(0) as usize),
            None => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| bad("tojson: indent must be a number or a string"))?,
        }),
    };
    let (item_separator, key_separator) = match arg(2)? {
        Some(v) if !v.is_none() => {
            let parts: Vec<Value> = v.try_iter()?.collect();
            match parts.as_slice() {
                [a, b] => (a.to_string(), b.to_string()),
                _ => return Err(bad("tojson: separators must be a pair of strings")),
            }
        }
        _ if indent.is_some() => (",".to_string(), ": ".to_string()),
        _ => (", ".to_string(), ": ".to_string()),
    };
    let sort_keys = arg(3)?.is_some_and(|v| v.is_true());
    kwargs.assert_all_used()?;
    let layout = Layout {
        ensure_ascii,
        indent,
        item_separator,
        key_separator,
        sort_keys,
    };
    let mut out = String::new();
    write_value(&mut out, value, &layout, 0)?;
    Ok(Value::from(out))
}

fn bad(message: &str) -> Error {
    Error::new(ErrorKind::InvalidOperation, message.to_string())
}

fn write_value(
    out: &mut String,
    value: &Value,
    layout: &Layout,
    depth: usize,
) -> Result<(), Error> {
    match value.kind() {
        ValueKind::None => out.push_str("null"),
        ValueKind::Bool => out.push_str(if value.is_true() { "true" } else { "false" }),
        ValueKind::Number => write_number(out, value),
        ValueKind::String => write_string(out, value.as_str().unwrap_or(""), layout.ensure_ascii),
        ValueKind::Seq | ValueKind::Iterable => {
            let items: Vec<Value> = value.try_iter()?.collect();
            write_items(out, ('[', ']'), items.len(), layout, depth, |out, i| {
                write_value(out, &items[i], layout, depth + 1)
            })?;
        }
        ValueKind::Map => {
            let mut keys: Vec<Value> = value.try_iter()?.collect();
            if layout.sort_keys {
                keys.sort_by_key(key_text);
            }
            write_items(out, ('{', '}'), keys.len(), layout, depth, |out, i| {
                write_string(out, &key_text(&keys[i]), layout.ensure_ascii);
                out.push_str(&layout.key_separator);
                write_value(out, &value.get_item(&keys[i])?, layout, depth + 1)
            })?;
        }
        _ => {
            return Err(bad(&format!(
                "tojson: a value of type {} is not JSON serializable",
                value.kind()
            )));
        }
    }
    Ok(())
}

/// A dictionary key as `json.dumps` writes it: strings as they are, numbers and booleans in
/// their JSON spelling.
fn key_text(key: &Value) -> String {
    match key.kind() {
        ValueKind::String => key.as_str().unwrap_or("").to_string(),
        ValueKind::None => "null".to_string(),
        ValueKind::Bool => (if key.is_true() { "true" } else { "false" }).to_string(),
        _ => {
            let mut s = String::new();
            write_number(&mut s, key);
            s
        }
    }
}

fn write_items(
    out: &mut String,
    (open, close): (char, char),
    count: usize,
    layout: &Layout,
    depth: usize,
    mut item: impl FnMut(&mut String, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    out.push(open);
    if count == 0 {
        out.push(close);
        return Ok(());
    }
    for i in 0..count {
        if i > 0 {
            out.push_str(&layout.item_separator);
        }
        if let Some(unit) = &layout.indent {
            out.push('\n');
            out.push_str(&unit.repeat(depth + 1));
        }
        item(out, i)?;
    }
    if let Some(unit) = &layout.indent {
        out.push('\n');
        out.push_str(&unit.repeat(depth));
    }
    out.push(close);
    Ok(())
}

/// Integers in decimal; floats as Python's `repr` writes them (`1.0`, `1e-05`, `1.5e+16`).
fn write_number(out: &mut String, value: &Value) {
    if let Some(n) = value.as_i64() {
        out.push_str(&n.to_string());
        return;
    }
    let Ok(f) = f64::try_from(value.clone()) else {
        out.push_str(&value.to_string());
        return;
    };
    if f.is_nan() {
        out.push_str("NaN");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        out.push_str(&python_float_repr(f));
    }
}

fn python_float_repr(f: f64) -> String {
    // Rust's `{:e}` gives the shortest round-tripping digits, as Python's repr does; only the
    // choice between positional and scientific form and the exponent's spelling differ.
    let sci = format!("{f:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..16).contains(&exponent) {
        let plain = format!("{f}");
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    }
}

fn write_string(out: &mut String, s: &str, ensure_ascii: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ensure_ascii && !c.is_ascii()) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dumps(template: &str, value: Value) -> String {
        let mut env = minijinja::Environment::new();
        env.add_filter("tojson", tojson);
        env.render_str(template, minijinja::context! { x => value })
            .unwrap()
    }

    fn parse(json: &str) -> Value {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn writes_as_python_json_dumps_does() {
        // Expected strings are what Python 3's json.dumps prints for the same objects.
        let x = parse(r#"{"b": [1, 2.5, true, null], "a": "<é>\n", "c": {}}"#);
        assert_eq!(
            dumps("{{ x | tojson }}", x.clone()),
            r#"{"b": [1, 2.5, true, null], "a": "<é>\n", "c": {}}"#
        );
        assert_eq!(
            dumps("{{ x | tojson(sort_keys=true) }}", x.clone()),
            r#"{"a": "<é>\n", "b": [1, 2.5, true, null], "c": {}}"#
        );
        assert_eq!(
            dumps("{{ x | tojson(indent=2) }}", x.clone()),
            "{\n  \"b\": [\n    1,\n    2.5,\n    true,\n    null\n  ],\n  \"a\": \"<é>\\n\",\n  \"c\": {}\n}"
        );
        assert_eq!(
            dumps(
                "{{ x | tojson(ensure_ascii=true, separators=(',', ':')) }}",
                x
            ),
            r#"{"b":[1,2.5,true,null],"a":"<\u00e9>\n","c":{}}"#
        );
    }

    #[test]
    fn floats_as_python_repr() {
        assert_eq!(python_float_repr(1.0), "1.0");
        assert_eq!(python_float_repr(0.0001), "0.0001");
        assert_eq!(python_float_repr(0.00001), "1e-05");
        assert_eq!(python_float_repr(1.5e16), "1.5e+16");
        assert_eq!(python_float_repr(123456789.25), "123456789.25");
    }

    #[test]
    fn astral_characters_become_surrogate_pairs_with_ensure_ascii() {
        let mut out = String::new();
        write_string(&mut out, "🍞\u{1}", true);
        assert_eq!(out, r#""\ud83c\udf5e\u0001""#);
    }
}
