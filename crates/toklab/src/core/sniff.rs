//! What kind of tokenizer file a path holds, told from its first bytes: so a spec that names
//! the wrong kind (`hf:mistral.model`) gets an error that says what the file is and which spec
//! reads it, and a bare path (`--with tokenizer.json`) needs no kind at all.
//!
//! Sniffing never decides alone: a loader still reads the file and reports its own errors. It
//! is asked only when a spec names no kind, or when the named kind's loader failed.

use std::io::Read;
use std::path::Path;

/// How much of a file is read to tell its format: enough for a JSON file's top-level keys to
/// appear in every format we know, small enough to be instant on a multi-gigabyte model.
const HEAD: usize = 64 * 1024;

/// A tokenizer file format, with the spec kind that reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// What the file is, for messages (`a SentencePiece model`).
    pub what: &'static str,
    /// The spec kind that loads it (`spm`).
    pub kind: &'static str,
}

const fn sniffed(what: &'static str, kind: &'static str) -> Option<Sniffed> {
    Some(Sniffed { what, kind })
}

/// The format of the file or folder at `path`, when it is one a built-in kind reads.
pub fn sniff(path: &Path) -> Option<Sniffed> {
    if path.is_dir() {
        return sniff_folder(path);
    }
    let mut head = Vec::with_capacity(HEAD);
    std::fs::File::open(path)
        .ok()?
        .take(HEAD as u64)
        .read_to_end(&mut head)
        .ok()?;
    sniff_bytes(&head)
}

fn sniff_folder(path: &Path) -> Option<Sniffed> {
    let has = |name: &str| path.join(name).is_file();
    if has("tokenizer.json") {
        sniffed("a folder with a HuggingFace tokenizer.json", "hf")
    } else if has("vocab.json") && has("merges.txt") {
        sniffed("a GPT-2 BPE folder (vocab.json, merges.txt)", "bpe")
    } else if has("tok-resource.txt") {
        sniffed("a utoken resource folder", "rules")
    } else if has("tokenizer.model") {
        sniffed("a folder with a SentencePiece tokenizer.model", "spm")
    } else {
        None
    }
}

/// The format of a file whose first bytes (at most [`HEAD`]) are `head`.
pub fn sniff_bytes(head: &[u8]) -> Option<Sniffed> {
    if head.starts_with(b"GGUF") {
        return sniffed("a GGUF model", "gguf");
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return sniff_gzip(head);
    }
    for (magic, what) in [
        (&b"##foma-net"[..], "a foma network"),
        (b"MATOK", "a Datok matrix"),
        (b"DATOK", "a Datok double array"),
        (
            b"TOKLABFST\n",
            "a finite-state tokenizer in toklab's saved form",
        ),
    ] {
        if head.starts_with(magic) {
            return sniffed(what, "fst");
        }
    }
    if is_sentencepiece(head) {
        return sniffed("a SentencePiece model", "spm");
    }
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        // The head may end inside a character.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        return sniff_json(trimmed);
    }
    sniff_lines(text)
}

/// Without the families that read gzip (and so without its decoder), a gzipped file is not told.
#[cfg(not(any(feature = "fst", feature = "subword")))]
fn sniff_gzip(_head: &[u8]) -> Option<Sniffed> {
    None
}

#[cfg(any(feature = "fst", feature = "subword"))]
fn sniff_gzip(head: &[u8]) -> Option<Sniffed> {
    let mut inner = Vec::new();
    let _ = flate2::read::GzDecoder::new(head)
        .take(256)
        .read_to_end(&mut inner);
    if inner.starts_with(b"##foma-net") {
        sniffed("a foma network", "fst")
    } else if inner.starts_with(b"MATOK") || inner.starts_with(b"DATOK") {
        sniffed("a Datok model", "fst")
    } else if inner.starts_with(b"\"bpe_simple_vocab") || inner.starts_with(b"#version") {
        sniffed("CLIP's gzipped merges", "clip")
    } else {
        None
    }
}

/// A SentencePiece `ModelProto`: field 1 (a piece) first, length-delimited, whose own first
/// field is the piece string.
fn is_sentencepiece(head: &[u8]) -> bool {
    let [0x0a, rest @ ..] = head else {
        return false;
    };
    let mut length = 0usize;
    for (i, &byte) in rest.iter().take(4).enumerate() {
        length |= usize::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return length > 0 && rest.get(i + 1) == Some(&0x0a);
        }
    }
    false
}

fn sniff_json(text: &str) -> Option<Sniffed> {
    let key = |name: &str| text.contains(&format!("\"{name}\""));
    if key("bpe_ranks") {
        sniffed("an Anthropic claude.json", "claude")
    } else if key("token_bytes") && key("config") {
        sniffed("a Mistral tekken.json", "tekken")
    } else if key("model") && (key("normalizer") || key("pre_tokenizer") || key("added_tokens")) {
        sniffed("a HuggingFace tokenizer.json", "hf")
    } else if key("chat_template") || key("tokenizer_class") {
        sniffed(
            "a HuggingFace tokenizer_config.json (the tokenizer is the tokenizer.json beside it)",
            "hf",
        )
    } else {
        None
    }
}

/// Line formats, told from the first lines that are not comments.
fn sniff_lines(text: &str) -> Option<Sniffed> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(50)
        .collect();
    let first = *lines.first()?;
    let all = |test: fn(&str) -> bool| lines.iter().take(10).all(|l| test(l));
    if first.starts_with("#version") {
        return sniffed("GPT-2 merges (the bpe: spec takes their folder)", "bpe");
    }
    if lines.iter().any(|l| l.trim_start().starts_with("::")) {
        return sniffed("a utoken rule file", "rules");
    }
    let code = lines.iter().filter(|l| !l.trim_start().starts_with('#'));
    if code.clone().take(20).any(|l| is_xfst_command(l)) {
        return sniffed("an XFST script", "fst");
    }
    if all(is_rwkv_line) {
        return sniffed("an RWKV vocabulary", "rwkv");
    }
    if all(is_tiktoken_line) {
        return sniffed("a tiktoken rank file", "tiktoken");
    }
    if all(is_att_line) {
        return sniffed("an AT&T transducer", "fst");
    }
    if lines.iter().any(|l| *l == "[UNK]" || l.starts_with("##")) {
        return sniffed("a WordPiece vocabulary", "wordpiece");
    }
    None
}

fn is_xfst_command(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    matches!(
        word,
        "define" | "regex" | "read" | "save" | "push" | "source"
    )
}

/// `12 'ab' 2` or `12 b'\xff' 1`: id, a Python literal, its byte length.
fn is_rwkv_line(line: &str) -> bool {
    let Some((id, rest)) = line.split_once(' ') else {
        return false;
    };
    id.bytes().all(|b| b.is_ascii_digit())
        && (rest.starts_with('\'') || rest.starts_with("b'") || rest.starts_with('"'))
}

/// `SGVsbG8= 12`: base64 bytes and a rank.
fn is_tiktoken_line(line: &str) -> bool {
    let Some((token, rank)) = line.split_once(' ') else {
        return false;
    };
    !rank.is_empty()
        && rank.bytes().all(|b| b.is_ascii_digit())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

/// `0\t1\ta\ta` or a final state `3`: tab-separated numbers first.
fn is_att_line(line: &str) -> bool {
    let mut fields = line.split('\t');
    fields
        .next()
        .is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
        && line.contains('\t')
        || line.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(path: &str) -> Option<&'static str> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        sniff(&root.join(path)).map(|s| s.kind)
    }

    #[test]
    fn every_shipped_sample_is_told_by_its_content() {
        for (path, kind) in [
            ("samples/bpe/sample-spm.model", "spm"),
            ("samples/bpe/tokenizer.json", "hf"),
            ("samples/bpe/sample-tekken.json", "tekken"),
            ("samples/bpe/sample-claude.json", "claude"),
            ("samples/bpe/sample-rwkv.txt", "rwkv"),
            ("samples/bpe/sample.tiktoken", "tiktoken"),
            ("samples/bpe/sample-wordpiece.txt", "wordpiece"),
            ("samples/bpe/gpt2", "bpe"),
            ("samples/fst/english.fst", "fst"),
            ("samples/fst/toy.xfst", "fst"),
            ("rules", "rules"),
            ("rules/tok-resource-eng.txt", "rules"),
        ] {
            assert_eq!(kind_of(path), Some(kind), "{path}");
        }
        assert_eq!(kind_of("samples/sample.txt"), None);
        assert_eq!(kind_of("samples/no-such-file"), None);
    }

    #[test]
    fn gguf_and_truncated_heads() {
        assert_eq!(sniff_bytes(b"GGUF\x03\0\0\0").map(|s| s.kind), Some("gguf"));
        assert_eq!(sniff_bytes(&[0x0a]), None);
        assert_eq!(sniff_bytes(&[0xff, 0xfe, 0x00]), None);
        assert_eq!(sniff_bytes(b""), None);
    }
}
