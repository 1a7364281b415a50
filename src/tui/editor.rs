//! Running the user's editor from the workbench: the terminal is handed over (raw mode, the
//! alternate screen, mouse capture and bracketed paste switched off) while it runs and taken
//! back afterwards, as `git commit` or `less`'s `v` do.

use std::io;
use std::path::Path;
use std::process::{Command, ExitStatus};

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
/// micro, kakoune and helix all read as "open FILE at LINE".
pub fn editor_args(path: &Path, line: usize) -> Vec<std::ffi::OsString> {
    vec![
        format!("+{}", line.max(1)).into(),
        path.as_os_str().to_owned(),
    ]
}

/// Opens `path` at `line` in the editor and waits for it, with the terminal given back to the
/// editor meanwhile. The workbench's terminal modes are restored even when the editor cannot
/// be started; the caller draws the whole screen again.
pub fn edit(path: &Path, line: usize, mouse: bool) -> io::Result<ExitStatus> {
    let command = editor_command();
    super::restore();
    let status = Command::new(&command[0])
        .args(&command[1..])
        .args(editor_args(path, line))
        .status()
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot run the editor `{}`: {e}", command.join(" ")),
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
        assert_eq!(args, ["+110", "rules/tok-resource-eng.txt"]);
        // Whole-file origins (line 0) open at the first line.
        assert_eq!(editor_args(Path::new("f"), 0)[0], "+1");
    }
}
