//! Every file the program writes is written whole or not at all: a write cut short (the file
//! size limit reached in the middle, as a full disk would) leaves the old file as it was, a
//! symbolic link stays a link and the mode is kept; `-o` never replaces a file without
//! `--force`.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use crate::common;

/// `toklab render` of a few lines to `out`, under a file size limit of `limit_kb` KiB when given
/// (the shell's `ulimit -f`, counted in 1024-byte blocks by bash and dash alike on Linux).
fn render(out: &Path, force: bool, limit_kb: Option<u32>) -> std::process::Output {
    let mut script = String::new();
    if let Some(kb) = limit_kb {
        script.push_str(&format!("ulimit -f {kb}; "));
    }
    script.push_str("exec \"$0\" render -w ws -f html -o \"$1\"");
    if force {
        script.push_str(" --force");
    }
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", &script, env!("CARGO_BIN_EXE_toklab")])
        .arg(out);
    // One long line: its page is far larger than the limit.
    let text = format!("{}\n", "word ".repeat(3000));
    common::run_command(command, text.as_bytes())
}

#[test]
fn a_write_cut_short_leaves_the_old_file_whole() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("page.html");
    std::fs::write(&out, "the old page\n").unwrap();
    let cut = render(&out, true, Some(4));
    assert!(!cut.status.success(), "the limit stopped it");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old page\n");
    // Without the limit the same command replaces it.
    let whole = render(&out, true, None);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    assert!(std::fs::read_to_string(&out).unwrap().contains("<html"));
}

#[test]
fn o_keeps_links_and_mode_and_asks_for_force() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.html");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = temp.path().join("link.html");
    symlink("real.html", &link).unwrap();
    let refused = render(&link, false, None);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "old");
    let done = render(&link, true, None);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&real).unwrap().contains("<html"));
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}
