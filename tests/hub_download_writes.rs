//! Downloads go through the one file writer (`core/files.rs`): a cached file that another
//! program changes while a download runs is left as that program wrote it, and a download cut
//! short leaves the cached file as it was. The hub's stand-in server is `hub_download`'s.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use toklab::engines::subword::hub::{Progress, tiktoken};

use crate::hub_download::{Server, files_under, reply, sample, sample_encoding, settings};

/// The file tiktoken's cache keeps the sample encoding in.
fn cached(dir: &Path) -> PathBuf {
    dir.join("tiktoken/cf23bb6e547960d5a8695c5577f3a436d3993dca")
}

#[test]
fn a_cached_file_changed_while_it_downloads_is_not_replaced() {
    let ranks = sample("sample.tiktoken");
    let server = Server::start(vec![(
        "/encodings/sample.tiktoken".into(),
        reply(200, &[], &ranks),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let path = cached(dir.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"an old rank file\n").unwrap();
    let (mut settings, _) = settings(&server.origin, dir.path());
    // Another program writes the file while the body arrives (after its first bytes).
    let (edited, by_hand) = (Arc::new(AtomicBool::new(false)), path.clone());
    let flag = edited.clone();
    settings.progress = Progress::new(move |t| {
        if t.done > 0 && !flag.swap(true, Ordering::SeqCst) {
            std::fs::write(&by_hand, b"edited by another program\n").unwrap();
        }
    });
    let e = tiktoken::resolve_with(&settings, &sample_encoding())
        .unwrap_err()
        .to_string();
    assert!(
        edited.load(Ordering::SeqCst),
        "the download never reported progress"
    );
    assert!(
        e.contains("changed by another program") && e.contains(&path.display().to_string()),
        "{e}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"edited by another program\n"
    );
    assert_eq!(files_under(dir.path()), vec![path]);
}

#[test]
fn a_download_cut_short_leaves_the_cached_file_whole() {
    let ranks = sample("sample.tiktoken");
    let mut cut = reply(200, &[], &ranks[..ranks.len() / 2]);
    cut.announced = Some(ranks.len());
    let server = Server::start(vec![("/encodings/sample.tiktoken".into(), cut)]);
    let dir = tempfile::tempdir().unwrap();
    let path = cached(dir.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"an old rank file\n").unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let e = tiktoken::resolve_with(&settings, &sample_encoding())
        .unwrap_err()
        .to_string();
    assert!(e.contains("/encodings/sample.tiktoken"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), b"an old rank file\n");
    assert_eq!(files_under(dir.path()), vec![path]);
}
