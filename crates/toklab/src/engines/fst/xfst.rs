//! `fst:FILE.xfst`: an XFST script compiled with foma (found on `PATH`, or `$FOMA`), so a
//! grammar author edits the script and the workbench reloads it like a rule file.
//!
//! The compiled network is cached under `$XDG_CACHE_HOME/toklab/xfst` (or `~/.cache/…`), named
//! by a hash of the script's content and of every file it `source`s, `read`s, `load`s or
//! includes with `@"FILE"`: an unchanged grammar loads without foma's seconds of compiling,
//! an edited one (or an edited included file) compiles again. foma reports errors on its
//! output and still exits with 0 and saves what it had, so its messages are read: any error
//! fails the load, naming the script and the line foma gives.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::core::error::{Error, Result};
use crate::core::external;
use crate::core::files::ContentHash;

/// A compiled script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The foma network (in the cache folder).
    pub fst: PathBuf,
    /// The script and every file it reads: what a live view watches.
    pub sources: Vec<PathBuf>,
    /// Whether the network came from the cache (foma did not run).
    pub cached: bool,
}

/// Whether a `fst:` file is an XFST script to compile rather than a network.
pub fn is_script(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xfst") || e.eq_ignore_ascii_case("foma"))
}

/// Compiles `script` with foma, or takes the network from the cache when the script and its
/// files are unchanged. Unless `allow_files`, the script may only build networks in memory
/// ([`xfst_guard`](super::xfst_guard)): it is checked before foma or the cache is used.
pub fn compile(script: &Path, allow_files: bool) -> Result<Compiled> {
    let text = std::fs::read(script).map_err(|e| Error::io(script, e))?;
    if !allow_files {
        super::xfst_guard::check(script, &String::from_utf8_lossy(&text))?;
    }
    let sources = if allow_files {
        dependencies(script)?
    } else {
        vec![script.to_path_buf()]
    };
    let key = content_key(&sources)?;
    let dir = cache_dir();
    let fst = dir.join(format!("{key:016x}.fst"));
    if fst.is_file() {
        return Ok(Compiled {
            fst,
            sources,
            cached: true,
        });
    }
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    // foma reads a copy under a name toklab chose, so the script's own name (which may hold a
    // newline or a foma command) never reaches foma's command line.
    let pid = std::process::id();
    let copy = dir.join(format!(".{key:016x}-{pid}.xfst"));
    let partial = dir.join(format!(".{key:016x}-{pid}.fst"));
    let outcome =
        crate::core::files::write_bytes(&copy, &crate::core::files::Expect::Replace, &text)
            .map_err(Error::from)
            .and_then(|_| run_foma(script, &copy, &partial));
    let _ = std::fs::remove_file(&copy);
    if let Err(e) = outcome {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    std::fs::rename(&partial, &fst).map_err(|e| Error::io(&fst, e))?;
    Ok(Compiled {
        fst,
        sources,
        cached: false,
    })
}

/// The cache folder for compiled scripts.
pub fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("toklab").join("xfst")
}

/// The foma program: `$FOMA` when set, else `foma` on `PATH`.
fn foma_program() -> std::ffi::OsString {
    std::env::var_os("FOMA")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "foma".into())
}

/// Runs foma on `copy` (the checked copy of `script`), in the script's folder where its
/// relative names resolve, and saves the network to `out`.
fn run_foma(script: &Path, copy: &Path, out: &Path) -> Result<()> {
    let folder = script
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = script.file_name().unwrap_or(script.as_os_str());
    let program = foma_program();
    let args = external::Args::new()
        .option("-e")
        .command_on("source ", copy)
        .and_then(|a| a.option("-e").command_on("save stack ", out))
        .map_err(|e| Error::format(script, None, e.to_string()))?
        .option("-q")
        .option("-s");
    let output = external::command(&[program.to_string_lossy().into_owned()], &args)
        .and_then(|mut c| c.current_dir(folder).stdin(Stdio::null()).output())
        .map_err(|e| {
            let message = if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "compiling an XFST script needs foma, and `{}` was not found: install it \
                     (Debian/Ubuntu: apt install foma; macOS: brew install foma) or set $FOMA \
                     to the program, or compile the script yourself with \
                     foma -e \"source {}\" -e \"save stack NAME.fst\" and load the .fst",
                    program.to_string_lossy(),
                    name.to_string_lossy()
                )
            } else {
                format!("cannot run foma: {e}")
            };
            Error::format(script, None, message)
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if let Some(e) = foma_error(script, &stdout, &stderr) {
        return Err(e);
    }
    if !output.status.success() || !out.is_file() {
        return Err(Error::format(
            script,
            None,
            format!(
                "foma saved no network ({}): {}",
                output.status,
                stderr
                    .trim()
                    .lines()
                    .chain(stdout.trim().lines())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ));
    }
    Ok(())
}

/// The first error in foma's output, as a load error naming the script and foma's line.
/// foma prints syntax errors as `LINE.COL-LINE.COL: error: …` on stderr and file and stack
/// errors on stdout.
fn foma_error(script: &Path, stdout: &str, stderr: &str) -> Option<Error> {
    let stdout_errors = stdout.lines().filter(|l| {
        let l = l.trim_start();
        l.starts_with("Error")
            || l.starts_with("***")
            || l.starts_with("Not enough networks")
            || l.starts_with("Stack is empty")
            || l.starts_with("File error")
    });
    let stderr_errors = stderr.lines().filter(|l| l.contains("error"));
    let first = stderr_errors.chain(stdout_errors).next()?.trim();
    let (place, column, message) = match first.split_once(": error: ") {
        Some((place, message)) => {
            let start = place.split('-').next().unwrap_or("");
            let mut numbers = start.split('.').map(|n| n.parse::<usize>().ok());
            let line = numbers.next().flatten();
            let column = numbers.next().flatten();
            let place = line.and_then(|l| locate(script, l));
            (
                place,
                column,
                message.trim().trim_start_matches("***").to_string(),
            )
        }
        None => (None, None, first.to_string()),
    };
    let (path, line) = match place {
        Some((path, line)) => (path, Some(line)),
        None => (script.to_path_buf(), None),
    };
    Some(Error::Format {
        path,
        line,
        column,
        message: format!("foma: {message}"),
    })
}

/// The file and line of foma's line number `cumulative`: foma counts the lines of every file
/// it reads in one sequence, a sourced file's lines coming right after its `source` line.
fn locate(script: &Path, cumulative: usize) -> Option<(PathBuf, usize)> {
    let mut lines = Vec::new();
    expand_lines(
        script,
        script.parent().unwrap_or(Path::new("")),
        &mut lines,
        0,
    );
    lines.get(cumulative.checked_sub(1)?).cloned()
}

fn expand_lines(file: &Path, folder: &Path, out: &mut Vec<(PathBuf, usize)>, depth: usize) {
    let Ok(text) = std::fs::read_to_string(file) else {
        return;
    };
    for (i, line) in text.lines().enumerate() {
        out.push((file.to_path_buf(), i + 1));
        if let ["source", name, ..] = line.split_whitespace().collect::<Vec<_>>()[..]
            && depth < 16
        {
            expand_lines(&folder.join(name), folder, out, depth + 1);
        }
    }
}

/// The script and the files it reads, each once, in the order met; sourced scripts are
/// followed. Names resolve against the script's folder, as foma runs there.
pub fn dependencies(script: &Path) -> Result<Vec<PathBuf>> {
    let folder = script.parent().unwrap_or(Path::new(""));
    // Each file with whether it is a script to read for more names.
    let mut found: Vec<(PathBuf, bool)> = vec![(script.to_path_buf(), true)];
    let mut i = 0;
    while i < found.len() {
        let (file, is_script) = found[i].clone();
        i += 1;
        if !is_script {
            continue;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| Error::io(&file, e))?;
        for (name, sourced) in referenced(&text) {
            let path = folder.join(&name);
            if !found.iter().any(|(p, _)| *p == path) {
                found.push((path, sourced));
            }
        }
    }
    Ok(found.into_iter().map(|(p, _)| p).collect())
}

/// The file names a script refers to, with whether each is a script (`source`) itself:
/// `source F`, `read KIND F` (also `read KIND < F`), `load [stack|defined] F` and `@"F"` in a
/// regular expression. Comment lines are skipped.
fn referenced(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let name = match words.as_slice() {
            ["source", name, ..] => Some((*name, true)),
            ["read", _, "<", name, ..] | ["read", _, name, ..] => Some((*name, false)),
            ["load", "stack" | "defined", name, ..] | ["load", name, ..] => Some((*name, false)),
            _ => None,
        };
        if let Some((name, sourced)) = name {
            out.push((
                name.trim_end_matches(';').trim_matches('"').to_string(),
                sourced,
            ));
        }
        let mut rest = line;
        while let Some(at) = rest.find("@\"") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find('"') {
                out.push((rest[..end].to_string(), false));
                rest = &rest[end + 1..];
            } else {
                break;
            }
        }
    }
    out
}

/// FNV-1a over each file's name and content: stable across runs and Rust versions (the
/// cache outlives the program), and a changed byte anywhere changes it.
fn content_key(files: &[PathBuf]) -> Result<u64> {
    let mut hash = ContentHash::default();
    hash.feed(b"toklab-xfst-1");
    for file in files {
        // A referenced file that does not exist yet is part of the key as missing: creating
        // it recompiles.
        let content = match std::fs::read(file) {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => b"\0missing".to_vec(),
            Err(e) => return Err(Error::io(file, e)),
        };
        hash.feed(file.as_os_str().as_encoded_bytes());
        hash.feed(&(content.len() as u64).to_le_bytes());
        hash.feed(&content);
    }
    Ok(hash.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_sourced_read_loaded_and_included_files() {
        let text = "# source not-this.xfst\nsource defs.xfst\nread lexc words.lexc\n\
                    read regex < more.txt\nload stack old.fst\n\
                    regex [ @\"a.fst\" | b ] ;\n";
        let names: Vec<(String, bool)> = referenced(text);
        assert_eq!(
            names,
            [
                ("defs.xfst".into(), true),
                ("words.lexc".into(), false),
                ("more.txt".into(), false),
                ("old.fst".into(), false),
                ("a.fst".into(), false),
            ]
        );
    }

    #[test]
    fn dependencies_follow_sourced_scripts_and_the_key_follows_their_content() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main.xfst");
        std::fs::write(&main, "source defs.inc\nregex A ;\n").unwrap();
        std::fs::write(
            dir.path().join("defs.inc"),
            "read lexc w.lexc\ndefine A a ;\n",
        )
        .unwrap();
        let deps = dependencies(&main).unwrap();
        assert_eq!(
            deps,
            [
                main.clone(),
                dir.path().join("defs.inc"),
                dir.path().join("w.lexc")
            ]
        );
        let before = content_key(&deps).unwrap();
        std::fs::write(
            dir.path().join("defs.inc"),
            "read lexc w.lexc\ndefine A b ;\n",
        )
        .unwrap();
        assert_ne!(before, content_key(&deps).unwrap());
    }

    #[test]
    fn foma_line_numbers_count_through_sourced_files() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main.xfst");
        std::fs::write(&main, "source defs.inc\nregex A ;\n").unwrap();
        std::fs::write(dir.path().join("defs.inc"), "define A a ;\ndefine B b ;\n").unwrap();
        assert_eq!(locate(&main, 1), Some((main.clone(), 1)));
        assert_eq!(locate(&main, 3), Some((dir.path().join("defs.inc"), 2)));
        assert_eq!(locate(&main, 4), Some((main.clone(), 2)));
        assert_eq!(locate(&main, 5), None);
    }

    #[test]
    fn foma_errors_name_the_script_and_line() {
        let e = foma_error(
            Path::new("g.xfst"),
            "Opening file 'g.xfst'.\n",
            "3.9-3.9: error: ***syntax error at ';'.\n",
        )
        .unwrap()
        .to_string();
        assert!(e.contains("g.xfst"), "{e}");
        assert!(e.contains("foma: syntax error at ';'"), "{e}");
        let e = foma_error(Path::new("g.xfst"), "Error opening file 'x.lexc'\n", "").unwrap();
        assert!(e.to_string().contains("Error opening file 'x.lexc'"), "{e}");
        assert!(foma_error(Path::new("g.xfst"), "defined A: 2 states\n", "").is_none());
    }
}
