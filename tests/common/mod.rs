//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod fst;
pub mod tmux;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use proptest::test_runner::{Config, FileFailurePersistence};

/// The shared reference folder: `$TOKLAB_SHARED`, else `../shared` beside the checkout.
/// `None` (with a note on stderr) when it is missing in a user's clone; in CI (`CI=true`) a
/// missing folder fails the test, so conformance can never be skipped silently there.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("TOKLAB_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    if dir.join("conformance").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{test}: the shared folder {} is missing (set TOKLAB_SHARED); CI requires it",
            dir.display()
        );
    }
    skip_note(&format!(
        "{test}: skipped: shared folder {} not found (set TOKLAB_SHARED to run it)",
        dir.display()
    ));
    None
}

/// The folder of the real models `../shared/realworld/fetch.sh` restores: `$TOKLAB_MODELS`, or
/// `~/.cache/toklab/realworld`.
pub fn models_dir() -> PathBuf {
    match std::env::var_os("TOKLAB_MODELS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/toklab/realworld"),
    }
}

/// A real model `what` that `test` needs is not in the models folder: a note that the case
/// was skipped in a user's clone; a failure in CI (`CI=true`), where `.ci/run` fetches them.
pub fn missing_model(test: &str, what: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: {what} is missing; CI requires it (../shared/realworld/fetch.sh)");
    }
    skip_note(&format!(
        "{test}: skipped {what}: missing (run ../shared/realworld/fetch.sh)"
    ));
}

/// Says on the terminal that a test did not run. Written to the process's standard error
/// directly, not with `eprintln!`, which the test harness captures and hides for tests that
/// pass: a skipped test passes, and the note must still be seen.
pub fn skip_note(note: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{note}");
}

/// Whether foma is installed: without it a test says it skipped, except in CI (`CI=true`),
/// where `.ci/run` installs it and its absence is a failure.
pub fn have_foma(test: &str) -> bool {
    let found = std::process::Command::new("foma")
        .arg("-v")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok();
    if !found {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{test}: foma is not installed; CI requires it (.ci/run installs it)");
        }
        skip_note(&format!(
            "{test}: skipped: foma is not installed (Debian package foma)"
        ));
    }
    found
}

/// A proptest configuration running `cases` cases, with its failures kept beside the test
/// file (`tests/NAME.proptest-regressions`) and replayed first on every run. proptest's
/// default would look for `proptest-regressions/NAME.txt` beside tests/, since tests/main.rs
/// makes tests/ one module tree; this keeps the seeds where they were found and committed.
pub fn proptest_config(cases: u32) -> Config {
    Config {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::with_cases(cases)
    }
}

/// The `toklab` binary cargo built for the integration tests.
pub fn toklab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toklab"))
}

/// Runs `toklab ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut command = toklab();
    command.args(args);
    run_command(command, stdin)
}

/// Runs a prepared `toklab` command (its own folder or environment) with `stdin` as standard
/// input, written from a thread so a large input cannot deadlock against the output.
pub fn run_command(mut command: Command, stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toklab");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("toklab output");
    writer.join().expect("stdin writer");
    output
}

/// Standard output of a successful run, as a string.
pub fn stdout_of(args: &[&str], stdin: &str) -> String {
    let output = run(args, stdin.as_bytes());
    assert!(
        output.status.success(),
        "toklab {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// The lines of a reference file; a file that cannot be read fails the test, naming it.
pub fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The files under `folder` and its subfolders whose names end in `.{extension}`, sorted:
/// what the checks of the layout, the documents and the code's size read.
pub fn files_under(folder: &std::path::Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
