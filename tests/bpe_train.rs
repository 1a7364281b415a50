//! `toklab bpe train`: the textbook corpus, the tie-breaking rule, the written model read back,
//! and Remark 1 (a trained dictionary is proper, every rule useful, and re-encoding the
//! training words gives the trainer's final segmentation).

mod common;
use common::{run, stdout_of};

use toklab::merges::read::read_model;
use toklab::merges::train::{Pretok, Trainer};
use toklab::merges::{Analysis, Semantics, Unit, encode_ends};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("toklab-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn textbook_merges_in_the_log() {
    let dir = temp("textbook");
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ties_go_to_the_first_pair_in_frequency_ordered_words() {
    // The words in order of count: « ba» (2), then «cd», « ab» (1 each, in corpus order).
    let mut t = Trainer::new("dc ab", Unit::Char, Pretok::None);
    // Pretok::None makes the line one word: every pair counts 1, so the leftmost wins (not
    // the smallest: «ab» < «dc»).
    let first = t.step().unwrap();
    assert_eq!(
        (t.token(first.left), t.token(first.right)),
        (&b"d"[..], &b"c"[..])
    );
    let mut t = Trainer::new("cd ab ba ba", Unit::Char, Pretok::Gpt2);
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
    for unit in [Unit::Char, Unit::Byte] {
        let mut t = Trainer::new(&text, unit, Pretok::Gpt2);
        t.train(400, &mut |_| {});
        let dict = t.dictionary();
        let analysis = Analysis::new(&dict);
        assert!(analysis.is_proper());
        assert!(
            analysis.never_useful_sp.is_empty(),
            "{:?}",
            analysis.never_useful_sp
        );
        let dir = temp(&format!("{unit:?}"));
        toklab::merges::write::write_gpt2(&t, &dir).unwrap();
        let loaded = read_model(&dir).unwrap();
        let mut ends = Vec::new();
        for word in t.words() {
            for d in [&dict, &loaded.dict] {
                ends.clear();
                encode_ends(d, &word.text, Semantics::HuggingFace, &mut ends);
                let pieces: Vec<&[u8]> = word.symbols.iter().map(|&s| t.token(s)).collect();
                let mut at = 0;
                let got: Vec<&[u8]> = ends
                    .iter()
                    .map(|&e| {
                        let p = &word.text[at..e];
                        at = e;
                        p
                    })
                    .collect();
                assert_eq!(
                    got,
                    pieces,
                    "{unit:?} {:?}",
                    String::from_utf8_lossy(&word.text)
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn bad_corpus_is_an_error_with_the_byte_offset() {
    let dir = temp("bad");
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
    std::fs::remove_dir_all(&dir).unwrap();
}
