//! Failures a user meets, one regression test each: nothing dropped in silence, broken or
//! truncated model files refused, no file overwritten without `--force`, clean exits.

use std::path::{Path, PathBuf};

use crate::common::run;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("toklab-reliability-")
        .tempdir()
        .unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A regex past fancy-regex's backtrack limit: the line is reported and the exit is non-zero,
/// and the text it gave up on is still in the output as one unknown token.
#[test]
fn regex_backtrack_limit_is_an_error_naming_the_line() {
    let input = format!("fine words\n{}! hello world\n", "a".repeat(30));
    let out = run(
        &["tokenize", "--with", r"regex:(a|aa)+(?=b)|\w+"],
        input.as_bytes(),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("<stdin>:2:"), "{err}");
    assert!(err.contains("backtrack limit"), "{err}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        format!("fine words\n{}! hello world\n", "a".repeat(30))
    );
}

/// The same in a tokenizer.json `Split` pre-tokenizer: the rest of the line is still encoded,
/// its tokens say the pre-tokenizer gave up.
#[test]
fn split_pattern_backtrack_limit_is_reported() {
    let scratch = scratch();
    let original = std::fs::read_to_string(samples().join("bpe/split-tokenizer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
    json["pre_tokenizer"]["pretokenizers"][0]["pattern"] =
        serde_json::json!({"Regex": r"(a|aa)+(?=b)|\w+"});
    let path = scratch.path().join("tokenizer.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let tokenizer = toklab::load(&format!("bpe:{}", path.display())).unwrap();
    let text = format!("{}! hello world", "a".repeat(30));
    let tokens = tokenizer.tokenize(&text);
    tokens.check(&text).unwrap();
    let gave_up = tokens.gave_up().expect("the Split pattern gave up");
    assert_eq!(gave_up.span.start, 0);
    assert!(tokenizer.tokenize("hello world").gave_up().is_none());
    let spec = format!("bpe:{}", path.display());
    let out = run(&["tokenize", "--with", &spec], text.as_bytes());
    assert!(!out.status.success());
    assert!(stderr(&out).contains("<stdin>:1:"), "{}", stderr(&out));
}

/// A merge list that does not cover the vocabulary (empty, or cut after a quarter of its
/// lines) is refused by loading and by `bpe check`; the words it lacks never become special
/// tokens.
#[test]
fn empty_or_truncated_merge_list_is_refused() {
    let gpt2 = samples().join("bpe/gpt2");
    let merges = std::fs::read_to_string(gpt2.join("merges.txt")).unwrap();
    let lines: Vec<&str> = merges.lines().collect();
    let quarter = lines[..lines.len() / 4].join("\n");
    for (what, content) in [("empty", String::new()), ("truncated", quarter)] {
        let scratch = scratch();
        let dir = scratch.path();
        std::fs::copy(gpt2.join("vocab.json"), dir.join("vocab.json")).unwrap();
        std::fs::write(dir.join("merges.txt"), content).unwrap();
        let spec = format!("bpe:{}", dir.display());
        let e = toklab::load(&spec).err().expect(what).to_string();
        assert!(e.contains("merges.txt"), "{what}: {e}");
        assert!(e.contains("no merge makes"), "{what}: {e}");
        let out = run(&["bpe", "check", &dir.display().to_string()], b"");
        assert!(!out.status.success(), "{what}: bpe check accepted it");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("proper: yes"));
    }
    // The whole list loads.
    toklab::load(&format!("bpe:{}", gpt2.display())).unwrap();
}

/// A SentencePiece model cut short is refused, wherever the cut falls: inside a field or
/// cleanly between two pieces (the first 1%, 2%, … of the file).
#[test]
fn truncated_sentencepiece_model_is_refused() {
    let model = std::fs::read(samples().join("bpe/sample-spm.model")).unwrap();
    let scratch = scratch();
    let path = scratch.path().join("cut.model");
    for percent in 1..100 {
        std::fs::write(&path, &model[..model.len() * percent / 100]).unwrap();
        let Err(e) = toklab::load(&format!("spm:{}", path.display())) else {
            panic!("{percent}% of the model loaded");
        };
        assert!(e.to_string().contains("cut.model"), "{e}");
    }
    let mut cuts = 0;
    for len in 1..model.len() {
        std::fs::write(&path, &model[..len]).unwrap();
        let message = match toklab::load(&format!("spm:{}", path.display())) {
            Ok(_) => panic!("{len} of {} bytes loaded", model.len()),
            Err(e) => e.to_string(),
        };
        cuts += message.contains("truncated") as usize;
        if len > model.len() / 10 {
            break;
        }
    }
    assert!(cuts > 0, "no cut fell between two pieces");
}

/// Files given to the wrong loader say what they are not.
#[test]
fn wrong_format_errors_say_what_the_file_is_not() {
    let spec = format!("spm:{}", samples().join("bpe/tokenizer.json").display());
    let e = toklab::load(&spec).err().unwrap().to_string();
    // Told by its content: what the file is and the spec that reads it.
    assert!(e.contains("a HuggingFace tokenizer.json"), "{e}");
    assert!(e.contains("use `hf:"), "{e}");
    // GPT-2's encoder.json on its own, as if it were a tokenizer.json: no serde column.
    let spec = format!("bpe:{}", samples().join("bpe/gpt2/vocab.json").display());
    let e = toklab::load(&spec).err().unwrap().to_string();
    assert!(e.contains("not a tokenizer.json"), "{e}");
    assert!(e.contains("bpe:DIR"), "{e}");
    // A JSON syntax error is file:line:column, the position said once.
    let scratch = scratch();
    let path = scratch.path().join("tokenizer.json");
    std::fs::write(&path, "{\"model\":\n  {\"type\": BPE}}").unwrap();
    let e = toklab::load(&format!("bpe:{}", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("tokenizer.json:2:12: invalid JSON"), "{e}");
    assert!(!e.contains("at line"), "{e}");
}

/// `bpe train -o DIR` and `fst convert IN OUT` leave existing files alone unless `--force`.
#[test]
fn nothing_is_overwritten_without_force() {
    let scratch = scratch();
    let dir = scratch.path();
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, "set new new renew reset renew\n").unwrap();
    let model = dir.join("model");
    std::fs::create_dir(&model).unwrap();
    std::fs::write(model.join("vocab.bpe"), "mine\n").unwrap();
    let train = |force: bool| {
        let mut args = vec![
            "bpe",
            "train",
            "--merges",
            "3",
            corpus.to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        run(&args, b"")
    };
    let out = train(false);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("vocab.bpe exists; give --force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(model.join("vocab.bpe")).unwrap(),
        "mine\n"
    );
    assert!(train(true).status.success(), "{}", stderr(&train(true)));
    assert_ne!(
        std::fs::read_to_string(model.join("vocab.bpe")).unwrap(),
        "mine\n"
    );

    let fst = samples().join("fst/toy.fst");
    let existing = dir.join("existing.tlfst");
    std::fs::write(&existing, "precious").unwrap();
    let convert = |force: &[&str]| {
        let mut args = vec![
            "fst",
            "convert",
            fst.to_str().unwrap(),
            existing.to_str().unwrap(),
        ];
        args.extend_from_slice(force);
        run(&args, b"")
    };
    let out = convert(&[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("existing.tlfst exists; give --force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "precious");
    assert!(convert(&["--force"]).status.success());
    assert_ne!(std::fs::read(&existing).unwrap(), b"precious");
}

/// `toklab align --matrix A B | head -1`: the reader leaving is a normal end (exit 0), with
/// output far larger than a pipe's buffer so the write really fails.
#[test]
fn align_matrix_into_a_closed_pipe_exits_zero() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let a = "kitten sitting on the mat ".repeat(12);
    let b = "sitting kitten on a mat ".repeat(12);
    let mut child = crate::common::toklab()
        .args(["align", "--matrix", &a, &b])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The read end is dropped here, as `head -1` exits.
    let out = child.wait_with_output().unwrap();
    assert!(!first.is_empty());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("Broken pipe"), "{}", stderr(&out));
}

/// `explain` on invalid UTF-8 suggests `--lossy`, and accepts it.
#[test]
fn explain_accepts_the_lossy_it_suggests() {
    let out = run(&["explain", "--with", "ws"], b"a\xffb\n");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--lossy"), "{}", stderr(&out));
    let out = run(&["explain", "--with", "ws", "--lossy"], b"a\xffb\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("a\u{fffd}b"));
    assert!(stderr(&out).contains("replaced with U+FFFD in 1 line"));
}

/// An empty maximum-matching dictionary is refused, naming the file.
#[test]
fn empty_maxmatch_dictionary_is_refused() {
    let scratch = scratch();
    let path = scratch.path().join("words.txt");
    std::fs::write(&path, "# nothing yet\n\n").unwrap();
    let e = toklab::load(&format!("maxmatch:{}", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("words.txt") && e.contains("no words"), "{e}");
}

/// `rules check` reports a wrapped-around `::char-split` and an empty headword, and the
/// entry with the huge split never yields an empty token.
#[test]
fn rules_check_reports_char_split_overflow_and_empty_headwords() {
    let scratch = scratch();
    let path = scratch.path().join("bad-rules.txt");
    std::fs::write(
        &path,
        "::contraction dont ::target do n't ::char-split 18446744073709551615,5\n::punct-split  ::side both\n",
    )
    .unwrap();
    let out = run(&["rules", "check", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("bad-rules.txt:1:"), "{shown}");
    assert!(
        shown.contains("adds up to more than any text has"),
        "{shown}"
    );
    assert!(
        shown.contains("bad-rules.txt:2:1: warning: `::punct-split` has no text"),
        "{shown}"
    );
}
