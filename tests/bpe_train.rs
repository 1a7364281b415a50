//! `toklab bpe train`: the textbook corpus, the tie-breaking rule, the written model loaded back
//! with `bpe:DIR`, and Remark 1 (a trained dictionary is proper, every rule useful, and encoding
//! the training text gives the trainer's final segmentation, under both semantics).

use crate::common::{self, run, stdout_of};

use toklab::engines::simple::Matcher;
use toklab::engines::subword::formal::{Analysis, SymbolUnit};
use toklab::engines::subword::train::{Pretok, Trainer};

/// A fresh temporary folder, removed when dropped (even when the test fails).
fn temp_folder(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("toklab-train-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn textbook_merges_in_the_log() {
    let temp = temp_folder("textbook");
    let dir = temp.path();
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, "set new new renew reset renew").unwrap();
    let model = dir.join("model");
    let log = stdout_of(
        &[
            "bpe",
            "train",
            "--merges",
            "8",
            "--log",
            corpus.to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
        ],
        "",
    );
    let expected = "rank\tleft\tright\tnew\tcount\n\
        1\tn\te\tne\t4\n\
        2\tne\tw\tnew\t4\n\
        3\t␣\tr\t␣r\t3\n\
        4\t␣r\te\t␣re\t3\n\
        5\t␣\tnew\t␣new\t2\n\
        6\t␣re\tnew\t␣renew\t2\n\
        7\ts\te\tse\t2\n\
        8\tse\tt\tset\t2\n";
    assert_eq!(log, expected);
    let merges = std::fs::read_to_string(model.join("vocab.bpe")).unwrap();
    assert_eq!(
        merges,
        "#version: 0.2\nn e\nne w\nĠ r\nĠr e\nĠ new\nĠre new\ns e\nse t\n"
    );
    let encoder: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(model.join("encoder.json")).unwrap())
            .unwrap();
    assert_eq!(encoder["ne"], 256);
    assert_eq!(encoder["Ġrenew"], 261);
    assert_eq!(encoder.as_object().unwrap().len(), 264);
    // Loaded back, the model encodes the corpus as the trainer segmented it.
    let text = "set new new renew reset renew";
    let tokenizer = toklab::load(&format!("bpe:{}", model.display())).unwrap();
    let forms: Vec<String> = tokenizer
        .tokenize(text)
        .tokens
        .iter()
        .map(|t| t.form(text).to_string())
        .collect();
    assert_eq!(
        forms,
        ["set", " new", " new", " renew", " re", "set", " renew"]
    );
}

#[test]
fn ties_go_to_the_first_pair_in_frequency_ordered_words() {
    // The words in order of count: « ba» (2), then «cd», « ab» (1 each, in corpus order).
    let mut t = Trainer::new("dc ab", SymbolUnit::Char, Pretok::None);
    // Pretok::None makes the line one word: every pair counts 1, so the leftmost wins (not
    // the smallest: «ab» < «dc»).
    let first = t.step().unwrap();
    assert_eq!(
        (t.token(first.left), t.token(first.right)),
        (&b"d"[..], &b"c"[..])
    );
    let mut t = Trainer::new("cd ab ba ba", SymbolUnit::Char, Pretok::Gpt2);
    let first = t.step().unwrap();
    // « ba» occurs twice: its pairs ␣-b and b-a count 2; ␣b comes first in the word.
    assert_eq!(
        (t.token(first.left), t.token(first.right)),
        (&b" "[..], &b"b"[..])
    );
    let second = t.step().unwrap();
    assert_eq!(
        (t.token(second.left), t.token(second.right)),
        (&b" b"[..], &b"a"[..])
    );
    // Now every pair counts 1: the most frequent word left with a pair is «cd» (first seen).
    let third = t.step().unwrap();
    assert_eq!(
        (t.token(third.left), t.token(third.right)),
        (&b"c"[..], &b"d"[..])
    );
}

#[test]
fn trained_model_reads_back_and_reproduces_the_training_segmentation() {
    let Some(shared) = common::shared_dir("trained_model_reads_back") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("corpora/udhr-de.txt")).unwrap();
    for unit in [SymbolUnit::Char, SymbolUnit::Byte] {
        let mut t = Trainer::new(&text, unit, Pretok::Gpt2);
        t.train(400, &mut |_| {});
        let analysis = Analysis::new(&t.dictionary());
        assert!(analysis.is_proper());
        assert!(
            analysis.never_useful_sp.is_empty(),
            "{:?}",
            analysis.never_useful_sp
        );
        let temp = temp_folder(&format!("{unit:?}"));
        let dir = temp.path();
        toklab::engines::subword::train::write_gpt2(&t, dir, false).unwrap();
        // What the trainer ended with: each word of the text in its final segmentation.
        let segmented: std::collections::HashMap<&[u8], Vec<&[u8]>> = t
            .words()
            .iter()
            .map(|w| (&w.text[..], w.symbols.iter().map(|&s| t.token(s)).collect()))
            .collect();
        let mut expected: Vec<&[u8]> = Vec::new();
        toklab::engines::subword::pretok::Gpt2Matcher.find(&text, &mut |span, _| {
            expected.extend(&segmented[span.slice(&text).as_bytes()]);
        });
        let encoder: std::collections::HashMap<String, u32> =
            serde_json::from_str(&std::fs::read_to_string(dir.join("encoder.json")).unwrap())
                .unwrap();
        let mut bytes_of = vec![Vec::new(); encoder.len()];
        for (piece, id) in &encoder {
            bytes_of[*id as usize] =
                toklab::engines::subword::bpe::bytes_of_byte_level(piece).unwrap();
        }
        for semantics in ["sp", "hf"] {
            let spec = format!("bpe:{}?semantics={semantics}", dir.display());
            let tokenizer = toklab::load(&spec).unwrap();
            let got: Vec<&[u8]> = tokenizer
                .tokenize(&text)
                .tokens
                .iter()
                .map(|tok| &bytes_of[tok.id.unwrap() as usize][..])
                .collect();
            assert_eq!(got.len(), expected.len(), "{unit:?} {semantics}");
            assert!(
                got == expected,
                "{unit:?} {semantics}: the encoding differs"
            );
        }
    }
}

#[test]
fn bad_corpus_is_an_error_with_the_byte_offset() {
    let temp = temp_folder("bad");
    let dir = temp.path();
    let corpus = dir.join("bad.txt");
    std::fs::write(&corpus, b"fine\nbro\xffken").unwrap();
    let out = run(
        &[
            "bpe",
            "train",
            "--merges",
            "3",
            corpus.to_str().unwrap(),
            "-o",
            dir.join("m").to_str().unwrap(),
        ],
        b"",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt: invalid UTF-8 at byte 8"), "{err}");
}
