//! `gguf:FILE` and `ollama:NAME[:TAG]` on files these tests build: a GGUF file of several
//! gigabytes (a sparse file: the tokenizer in its metadata, then a tensor info, then a hole
//! where the tensor data would be) loads its tokenizer in under a second and 200 MB, since only
//! the metadata is read; an Ollama store resolves a name to its model blob; `toklab models`
//! lists the store.

use std::path::Path;

use toklab::engines::subword::gguf::write::{Builder, Val};
use toklab::engines::subword::gguf::{Gguf, ollama};

use crate::common::{run_command, toklab};

/// A byte-level BPE tokenizer of about 21 000 tokens: the 256 byte symbols, every pair of
/// ASCII letters and every triple of lowercase letters, with the merges that make them.
fn tokenizer(builder: &mut Builder) {
    let mut tokens: Vec<String> = (0..=255u8).map(|b| byte_char(b).to_string()).collect();
    let mut merges = Vec::new();
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').collect();
    for &x in &letters {
        for &y in &letters {
            tokens.push(format!("{x}{y}"));
            merges.push(format!("{x} {y}"));
        }
    }
    for x in 'a'..='z' {
        for y in 'a'..='z' {
            for z in 'a'..='z' {
                tokens.push(format!("{x}{y}{z}"));
                merges.push(format!("{x}{y} {z}"));
            }
        }
    }
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let merges: Vec<&str> = merges.iter().map(String::as_str).collect();
    builder
        .put("general.architecture", Val::Str("gpt2"))
        .put("tokenizer.ggml.model", Val::Str("gpt2"))
        .put("tokenizer.ggml.pre", Val::Str("gpt-2"))
        .put("tokenizer.ggml.tokens", Val::Strs(&tokens))
        .put("tokenizer.ggml.merges", Val::Strs(&merges));
}

/// GPT-2's printable stand-in for a byte, as byte-level vocabularies write it (the tests
/// that write GGUF files share it).
pub(crate) fn byte_char(b: u8) -> char {
    let printable = |b: u8| (b'!'..=b'~').contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    if printable(b) {
        return b as char;
    }
    let shift = (0..b).filter(|&c| !printable(c)).count() as u32;
    char::from_u32(256 + shift).unwrap()
}

fn small_model(path: &Path) {
    let mut b = Builder::new(3);
    tokenizer(&mut b);
    b.write(path, 0).unwrap();
}

#[test]
fn a_file_of_gigabytes_loads_its_tokenizer_in_under_a_cpu_second_and_200_mb() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.gguf");
    let mut b = Builder::new(3);
    tokenizer(&mut b);
    let data = 6 << 30;
    b.write(&path, data).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > data);
    std::fs::write(dir.path().join("in.txt"), "abcab zz\n").unwrap();
    let args = [
        "tokenize",
        "--with",
        "gguf:big.gguf",
        "--format",
        "ids",
        "in.txt",
    ];
    // CPU time, not wall time: reading the 6 GB would cost seconds of it at any load, reading
    // the metadata costs milliseconds, and a busy machine does not change either.
    let usage = crate::bounded_resources::usage(&args, dir.path());
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    assert!(cpu < 1.0, "took {cpu:.2} s of CPU");
    // Memory as the pages the child touched (minor faults): its `ru_maxrss` starts from the
    // test process's own high-water mark, which other tests running beside this one raise.
    // SAFETY: sysconf has no preconditions.
    let page_kb = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as i64 / 1024;
    let touched_kb = (usage.ru_minflt + usage.ru_majflt) * page_kb;
    assert!(touched_kb < 200 * 1024, "touched {touched_kb} KB");
    let t = Gguf::load("big", &path, true).unwrap();
    let id = |s: &str| t.vocab().id(s).unwrap();
    // `abc` and `ab` are tokens; ` zz` is `Ġ` then `zz`.
    assert_eq!(t.ids("abcab zz"), [id("abc"), id("ab"), id("Ġ"), id("zz")]);
}

#[test]
fn a_truncated_model_is_an_error_naming_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.gguf");
    small_model(&path);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let e = Gguf::load("cut", &path, true).err().unwrap().to_string();
    assert!(e.contains("cut.gguf") && e.contains("at byte "), "{e}");
}

/// An Ollama store with `tiny:latest` and `me/tiny:v1`, both the same blob.
fn store(root: &Path) -> String {
    let blob = "0123456789abcdef".repeat(4);
    std::fs::create_dir_all(root.join("blobs")).unwrap();
    small_model(&root.join(format!("blobs/sha256-{blob}")));
    let manifest = format!(
        r#"{{"schemaVersion":2,"layers":[{{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:{0}"}},{{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:{blob}","size":1}}]}}"#,
        "f".repeat(64)
    );
    for (folder, tag) in [("library/tiny", "latest"), ("me/tiny", "v1")] {
        let dir = root.join("manifests/registry.ollama.ai").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(tag), &manifest).unwrap();
    }
    blob
}

#[test]
fn ollama_names_resolve_to_the_model_blob() {
    let dir = tempfile::tempdir().unwrap();
    let blob = store(dir.path());
    let want = dir.path().join(format!("blobs/sha256-{blob}"));
    for name in [
        "tiny",
        "tiny:latest",
        "me/tiny:v1",
        "registry.ollama.ai/me/tiny:v1",
    ] {
        assert_eq!(
            ollama::resolve_in(dir.path(), name).unwrap(),
            want,
            "{name}"
        );
    }
    for name in ["tiny:v9", "../tiny", "a/b/c/d", "me/..:v1"] {
        let e = ollama::resolve_in(dir.path(), name)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not found"), "{name}: {e}");
    }
    let names: Vec<String> = ollama::list_in(dir.path())
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["me/tiny:v1", "tiny:latest"]);
}

#[test]
fn ollama_spec_and_models_listing_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    store(dir.path());
    let mut command = toklab();
    command
        .args(["tokenize", "--with", "ollama:tiny", "--format", "ids"])
        .env("OLLAMA_MODELS", dir.path());
    let out = run_command(command, b"abc\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = Gguf::load("t", &ollama::resolve_in(dir.path(), "tiny").unwrap(), true).unwrap();
    let want = t.vocab().id("abc").unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        want.to_string()
    );
    let mut command = toklab();
    command
        .arg("models")
        .env("OLLAMA_MODELS", dir.path())
        .env("HF_HOME", dir.path().join("no-hf"))
        .env("HF_HUB_CACHE", dir.path().join("no-hf"));
    let out = run_command(command, b"");
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(listing.contains("ollama:tiny:latest"), "{listing}");
    assert!(listing.contains("ollama:me/tiny:v1"), "{listing}");
    assert!(listing.contains("2 Ollama models"), "{listing}");
}

#[test]
fn the_shipped_sample_decodes_back_and_knows_its_special_token() {
    use toklab::Tokenizer;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe/sample.gguf");
    let t = Gguf::load("sample", &path, true).unwrap();
    let text = "Héllo <|endoftext|> wörld, 42 🦙!";
    let ids = t.ids(text);
    assert_eq!(t.decode(&ids).unwrap(), text);
    let eot = t.vocab().id("<|endoftext|>").unwrap();
    assert!(ids.contains(&eot) && t.is_special(eot));
    // With `special=none` the control token is ordinary text.
    let plain = Gguf::load("sample", &path, false).unwrap();
    assert!(!plain.ids(text).contains(&eot));
    assert_eq!(plain.decode(&plain.ids(text)).unwrap(), text);
}
