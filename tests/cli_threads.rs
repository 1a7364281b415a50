//! `--threads`: the same bytes as one thread, in input order, for a spec of every family.

use crate::common::run;

/// The shipped sample texts, repeated so every thread gets several batches of lines.
fn corpus() -> Vec<u8> {
    let mut text = Vec::new();
    for file in [
        "samples/sample.txt",
        "samples/bpe-lesson.txt",
        "samples/maxmatch/zh-sample.txt",
        "samples/bpe/training.txt",
    ] {
        text.extend(std::fs::read(file).unwrap());
    }
    text.repeat(40)
}

#[test]
fn every_family_writes_the_same_bytes_on_one_and_on_three_threads() {
    let text = corpus();
    assert!(text.iter().filter(|&&b| b == b'\n').count() > 1000);
    for spec in [
        "ws",
        "regex:\\w+|[^\\w\\s]",
        "rules:rules?lang=eng",
        "fst:samples/fst/english.fst",
        "bpe:samples/bpe/gpt2",
        "tiktoken:samples/bpe/sample.tiktoken?pattern=cl100k",
        "spm:samples/bpe/sample-spm.model",
        "wordpiece:samples/bpe/sample-wordpiece.txt",
        "maxmatch:samples/maxmatch/zh-words.txt",
    ] {
        let out = |threads: &str| {
            let output = run(
                &[
                    "tokenize",
                    "--threads",
                    threads,
                    "-f",
                    "json",
                    "--with",
                    spec,
                ],
                &text,
            );
            assert!(output.status.success(), "{spec}: {output:?}");
            output.stdout
        };
        let one = out("1");
        assert!(!one.is_empty(), "{spec}");
        assert!(one == out("3"), "{spec}: three threads wrote other bytes");
    }
}

#[test]
fn a_bad_line_stops_every_thread_count_at_the_same_place() {
    let mut text = b"first line\n".repeat(700);
    text.extend(b"bad \xff byte\nnever written\n");
    for threads in ["1", "2", "4"] {
        let output = run(&["tokenize", "--threads", threads, "--with", "ws"], &text);
        assert_eq!(output.status.code(), Some(1), "{threads} threads");
        let written = String::from_utf8(output.stdout).unwrap();
        assert_eq!(written.lines().count(), 700, "{threads} threads");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains("<stdin>:701: invalid UTF-8"), "{err}");
    }
}

#[test]
fn compare_reports_the_same_on_one_and_on_three_threads() {
    let text = corpus();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.txt");
    std::fs::write(&input, &text).unwrap();
    // A gold whose tokens are the ws split with every token's first letter dropped, so the
    // projection (character alignment) runs on every line.
    let gold: String = String::from_utf8_lossy(&text)
        .lines()
        .map(|line| {
            let tokens: Vec<String> = line
                .split_whitespace()
                .map(|t| t.chars().skip(1).collect::<String>())
                .filter(|t| !t.is_empty())
                .collect();
            tokens.join(" ") + "\n"
        })
        .collect();
    let gold_file = dir.path().join("gold.txt");
    std::fs::write(&gold_file, gold).unwrap();
    let input = input.to_str().unwrap();
    let gold_file = gold_file.to_str().unwrap();
    for args in [
        vec![
            "--with",
            "rules:rules?lang=eng",
            "--with",
            "words",
            "--with",
            "ws",
        ],
        vec!["--with", "words", "--gold", gold_file],
    ] {
        let report = |threads: &str| {
            let mut all = vec!["compare", "--show", "all", "--threads", threads];
            all.extend(&args);
            all.push(input);
            let output = run(&all, b"");
            assert!(output.status.success(), "{args:?}: {output:?}");
            (output.stdout, output.stderr)
        };
        let one = report("1");
        assert!(one.0.len() > 1000, "{args:?}");
        assert!(
            one == report("3"),
            "{args:?}: three threads reported otherwise"
        );
    }
}

#[test]
fn too_many_threads_is_an_error_with_the_reason() {
    let output = run(
        &["tokenize", "--threads", "100000", "--with", "ws"],
        b"a b\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains("100000 threads is more than the 1024"),
        "{err}"
    );
}
