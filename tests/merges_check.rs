//! `toklab bpe check` and `toklab bpe steps` on the paper's dictionaries and the real GPT-2
//! merge table.

mod common;
use common::{run, stdout_of};

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
    let dir = std::env::temp_dir().join(format!("toklab-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let merges = dir.join("merges.txt");
    std::fs::write(&merges, "#version: 0.2\na b\na b c\n").unwrap();
    let out = run(&["bpe", "check", merges.to_str().unwrap()], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("merges.txt:3: expected `left right`, got `a b c`"),
        "{err}"
    );
    let ranks = dir.join("x.tiktoken");
    std::fs::write(&ranks, "YQ== 0\n!!!! 1\n").unwrap();
    let out = run(&["bpe", "check", ranks.to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("x.tiktoken:2: `!!!!` is not base64"), "{err}");
    std::fs::write(&ranks, b"YQ== 0\n\xff\n").unwrap();
    let out = run(&["bpe", "check", ranks.to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("x.tiktoken: invalid UTF-8 at byte 7"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

mod fuzz {
    use proptest::prelude::*;
    use std::path::Path;
    use toklab::merges::read::{read_merges, read_ranks};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Arbitrary text never panics the readers: it loads or names the line.
        #[test]
        fn readers_never_panic(text in "(#version: 0.2\n)?([abĠ \n=+/0-9A-Za-z]{0,12}\n?){0,12}") {
            match read_merges(Path::new("m.txt"), &text) {
                Ok(loaded) => prop_assert!(loaded.dict.len() <= text.lines().count()),
                Err(e) => prop_assert!(e.to_string().starts_with("m.txt:"), "{}", e),
            }
            match read_ranks(Path::new("r.tiktoken"), &text) {
                Ok(_) => {}
                Err(e) => prop_assert!(e.to_string().starts_with("r.tiktoken:"), "{}", e),
            }
        }
    }
}
