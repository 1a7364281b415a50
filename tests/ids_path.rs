//! `tokenize --format ids` takes each engine's ids path (`Tokenizer::ids_into`), which skips
//! spans, forms and token objects: its ids must be the ids of the tokens, on text that takes
//! every branch of the normalizers (ASCII a charsmap keeps, letters before combining marks,
//! full-width forms, control characters, runs of spaces, user-defined pieces, CJK).

use std::path::Path;

use toklab::core::tokenizer::NO_ID;

use crate::common;

/// Lines that reach the fast ASCII path and every way out of it.
const LINES: &[&str] = &[
    "In the beginning was a plain ASCII line, with 12 digits: 345678901234.",
    "  leading,   inner   and trailing spaces   ",
    "cafe\u{301} nai\u{308}ve A\u{30a} <\u{338} =\u{338}",
    "ＦＵＬＬ ｗｉｄｔｈ ＡＢＣ １２３ and ﬁ ligature",
    "tab\there, nul\u{0}byte, bell\u{7}, del\u{7f}, crlf\r\nend",
    "日本語の文と中文的句子。混ざった text も。",
    "",
    " ",
    "a",
];

fn tokens_ids(tokenizer: &dyn toklab::Tokenizer, text: &str) -> Vec<u32> {
    let tokens = tokenizer.tokenize(text);
    tokens.iter().map(|t| t.id.unwrap_or(NO_ID)).collect()
}

fn check(spec: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tokenizer = toklab::load_in(spec, root).unwrap_or_else(|e| panic!("{spec}: {e}"));
    for line in LINES {
        let mut ids = vec![7];
        let gave_up = tokenizer.ids_into(line, &mut ids);
        assert_eq!(ids[0], 7, "{spec}: ids_into appends");
        assert_eq!(
            ids[1..],
            tokens_ids(tokenizer.as_ref(), line),
            "{spec}: {line:?}"
        );
        assert_eq!(
            gave_up,
            tokenizer.tokenize(line).gave_up(),
            "{spec}: {line:?}"
        );
    }
}

#[test]
fn ids_path_gives_the_ids_of_the_tokens() {
    for spec in [
        "spm:samples/bpe/sample-spm.model",
        "spm:tests/bpe_data/unigram-regressions.model",
        "hf:samples/bpe/tokenizer.json",
        "hf:samples/bpe/split-tokenizer.json",
        "bpe:samples/bpe/gpt2",
        "ws",
    ] {
        check(spec);
    }
}

/// The shared SentencePiece models carry NFKC's precompiled charsmap (rules from ASCII
/// letters to composed characters), and a tokenizer.json built on one uses it as
/// `Precompiled`.
#[test]
fn ids_path_through_a_precompiled_charsmap() {
    let Some(shared) = common::shared_dir("ids_path_through_a_precompiled_charsmap") else {
        return;
    };
    let models = shared.join("conformance/bpe/data/sentencepiece");
    for name in ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model"] {
        check(&format!("spm:{}", models.join(name).display()));
    }
}

/// A byte the charsmap passes as kept is one no rule matches there, whatever follows it.
#[test]
fn kept_ascii_is_never_the_start_of_a_rule() {
    use toklab::engines::subword::spm::SpmModel;
    let Some(shared) = common::shared_dir("kept_ascii_is_never_the_start_of_a_rule") else {
        return;
    };
    let path = shared.join("conformance/bpe/data/sentencepiece/botchan_en_unigram_1000.model");
    let model = SpmModel::load(&path).unwrap();
    let map = &model.normalizer.map;
    let mut kept = 0;
    for first in 0..128u8 {
        let mut nexts: Vec<Vec<u8>> = (0..128u8).map(|b| vec![b]).collect();
        nexts.extend(["\u{301}", "\u{308}", "\u{338}", "\u{30a}", "é"].map(|s| s.into()));
        nexts.push(Vec::new());
        for next in nexts {
            let input = [&[first][..], &next].concat();
            if map.keeps_ascii(&input) {
                kept += 1;
                for rule in [map.longest(&input), map.shortest(&input)] {
                    assert!(
                        rule.is_none(),
                        "{input:?} is kept but a rule matches: {rule:?}"
                    );
                }
            }
        }
    }
    // NFKC has rules from every ASCII letter (to the letter with a combining mark): they
    // are kept before another ASCII byte all the same.
    assert!(map.keeps_ascii(b"ab"), "a before b");
    assert!(
        !map.keeps_ascii("a\u{301}".as_bytes()),
        "a before a combining mark"
    );
    assert!(kept > 128 * 100, "only {kept} inputs kept");
}
