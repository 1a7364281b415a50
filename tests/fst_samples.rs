//! The shipped XFST samples: the committed `.fst` files are what the sources compile to (foma
//! names each network randomly in its props line: everything else must match), the English
//! grammar gives what foma's own lookup gives (so it respects the runner's single backtracking
//! point), and each sample does what its comments promise. Tests that need foma skip without
//! it, except in CI (`CI=true`), where a missing foma is a failure.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use toklab::Tokenizer;
use toklab::engines::fst::{FstTokenizer, Repr};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/fst")
}

fn gunzip(path: &Path) -> String {
    let data = std::fs::read(path).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&data[..])
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// A foma file without its network name (the last field of the props line).
fn without_name(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(i) = lines.iter().position(|l| l == "##props##") {
        let props = &mut lines[i + 1];
        let fields: Vec<&str> = props.split(' ').collect();
        *props = fields[..fields.len().min(12)].join(" ");
    }
    lines
}

#[test]
fn committed_networks_are_what_the_sources_compile_to() {
    if !crate::common::have_foma("fst_samples") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path();
    let mut checked = 0;
    for entry in std::fs::read_dir(samples()).unwrap() {
        let source = entry.unwrap().path();
        if source.extension().is_none_or(|e| e != "xfst") {
            continue;
        }
        let stem = source.file_stem().unwrap().to_str().unwrap().to_string();
        let built = out.join(format!("{stem}.fst"));
        let status = Command::new("foma")
            .args(["-e", &format!("source {}", source.display())])
            .args(["-e", &format!("save stack {}", built.display())])
            .args(["-q", "-s"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "foma failed on {}", source.display());
        let committed = samples().join(format!("{stem}.fst"));
        assert_eq!(
            without_name(&gunzip(&committed)),
            without_name(&gunzip(&built)),
            "{} is not what {} compiles to: run samples/fst/build.sh",
            committed.display(),
            source.display()
        );
        checked += 1;
    }
    assert_eq!(checked, 3, "three sample grammars");
}

/// Our tokens as foma's lookup writes them: each followed by the boundary, a sentence end by
/// a second one.
fn marked(tokenizer: &FstTokenizer, text: &str) -> String {
    let result = tokenizer.tokenize(text);
    let mut out = String::new();
    for (i, token) in result.tokens.iter().enumerate() {
        out.push_str(token.form(text));
        out.push_str("@_TOKEN_BOUND_@");
        if result.ends_sentence(i) && i + 1 < result.len() {
            out.push_str("@_TOKEN_BOUND_@");
        }
    }
    out
}

#[test]
fn english_grammar_gives_what_foma_gives() {
    if !crate::common::have_foma("fst_samples") {
        return;
    }
    let mut texts: Vec<String> =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
    texts.extend(EXAMPLES.iter().map(|(t, _)| t.to_string()));
    for name in ["english.fst", "simple.fst"] {
        let path = samples().join(name);
        let tokenizer = FstTokenizer::open(&path, Repr::Matrix).unwrap();
        let mut child = Command::new("flookup")
            .args(["-i", "-x"])
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = texts.join("\n") + "\n";
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            stdin.write_all(input.as_bytes()).unwrap();
        });
        let output = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let output = String::from_utf8(output.stdout).unwrap();
        let answers: Vec<&str> = output.split("\n\n").collect();
        let mut agree = 0;
        for (text, answer) in texts.iter().zip(&answers) {
            let ours = marked(&tokenizer, text);
            let foma: Vec<&str> = answer.lines().collect();
            assert_eq!(
                foma.len(),
                1,
                "{name}: foma has {} outputs for {text:?}",
                foma.len()
            );
            let theirs = foma[0].trim_end_matches("@_TOKEN_BOUND_@");
            assert_eq!(
                ours.trim_end_matches("@_TOKEN_BOUND_@"),
                theirs,
                "{name} on {text:?}"
            );
            agree += 1;
        }
        println!("{name}: {agree}/{} texts as foma's lookup", texts.len());
    }
}

/// Texts and their tokens (`|` a sentence end) under english.fst.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "Dr. Okafor didn't arrive until 9:45 a.m. on Tue., so we're late.",
        "Dr. Okafor did n't arrive until 9:45 a.m. on Tue. , so we 're late . |",
    ),
    (
        "Mail jane.doe@example.org or see https://example.com/a?x=1. Thanks!",
        "Mail jane.doe@example.org or see https://example.com/a?x=1 . | Thanks ! |",
    ),
    (
        "It's 3.14, not 1,000,000 -- who knows... :-) Sales rose 12% in the U.S. today.",
        "It 's 3.14 , not 1,000,000 -- who knows ... | :-) Sales rose 12 % in the U.S. today . |",
    ),
    (
        "They'll say \"Stop.\" And she'd go; I'm sure it's 1st-rate, isn't it?",
        "They 'll say \" Stop . \" | And she 'd go ; I 'm sure it 's 1st-rate , is n't it ? |",
    ),
    (
        "He joined Acme Inc. Since 2019 he hasn't left, etc. and so on. Ask J. R. Smith!?",
        "He joined Acme Inc. | Since 2019 he has n't left , etc. and so on . | Ask J. R. Smith !? |",
    ),
    (
        "We can't, won't, don't: rock'n'roll at o'clock ;) follow @toklab #fst <3",
        "We can't , won't , don't : rock'n'roll at o'clock ;) follow @toklab #fst <3 |",
    ),
];

#[test]
fn english_examples() {
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let english = FstTokenizer::open(&samples().join("english.fst"), repr).unwrap();
        for (text, want) in EXAMPLES {
            let result = english.tokenize(text);
            let mut got = Vec::new();
            for (i, token) in result.tokens.iter().enumerate() {
                got.push(token.form(text));
                if result.ends_sentence(i) {
                    got.push("|");
                }
            }
            assert_eq!(got.join(" "), *want, "{text:?}");
        }
    }
}

#[test]
fn toy_and_simple_samples() {
    let toy = FstTokenizer::open(&samples().join("toy.fst"), Repr::Matrix).unwrap();
    let forms = |t: &FstTokenizer, text: &str| -> Vec<String> {
        t.tokenize(text)
            .tokens
            .iter()
            .map(|k| k.form(text).to_string())
            .collect()
    };
    assert_eq!(forms(&toy, "abbbd"), ["a", "b", "b", "b", "d"]);
    assert_eq!(forms(&toy, "abc  ab c"), ["abc", "a", "b", "c"]);
    let simple = FstTokenizer::open(&samples().join("simple.fst"), Repr::DoubleArray).unwrap();
    let text = "Hi there. It (really) works!";
    let result = simple.tokenize(text);
    assert_eq!(
        forms(&simple, text),
        ["Hi", "there", ".", "It", "(", "really", ")", "works", "!"]
    );
    assert_eq!(result.sentence_ends, [2, 8]);
}

#[test]
fn explain_shows_steps_and_backtracks() {
    let toy = samples().join("toy.fst");
    let spec = format!("fst:{}", toy.display());
    let out = common::stdout_of(&["explain", "--with", &spec, "--text", "abbbd"], "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "      0 «a»  1 → 3  identity");
    assert_eq!(
        lines[1],
        "      1 remember state 3 has ε:boundary: come back here if stuck"
    );
    assert!(out.contains("      4 «d»  4 → no edge\n"), "{out}");
    assert!(
        out.contains("backtrack 4 → 1 to the remembered state 3, reading again «bbb»\n"),
        "{out}"
    );
    assert!(out.contains("ε:boundary 3 → 1  token «a»  0..1\n"), "{out}");
    assert!(
        out.contains("stuck in state 1, no boundary to go back to: token «d»  4..5, restart\n"),
        "{out}"
    );
    // The trace as the workbench gets it: backtracks with the spans read again.
    let tokenizer = FstTokenizer::open(&toy, Repr::DoubleArray).unwrap();
    let trace = tokenizer.trace("abbbd");
    assert_eq!(
        trace.backtracks().next(),
        Some(toklab::Span::new(1, 4)),
        "the b's are read again"
    );
    let lines = trace.lines("abbbd");
    let backtrack = lines
        .iter()
        .find(|l| l.parts[0].text == "backtrack")
        .unwrap();
    assert_eq!(backtrack.parts[0].role, toklab::Role::Backtrack);
    assert_eq!(backtrack.span, Some(toklab::Span::new(1, 4)));
}

#[test]
fn info_and_convert() {
    let english = samples().join("english.fst");
    let out = common::stdout_of(&["fst", "info", english.to_str().unwrap()], "");
    assert!(out.contains("format        foma\n"), "{out}");
    assert!(out.contains("states        565 (565 reachable"), "{out}");
    assert!(out.contains("ε:boundary 468"), "{out}");
    assert!(out.contains("load factor"), "{out}");
    let temp = tempfile::tempdir().unwrap();
    let saved = temp.path().join("english.tlfst");
    let run = common::run(
        &[
            "fst",
            "convert",
            english.to_str().unwrap(),
            saved.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = "Dr. Smith's cat didn't see www.example.com, etc. Then it left.\n";
    let spec = |path: &Path, repr: &str| format!("fst:{}?repr={repr}", path.display());
    let want = common::stdout_of(
        &[
            "tokenize",
            "--with",
            &spec(&english, "matrix"),
            "-f",
            "json",
        ],
        text,
    );
    for repr in ["matrix", "da"] {
        let got = common::stdout_of(
            &["tokenize", "--with", &spec(&saved, repr), "-f", "json"],
            text,
        );
        assert_eq!(got, want, "{repr}");
    }
    let out = common::stdout_of(&["fst", "info", saved.to_str().unwrap()], "");
    assert!(
        out.contains("toklab saved form") && out.contains(", read in"),
        "{out}"
    );
}

#[test]
fn errors_name_the_file_and_place() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let rewrite = dir.join("rewrite.att");
    std::fs::write(&rewrite, "0\t1\ta\tb\n1\t0\t@0@\t@_TOKEN_BOUND_@\n").unwrap();
    let out = common::run(
        &["tokenize", "--with", &format!("fst:{}", rewrite.display())],
        b"a\n",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "rewrite.att:1: not a tokenizer: state 1 (0 in the file), edge «a»:«b» → 2: rewrites"
        ),
        "{err}"
    );
    let garbage = dir.join("garbage.fst");
    std::fs::write(&garbage, [0x1f, 0x8b, 8, 0, 1, 2]).unwrap();
    let out = common::run(&["fst", "info", garbage.to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("garbage.fst: corrupt or truncated gzip data"),
        "{err}"
    );
    let out = common::run(&["tokenize", "--with", "fst:x.fst?repr=tree"], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("option `repr` is `matrix` or `da`, not `tree`"),
        "{err}"
    );
}

#[test]
fn att_written_by_foma_tokenizes_the_same() {
    if !crate::common::have_foma("fst_samples") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    for name in ["english", "simple", "toy"] {
        let fst = samples().join(format!("{name}.fst"));
        let att = dir.join(format!("{name}.att"));
        let status = Command::new("foma")
            .args(["-e", &format!("load stack {}", fst.display())])
            .args(["-e", &format!("write att {}", att.display())])
            .args(["-q", "-s"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let from_fst = FstTokenizer::open(&fst, Repr::Matrix).unwrap();
        let from_att = FstTokenizer::open(&att, Repr::DoubleArray).unwrap();
        assert_eq!(from_att.network().format, "AT&T");
        assert_eq!(
            from_att.network().edge_count(),
            from_fst.network().edge_count()
        );
        for (text, _) in EXAMPLES {
            let text = format!("{text}\nabbbd ab c\t{text}");
            assert_eq!(
                from_att.tokenize(&text),
                from_fst.tokenize(&text),
                "{name}: {text:?}"
            );
        }
    }
}
