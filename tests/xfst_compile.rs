//! `fst:FILE.xfst`: the script compiled with foma, cached by content, errors with the file and
//! line foma gives, a clear message without foma; and `rules:DIR` without `?lang=` saying what
//! it leaves out. Tests that need foma skip without it, except in CI (`CI=true`).

use std::path::Path;

use crate::common;

/// `toklab tokenize --with SPEC` on `text` with its own cache folder.
fn tokenize(spec: &str, text: &str, cache: &Path, foma: Option<&str>) -> (bool, String, String) {
    let mut command = common::toklab();
    command
        .args(["tokenize", "--with", spec])
        .env("XDG_CACHE_HOME", cache);
    if let Some(foma) = foma {
        command.env("FOMA", foma);
    }
    let out = common::run_command(command, text.as_bytes());
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const GRAMMAR: &str = "source pieces.xfst\nregex [ [ Piece 0:TB ] | [ \" \" : 0 ] ]* ;\n";

#[test]
fn an_xfst_script_compiles_with_foma_and_is_cached_by_content() {
    if !crate::common::have_foma("an_xfst_script_compiles_with_foma_and_is_cached_by_content") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let cache = dir.join("cache");
    std::fs::write(dir.join("g.xfst"), GRAMMAR).unwrap();
    std::fs::write(
        dir.join("pieces.xfst"),
        "define TB \"@_TOKEN_BOUND_@\" ;\ndefine Piece [ a | b | [ a b ] ] ;\n",
    )
    .unwrap();
    // The grammar sources another file, which only `allow=files` permits.
    let spec = format!("fst:{}?allow=files", dir.join("g.xfst").display());
    let (ok, out, err) = tokenize(&spec, "ab a b\n", &cache, None);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "ab a b");
    let cached = || {
        std::fs::read_dir(cache.join("toklab/xfst"))
            .unwrap()
            .count()
    };
    assert_eq!(cached(), 1);
    // Unchanged: the cached network loads, even with foma gone.
    let (ok, out, err) = tokenize(&spec, "ab\n", &cache, Some("/no/such/foma"));
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "ab");
    // An edit of a sourced file compiles again: `ab` is no longer a piece.
    std::fs::write(
        dir.join("pieces.xfst"),
        "define TB \"@_TOKEN_BOUND_@\" ;\ndefine Piece [ a | b ] ;\n",
    )
    .unwrap();
    let (ok, out, err) = tokenize(&spec, "ab\n", &cache, None);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "a b");
    assert_eq!(cached(), 2);
}

#[test]
fn foma_errors_and_a_missing_foma_are_explained() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let cache = dir.join("cache");
    let script = dir.join("bad.xfst");
    std::fs::write(
        &script,
        "define TB \"@_TOKEN_BOUND_@\" ;\ndefine A [ a | b ;\nregex A ;\n",
    )
    .unwrap();
    let spec = format!("fst:{}", script.display());
    let (ok, _, err) = tokenize(&spec, "a\n", &cache, Some("/no/such/foma"));
    assert!(!ok);
    assert!(err.contains("bad.xfst"), "{err}");
    assert!(err.contains("apt install foma"), "{err}");
    if !crate::common::have_foma("foma_errors_and_a_missing_foma_are_explained") {
        return;
    }
    let (ok, _, err) = tokenize(&spec, "a\n", &cache, None);
    assert!(!ok);
    assert!(err.contains("bad.xfst:2"), "{err}");
    assert!(err.contains("foma: syntax error"), "{err}");
    // A failed compile is not cached.
    assert!(
        !cache.join("toklab/xfst").exists()
            || std::fs::read_dir(cache.join("toklab/xfst"))
                .unwrap()
                .next()
                .is_none()
    );
}

#[test]
fn the_shipped_english_grammar_compiles_to_the_shipped_network_without_warnings() {
    if !crate::common::have_foma(
        "the_shipped_english_grammar_compiles_to_the_shipped_network_without_warnings",
    ) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/fst");
    let text = "Dr. Smith's cat didn't see www.example.com, etc. Then it left.\n";
    let (ok, from_script, err) = tokenize(
        &format!("fst:{}", samples.join("english.xfst").display()),
        text,
        temp.path(),
        None,
    );
    assert!(ok, "{err}");
    assert!(!err.contains("TB:TB"), "{err}");
    let (ok, from_network, err) = tokenize(
        &format!("fst:{}", samples.join("english.fst").display()),
        text,
        temp.path(),
        None,
    );
    assert!(ok, "{err}");
    assert!(err.trim().is_empty(), "english.fst warns: {err}");
    assert_eq!(from_script, from_network);
}

#[test]
fn a_rules_folder_without_lang_says_which_language_files_it_skips() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let out = common::run(
        &["tokenize", "--with", &format!("rules:{}", rules.display())],
        b"see fig. 3\n",
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no ?lang= given, so no language file is loaded (found tok-resource-eng.txt); add ?lang=eng"),
        "{err}"
    );
    let out = common::run(
        &[
            "tokenize",
            "--with",
            &format!("rules:{}?lang=eng", rules.display()),
        ],
        b"see fig. 3\n",
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("no ?lang="));
}

#[test]
fn a_script_that_reaches_the_shell_is_refused_unless_files_are_allowed() {
    if !crate::common::have_foma(
        "a_script_that_reaches_the_shell_is_refused_unless_files_are_allowed",
    ) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let cache = dir.join("cache");
    let script = dir.join("evil.xfst");
    std::fs::write(
        &script,
        "define TB \"@_TOKEN_BOUND_@\" ;\nsystem touch PWNED\nregex [ a 0:TB ]* ;\n",
    )
    .unwrap();
    let spec = format!("fst:{}", script.display());
    let (ok, _, err) = tokenize(&spec, "a\n", &cache, None);
    assert!(!ok);
    assert!(err.contains("evil.xfst:2"), "{err}");
    assert!(err.contains("allow=files"), "{err}");
    assert!(!dir.join("PWNED").exists(), "foma ran the shell command");
    // Asked for, the same script runs its command: the refusal above is the guard's doing.
    let (ok, _, err) = tokenize(&format!("{spec}?allow=files"), "a\n", &cache, None);
    assert!(ok, "{err}");
    assert!(dir.join("PWNED").exists());
}

#[test]
fn a_script_name_never_reaches_foma_as_a_command() {
    if !crate::common::have_foma("a_script_name_never_reaches_foma_as_a_command") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let cache = dir.join("cache");
    for name in [
        "a\nsystem touch PWNED\n.xfst",
        "-e system touch PWNED;.xfst",
        "b c.xfst",
    ] {
        let script = dir.join(name);
        std::fs::write(
            &script,
            "define TB \"@_TOKEN_BOUND_@\" ;\nregex [ a 0:TB ]* ;\n",
        )
        .unwrap();
        let (ok, out, err) = tokenize(&format!("fst:{}", script.display()), "aa\n", &cache, None);
        assert!(ok, "{name:?}: {err}");
        assert_eq!(out.trim(), "a a", "{name:?}");
        assert!(!dir.join("PWNED").exists(), "{name:?} ran a command");
    }
}
