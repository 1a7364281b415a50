//! The rule engine never panics and never hangs: arbitrary bytes and arbitrary entry lines
//! to the loader, arbitrary Unicode and very long inputs to the engine.

use crate::common;

use std::path::PathBuf;
use std::sync::LazyLock;

use proptest::prelude::*;
use toklab::engines::rules::FileRole;
use toklab::engines::rules::{LoadOptions, RulesTokenizer};
use toklab::{Role, Tokenizer};

fn lenient() -> LoadOptions {
    LoadOptions {
        lang: Some("eng".into()),
        simple: false,
        strict: false,
    }
}

/// Our own English rules (always there) and utoken's (when the shared folder is).
static ENGINES: LazyLock<Vec<Box<dyn Tokenizer>>> = LazyLock::new(|| {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut engines = vec![toklab::load_in("rules:rules?lang=eng", base).unwrap()];
    if let Some(shared) = common::shared_dir("rules_robust") {
        let spec = format!(
            "rules:{}?lang=eng",
            shared.join("conformance/utoken/data").display()
        );
        engines.push(toklab::load(&spec).unwrap());
    }
    engines
});

fn check_engine(text: &str) -> Result<(), TestCaseError> {
    for engine in ENGINES.iter() {
        let tokens = engine.tokenize(text);
        if let Err(e) = tokens.check(text) {
            return Err(TestCaseError::fail(format!(
                "{}: {e} on {text:?}",
                engine.name()
            )));
        }
        let trace = engine.explain(text);
        for line in trace.lines() {
            if let Some(span) = line.span {
                prop_assert!(span.end <= text.len() && text.is_char_boundary(span.start));
            }
        }
    }
    Ok(())
}

/// Pieces of rule lines: heads, slots (known and not) and values full of regex syntax.
fn entry_line() -> impl Strategy<Value = String> {
    let head = prop::sample::select(vec![
        "::abbrev",
        "::lexical",
        "::contraction",
        "::repair",
        "::punct-split",
        "::misspelling",
        "::non-symbol",
        "::bogus",
        "::",
        ":abbrev",
        "abbrev",
        "",
    ]);
    let slot = prop::sample::select(vec![
        "::target",
        "::side",
        "::group",
        "::case-sensitive",
        "::left-context",
        "::right-context",
        "::left-context-not",
        "::right-context-not",
        "::sem-class",
        "::plural",
        "::alt-spelling",
        "::inflections",
        "::char-split",
        "::last-char-repeatable",
        "::suffix-variations",
        "::misspelling",
        "::tag",
        "::lcode-not",
        "::priority",
        "::exp",
        "::nope",
        "::",
        "#",
    ]);
    let value = "[a-zA-Z'’.\\- ;,+/()\\[\\]{}|*?\\\\\"#:&^$0-9éΣ\u{301}]{0,12}";
    (head, value, prop::collection::vec((slot, value), 0..4)).prop_map(|(head, word, slots)| {
        let mut line = format!("{head} {word}");
        for (slot, value) in slots {
            line.push_str(&format!(" {slot} {value}"));
        }
        line
    })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn arbitrary_unicode_to_the_engine(text in any::<String>()) {
        check_engine(&text)?;
    }

    #[test]
    fn texty_input_to_the_engine(
        text in "[a-zA-Z0-9 .,;:!?'\"()\\-@#&/<>\\[\\]$%€→👍🏽\u{200c}\u{200d}\u{fe0f}\u{a0}\u{ad}\u{85}İΣא]{0,120}"
    ) {
        check_engine(&text)?;
    }

    #[test]
    fn arbitrary_bytes_to_the_loader(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("tok-resource-x.txt");
        std::fs::write(&path, &bytes).unwrap();
        for strict in [true, false] {
            let options = LoadOptions { strict, ..lenient() };
            match RulesTokenizer::load_file(&path, &options) {
                Ok(t) => { t.tokenize("Some text, with can't and 3.5% -- ok."); }
                Err(e) => {
                    let message = e.to_string();
                    prop_assert!(message.contains("tok-resource-x.txt"), "{message}");
                    if std::str::from_utf8(&bytes).is_err() {
                        prop_assert!(message.contains("invalid UTF-8 at byte offset"), "{message}");
                    }
                }
            }
        }
        let diags = toklab::engines::rules::check_files(std::slice::from_ref(&path));
        for d in diags {
            prop_assert!(d.path == path);
        }
    }

    #[test]
    fn arbitrary_entry_lines_to_the_loader(lines in prop::collection::vec(entry_line(), 1..8),
                                          text in "[a-zA-Z0-9 .,;'’()\\-]{0,40}") {
        let file = lines.join("\n");
        let loaded = RulesTokenizer::from_texts(&[("t.txt", FileRole::Tok, &file)], &lenient());
        let tokenizer = loaded.expect("lenient loading always succeeds");
        for d in tokenizer.diagnostics() {
            let line = d.line;
            prop_assert!(line >= 1 && line <= lines.len(), "{d}");
            let width = lines[line - 1].chars().count() + 1;
            prop_assert!(d.column <= width, "{d} (line has {} chars)", width - 1);
        }
        let tokens = tokenizer.tokenize(&text);
        prop_assert!(tokens.check(&text).is_ok());
        // Strict loading fails exactly when there are errors, and says where.
        let strict = RulesTokenizer::from_texts(&[("t.txt", FileRole::Tok, &file)], &LoadOptions { strict: true, ..lenient() });
        let errors = tokenizer.diagnostics().iter().any(|d| d.is_error());
        match strict {
            Ok(_) => prop_assert!(!errors),
            Err(e) => prop_assert!(errors && e.to_string().starts_with("t.txt:"), "{e}"),
        }
    }
}

#[test]
fn two_hundred_semicolons_and_more() {
    // utoken stops splitting past 250 nested splits and hands the rest to its whitespace
    // split; no stack is involved here, so any length works.
    for n in [200, 300, 20_000] {
        let text = ";".repeat(n);
        for engine in ENGINES.iter() {
            let tokens = engine.tokenize(&text);
            assert!(tokens.check(&text).is_ok());
            // A depth limit shows in the trace as a `limit:` backtrack part.
            let guarded = engine.explain(&text).lines().iter().any(|l| {
                l.parts
                    .iter()
                    .any(|p| p.role == Role::Backtrack && p.text.starts_with("limit: "))
            });
            assert_eq!(guarded, n > 251, "{n} semicolons, {}", engine.name());
        }
    }
}

#[test]
fn very_long_lines_finish() {
    // Mixed text, and texts built to make a naive implementation quadratic: many quotes in
    // one word, many initials, many numbers, many hyphens with contexts.
    let mut texts = vec![
        "Dr. J.S. Bach said: \"it's 3.5%-5.5%\" (approx.) at www.example.com; ".repeat(3000),
        "'".repeat(50_000),
        "A.".repeat(30_000),
        "1,234 ".repeat(30_000),
        "a-b-".repeat(30_000),
        "x".repeat(200_000),
    ];
    texts.push(texts.concat());
    for text in &texts {
        for engine in ENGINES.iter() {
            let tokens = engine.tokenize(text);
            assert!(tokens.check(text).is_ok(), "{}", engine.name());
            assert!(!tokens.is_empty());
        }
    }
}

#[test]
fn sources_list_every_loaded_file() {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tokenizer = toklab::load_in("rules:rules?lang=eng", &base).unwrap();
    let names: Vec<String> = tokenizer
        .sources()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "tok-resource-eng.txt",
            "tok-resource.txt",
            "detok-resource.txt",
            "top-level-domain-codes.txt"
        ]
    );
    for path in tokenizer.sources() {
        assert!(path.is_file(), "{}", path.display());
    }
}

#[test]
fn a_context_that_does_not_compile_stops_a_strict_load_and_says_what_lenient_does() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad-context.txt");
    std::fs::write(
        &file,
        "::contraction don't ::target do n't ::left-context (open\n",
    )
    .unwrap();
    let spec = format!("rules:{}", file.display());
    let e = toklab::load(&spec).err().unwrap().to_string();
    assert!(e.contains("bad-context.txt:1:"), "{e}");
    assert!(
        e.contains("utoken would ignore the condition (`strict=false` does the same)"),
        "{e}"
    );
    assert!(
        !e.contains("is ignored"),
        "a failed load must not say it went on: {e}"
    );
    let lenient = toklab::load(&format!("{spec}?strict=false")).unwrap();
    assert!(!lenient.tokenize("I don't").tokens.is_empty());
}
