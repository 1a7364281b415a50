//! Untrusted text reaches a terminal only with its control characters shown as pictures:
//! `compare`'s disagreeing lines, `explain`, `models`, error messages, and `tokenize` when its
//! standard output is a terminal (a pseudo-terminal from `script`); to a pipe, or with `--raw`,
//! the bytes stay exact. `render --format svg` stays well-formed XML with every C0 control in
//! the text.

use std::process::Command;

use crate::common::{run, skip_note, toklab};

/// A line a hostile file could hold: OSC 52 (set the clipboard), clear-screen, BEL, a C1 CSI
/// and a right-to-left override.
const HOSTILE: &str = "pay \u{1b}]52;c;aGk=\u{7} now\u{1b}[2J! \u{9b}31m ok \u{202e}txt.exe";

/// Whether `text` holds a character that acts on a terminal.
fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c != '\n' && c != '\t' && toklab::core::display::is_terminal_control(c))
}

#[test]
fn compare_shows_disagreeing_lines_escaped() {
    let output = run(
        &["compare", "--with", "ws", "--with", "words"],
        format!("{HOSTILE}\n").as_bytes(),
    );
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.contains("1 disagreeing line"), "{out}");
    assert!(!has_control(&out), "{out:?}");
    assert!(
        out.contains("pay ␛|]|52") && out.contains("␇ now|␛|[|2J"),
        "{out}"
    );
    assert!(
        out.contains("⟨U+009B⟩") && out.contains("⟨U+202E⟩"),
        "{out}"
    );
}

#[test]
fn explain_escapes_the_text_and_its_tokens() {
    for args in [
        vec!["explain", "--with", "ptb", "--text", HOSTILE],
        vec!["explain", "--with", "words"],
    ] {
        let output = run(&args, format!("{HOSTILE}\n").as_bytes());
        assert!(output.status.success(), "{args:?}");
        let out = String::from_utf8(output.stdout).unwrap();
        assert!(!out.is_empty() && !has_control(&out), "{args:?}: {out:?}");
    }
}

#[test]
fn error_messages_escape_the_names_they_quote() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("rules\u{1b}[2J\u{202e}.txt");
    let spec = format!("rules:{}", missing.display());
    let output = run(&["tokenize", "--with", &spec], b"x\n");
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("rules␛[2J⟨U+202E⟩.txt"), "{err}");
    assert!(!has_control(&err), "{err:?}");
}

#[test]
fn models_escapes_folder_names() {
    let temp = tempfile::tempdir().unwrap();
    let snapshot = temp
        .path()
        .join("models--evil--name\u{1b}]0;pwned\u{7}/snapshots/abc");
    std::fs::create_dir_all(&snapshot).unwrap();
    std::fs::write(snapshot.join("tokenizer.json"), "{}").unwrap();
    let output = toklab()
        .arg("models")
        .env("HF_HUB_CACHE", temp.path())
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.contains("name␛]0;pwned␇"), "{out}");
    assert!(!has_control(&out), "{out:?}");
}

/// `toklab ARGS < input` run on a pseudo-terminal by `script`, its output as the terminal got it
/// (`None` when `script` is missing).
fn on_a_terminal(args: &str, input: &std::path::Path) -> Option<String> {
    let command = format!(
        "{} {args} < {}",
        env!("CARGO_BIN_EXE_toklab"),
        input.display()
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output();
    match output {
        Ok(output) if output.status.success() => {
            Some(String::from_utf8_lossy(&output.stdout).into())
        }
        Ok(output) => panic!("script failed: {}", String::from_utf8_lossy(&output.stderr)),
        Err(_) => {
            skip_note("tokenize_on_a_terminal: skipped: `script` (util-linux) is not installed");
            None
        }
    }
}

#[test]
fn tokenize_escapes_on_a_terminal_and_is_exact_elsewhere() {
    let temp = tempfile::tempdir().unwrap();
    let input = temp.path().join("in.txt");
    std::fs::write(&input, format!("{HOSTILE}\n")).unwrap();
    let piped = run(
        &["tokenize", "--with", "ws"],
        format!("{HOSTILE}\n").as_bytes(),
    );
    let piped = String::from_utf8(piped.stdout).unwrap();
    assert!(
        piped.contains("\u{1b}]52;c;aGk=\u{7}"),
        "a pipe gets the bytes: {piped:?}"
    );
    let Some(shown) = on_a_terminal("tokenize --with ws", &input) else {
        return;
    };
    assert!(shown.contains("␛]52;c;aGk=␇"), "{shown:?}");
    // The pseudo-terminal turns `\n` into `\r\n`: that carriage return is the terminal's own.
    assert!(!has_control(&shown.replace("\r\n", "\n")), "{shown:?}");
    let raw = on_a_terminal("tokenize --with ws --raw", &input).unwrap();
    assert!(raw.contains("\u{1b}]52;c;aGk=\u{7}"), "{raw:?}");
}

#[test]
fn the_svg_of_every_c0_control_is_well_formed_xml() {
    let controls: String = (0u8..0x20)
        .filter(|&b| b != b'\n')
        .map(char::from)
        .chain(['\u{7f}', '\u{9b}', '\u{202e}'])
        .collect();
    let line = format!("a{controls}b c\u{0}d\n");
    let output = run(&["render", "-w", "ws", "-w", "words"], line.as_bytes());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let svg = String::from_utf8(output.stdout).unwrap();
    let document = resvg::usvg::roxmltree::Document::parse(&svg)
        .unwrap_or_else(|e| panic!("the SVG is not XML: {e}"));
    let texts: String = document
        .descendants()
        .filter_map(|node| node.text())
        .collect();
    assert!(texts.contains('␀') && texts.contains('␛'), "{texts}");
    assert!(!has_control(&texts), "{texts:?}");
}
