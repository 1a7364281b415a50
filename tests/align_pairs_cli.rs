//! `toklab align --pairs FILE`: every line's output is what `toklab align A B` prints for its
//! pair, and a line without a TAB is an error naming the file and the line.

use crate::common::{run, stdout_of};

const PAIRS: &str = "intention\texecution\nleda\tdeal\n\tabc\nkitten\tsit\tting\n";

fn pairs_file(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), text).expect("write the pairs");
    file
}

#[test]
fn each_pair_prints_what_the_single_pair_command_prints() {
    let file = pairs_file(PAIRS);
    let path = file.path().to_str().unwrap();
    for flags in [
        &[][..],
        &["--distance"][..],
        &["--sub-cost", "2"][..],
        &["--matrix"][..],
        &["--unit", "byte", "--all"][..],
    ] {
        let mut batch = vec!["align"];
        batch.extend_from_slice(flags);
        batch.extend(["--pairs", path]);
        let mut expected = String::new();
        for line in PAIRS.lines() {
            let (a, b) = line.split_once('\t').unwrap();
            let mut single = vec!["align"];
            single.extend_from_slice(flags);
            single.extend(["--", a, b]);
            expected += &stdout_of(&single, "");
        }
        assert_eq!(stdout_of(&batch, ""), expected, "{flags:?}");
    }
    // The first TAB separates: the target keeps a later one.
    let out = stdout_of(&["align", "--distance", "--pairs", "-"], "ab\tab\tc\n");
    assert_eq!(out, "2\n");
}

#[test]
fn a_line_without_a_tab_is_an_error_naming_file_and_line() {
    let file = pairs_file("a\tb\nno tab here\nc\td\n");
    let path = file.path().to_str().unwrap();
    let output = run(&["align", "--distance", "--pairs", path], b"");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{path}:2: no TAB")), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "1\n");
    let output = run(&["align", "--pairs", "-"], b"a\tb\n\xff\tc\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("-:2: not UTF-8"),
        "{stderr}"
    );
    let output = run(&["align", "--pairs", "/nonexistent/pairs.tsv"], b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/pairs.tsv"), "{stderr}");
}
