//! Untrusted text reaches a terminal only with its control characters shown as pictures:
//! `compare`'s disagreeing lines, `explain`, `models`, `fst info`, `lex vocab --show`, error
//! messages and "wrote" lines, and `tokenize` and `chat` when their
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

/// A name a file can hold that acts on a terminal and has no space (fields of a foma header
/// are separated by spaces): a window title, BEL, a C1 CSI and a right-to-left override.
const HOSTILE_WORD: &str = "n\u{1b}]0;pwned\u{7}\u{9b}2J\u{202e}exe";

/// Reports of what a file holds are escaped like every report: `fst info` shows the network's
/// name from its header, `lex vocab --show` the words of the list, and the "wrote" line of a
/// command names the file it wrote (a name from a glob may hold anything).
#[test]
fn reports_show_what_a_file_names_escaped() {
    use std::io::Read;
    let temp = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut foma = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(root.join("samples/fst/toy.fst")).unwrap())
        .read_to_string(&mut foma)
        .unwrap();
    let props = foma.lines().nth(2).unwrap();
    let named = props.rsplit_once(' ').unwrap().0.to_string() + " " + HOSTILE_WORD;
    let fst = temp.path().join("named.fst");
    std::fs::write(&fst, foma.replacen(props, &named, 1)).unwrap();
    let info = run(&["fst", "info", fst.to_str().unwrap()], b"");
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
    let out = String::from_utf8(info.stdout).unwrap();
    assert!(out.contains("n␛]0;pwned␇⟨U+009B⟩2J⟨U+202E⟩exe"), "{out}");
    assert!(!has_control(&out), "{out:?}");

    let output = temp.path().join(format!("out{HOSTILE_WORD}.fst"));
    let convert = run(
        &[
            "fst",
            "convert",
            fst.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert!(convert.status.success());
    let err = String::from_utf8(convert.stderr).unwrap();
    assert!(err.contains("outn␛]0;pwned␇"), "{err}");
    assert!(!has_control(&err), "{err:?}");

    let words = temp.path().join("words.txt");
    std::fs::write(&words, format!("laufen\n{HOSTILE_WORD}\ngehen\n")).unwrap();
    let vocab = temp.path().join(format!("v{HOSTILE_WORD}.vocab"));
    let lex = run(
        &[
            "lex",
            "vocab",
            "--show",
            "--words",
            words.to_str().unwrap(),
            "-o",
            vocab.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        lex.status.success(),
        "{}",
        String::from_utf8_lossy(&lex.stderr)
    );
    let out = String::from_utf8(lex.stdout).unwrap();
    let err = String::from_utf8(lex.stderr).unwrap();
    assert!(out.contains("n␛]0;pwned␇"), "{out}");
    assert!(err.contains("vn␛]0;pwned␇"), "{err}");
    assert!(!has_control(&out) && !has_control(&err), "{out:?}\n{err:?}");
}

/// `chat` prints a prompt made of the conversation's text: escaped on a terminal, exact to a
/// pipe and with `--raw`, as `tokenize` is.
#[test]
fn chat_escapes_on_a_terminal_and_is_exact_elsewhere() {
    let temp = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let conversation = temp.path().join("talk.json");
    let talk = serde_json::json!([{"role": "user", "content": HOSTILE}]);
    std::fs::write(&conversation, talk.to_string()).unwrap();
    let args = format!(
        "chat --with ws --template {} {}",
        root.join("samples/chat/tokenizer_config.json").display(),
        conversation.display()
    );
    let words: Vec<&str> = args.split(' ').collect();
    let piped = run(&words, b"");
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let piped = String::from_utf8(piped.stdout).unwrap();
    assert!(piped.contains("\u{1b}]52;c;aGk=\u{7}"), "{piped:?}");
    let Some(shown) = on_a_terminal(&args, std::path::Path::new("/dev/null")) else {
        return;
    };
    assert!(shown.contains("␛]52;c;aGk=␇"), "{shown:?}");
    assert!(!has_control(&shown.replace("\r\n", "\n")), "{shown:?}");
    let raw = on_a_terminal(&format!("{args} --raw"), std::path::Path::new("/dev/null")).unwrap();
    assert!(raw.contains("\u{1b}]52;c;aGk=\u{7}"), "{raw:?}");
}
