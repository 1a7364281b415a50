//! Context conditions agree with Python's `regex` module (the engine utoken compiles them
//! with) on samples/rules/context-cases.tsv, look-arounds included.
//!
//! The cases were made with utoken's venv (regex 2021.8.3) by pasting each value into
//! utoken's template (`.*X$`, `.*(?<!X)$`, `X`, `(?!X)`) and matching random strings over a
//! small alphabet with `regex.compile(pattern, flags=regex.VERSION1).match(text)`:
//!
//! ```text
//! for kind, value in cases:            # the value list is the second column
//!     r = regex.compile(template[kind](value), flags=regex.VERSION1)
//!     for _ in range(40):
//!         t = ''.join(random.choice('ab xyzqrc1290-_.S)he.J') for _ in range(random.randint(0, 9)))
//!         print(f"{kind}\t{value}\t{t}\t{1 if r.match(t) else 0}")
//! ```

use toklab::engines::rules::{Context, ContextKind};

#[test]
fn contexts_agree_with_python_regex() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/rules/context-cases.tsv"
    );
    let cases = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in cases.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.splitn(4, '\t');
        let (kind, value, text, expected) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap() == "1",
        );
        let kind = match kind {
            "left" => ContextKind::Left,
            "left_not" => ContextKind::LeftNot,
            "right" => ContextKind::Right,
            "right_not" => ContextKind::RightNot,
            other => panic!("unknown kind {other}"),
        };
        let context = Context::compile(kind, value).unwrap_or_else(|e| panic!("{value}: {e}"));
        if context.holds(text) != expected {
            wrong.push(format!("{kind:?} {value} on {text:?}: expected {expected}"));
        }
        checked += 1;
    }
    println!(
        "context conditions: {}/{checked} agree with Python's regex",
        checked - wrong.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}
