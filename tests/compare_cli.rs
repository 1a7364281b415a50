//! `toklab compare` as a user runs it: two tokenizers on the same lines, a plain gold file, a
//! CoNLL-U gold, a real corpus, and the errors.

use crate::common::{run, shared_dir, stdout_of};

#[test]
fn two_tokenizers_on_sample_lines() {
    let out = stdout_of(
        &["compare", "--with", "ws", "--with", "words"],
        "We're 350 dogs! Um, lunch?\nplain words here\n",
    );
    assert!(
        out.starts_with("2 lines, 42 bytes; reference: ws\n"),
        "{out}"
    );
    assert!(out.contains("ws (reference)          8\n"), "{out}");
    // words splits off "!", "," and "?": 3 boundaries ws lacks, none the other way.
    assert!(
        out.contains("words: 6 boundaries shared, 3 only in words, 0 only in ws"),
        "{out}"
    );
    assert!(out.contains("1/2 (50.00%)"), "{out}");
    assert!(out.contains("line 1\n  words  "), "{out}");
    assert!(out.contains("  We're 350 dogs|! Um|, lunch|?\n"), "{out}");
    assert!(!out.contains("line 2"), "{out}");
}

#[test]
fn plain_gold_scores_every_tokenizer() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let gold = dir.join("gold.txt");
    std::fs::write(&gold, "We 're 350 dogs ! Um , lunch ?\nI will n't go .\n").unwrap();
    let gold_arg = gold.to_str().unwrap();
    let output = run(
        &[
            "compare", "--with", "ws", "--with", "words", "--gold", gold_arg,
        ],
        b"We're 350 dogs! Um, lunch?\nI won't go.\n",
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = String::from_utf8(output.stdout).unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(out.contains("reference: gold"), "{out}");
    assert!(
        out.contains("gold.txt (one line per text, tokens separated by spaces)"),
        "the format in words, not as a Rust enum: {out}"
    );
    // Gold boundaries inside the texts: 8 in line 1 (9 tokens), 4 in "I|wo|n't|go|.". ws finds
    // 4 + 2 of them, words 7 + 3 (it keeps "We're" and "won't" whole).
    assert!(
        out.contains("ws: 6 boundaries shared, 0 only in ws, 6 only in gold"),
        "{out}"
    );
    assert!(
        out.contains("words: 10 boundaries shared, 0 only in words, 2 only in gold"),
        "{out}"
    );
    // The gold's rewritten "will" is shown as the reference's form.
    assert!(out.contains("I wo⟦will⟧‿n't go‿."), "{out}");
    assert!(
        err.contains("gold.txt: in 1 text the gold's tokens differ from the text"),
        "{err}"
    );
    // A gold file shorter than the input is an error naming it.
    let output = run(
        &["compare", "--with", "ws", "--gold", gold_arg],
        b"a\nb\nc\n",
    );
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("gold.txt: the gold has 2 lines but the input has more (line 3)"),
        "{err}"
    );
}

#[test]
fn conllu_gold_brings_its_own_texts_and_sentences() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let gold = dir.join("g.conllu");
    std::fs::write(
        &gold,
        "# newpar\n# text = Go now.\n1\tGo\t_\t_\t_\t_\t_\t_\t_\t_\n2\tnow\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n3\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n\
         1\tStay\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n2\t!\t_\t_\t_\t_\t_\t_\t_\t_\n\n",
    )
    .unwrap();
    let out = stdout_of(
        &[
            "compare",
            "--with",
            "words",
            "--gold",
            gold.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.contains("1 line, 13 bytes; reference: gold"), "{out}");
    assert!(
        out.contains("words: 4 boundaries shared, 0 only in words, 0 only in gold"),
        "{out}"
    );
    // The gold has a sentence end after "now ."; words marks none.
    assert!(
        out.contains("sentence ends: 0 shared, 0 only in words, 1 only in gold"),
        "{out}"
    );
    assert!(out.contains("no disagreeing lines"), "{out}");
    let output = run(
        &[
            "compare",
            "--with",
            "words",
            "--gold",
            gold.to_str().unwrap(),
            "-",
        ],
        b"",
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("carries its own texts"));
}

#[test]
fn usage_errors() {
    let output = run(&["compare", "--with", "ws"], b"a\n");
    assert!(String::from_utf8_lossy(&output.stderr).contains("needs two tokenizers"));
    let output = run(
        &["compare", "--with", "ws", "--with", "words"],
        b"ok\n\xff\n",
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("<stdin>:2: invalid UTF-8"), "{err}");
    let output = run(
        &["compare", "--with", "ws", "--with", "words", "--show", "x"],
        b"",
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("neither a number nor `all`"));
}

#[test]
fn a_real_corpus() {
    let Some(shared) = shared_dir("compare_cli::a_real_corpus") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("corpora/kjv-en.txt")).unwrap();
    let head: String = text.lines().take(200).map(|l| format!("{l}\n")).collect();
    let out = stdout_of(
        &[
            "compare",
            "--with",
            "words",
            "--with",
            "pretok:gpt2",
            "--show",
            "all",
        ],
        &head,
    );
    println!("{out}");
    assert!(out.starts_with("200 lines"), "{out}");
    // Both split punctuation off words; GPT-2 keeps spaces in its tokens, which the skeleton
    // ignores, so most lines agree and those that do not are listed with their marks.
    let lines_agreeing: usize = out
        .lines()
        .find(|l| l.starts_with("pretok:gpt2 "))
        .and_then(|l| l.split_whitespace().nth(2))
        .and_then(|f| f.split('/').next())
        .and_then(|n| n.parse().ok())
        .expect("a tally row for pretok:gpt2");
    let listed = out.matches("\nline ").count();
    assert_eq!(lines_agreeing + listed, 200, "{out}");
    assert!(listed > 0, "{out}");
}
