//! The `hf:` pipeline against HuggingFace tokenizers 0.23.3 on small `tokenizer.json` files
//! that exercise each stage (`tests/hf_data/gen_fixtures.py` made the files and the expected
//! ids): ids without and with the post-processor's special tokens, spans that tile the text in
//! order, and the decoder's text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A fixture loaded twice: matching special tokens, and adding the post-processor's too.
type Loaded = (Box<dyn toklab::Tokenizer>, Box<dyn toklab::Tokenizer>);

#[derive(Deserialize)]
struct Expected {
    file: String,
    text: String,
    ids: Vec<u32>,
    ids_special: Vec<u32>,
    decoded: String,
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hf_data")
}

fn ids(tokenizer: &dyn toklab::Tokenizer, text: &str) -> Vec<u32> {
    let tokens = tokenizer.tokenize(text);
    tokens
        .check(text)
        .unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
    tokens.tokens.iter().map(|t| t.id.expect("an id")).collect()
}

#[test]
fn every_stage_gives_the_reference_ids_and_text() {
    // expected_scripts.jsonl: the UnicodeScripts fixture (gen_scripts_fixture.py).
    let lines = ["expected.jsonl", "expected_scripts.jsonl"]
        .map(|file| std::fs::read_to_string(data().join(file)).unwrap())
        .concat();
    let mut loaded: HashMap<String, Loaded> = HashMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in lines.lines() {
        let want: Expected = serde_json::from_str(line).unwrap();
        let (plain, with_special) = loaded.entry(want.file.clone()).or_insert_with(|| {
            let path = data().join(&want.file);
            (
                toklab::load(&format!("hf:{}", path.display())).unwrap(),
                toklab::load(&format!("hf:{}?special=add", path.display())).unwrap(),
            )
        });
        let got = ids(plain.as_ref(), &want.text);
        if got != want.ids {
            failures.push(format!(
                "{} {:?}: ids {got:?}, want {:?}",
                want.file, want.text, want.ids
            ));
        }
        let got = ids(with_special.as_ref(), &want.text);
        if got != want.ids_special {
            failures.push(format!(
                "{} {:?}: ids with specials {got:?}, want {:?}",
                want.file, want.text, want.ids_special
            ));
        }
        let decoded = plain.decode(&want.ids).unwrap();
        if decoded != want.decoded {
            failures.push(format!(
                "{} {:?}: decoded {decoded:?}, want {:?}",
                want.file, want.text, want.decoded
            ));
        }
        checked += 1;
    }
    assert!(checked > 200, "only {checked} cases");
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bpe_spec_of_a_tokenizer_json_is_the_same_pipeline() {
    let path = data().join("bert_wordpiece.json");
    let hf = toklab::load(&format!("hf:{}", path.display())).unwrap();
    let bpe = toklab::load(&format!("bpe:{}", path.display())).unwrap();
    let text = "Crème brûlée at the café";
    assert_eq!(ids(hf.as_ref(), text), ids(bpe.as_ref(), text));
}

/// `bpe:FILE.json` with `semantics` or `pattern` reads the file with the same reader as `hf:`:
/// a byte-level vocabulary with one entry outside the byte alphabet stays byte-level (that
/// entry alone is unreachable), so the ids are the pipeline's.
#[test]
fn merge_options_read_a_tokenizer_json_as_the_pipeline_does() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe/tokenizer.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample).unwrap()).unwrap();
    let vocab = json["model"]["vocab"].as_object_mut().unwrap();
    let next = vocab.values().filter_map(|v| v.as_u64()).max().unwrap() + 1;
    vocab.insert("\u{2581}stray".into(), next.into());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokenizer.json");
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    let text = "lower newer<|endoftext|> the café";
    let hf = toklab::load(&format!("hf:{}", path.display())).unwrap();
    let want = ids(hf.as_ref(), text);
    for option in ["semantics=sp", "semantics=hf", "pattern=gpt2"] {
        let spec = format!("bpe:{}?{option}", path.display());
        let bpe = toklab::load(&spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(ids(bpe.as_ref(), text), want, "{option}");
    }
}

/// A stage the merge model has no place for is an error naming it, under `bpe:` with merge
/// options; `hf:` runs the same file.
#[test]
fn merge_options_refuse_a_stage_they_cannot_apply() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/bpe/tokenizer.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample).unwrap()).unwrap();
    json["normalizer"] = serde_json::json!({"type": "Lowercase"});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lower.json");
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    assert!(toklab::load(&format!("hf:{}", path.display())).is_ok());
    let e = toklab::load(&format!("bpe:{}?semantics=hf", path.display()))
        .err()
        .expect("an error")
        .to_string();
    assert!(e.contains("lower.json") && e.contains("normalizer"), "{e}");
}

#[test]
fn decode_of_an_unknown_id_is_an_error() {
    let path = data().join("bert_wordpiece.json");
    let hf = toklab::load(&format!("hf:{}", path.display())).unwrap();
    let e = hf.decode(&[2, 999_999]).unwrap_err().to_string();
    assert!(e.contains("999999") && e.contains("position 1"), "{e}");
}

#[test]
fn special_option_is_checked() {
    let path = data().join("bert_wordpiece.json");
    let e = toklab::load(&format!("hf:{}?special=maybe", path.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("all, none or add"), "{e}");
}

proptest::proptest! {
    #![proptest_config(crate::common::proptest_config(64))]

    /// Any text: spans in order on character boundaries, one id per token, whatever the
    /// pipeline (normalizers that expand, remove and insert; byte fallback; unknown tokens).
    #[test]
    fn spans_stay_valid_on_any_text(text in "\\PC{0,40}") {
        for file in ["bert_wordpiece.json", "unigram_metaspace.json", "bpe_affixes.json", "byte_level_roberta.json", "wordlevel_chars.json"] {
            let tokenizer = toklab::load(&format!("hf:{}", data().join(file).display())).unwrap();
            let tokens = tokenizer.tokenize(&text);
            proptest::prop_assert!(tokens.check(&text).is_ok(), "{file} {text:?}");
        }
    }

    /// A byte-level pipeline without normalizer or prefix space loses nothing: decoding the ids
    /// gives the text back.
    #[test]
    fn byte_level_decode_of_encode_is_the_text(text in "\\PC{0,40}") {
        let tokenizer = toklab::load(&format!("hf:{}", data().join("split_isolated.json").display())).unwrap();
        let ids: Vec<u32> = tokenizer.tokenize(&text).tokens.iter().map(|t| t.id.unwrap()).collect();
        proptest::prop_assert_eq!(tokenizer.decode(&ids).unwrap(), text);
    }
}

/// `Tokenizer::decode` on the real tokenizer.json models of `../shared/realworld`: the
/// reference ids of every development text decode to what HuggingFace tokenizers decodes them
/// to (`tests/hf_data/gen_realworld_decoded.py` recorded the lines where that is not the text
/// itself). Skipped with a note when the models are not fetched; in CI they must be there.
#[test]
fn realworld_models_decode_as_the_reference() {
    let Some(shared) = crate::common::shared_dir("realworld_models_decode_as_the_reference") else {
        return;
    };
    let realworld = shared.join("realworld");
    let models_dir = match std::env::var_os("TOKLAB_MODELS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/toklab/realworld"),
    };
    let texts = std::fs::read_to_string(realworld.join("texts.txt")).unwrap();
    let texts: Vec<&str> = texts
        .strip_suffix('\n')
        .unwrap_or(&texts)
        .split('\n')
        .collect();
    let mut differing: HashMap<(String, usize), String> = HashMap::new();
    for line in std::fs::read_to_string(data().join("realworld_decoded.jsonl"))
        .unwrap()
        .lines()
    {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        differing.insert(
            (
                v["id"].as_str().unwrap().to_string(),
                v["i"].as_u64().unwrap() as usize,
            ),
            v["decoded"].as_str().unwrap().to_string(),
        );
    }
    let models: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(realworld.join("models.json")).unwrap())
            .unwrap();
    let mut failures = Vec::new();
    for model in models
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["format"] == "tokenizer.json")
    {
        let id = model["id"].as_str().unwrap();
        let file = models_dir.join(model["file"].as_str().unwrap());
        if !file.exists() {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!(
                    "{} is missing; CI requires the realworld models (fetch.sh)",
                    file.display()
                );
            }
            crate::common::skip_note(&format!(
                "realworld decode: skipped {id}: {} not fetched",
                file.display()
            ));
            continue;
        }
        let tokenizer = toklab::load(&format!("hf:{}", file.display())).unwrap();
        let expected =
            std::fs::read_to_string(realworld.join("expected").join(format!("{id}.jsonl")))
                .unwrap();
        for line in expected.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let i = v["i"].as_u64().unwrap() as usize;
            let ids: Vec<u32> = v["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            let want = differing
                .get(&(id.to_string(), i))
                .map_or(texts[i], String::as_str);
            let got = tokenizer.decode(&ids).unwrap();
            if got != want {
                failures.push(format!("{id} line {i}: {got:?}, want {want:?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} lines differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `decode --skip-special` as HuggingFace's `decode(ids, skip_special_tokens=True)`: the ids
/// with the post-processor's special tokens of every fixture (gen_decode_skip.py).
#[test]
fn decoding_without_special_tokens_matches_huggingface() {
    #[derive(serde::Deserialize)]
    struct Case {
        file: String,
        ids: Vec<u32>,
        decoded: String,
    }
    let lines = std::fs::read_to_string(data().join("expected_decode_skip.jsonl")).unwrap();
    let mut loaded: HashMap<String, Box<dyn toklab::Tokenizer>> = HashMap::new();
    let mut failures = Vec::new();
    for line in lines.lines() {
        let case: Case = serde_json::from_str(line).unwrap();
        let tokenizer = loaded.entry(case.file.clone()).or_insert_with(|| {
            toklab::load(&format!("hf:{}", data().join(&case.file).display())).unwrap()
        });
        let kept: Vec<u32> = case
            .ids
            .iter()
            .copied()
            .filter(|&id| !tokenizer.is_special(id))
            .collect();
        let got = tokenizer.decode(&kept).unwrap();
        if got != case.decoded {
            failures.push(format!(
                "{} {:?}: {got:?}, want {:?}",
                case.file, case.ids, case.decoded
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_decode_command_skips_special_tokens_when_asked() {
    let spec = format!("hf:{}", data().join("bert_wordpiece.json").display());
    // [CLS] = 2 and [SEP] = 3 around the ids of "the pilot counted lanterns."
    let ids = "2 116 276 350 305 9 3\n";
    let kept = crate::common::stdout_of(&["decode", "--with", &spec, "--skip-special"], ids);
    assert_eq!(kept, "the pilot counted lanterns.\n");
    let all = crate::common::stdout_of(&["decode", "--with", &spec], ids);
    assert!(
        all.starts_with("[CLS]") && all.trim_end().ends_with("[SEP]"),
        "{all}"
    );
}

#[test]
fn a_unigram_model_without_an_unknown_token_gives_up_on_text_it_cannot_cover() {
    // tokenizers encodes `ab ba` as [2, 1, 0] and raises "Encountered an unknown token but
    // `unk_id` is missing" on `abc`.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unigram.json");
    std::fs::write(
        &path,
        r#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],"normalizer":null,
        "pre_tokenizer":{"type":"Whitespace"},"post_processor":null,"decoder":null,
        "model":{"type":"Unigram","unk_id":null,"vocab":[["a",-1.0],["b",-2.0],["ab",-1.5]],
        "byte_fallback":false}}"#,
    )
    .unwrap();
    let tokenizer = toklab::load(&format!("hf:{}", path.display())).unwrap();
    let covered = tokenizer.tokenize("ab ba");
    let ids: Vec<Option<u32>> = covered.iter().map(|t| t.id).collect();
    assert_eq!(ids, [Some(2), Some(1), Some(0)]);
    assert!(covered.gave_up().is_none());
    let gave_up = tokenizer
        .tokenize("abc")
        .gave_up()
        .expect("`c` has no piece");
    assert!(!gave_up.as_reference);
    assert!(gave_up.reason.contains("unk_id"), "{}", gave_up.reason);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toklab"))
        .args(["tokenize", "--format", "ids", "--with"])
        .arg(format!("hf:{}", path.display()))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"abc\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(!out.status.success(), "exit status {}", out.status);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unk_id"));
}
