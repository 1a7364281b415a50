//! examples/spark/tokenize_folder.py: its helpers (shipped names, brace placeholders, chunks,
//! line numbers) by their Python unit tests, and the whole job on `local-cluster[2,1,1024]`
//! (two executor JVMs) against one toklab process per file, byte for byte, over a folder with a
//! byte-order mark, a lone `\r`, CRLF, a last line without `\n`, a hidden file and invalid
//! UTF-8: replaced with `--lossy` as one process replaces it, and otherwise failing the job
//! with the file and line named.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{shared_dir, skip_note};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/spark")
        .join(name)
}

#[test]
fn helpers_pass_their_unit_tests() {
    let output = Command::new("python3")
        .arg(example("test_tokenize_folder.py"))
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The virtual environment with pyspark (`$SPARK_VENV`, else `~/.cache/toklab/spark`, where
/// `.ci/run` and run_local.sh install it with install_pyspark.sh) and a Java runtime, or `None`
/// with a note; in CI (`CI=true`), which installs both, their absence is a failure.
fn spark(test: &str) -> Option<PathBuf> {
    let venv = match std::env::var_os("SPARK_VENV") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/toklab/spark")
        }
    };
    let java = Command::new("java").arg("-version").output();
    let have_java = java.is_ok_and(|o| o.status.success());
    if have_java && venv.join("bin/spark-submit").is_file() {
        return Some(venv);
    }
    let missing = format!(
        "needs Java (openjdk-17-jre-headless) and pyspark in {} \
         (examples/spark/install_pyspark.sh {0})",
        venv.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: {missing}; CI requires them (.ci/run installs them)");
    }
    skip_note(&format!("{test}: skipped: {missing}"));
    None
}

/// The test folder: files whose creation order is not their sorted order, one in a subfolder,
/// a hidden one that must not be read, and every line ending toklab keeps apart.
fn write_input(dir: &Path, with_invalid: bool) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("z-last.txt"), "The last file, sorted by name.\n").unwrap();
    std::fs::write(
        dir.join("b.txt"),
        b"\xef\xbb\xbfA mark opens this file.\nA lone\rreturn stays inside its line.\r\n\n\
          Prices: 3,141 and 12.5%.\nNo newline ends this line."
            .as_slice(),
    )
    .unwrap();
    let many: String = (1..=400)
        .map(|i| {
            format!(
                "Line {i}: words, numbers ({}) and e-mail a{i}@b.org.\n",
                i * 7
            )
        })
        .collect();
    std::fs::write(dir.join("sub/many.txt"), many).unwrap();
    std::fs::write(dir.join("a.txt"), "First by name.\n").unwrap();
    std::fs::write(dir.join("_SUCCESS"), "not input\n").unwrap();
    if with_invalid {
        std::fs::write(
            dir.join("c-bad.txt"),
            b"good\nstill good\nbad \xff byte\nafter\n".as_slice(),
        )
        .unwrap();
    }
}

/// What one toklab process per file writes, the files in their paths' order.
fn one_process(dir: &Path, spec: &str, lossy: bool) -> Vec<u8> {
    let mut files = vec!["a.txt", "b.txt", "sub/many.txt", "z-last.txt"];
    if dir.join("c-bad.txt").exists() {
        files.insert(2, "c-bad.txt");
    }
    let mut expected = Vec::new();
    for file in files {
        let mut command = crate::common::toklab();
        command.args(["tokenize", "--threads", "1", "-f", "json", "--with", spec]);
        if lossy {
            command.arg("--lossy");
        }
        let output = command.arg(dir.join(file)).output().unwrap();
        assert!(output.status.success(), "{file}: {output:?}");
        expected.extend(output.stdout);
    }
    expected
}

/// Runs the example with spark-submit's own options `submit_args`, then the script's `args`.
fn submit(venv: &Path, submit_args: &[&str], args: &[&str]) -> Output {
    Command::new(venv.join("bin/spark-submit"))
        .env("PYSPARK_PYTHON", venv.join("bin/python"))
        .args(["--master", "local-cluster[2,1,1024]"])
        .args(["--conf", "spark.ui.enabled=false"])
        .args(["--conf", "spark.task.maxFailures=1"])
        .args(submit_args)
        .arg(example("tokenize_folder.py"))
        .args(args)
        .output()
        .expect("spark-submit runs")
}

/// spark-submit's standard error and output together: the Python driver's own messages go to
/// the output (Spark's runner merges them), Spark's log to standard error.
fn both(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string() + &String::from_utf8_lossy(&output.stdout)
}

fn part_files(out: &Path) -> Vec<u8> {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("part-")
        })
        .collect();
    parts.sort();
    assert!(parts.len() >= 2, "{parts:?}");
    parts
        .iter()
        .flat_map(|p| std::fs::read(p).unwrap())
        .collect()
}

#[test]
fn local_cluster_writes_what_one_process_writes() {
    let test = "spark::local_cluster_writes_what_one_process_writes";
    let (Some(shared), Some(venv)) = (shared_dir(test), spark(test)) else {
        return;
    };
    let fst = shared.join("conformance/fst/web-en.fst");
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_input(&input, true);
    let toklab = env!("CARGO_BIN_EXE_toklab");

    // --lossy: the invalid byte becomes U+FFFD as in one process; everything else as it is.
    // The model comes with spark-submit's --files, as in cluster deploy mode.
    let out = tmp.path().join("out");
    let fst_arg = fst.to_str().unwrap();
    let output = submit(
        &venv,
        &["--files", fst_arg],
        &[
            "--toklab",
            toklab,
            "--spec",
            "fst:{web-en.fst}",
            "--lossy",
            "--partitions",
            "3",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
        ],
    );
    let log = both(&output);
    assert!(output.status.success(), "{log}");
    let spark = part_files(&out);
    let expected = one_process(&input, &format!("fst:{fst_arg}"), true);
    assert!(
        spark == expected,
        "spark:\n{}",
        String::from_utf8_lossy(&spark)
    );
    assert!(log.contains("leaving out 1 hidden file"), "{log}");

    // Without it the job fails on the line one process fails on, named the same way; the
    // spec's regex braces are not taken for shipped files, and toklab itself is shipped from
    // a `file://` URI.
    let spec = r"regex:\p{L}+|\p{N}{1,3}|\S";
    let single = crate::common::toklab()
        .args(["tokenize", "-f", "json", "--with", spec])
        .arg(input.join("c-bad.txt"))
        .output()
        .unwrap();
    let single = String::from_utf8_lossy(&single.stderr);
    let message = single
        .split_once("c-bad.txt")
        .expect("one process names the file")
        .1
        .trim()
        .to_string();
    assert!(
        message.starts_with(":3: invalid UTF-8 at byte 5"),
        "{single}"
    );
    let toklab_uri = format!("file://{toklab}");
    let output = submit(
        &venv,
        &[],
        &[
            "--ship-toklab",
            &toklab_uri,
            "--spec",
            spec,
            input.to_str().unwrap(),
            tmp.path().join("failed").to_str().unwrap(),
        ],
    );
    let log = both(&output);
    assert!(!output.status.success(), "{log}");
    assert!(log.contains(&format!("c-bad.txt{message}")), "{log}");
}

/// examples/spark/build_executor_binary.sh: the binary it leaves needs no glibc newer than
/// 2.17, has no symbols (the script checks both) and tokenizes as the test's own build does.
/// A release build from nothing takes many minutes, so it runs only when asked
/// (`TOKLAB_CLUSTER_BUILD=1`) and cargo-zigbuild is present.
#[test]
fn executor_binary_builds_for_old_glibc() {
    let test = "spark::executor_binary_builds_for_old_glibc";
    let venv_bin = std::env::var_os("SPARK_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/toklab/spark")
        })
        .join("bin/cargo-zigbuild");
    let on_path = Command::new("cargo-zigbuild").arg("--version").output();
    let have = venv_bin.is_file() || on_path.is_ok_and(|o| o.status.success());
    if !have || std::env::var("TOKLAB_CLUSTER_BUILD").as_deref() != Ok("1") {
        skip_note(&format!(
            "{test}: skipped: needs TOKLAB_CLUSTER_BUILD=1 and cargo-zigbuild \
             (pip install ziglang cargo-zigbuild; found: {have})"
        ));
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("toklab-executor");
    // Its own target folder, apart from the one this test binary was built in.
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/executor-build");
    let built = Command::new("bash")
        .env("CARGO_TARGET_DIR", target)
        .arg(example("build_executor_binary.sh"))
        .arg(&out)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&built.stderr).to_string()
        + &String::from_utf8_lossy(&built.stdout);
    assert!(built.status.success(), "{log}");
    assert!(log.contains("stripped"), "{log}");
    let text = "Don't stop: 3.14 at https://example.org, \u{feff}marked.\n";
    let mine = crate::common::run(
        &["tokenize", "-f", "json", "--with", "words"],
        text.as_bytes(),
    );
    let mut executor = Command::new(&out);
    executor.args(["tokenize", "-f", "json", "--with", "words"]);
    let theirs = crate::common::run_command(executor, text.as_bytes());
    assert!(theirs.status.success(), "{theirs:?}");
    assert_eq!(mine.stdout, theirs.stdout);
}
