//! `bpe train` asked for more merges than the corpus allows says how many it made and why it
//! stopped, rather than writing a smaller model in silence.

use crate::common::run;

#[test]
fn stopping_short_says_how_many_merges_and_why() {
    let temp = tempfile::tempdir().unwrap();
    let corpus = temp.path().join("corpus.txt");
    // Each line is one word: a+b, then ab+c, and nothing is left to merge.
    std::fs::write(&corpus, "ab\nab\nabc\n").unwrap();
    let out_dir = temp.path().join("model");
    let (corpus, out_dir) = (corpus.display().to_string(), out_dir.display().to_string());
    let args = ["bpe", "train", "--pretok", "none", "--merges", "50"];
    let out = run(&[&args[..], &["-o", &out_dir, &corpus]].concat(), b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("made 2 of the 50 merges asked for")
            && stderr.contains("each line is one word"),
        "{stderr}"
    );
    // Asking for what is possible gives no warning.
    let again = format!("{out_dir}2");
    let args = ["bpe", "train", "--pretok", "none", "--merges", "2"];
    let out = run(&[&args[..], &["-o", &again, &corpus]].concat(), b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
}
