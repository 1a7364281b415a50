//! utoken's detokenizer: `rules:` detokenizes utoken's own tokenized lines
//! (../shared/conformance/utoken/expected.txt, `@` mark-up on) into what `utoken.detokenize
//! --lc eng` wrote for them (expected-detok.txt).

use crate::common;

#[test]
fn rules_detokenize_like_utoken() {
    let Some(shared) = common::shared_dir("rules_detokenize_like_utoken") else {
        return;
    };
    let dir = shared.join("conformance/utoken");
    let tokenized = common::lines(&dir.join("expected.txt"));
    let expected = common::lines(&dir.join("expected-detok.txt"));
    assert_eq!(tokenized.len(), expected.len());
    let spec = format!("rules:{}?lang=eng", dir.join("data").display());
    let tokenizer = toklab::load(&spec).unwrap();
    let mut differ = Vec::new();
    for (number, (line, want)) in tokenized.iter().zip(&expected).enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let got = tokenizer.detokenize(&tokens).unwrap();
        if &got != want {
            differ.push(format!("line {}:\n  got  {got}\n  want {want}", number + 1));
        }
    }
    let same = expected.len() - differ.len();
    eprintln!(
        "utoken detokenizer: {same}/{} lines identical",
        expected.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn contractions_markup_and_attachment() {
    let Some(shared) = common::shared_dir("contractions_markup_and_attachment") else {
        return;
    };
    let data = shared.join("conformance/utoken/data");
    let tokenizer = toklab::load(&format!("rules:{}?lang=eng", data.display())).unwrap();
    let detok = |line: &str| {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        tokenizer.detokenize(&tokens).unwrap()
    };
    // The two examples of utoken's notes.
    assert_eq!(detok("Do n't worry !"), "Don't worry!");
    assert_eq!(detok("( \"@ Hello , world ! @\" )"), "(\"Hello, world!\")");
    assert_eq!(detok("peace @-@ loving"), "peace-loving");
}
