use super::*;
use std::os::unix::fs::{PermissionsExt, symlink};

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_through_a_link_and_keeps_the_mode() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.txt");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = temp.path().join("link.txt");
    symlink("real.txt", &link).unwrap();
    write_bytes(&link, &Expect::Replace, b"new").unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        names(temp.path()),
        ["link.txt", "real.txt"],
        "no temporary file is left"
    );
}

#[test]
fn a_writer_that_fails_midway_leaves_the_file_alone() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.txt");
    fs::write(&real, "old").unwrap();
    let err = write_file(&real, &Expect::Replace, |out| {
        out.write_all(b"half of it")?;
        Err(std::io::Error::other("disk full"))
    })
    .unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert_eq!(fs::read_to_string(&real).unwrap(), "old");
    assert_eq!(names(temp.path()), ["real.txt"]);
}

#[test]
fn a_folder_without_write_permission_leaves_the_file_alone() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.txt");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(temp.path(), fs::Permissions::from_mode(0o555)).unwrap();
    // Root may write anywhere; the check means nothing then.
    if File::create(temp.path().join("probe")).is_ok() {
        fs::set_permissions(temp.path(), fs::Permissions::from_mode(0o755)).unwrap();
        return;
    }
    let err = write_bytes(&real, &Expect::Replace, b"new");
    fs::set_permissions(temp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    assert!(err.is_err());
    assert_eq!(fs::read_to_string(&real).unwrap(), "old");
}

#[test]
fn an_existing_file_is_not_replaced_unless_asked() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.txt");
    fs::write(&real, "old").unwrap();
    let err = write_bytes(&real, &Expect::Absent, b"new").unwrap_err();
    assert!(matches!(err, WriteError::Exists(_)), "{err}");
    assert_eq!(fs::read_to_string(&real).unwrap(), "old");
    assert_eq!(names(temp.path()), ["real.txt"]);
    let fresh = temp.path().join("fresh.txt");
    write_bytes(&fresh, &Expect::Absent, b"new").unwrap();
    assert_eq!(fs::read_to_string(&fresh).unwrap(), "new");
}

#[test]
fn a_file_changed_since_it_was_read_is_not_replaced() {
    let temp = tempfile::tempdir().unwrap();
    let real = temp.path().join("real.txt");
    fs::write(&real, "one\ntwo\n").unwrap();
    let (_, stamp) = Stamp::read(&real).unwrap();
    // Same size, other bytes: only the content tells.
    fs::write(&real, "one\nTWO\n").unwrap();
    let expect = Expect::Unchanged(Some(stamp.clone()));
    let err = write_bytes(&real, &expect, b"mine").unwrap_err();
    assert!(matches!(err, WriteError::Changed(_)), "{err}");
    assert_eq!(fs::read_to_string(&real).unwrap(), "one\nTWO\n");
    // Touched but the same bytes: not a change.
    fs::write(&real, "one\ntwo\n").unwrap();
    let written = write_bytes(&real, &expect, b"mine").unwrap();
    assert_eq!(fs::read_to_string(&real).unwrap(), "mine");
    // What was written is the new stamp: a second save goes through.
    write_bytes(&real, &Expect::Unchanged(Some(written)), b"again").unwrap();
    // A file that was absent when read and exists now has changed.
    let late = temp.path().join("late.txt");
    fs::write(&late, "theirs").unwrap();
    let err = write_bytes(&late, &Expect::Unchanged(None), b"mine").unwrap_err();
    assert!(matches!(err, WriteError::Changed(_)) || matches!(err, WriteError::Exists(_)));
    assert_eq!(fs::read_to_string(&late).unwrap(), "theirs");
}

#[test]
fn a_directory_is_not_replaced() {
    let temp = tempfile::tempdir().unwrap();
    let err = write_bytes(temp.path(), &Expect::Replace, b"x").unwrap_err();
    assert!(err.to_string().contains("is a directory"), "{err}");
}

#[test]
fn the_hash_is_fnv1a() {
    // Published FNV-1a 64 values: the cache names depend on them staying put.
    assert_eq!(ContentHash::of(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(ContentHash::of(b"a"), 0xaf63_dc4c_8601_ec8c);
}

#[test]
fn content_refused_after_it_was_written_leaves_the_file_alone() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("ranks");
    fs::write(&path, "old").unwrap();
    let refused = write_checked(&path, &Expect::Replace, |out| {
        out.write_all(b"a whole new body")?;
        Err::<(), _>(std::io::Error::other("its hash is not the expected one"))
    });
    assert!(matches!(refused, Err(Refused::Content(_))), "{refused:?}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(names(temp.path()), ["ranks"], "no temporary file is left");
    let (stamp, size) = write_checked(&path, &Expect::Replace, |out| {
        out.write_all(b"accepted")?;
        Ok::<_, std::io::Error>(8)
    })
    .unwrap();
    assert_eq!(
        (fs::read_to_string(&path).unwrap().as_str(), size),
        ("accepted", 8)
    );
    assert!(stamp.matches(&path).unwrap());
}

#[test]
fn a_link_replaces_a_file_or_an_older_link() {
    let temp = tempfile::tempdir().unwrap();
    fs::write(temp.path().join("first"), "one").unwrap();
    fs::write(temp.path().join("second"), "two").unwrap();
    let entry = temp.path().join("entry");
    fs::write(&entry, "a plain file").unwrap();
    replace_with_link(&entry, Path::new("first")).unwrap();
    assert_eq!(fs::read_to_string(&entry).unwrap(), "one");
    replace_with_link(&entry, Path::new("second")).unwrap();
    assert_eq!(fs::read_link(&entry).unwrap(), Path::new("second"));
    assert_eq!(fs::read_to_string(&entry).unwrap(), "two");
    assert_eq!(names(temp.path()), ["entry", "first", "second"]);
}
