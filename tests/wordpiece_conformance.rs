//! BERT WordPiece against HuggingFace tokenizers' `BertWordPieceTokenizer(lowercase=True)` on
//! the conformance lines (ids in tests/bpe_data/expected-bert-uncased.jsonl, made by
//! tests/bpe_data/gen_expected.py). Prints the agreement and requires 100%.

mod common;

#[test]
fn bert_uncased_lines() {
    let Some(shared) = common::shared_dir("bert_uncased_lines") else { return };
    let dir = shared.join("conformance/bpe");
    let spec = format!("wordpiece:{}", dir.join("data/bert/vocab.txt").display());
    let tokenizer = toklab::load(&spec).unwrap();
    let raw = std::fs::read_to_string(dir.join("lines.txt")).unwrap();
    let lines: Vec<&str> = raw.strip_suffix('\n').unwrap().split('\n').collect();
    let expected: Vec<Vec<u32>> = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/bpe_data/expected-bert-uncased.jsonl"),
    )
    .unwrap()
    .lines()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    let mut agree = 0;
    let mut failures = Vec::new();
    for (n, (text, want)) in lines.iter().zip(&expected).enumerate() {
        let tokens = tokenizer.tokenize(text);
        tokens.check(text).unwrap();
        let got: Vec<u32> = tokens.tokens.iter().map(|t| t.id.unwrap()).collect();
        if &got == want {
            agree += 1;
        } else if failures.len() < 3 {
            failures.push(format!("line {}: {text:?}\n got  {got:?}\n want {want:?}", n + 1));
        }
    }
    println!("{spec}: agreement {agree}/{}", lines.len());
    assert_eq!(agree, lines.len(), "{}", failures.join("\n"));
}
