//! utoken's depth limit (250 nested splits) is kept, since the rule engine's output must be
//! utoken's, but it is never silent: the cut token says so, and `tokenize`, `compare` and
//! `explain` warn on standard error naming the line, with exit 0 and the tokens unchanged.

use crate::common::run;

fn spec() -> String {
    format!("rules:{}/rules?lang=eng", env!("CARGO_MANIFEST_DIR"))
}

/// Two lines, the second past the depth limit (a run of semicolons splits one by one).
fn input() -> String {
    format!("a short line\nsee{}\n", ";".repeat(300))
}

#[test]
fn the_cut_token_says_the_line_stopped_being_analysed() {
    let engine = toklab::load(&spec()).unwrap();
    let deep = format!("see{}", ";".repeat(300));
    let tokens = engine.tokenize(&deep);
    let gave_up = tokens
        .gave_up()
        .expect("300 semicolons reach the depth limit");
    assert!(gave_up.as_reference, "utoken's limit is a warning");
    assert!(gave_up.reason.contains("250"), "{}", gave_up.reason);
    // The rest after the limit is one whitespace-split token that starts where it says.
    let cut = tokens
        .tokens
        .iter()
        .position(|t| t.span == gave_up.span)
        .unwrap();
    assert_eq!(cut + 1, tokens.len(), "the rest is one token");
    assert!(gave_up.span.slice(&deep).chars().all(|c| c == ';'));
    // Below the limit nothing is reported.
    let shallow = format!("see{}", ";".repeat(200));
    assert!(engine.tokenize(&shallow).gave_up().is_none());
}

#[test]
fn tokenize_warns_naming_the_line_and_keeps_the_tokens() {
    let spec = spec();
    let out = run(&["tokenize", "--with", &spec], input().as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: <stdin>:2: ") && stderr.contains("depth limit"),
        "{stderr}"
    );
    assert!(!stderr.contains("<stdin>:1:"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let second = stdout.lines().nth(1).unwrap();
    // utoken's output: 250 semicolons split off, the rest one token.
    let tokens: Vec<&str> = second.split(' ').collect();
    assert_eq!(tokens.last().unwrap().len(), 300 - 250, "{second}");
}

#[test]
fn compare_and_explain_warn_too() {
    let spec = spec();
    let out = run(
        &["compare", "--with", &spec, "--with", "ws"],
        input().as_bytes(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: line 2: ") && stderr.contains("depth limit"),
        "{stderr}"
    );
    let out = run(&["explain", "--with", &spec], input().as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: <stdin>:2: ") && stderr.contains("depth limit"),
        "{stderr}"
    );
}
