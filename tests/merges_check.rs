//! `toklab bpe check` and `toklab bpe steps` on the paper's dictionaries and the real GPT-2
//! merge table.

use crate::common::{self, run, stdout_of};

#[test]
fn improper_dictionaries_of_the_paper() {
    let Some(shared) = common::shared_dir("improper_dictionaries_of_the_paper") else {
        return;
    };
    let formal = shared.join("conformance/bpe/data/formal");
    let case1 = stdout_of(
        &["bpe", "check", formal.join("case1").to_str().unwrap()],
        "",
    );
    assert!(case1.contains("proper: no, 1 rule side(s)"), "{case1}");
    assert!(
        case1.contains("rule #1 «ab» ⟩ «a»: left side made only by rule #2 «a» ⟩ «b»"),
        "{case1}"
    );
    let case2 = stdout_of(
        &["bpe", "check", formal.join("case2").to_str().unwrap()],
        "",
    );
    assert!(
        case2.contains(
            "never useful under SentencePiece semantics (Corollary 1): 1\n  rule #2 «a» ⟩ «bc»"
        ),
        "{case2}"
    );
}

#[test]
fn gpt2_is_proper_with_bounds() {
    let Some(shared) = common::shared_dir("gpt2_is_proper_with_bounds") else {
        return;
    };
    let gpt2 = shared.join("conformance/bpe/data/gpt2");
    let out = stdout_of(&["bpe", "check", gpt2.to_str().unwrap()], "");
    println!("{out}");
    assert!(out.contains("50000 rules over bytes"), "{out}");
    assert!(out.contains("proper: yes"), "{out}");
    assert!(
        out.contains("never useful under SentencePiece semantics (Corollary 1): 0"),
        "{out}"
    );
    assert!(out.contains("Definition 7: |D|·max|uv| = 6400000"), "{out}");
    assert!(out.contains("chain length c(D) ≤ 2574"), "{out}");
}

#[test]
fn steps_show_where_the_semantics_part() {
    let out = stdout_of(&["bpe", "steps", "--rules", "ab a, a b", "abababab"], "");
    assert!(
        out.contains("* τ2 = aba ⟩ b ⟩ a ⟩ b ⟩ a ⟩ b    rule #1 «ab» ⟩ «a» rank 0 at token 0"),
        "{out}"
    );
    assert!(out.contains("  τ4 = ab ⟩ ab ⟩ ab ⟩ ab"), "{out}");
    assert!(
        out.ends_with("the semantics part at step 2; results differ\n"),
        "{out}"
    );
}

#[test]
fn malformed_tables_name_the_line() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let model = dir.join("model");
    std::fs::create_dir_all(&model).unwrap();
    std::fs::write(model.join("vocab.json"), r#"{"a": 0, "b": 1, "ab": 2}"#).unwrap();
    let merges = model.join("merges.txt");
    std::fs::write(&merges, "#version: 0.2\na b\na b c\n").unwrap();
    // The folder, a file in it and a spec all load through the real loader.
    for arg in [
        model.display().to_string(),
        merges.display().to_string(),
        format!("bpe:{}", model.display()),
    ] {
        let out = run(&["bpe", "check", &arg], b"");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("merges.txt:3: expected a merge `left right`, found \"a b c\""),
            "{err}"
        );
    }
    let ranks = dir.join("x.tiktoken");
    std::fs::write(&ranks, "YQ== 0\n!!!! 1\n").unwrap();
    let spec = format!("tiktoken:{}?pattern=r50k", ranks.display());
    let out = run(&["bpe", "check", &spec], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("x.tiktoken:2: invalid base64 at column 1"),
        "{err}"
    );
    let out = run(&["bpe", "check", ranks.to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot tell the encoding from the file name"),
        "{err}"
    );
    let out = run(&["bpe", "check", dir.join("x.txt").to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot tell the model format"), "{err}");
}

#[test]
fn sample_models_of_every_format() {
    // A merge list, a rank file and a SentencePiece model, through `bpe check` and `steps`.
    let check = |spec: &str| stdout_of(&["bpe", "check", spec], "");
    let gpt2 = check("samples/bpe/gpt2");
    assert!(
        gpt2.contains("(merge list)") && gpt2.contains("proper: yes"),
        "{gpt2}"
    );
    let ranks = check("tiktoken:samples/bpe/sample.tiktoken?pattern=r50k");
    assert!(
        ranks.contains("(ranked vocabulary, one rule per reachable token)"),
        "{ranks}"
    );
    let spm = check("samples/bpe/sample-spm.model");
    assert!(spm.contains("rules over characters"), "{spm}");
    let steps = stdout_of(
        &[
            "bpe",
            "steps",
            "--model",
            "samples/bpe/sample-spm.model",
            "renew",
        ],
        "",
    );
    assert!(steps.starts_with("normalized: «▁renew»\n"), "{steps}");
    assert!(
        steps.ends_with("the two semantics take the same steps\n"),
        "{steps}"
    );
}
