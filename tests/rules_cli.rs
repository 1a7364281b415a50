//! The rule engine from the command line: `tokenize` (text and chart), `explain` (the
//! recursion tree), `rules check` (the lint, on a file with one planted mistake of each kind),
//! strict and lenient loading of a broken file.

use crate::common::{self, run, stdout_of};

const OURS: &str = "rules:rules?lang=eng";

fn in_crate(args: &[&str], stdin: &str) -> std::process::Output {
    let mut cmd = common::toklab();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    common::run_command(cmd, stdin.as_bytes())
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn tokenize_with_our_english_rules() {
    let out = in_crate(
        &["tokenize", "--with", OURS],
        "Dr. Okafor didn't arrive until 9:45 a.m. on Tue., so the U.S. team waited.\nHe said: \"It's 3.5%-5.5% of the $1,234.50 budget\" -- peace-loving WON'T :-)))\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Dr. Okafor did n't arrive until 9 @:@ 45 a.m. on Tue. , so the U.S. team waited .\n\
         He said @: \"@ It 's 3.5 % @-@ 5.5 % of the $ 1,234.50 budget @\" -- peace @-@ loving WILL N'T :-)))\n"
    );
    assert!(
        out.stderr.is_empty(),
        "our rules load without warnings: {}",
        text(&out.stderr)
    );
}

#[test]
fn simple_option_drops_the_markup() {
    let out = in_crate(
        &["tokenize", "--with", "rules:rules?lang=eng&simple=true"],
        "peace-loving \"quotes\"\n",
    );
    assert_eq!(text(&out.stdout), "peace - loving \" quotes \"\n");
}

#[test]
fn chart_format_is_utokens() {
    let out = in_crate(
        &["tokenize", "--with", OURS, "--format", "chart"],
        "Mr. Lee can't pay $5.\nsecond\n",
    );
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        r#"{"ID": "1", "snt": "Mr. Lee can't pay $5.", "chart": [{"span": "0-3", "type": "ABBREV", "sem-class": "pre-name-title", "surf": "Mr."}, {"span": "4-7", "type": "WORD-B", "surf": "Lee"}, {"span": "8-10", "type": "DECONTRACTION", "surf": "can"}, {"span": "10-13", "type": "DECONTRACTION", "surf": "n't"}, {"span": "14-17", "type": "WORD-B", "surf": "pay"}, {"span": "18-19", "type": "PUNCT", "sem-class": "currency-unit", "surf": "$"}, {"span": "19-20", "type": "NUMBER", "surf": "5"}, {"span": "20-21", "type": "PUNCT-E", "surf": "."}]}"#
    );
    assert!(
        lines[1].starts_with(r#"{"ID": "2", "snt": "second""#),
        "{}",
        lines[1]
    );
}

#[test]
fn explain_prints_the_recursion_tree() {
    let out = in_crate(
        &["explain", "--with", OURS, "--text", "Mr. Lee can't pay $5."],
        "",
    );
    let shown = text(&out.stdout);
    let lines: Vec<&str> = shown.lines().collect();
    // The root segment, split by the dictionary step at Mr. (file and line of the entry).
    assert!(
        lines[0].starts_with("«Mr. Lee can't pay $5.» steps 2–9 nothing, step 10 tokenize_according_to_resource_entries: ABBREV [pre-name-title] «Mr.» (rules/tok-resource-eng.txt:"),
        "{shown}"
    );
    assert!(
        lines[0].ends_with("left —  right « Lee can't pay $5.» → step 10"),
        "{shown}"
    );
    // One level down, the contraction with its left remainder handed to the next step.
    assert!(
        lines[1].starts_with("  « Lee can't pay $5.» step 10 tokenize_according_to_resource_entries: DECONTRACTION «can» «n't»")
            && lines[1].contains("left « Lee » → step 11  right « pay $5.» → step 10"),
        "{shown}"
    );
    assert!(
        shown.contains("step 14 tokenize_numbers: NUMBER «5»"),
        "{shown}"
    );
    assert!(shown.contains("step 20 tokenize_main: «Lee»"), "{shown}");
}

#[test]
fn rules_check_reports_every_planted_mistake() {
    let out = in_crate(&["rules", "check", "samples/rules/planted-errors.txt"], "");
    assert_eq!(out.status.code(), Some(1), "errors give exit status 1");
    let shown = text(&out.stdout);
    let f = "samples/rules/planted-errors.txt";
    let expected = [
        (4, 13, "error: unknown slot `::expansion`"),
        (5, 33, "error: `::contraction` needs a `::target` slot"),
        (6, 36, "error: `::right-context` regex: missing `)`"),
        (7, 24, "error: `::side middle` is not start, end or both"),
        (8, 10, "error: missing space before `::`"),
        (
            9,
            14,
            "error: `:lcode` looks like a slot with a missing colon",
        ),
        (11, 1, "warning: duplicate entry: `::lexical New York`"),
        (
            13,
            1,
            "warning: can never fire: `::contraction gonna` always loses to `::repair gonna`",
        ),
        (14, 1, "error: unknown entry kind `::frobnicate`"),
        (15, 1, "error: no `::slot` on this line"),
        (16, 49, "error: `::char-split` adds up to 5"),
    ];
    for (line, column, message) in expected {
        let want = format!("{f}:{line}:{column}: {message}");
        assert!(
            shown.lines().any(|l| l.starts_with(&want)),
            "missing {want}\n{shown}"
        );
    }
    assert_eq!(shown.lines().count(), expected.len(), "{shown}");
    assert!(text(&out.stderr).contains("9 errors, 2 warnings in 1 file"));
}

#[test]
fn rules_check_passes_our_rules_and_lists_folder_files() {
    let out = in_crate(&["rules", "check", "rules"], "");
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("0 errors, 0 warnings in 4 files"));
}

#[test]
fn broken_rules_fail_to_load_with_their_place_unless_lenient() {
    let out = in_crate(
        &[
            "tokenize",
            "--with",
            "rules:samples/rules/planted-errors.txt",
        ],
        "x\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("toklab: samples/rules/planted-errors.txt:4:13: unknown slot `::expansion` (and 8 more errors"),
        "{err}"
    );
    let out = in_crate(
        &[
            "tokenize",
            "--with",
            "rules:samples/rules/planted-errors.txt?strict=false",
        ],
        "Prof. X\n",
    );
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "Prof. X\n");
    let err = text(&out.stderr);
    assert!(err.contains("planted-errors.txt:5:33: error:"), "{err}");
}

#[test]
fn bad_spec_options_are_named() {
    let out = run(
        &["tokenize", "--with", "rules:rules?lang=eng&colour=red"],
        b"x\n",
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown option `colour`"));
    let out = run(&["tokenize", "--with", "rules:/no/such/folder"], b"x\n");
    assert!(
        text(&out.stderr).contains("/no/such/folder"),
        "{}",
        text(&out.stderr)
    );
    assert!(stdout_of(&["kinds"], "").contains("rules:DIR?lang=LC"));
}

#[test]
fn diagnose_lists_everything_even_when_loading_fails() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = "rules:samples/rules/planted-errors.txt";
    assert!(toklab::load_in(spec, base).is_err());
    let found = toklab::engines::rules::diagnose(spec, base).unwrap();
    assert_eq!(found.iter().filter(|d| d.is_error()).count(), 9);
    assert_eq!(found.len(), 11);
    assert!(
        found
            .iter()
            .all(|d| d.path.ends_with("planted-errors.txt") && d.line > 0)
    );
    assert!(
        toklab::engines::rules::diagnose("rules:rules?lang=eng", base)
            .unwrap()
            .is_empty()
    );
    assert!(toklab::engines::rules::diagnose("ws", base).is_err());
}
