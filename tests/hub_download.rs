//! Models by name, downloaded once: `hf:ORG/NAME[@REVISION]` and `tiktoken:NAME` against a
//! small HTTP server on 127.0.0.1 that answers as the hub and tiktoken's file store do
//! (their URL layout and headers), including refusals, a missing model, a body cut short and
//! a download that breaks off. A failed download must leave nothing in the cache; offline
//! mode must make no request.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use toklab::engines::subword::hub::{self, Progress, Settings, tiktoken};

use crate::common::{run_command, toklab};

/// A canned answer: status, extra headers, body; `announced` overrides the Content-Length
/// (a larger one makes the server close the connection early, a broken-off download).
#[derive(Clone)]
pub(crate) struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    pub(crate) announced: Option<usize>,
}

pub(crate) fn reply(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    Reply {
        status,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: body.to_vec(),
        announced: None,
    }
}

/// One request the server saw: its path and its Authorization header.
type Seen = (String, Option<String>);

/// The test server: answers each path from its table (unknown paths: the hub's 404 for a
/// missing file), one request per connection, until dropped.
pub(crate) struct Server {
    pub(crate) origin: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub(crate) fn start(routes: Vec<(String, Reply)>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen_in, stop_in) = (seen.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_in.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    answer(stream, &routes, &seen_in);
                }
            }
        });
        Server {
            origin,
            seen,
            stop,
            thread: Some(thread),
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.origin.trim_start_matches("http://"));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn answer(stream: TcpStream, routes: &[(String, Reply)], seen: &Mutex<Vec<Seen>>) {
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut authorization = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("authorization")
        {
            authorization = Some(value.trim().to_string());
        }
    }
    seen.lock().unwrap().push((path.clone(), authorization));
    let missing = reply(404, &[("X-Error-Code", "EntryNotFound")], b"{}");
    let r = routes
        .iter()
        .find(|(p, _)| *p == path)
        .map_or(missing, |(_, r)| r.clone());
    let mut head = format!(
        "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        r.status,
        r.announced.unwrap_or(r.body.len())
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = &stream;
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(&r.body);
    let _ = out.flush();
}

const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

pub(crate) fn sample(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/bpe")
            .join(name),
    )
    .unwrap()
}

/// The progress reports a download made, as (bytes done, finished).
pub(crate) type Reports = Arc<Mutex<Vec<(u64, bool)>>>;

/// Settings for `server` with a fresh cache, recording progress reports.
pub(crate) fn settings(origin: &str, cache: &Path) -> (Settings, Reports) {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let into = reports.clone();
    let settings = Settings {
        endpoint: origin.to_string(),
        token: None,
        offline: false,
        cache: cache.join("hub"),
        tiktoken_cache: Some(cache.join("tiktoken")),
        tiktoken_base: Some(origin.to_string()),
        progress: Progress::new(move |t| into.lock().unwrap().push((t.done, t.finished))),
    };
    (settings, reports)
}

/// Every file under `dir` (none when it does not exist).
pub(crate) fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        match path.is_dir() && !path.is_symlink() {
            true => found.extend(files_under(&path)),
            false => found.push(path),
        }
    }
    found
}

fn resolve_path(model: &str) -> String {
    format!("/acme/{model}/resolve/main")
}

#[test]
fn a_model_is_downloaded_into_the_huggingface_layout_once() {
    let json = sample("tokenizer.json");
    let config = br#"{"model_max_length": 512}"#.to_vec();
    // Its sha256, the ETag the hub gives large files.
    let config_sha = "994f46754c5bf4014f1aa92d34b1374319c3a6b3f702105cd5b742beaecd18ce";
    let linked = format!("\"{config_sha}\"");
    let base = resolve_path("tiny");
    let server = Server::start(vec![
        (
            format!("{base}/tokenizer.json"),
            reply(
                200,
                &[("X-Repo-Commit", COMMIT), ("ETag", "\"a1b2c3\"")],
                &json,
            ),
        ),
        // A large file: a redirect to the file store carries the commit and the sha256.
        (
            format!("{base}/tokenizer_config.json"),
            reply(
                302,
                &[
                    ("X-Repo-Commit", COMMIT),
                    ("X-Linked-Etag", &linked),
                    ("Location", "/store/config"),
                ],
                b"",
            ),
        ),
        ("/store/config".into(), reply(200, &[], &config)),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (mut settings, reports) = settings(&server.origin, dir.path());
    settings.token = Some("hf_secret".into());
    let path = hub::resolve_with(&settings, "acme/tiny").unwrap();
    let model = settings.cache.join("models--acme--tiny");
    let snapshot = model.join("snapshots").join(COMMIT);
    assert_eq!(path, snapshot.join("tokenizer.json"));
    assert_eq!(std::fs::read(&path).unwrap(), json);
    assert_eq!(
        std::fs::read_link(&path).unwrap(),
        Path::new("../../blobs/a1b2c3")
    );
    assert_eq!(
        std::fs::read(snapshot.join("tokenizer_config.json")).unwrap(),
        config
    );
    assert!(model.join("blobs").join(config_sha).is_file());
    assert_eq!(
        std::fs::read_to_string(model.join("refs/main")).unwrap(),
        COMMIT
    );
    // The token went to the hub with every request.
    let seen = server.seen();
    assert!(seen.iter().any(|(p, a)| p.ends_with("tokenizer.json")
        && a.as_deref() == Some("Bearer hf_secret")));
    // Progress: a start, the bytes, an end for each file.
    let reports = reports.lock().unwrap().clone();
    assert!(reports.contains(&(0, false)));
    assert!(reports.contains(&(json.len() as u64, true)), "{reports:?}");
    // Downloaded once: the second time is the cache's, with no request.
    let before = server.seen().len();
    assert_eq!(hub::resolve_with(&settings, "acme/tiny").unwrap(), path);
    assert_eq!(server.seen().len(), before);
    // Offline, the cached model still resolves.
    settings.offline = true;
    assert_eq!(hub::resolve_with(&settings, "acme/tiny").unwrap(), path);
}

#[test]
fn without_tokenizer_json_the_next_kind_is_fetched_and_a_missing_config_is_fine() {
    let vocab = sample("sample-wordpiece.txt");
    let base = resolve_path("bert");
    let server = Server::start(vec![
        // A 404 without the hub's code is a missing file too.
        (format!("{base}/tokenizer.model"), reply(404, &[], b"")),
        (
            format!("{base}/vocab.txt"),
            reply(200, &[("X-Repo-Commit", COMMIT), ("ETag", "v0")], &vocab),
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let path = hub::resolve_with(&settings, "acme/bert").unwrap();
    assert!(
        path.ends_with(format!("snapshots/{COMMIT}/vocab.txt")),
        "{path:?}"
    );
    let asked: Vec<String> = server.seen().into_iter().map(|(p, _)| p).collect();
    let file = |f: &str| format!("{base}/{f}");
    assert_eq!(
        asked,
        [
            file("tokenizer.json"),
            file("tokenizer.model"),
            file("vocab.txt"),
            file("tokenizer_config.json")
        ]
    );
}

#[test]
fn a_revision_is_asked_for_and_kept_under_its_ref() {
    let json = sample("tokenizer.json");
    let server = Server::start(vec![(
        "/acme/tiny/resolve/v1.0/tokenizer.json".into(),
        reply(200, &[("X-Repo-Commit", COMMIT), ("ETag", "t1")], &json),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let path = hub::resolve_with(&settings, "acme/tiny@v1.0").unwrap();
    assert!(path.ends_with(format!("snapshots/{COMMIT}/tokenizer.json")));
    let model = settings.cache.join("models--acme--tiny");
    assert_eq!(
        std::fs::read_to_string(model.join("refs/v1.0")).unwrap(),
        COMMIT
    );
    assert!(!model.join("refs/main").exists());
    // The commit itself names the same snapshot, from the cache.
    let before = server.seen().len();
    let by_commit = hub::resolve_with(&settings, &format!("acme/tiny@{COMMIT}")).unwrap();
    assert_eq!(by_commit, path);
    assert_eq!(server.seen().len(), before);
}

fn error_of(settings: &Settings, model: &str) -> String {
    hub::resolve_with(settings, model).unwrap_err().to_string()
}

#[test]
fn refusals_and_missing_models_say_what_to_do_and_leave_no_files() {
    let gated = reply(
        401,
        &[("X-Error-Code", "GatedRepo")],
        br#"{"error":"Access restricted"}"#,
    );
    let server = Server::start(vec![
        (format!("{}/tokenizer.json", resolve_path("gated")), gated),
        (
            format!("{}/tokenizer.json", resolve_path("private")),
            reply(401, &[], br#"{"error":"Invalid credentials"}"#),
        ),
        (
            format!("{}/tokenizer.json", resolve_path("nothing")),
            reply(404, &[("X-Error-Code", "RepoNotFound")], b""),
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let e = error_of(&settings, "acme/gated");
    assert!(
        e.contains("acme/gated is a gated model")
            && e.contains(&format!(
                "accept its conditions at {}/acme/gated",
                server.origin
            ))
            && e.contains("set HF_TOKEN"),
        "{e}"
    );
    let e = error_of(&settings, "acme/private");
    assert!(
        e.contains("needs a token") && e.contains("Invalid credentials"),
        "{e}"
    );
    let e = error_of(&settings, "acme/nothing");
    assert!(
        e.contains("not found") && e.contains("no model acme/nothing"),
        "{e}"
    );
    // A model with none of the tokenizer files (every path here is the hub's 404).
    let e = error_of(&settings, "acme/empty");
    assert!(
        e.contains("none of tokenizer.json, tokenizer.model, vocab.txt at revision main"),
        "{e}"
    );
    assert_eq!(files_under(dir.path()), Vec::<PathBuf>::new());
}

#[test]
fn a_broken_off_or_corrupted_download_leaves_nothing_in_the_cache() {
    let json = sample("tokenizer.json");
    let mut broken = reply(
        200,
        &[("X-Repo-Commit", COMMIT), ("ETag", "b1")],
        &json[..100],
    );
    broken.announced = Some(json.len());
    // The body is complete as announced, but not the file its sha256 ETag names.
    let sha = "a".repeat(64);
    let corrupted = reply(
        200,
        &[("X-Repo-Commit", COMMIT), ("X-Linked-Etag", &sha)],
        &json[..100],
    );
    let server = Server::start(vec![
        (format!("{}/tokenizer.json", resolve_path("broken")), broken),
        (
            format!("{}/tokenizer.json", resolve_path("corrupted")),
            corrupted,
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let e = error_of(&settings, "acme/broken");
    assert!(
        e.contains(&format!("broke off after 100 of {} bytes", json.len()))
            && e.contains("nothing was kept"),
        "{e}"
    );
    let e = error_of(&settings, "acme/corrupted");
    assert!(e.contains("sha256") && e.contains(&sha), "{e}");
    assert_eq!(files_under(dir.path()), Vec::<PathBuf>::new());
}

#[test]
fn offline_no_request_is_made_and_the_error_says_why() {
    let server = Server::start(Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let (mut settings, _) = settings(&server.origin, dir.path());
    settings.offline = true;
    let e = error_of(&settings, "acme/tiny");
    assert!(
        e.contains("model acme/tiny is not in the local cache and HF_HUB_OFFLINE is set")
            && e.contains("models--acme--tiny"),
        "{e}"
    );
    let e = tiktoken::resolve_with(&settings, tiktoken::published("cl100k_base").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tiktoken encoding cl100k_base") && e.contains("HF_HUB_OFFLINE"),
        "{e}"
    );
    assert!(server.seen().is_empty());
}

/// A published encoding over the sample rank file, at a URL of tiktoken's origin.
pub(crate) fn sample_encoding() -> tiktoken::Published {
    tiktoken::Published {
        name: "sample",
        encoding: "cl100k",
        url: "https://openaipublic.blob.core.windows.net/encodings/sample.tiktoken",
        sha256: "5485c59f946340cb8f141ed2c04128f56622b3bf0db65410244bbc5a039a2dcb",
    }
}

#[test]
fn a_tiktoken_rank_file_is_fetched_checked_and_cached_as_tiktoken_does() {
    let ranks = sample("sample.tiktoken");
    let server = Server::start(vec![(
        "/encodings/sample.tiktoken".into(),
        reply(200, &[], &ranks),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let encoding = sample_encoding();
    let path = tiktoken::resolve_with(&settings, &encoding).unwrap();
    // tiktoken's cache name: the sha1 of the URL (python: hashlib.sha1(url.encode())).
    assert_eq!(
        path,
        dir.path()
            .join("tiktoken/cf23bb6e547960d5a8695c5577f3a436d3993dca")
    );
    assert_eq!(std::fs::read(&path).unwrap(), ranks);
    assert_eq!(server.seen().len(), 1);
    assert_eq!(tiktoken::resolve_with(&settings, &encoding).unwrap(), path);
    assert_eq!(server.seen().len(), 1);
    // A cached file that is not the pinned one is fetched again.
    std::fs::write(&path, b"garbage").unwrap();
    assert_eq!(tiktoken::resolve_with(&settings, &encoding).unwrap(), path);
    assert_eq!(std::fs::read(&path).unwrap(), ranks);
    assert_eq!(server.seen().len(), 2);
}

#[test]
fn a_tiktoken_file_that_is_not_the_pinned_one_is_not_kept() {
    let ranks = sample("sample.tiktoken");
    let server = Server::start(vec![(
        "/encodings/sample.tiktoken".into(),
        reply(200, &[], &ranks[..ranks.len() / 2]),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let (settings, _) = settings(&server.origin, dir.path());
    let e = tiktoken::resolve_with(&settings, &sample_encoding())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/encodings/sample.tiktoken") && e.contains("not the expected 5485c59f"),
        "{e}"
    );
    assert_eq!(files_under(dir.path()), Vec::<PathBuf>::new());
    // A 404 names the URL.
    let mut settings = settings;
    settings.tiktoken_base = Some(format!("{}/elsewhere", server.origin));
    let e = tiktoken::resolve_with(&settings, &sample_encoding())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/elsewhere/encodings/sample.tiktoken: not found"),
        "{e}"
    );
}

#[test]
fn the_command_line_downloads_by_name_from_the_environment_s_endpoint() {
    let json = sample("tokenizer.json");
    let server = Server::start(vec![(
        format!("{}/tokenizer.json", resolve_path("tiny")),
        reply(200, &[("X-Repo-Commit", COMMIT), ("ETag", "e1")], &json),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let run = |spec: &str, offline: bool| {
        let mut command = toklab();
        command
            .args(["tokenize", "-f", "ids", "--with", spec])
            .env("HF_ENDPOINT", &server.origin)
            .env("HF_HUB_CACHE", dir.path().join("hub"))
            .env("TIKTOKEN_CACHE_DIR", dir.path().join("tiktoken"))
            .env("TOKLAB_TIKTOKEN_BASE", &server.origin)
            .env_remove("HF_TOKEN")
            .env_remove("HF_HUB_OFFLINE");
        if offline {
            command.env("HF_HUB_OFFLINE", "1");
        }
        run_command(command, b"Hello tokenizer world\n")
    };
    let by_name = run("hf:acme/tiny", false);
    assert!(by_name.status.success(), "{by_name:?}");
    let stderr = String::from_utf8_lossy(&by_name.stderr);
    let url = format!("{}/acme/tiny/resolve/main/tokenizer.json", server.origin);
    assert!(stderr.contains(&format!("downloading {url}")), "{stderr}");
    let file = dir.path().join(format!(
        "hub/models--acme--tiny/snapshots/{COMMIT}/tokenizer.json"
    ));
    let by_file = run(&format!("hf:{}", file.display()), false);
    assert_eq!(by_name.stdout, by_file.stdout);
    assert!(!by_name.stdout.is_empty());
    // Offline: the cached model loads, another fails with the reason.
    assert_eq!(run("hf:acme/tiny", true).stdout, by_name.stdout);
    let other = run("hf:acme/other", true);
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("HF_HUB_OFFLINE is set"));
    // tiktoken by name: asked of TOKLAB_TIKTOKEN_BASE, which has no such file; the error
    // names the URL and nothing is cached.
    let requests = server.seen().len();
    let cl100k = run("tiktoken:cl100k_base", false);
    let stderr = String::from_utf8_lossy(&cl100k.stderr);
    assert!(!cl100k.status.success());
    assert!(
        stderr.contains(&format!("{}/encodings/cl100k_base.tiktoken", server.origin))
            && stderr.contains("not found"),
        "{stderr}"
    );
    assert_eq!(server.seen().len(), requests + 1);
    assert_eq!(
        files_under(&dir.path().join("tiktoken")),
        Vec::<PathBuf>::new()
    );
}

#[test]
fn every_published_name_has_its_pattern_and_o200k_harmony_its_special_tokens() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe/sample.tiktoken");
    let ids = |encoding: &str| {
        let spec = format!("tiktoken:{}?pattern={encoding}", file.display());
        let text = b"a<|call|>b<|reserved_201087|>\n";
        let out = crate::common::run(&["tokenize", "-f", "ids", "--with", &spec], text);
        assert!(out.status.success(), "{encoding}: {out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    for published in tiktoken::PUBLISHED {
        ids(published.encoding);
    }
    let harmony = ids("o200k_harmony");
    assert!(
        harmony.contains("200012") && harmony.contains("201087"),
        "{harmony}"
    );
    assert!(!ids("o200k").contains("200012"));
}
