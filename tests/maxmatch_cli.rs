//! `maxmatch:DICT?dir=fwd|bwd` through the command line, on the shipped Chinese sample.

use crate::common::{run, stdout_of};

const DICT: &str = "samples/maxmatch/zh-words.txt";

fn spec(dir: &str) -> String {
    format!("{}/{DICT}?dir={dir}", env!("CARGO_MANIFEST_DIR"))
}

fn with(dir: &str) -> String {
    format!("maxmatch:{}", spec(dir))
}

#[test]
fn forward_and_backward_on_the_classic_ambiguities() {
    let input = "研究生命起源\n结婚的和尚未结婚的\n北京大学生喜欢吃苹果\n";
    let fwd = stdout_of(&["tokenize", "--with", &with("fwd")], input);
    assert_eq!(
        fwd,
        "研究生 命 起源\n结婚 的 和尚 未 结婚 的\n北京大学 生 喜欢 吃 苹果\n"
    );
    let bwd = stdout_of(&["tokenize", "--with", &with("bwd")], input);
    assert_eq!(
        bwd,
        "研究 生命 起源\n结婚 的 和 尚未 结婚 的\n北京 大学生 喜欢 吃 苹果\n"
    );
    // The default direction is forward.
    let default = stdout_of(
        &[
            "tokenize",
            "--with",
            &format!("maxmatch:{}/{DICT}", env!("CARGO_MANIFEST_DIR")),
        ],
        input,
    );
    assert_eq!(default, fwd);
}

#[test]
fn ambiguous_spans_are_marked_in_origin_and_trace() {
    let tokenizer = toklab::load(&with("bwd")).unwrap();
    let text = "和尚未 今天天气很不错";
    let tokens = tokenizer.tokenize(text);
    let origins: Vec<String> = tokens.tokens.iter().map(|t| t.origin.to_string()).collect();
    assert_eq!(origins[0], "maxmatch bwd, in dictionary, ambiguous");
    assert_eq!(origins[1], "maxmatch bwd, in dictionary, ambiguous");
    assert!(
        origins[2..].iter().all(|o| !o.contains("ambiguous")),
        "{origins:?}"
    );
    let forms = tokens.forms(text);
    assert_eq!(forms, ["和", "尚未", "今天天气", "很", "不错"]);

    let trace = stdout_of(
        &["explain", "--with", &with("fwd"), "--text", "研究生命起源"],
        "",
    );
    assert!(
        trace.contains("ambiguous «研究生命»  fwd: 研究生 | 命   bwd: 研究 | 生命"),
        "{trace}"
    );
    assert!(trace.contains("fwd «命»  in dictionary"), "{trace}");
    let trace = stdout_of(
        &["explain", "--with", &with("fwd"), "--text", "北京大学生"],
        "",
    );
    assert!(
        trace.contains("fwd «生»  not in dictionary: one character"),
        "{trace}"
    );
}

#[test]
fn bad_dictionaries_and_options_are_errors() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, b"ok\nwo\xffrd\n").unwrap();
    let out = run(
        &["tokenize", "--with", &format!("maxmatch:{}", bad.display())],
        b"x\n",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:2:3: invalid UTF-8"), "{err}");

    let out = run(&["tokenize", "--with", &with("up")], b"x\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("option `dir` wants fwd or bwd, not `up`"),
        "{err}"
    );

    let out = run(
        &["tokenize", "--with", "maxmatch:/no/such/file.txt"],
        b"x\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no/such/file.txt"), "{err}");

    let dup = dir.join("dup.txt");
    std::fs::write(&dup, "甲\n甲\n").unwrap();
    let out = run(
        &["tokenize", "--with", &format!("maxmatch:{}", dup.display())],
        "甲乙\n".as_bytes(),
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 duplicate word(s), first on line 2"),
        "{err}"
    );
}
