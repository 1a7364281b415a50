//! Running the user's editor from the workbench: the terminal is handed over (raw mode, the
//! alternate screen, mouse capture and bracketed paste switched off) while it runs and taken
//! back afterwards, as `git commit` or `less`'s `v` do.

use std::io;
use std::path::Path;
use std::process::ExitStatus;

use toklab::core::external::{self, Args};

use ratatui::crossterm::event::{EnableBracketedPaste, EnableMouseCapture};
use ratatui::crossterm::terminal::{self, EnterAlternateScreen};
use ratatui::crossterm::{cursor, execute};

/// The editor's command words: `$VISUAL`, else `$EDITOR`, else `vi` (split on whitespace, so
/// `EDITOR="code -w"` works).
pub fn editor_command() -> Vec<String> {
    let chosen = ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|v| v.to_string_lossy().into_owned())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into());
    chosen.split_whitespace().map(str::to_string).collect()
}

/// The arguments after the editor's own words: `+LINE FILE`, which vi, vim, nano, emacs,
/// micro, kakoune and helix all read as "open FILE at LINE". The file is an operand that
/// starts with `/` or `./` ([`toklab::core::external`]), so a rule file named `+!cmd` or
/// `--eval=…` is opened, never obeyed.
pub fn editor_args(path: &Path, line: usize) -> Args {
    Args::new().numbered("+", line.max(1)).file(path)
}

/// Opens `path` at `line` in the editor and waits for it, with the terminal given back to the
/// editor meanwhile. The workbench's terminal modes are restored even when the editor cannot
/// be started; the caller draws the whole screen again.
pub fn edit(path: &Path, line: usize, mouse: bool) -> io::Result<ExitStatus> {
    let words = editor_command();
    super::restore();
    let status = external::command(&words, &editor_args(path, line))
        .and_then(|mut command| command.status())
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot run the editor `{}`: {e}", words.join(" ")),
            )
        });
    reenter(mouse)?;
    status
}

/// Takes the terminal back after the editor: what `TerminalGuard::enter` switched on.
fn reenter(mouse: bool) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    let mut stdout = io::stdout();
    execute!(
        stdout,
        EnterAlternateScreen,
        cursor::Hide,
        EnableBracketedPaste
    )?;
    if mouse {
        execute!(stdout, EnableMouseCapture)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_comes_before_the_file() {
        let args = editor_args(Path::new("rules/tok-resource-eng.txt"), 110);
        assert_eq!(args.as_slice(), ["+110", "./rules/tok-resource-eng.txt"]);
        // Whole-file origins (line 0) open at the first line.
        assert_eq!(editor_args(Path::new("f"), 0).as_slice()[0], "+1");
    }

    /// A fake editor records its arguments, one per line, NUL-separated (names may hold
    /// newlines); the hostile names reach it as plain files it was asked to open.
    #[test]
    fn hostile_file_names_reach_the_editor_as_files() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        let log = temp.path().join("argv");
        let fake = temp.path().join("fake-editor");
        std::fs::write(
            &fake,
            format!(
                "#!/bin/sh
printf '%s\\0' \"$@\" > '{}'\n",
                log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let words = vec![fake.display().to_string()];
        for name in ["+!touch PWNED", "--eval=(x)", "-c", "a\nb c.txt"] {
            let status = external::command(&words, &editor_args(Path::new(name), 7))
                .unwrap()
                .current_dir(temp.path())
                .status()
                .unwrap();
            assert!(status.success());
            let argv = std::fs::read(&log).unwrap();
            let argv: Vec<&[u8]> = argv.split(|&b| b == 0).filter(|a| !a.is_empty()).collect();
            assert_eq!(
                argv,
                [b"+7".as_slice(), format!("./{name}").as_bytes()],
                "{name:?}"
            );
        }
    }

    /// With vim itself (when installed): a file named `+!touch PWNED` is opened, not run.
    #[test]
    fn vim_opens_a_file_named_like_a_command() {
        let Some(vim) = ["vim", "vim.tiny", "vi"].iter().find(|v| {
            std::process::Command::new(v)
                .arg("--version")
                .output()
                .is_ok()
        }) else {
            return;
        };
        let temp = tempfile::tempdir().unwrap();
        let name = "+!touch PWNED";
        std::fs::write(temp.path().join(name), "x\n").unwrap();
        // -es: silent Ex mode, reading its commands from stdin (none: it quits).
        let words = vec![
            vim.to_string(),
            "-es".to_string(),
            "-u".into(),
            "NONE".into(),
        ];
        let _ = external::command(&words, &editor_args(Path::new(name), 1))
            .unwrap()
            .current_dir(temp.path())
            .stdin(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!temp.path().join("PWNED").exists());
    }
}
