//! `toklab compare` with labels (`LABEL=SPEC`, short labels from file names), the fertility
//! and compression table on the whole input, per tag column (`--by`) and per file, and the
//! JSON report.

use std::path::Path;

use crate::common::{run, stdout_of};

fn sample_model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/bpe")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn labels_name_the_rows_and_long_paths_stay_out_of_the_table() {
    let tiktoken = format!("tiktoken:{}?pattern=r50k", sample_model("sample.tiktoken"));
    let out = stdout_of(
        &["compare", "-w", "white=ws", "-w", &tiktoken, "-w", "words"],
        "plain words here\n",
    );
    assert!(
        out.starts_with("white = ws\nsample = tiktoken:/"),
        "the legend of labels: {out}"
    );
    assert!(out.contains("reference: white\n"), "{out}");
    for line in out.lines().skip(3) {
        assert!(
            !line.contains("samples/bpe"),
            "no path after the legend: {line}"
        );
        // The diff legend (`  | boundary only in …`) is long whatever the labels.
        if !line.starts_with("  |") {
            assert!(line.chars().count() < 130, "a short line: {line}");
        }
    }
}

#[test]
fn the_fertility_table_per_tag_column() {
    // Hand-counted with `ws` and one token per non-space character (`regex:\S`):
    // en: "ab c" and "d" — 3 words, 5 characters; de: "efg" — 1 word, 3 characters.
    let out = stdout_of(
        &[
            "compare",
            "-w",
            "ws",
            "-w",
            r"letters=regex:\S",
            "--by",
            "1",
        ],
        "en\tab c\nde\tefg\nen\td\n",
    );
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Fertility and compression"))
        .skip(2)
        .take(6)
        .map(str::trim_end)
        .collect();
    assert_eq!(
        table,
        [
            "  all    ws               4        1.000        2.000        2.000         0.0%",
            "  all    letters          4        1.750        1.143        1.143        50.0%",
            "  en     ws               3        1.000        1.667        1.667         0.0%",
            "  en     letters          3        1.333        1.250        1.250        33.3%",
            "  de     ws               1        1.000        3.000        3.000         0.0%",
            "  de     letters          1        3.000        1.000        1.000       100.0%",
        ],
        "{out}"
    );
    // The tag is not part of the compared text: 3 lines of 4 + 3 + 1 bytes.
    assert!(
        out.starts_with("letters = regex:\\S\n\n3 lines, 8 bytes; reference: ws\n"),
        "{out}"
    );
}

#[test]
fn one_file_per_language_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let en = dir.path().join("en.txt");
    let ja = dir.path().join("ja.txt");
    std::fs::write(&en, "the cat sat\n").unwrap();
    std::fs::write(&ja, "猫が 座った\n").unwrap();
    let (en, ja) = (en.display().to_string(), ja.display().to_string());
    let out = stdout_of(
        &[
            "compare",
            "-w",
            "ws",
            "-w",
            r"c=regex:\S",
            "--format",
            "json",
            &en,
            &ja,
        ],
        "",
    );
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(report["lines"], 2);
    assert_eq!(report["tokenizers"][1]["label"], "c");
    assert_eq!(report["tokenizers"][1]["spec"], r"regex:\S");
    let ja = &report["fertility"]["groups"]["ja"];
    // "猫が 座った": 2 words, 6 characters, 16 bytes; 5 one-character tokens.
    assert_eq!(ja[1]["words"], 2);
    assert_eq!(ja[1]["tokens"], 5);
    assert_eq!(ja[1]["chars"], 6);
    assert_eq!(ja[1]["bytes"], 16);
    assert_eq!(ja[1]["split_share"], 1.0);
    assert_eq!(
        report["fertility"]["groups"]["en"][0]["tokens_per_word"],
        1.0
    );
    assert_eq!(report["fertility"]["all"][1]["tokens"], 14);
    assert_eq!(report["compared"][0]["label"], "c");
}

#[test]
fn a_missing_tag_column_names_the_line() {
    let output = run(
        &["compare", "-w", "ws", "-w", "words", "--by", "2"],
        b"en\tok\nno tab here\n",
    );
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("<stdin>:2: no column 2 for --by (the line has 1 TAB-separated column)"),
        "{stderr}"
    );
}
