//! Replacing a file safely: the new bytes go to a temporary file beside the real file (so the
//! rename stays on one file system), which takes the old file's permissions and then replaces
//! it in one rename. A symbolic link is followed first, so the link's target is what changes
//! and the link stays a link.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// How many links in a chain are followed before giving up (as the kernel's ELOOP).
const MAX_LINKS: usize = 40;

/// Writes `path`'s new content with `write`, replacing the file only once all of it is written.
pub fn replace_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = follow_links(path)?;
    if target.is_dir() {
        return Err(std::io::Error::other(format!(
            "{} is a directory",
            target.display()
        )));
    }
    let tmp = temporary_beside(&target);
    let result = (|| {
        let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file: File = out.into_inner().map_err(|e| e.into_error())?;
        if let Ok(meta) = fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The file `path` finally names: symbolic links followed (a dangling link names the file it
/// would create).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

fn temporary_beside(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map_or_else(|| "text".into(), |n| n.to_string_lossy().into_owned());
    target.with_file_name(format!(".{name}.toklab-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn writes_through_a_link_and_keeps_the_mode() {
        let temp = tempfile::tempdir().unwrap();
        let real = temp.path().join("real.txt");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = temp.path().join("link.txt");
        symlink("real.txt", &link).unwrap();
        replace_file(&link, |out| out.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let left: Vec<_> = fs::read_dir(temp.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file is left behind");
    }

    #[test]
    fn a_failed_write_leaves_the_file_alone() {
        let temp = tempfile::tempdir().unwrap();
        let real = temp.path().join("real.txt");
        fs::write(&real, "old").unwrap();
        let err = replace_file(&real, |_| Err(std::io::Error::other("disk full")));
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(&real).unwrap(), "old");
        assert_eq!(fs::read_dir(temp.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_directory_is_not_replaced() {
        let temp = tempfile::tempdir().unwrap();
        let err = replace_file(temp.path(), |out| out.write_all(b"x")).unwrap_err();
        assert!(err.to_string().contains("is a directory"), "{err}");
    }
}
