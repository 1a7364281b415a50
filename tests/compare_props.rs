//! Properties of comparisons on random text with the shipped tokenizers: a tokenization agrees
//! with itself, gold written from a tokenizer's own tokens projects back onto the same cuts,
//! scores are symmetric in the way they must be, and token alignments cover every token once.

use proptest::prelude::*;
use std::sync::LazyLock;
use toklab::analysis::align::{Costs, Op};
use toklab::analysis::compare::{BoundaryDiff, GoldText, align_tokens, project, score};

const SPECS: &[&str] = &["ws", "words", r"regex:\w+|[^\w\s]+", "pretok:gpt2"];

static TOKENIZERS: LazyLock<Vec<Box<dyn toklab::Tokenizer>>> =
    LazyLock::new(|| SPECS.iter().map(|s| toklab::load(s).unwrap()).collect());

fn texty() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 .,;:!?'\"()\\-\t\u{a0}\u{3000}éß語😀👍🏽\u{301}]{0,60}"
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn every_tokenization_agrees_with_itself(text in texty()) {
        for t in TOKENIZERS.iter() {
            let tokens = t.tokenize(&text);
            prop_assert!(BoundaryDiff::new(&text, &tokens, &tokens).agrees());
            let s = score(&text, &tokens, &tokens);
            prop_assert_eq!(s.boundaries.extra + s.boundaries.missed, 0);
            prop_assert_eq!(s.tokens.extra + s.tokens.missed, 0);
        }
    }

    #[test]
    fn scores_swap_precision_and_recall(text in texty()) {
        let a = TOKENIZERS[1].tokenize(&text);
        let b = TOKENIZERS[3].tokenize(&text);
        let ab = score(&text, &a, &b);
        let ba = score(&text, &b, &a);
        prop_assert_eq!(ab.boundaries.precision(), ba.boundaries.recall());
        prop_assert_eq!(ab.boundaries.f1(), ba.boundaries.f1());
        let diff = BoundaryDiff::new(&text, &a, &b);
        prop_assert_eq!(diff.only_a(), ab.boundaries.missed);
        prop_assert_eq!(diff.only_b(), ab.boundaries.extra);
    }

    #[test]
    fn gold_from_own_tokens_projects_onto_the_same_cuts(text in texty()) {
        // Tokens without whitespace inside can be written as a plain gold line.
        for t in &TOKENIZERS[1..3] {
            let tokens = t.tokenize(&text);
            let forms: Vec<String> = tokens.tokens.iter().map(|k| k.form(&text).to_string()).collect();
            prop_assume!(forms.iter().all(|f| !f.contains(char::is_whitespace)));
            let gold = GoldText { line: 1, text: None, tokens: forms, sentence_ends: vec![] };
            let projection = project(&text, &gold);
            prop_assert_eq!(projection.edits, 0);
            prop_assert_eq!(projection.tokenization.check(&text), Ok(()));
            prop_assert!(BoundaryDiff::new(&text, &tokens, &projection.tokenization).agrees());
        }
    }

    #[test]
    fn gold_with_edits_still_projects_validly(text in texty(), gold_line in "[a-z'.]{0,4}( [a-z'.]{1,4}){0,8}") {
        let gold = GoldText {
            line: 1,
            text: None,
            tokens: gold_line.split(' ').filter(|t| !t.is_empty()).map(str::to_string).collect(),
            sentence_ends: vec![],
        };
        let projection = project(&text, &gold);
        prop_assert_eq!(projection.tokenization.check(&text), Ok(()));
        prop_assert_eq!(projection.tokenization.len(), gold.tokens.len());
        for (token, form) in projection.tokenization.tokens.iter().zip(&gold.tokens) {
            prop_assert_eq!(token.form(&text), form.as_str());
        }
    }

    #[test]
    fn token_alignment_pairs_every_token_once_in_order(text in texty()) {
        let a = TOKENIZERS[0].tokenize(&text);
        let b = TOKENIZERS[3].tokenize(&text);
        let alignment = align_tokens(&text, &a, &text, &b, Costs::LEVENSHTEIN);
        let xs: Vec<usize> = alignment.pairs.iter().filter_map(|p| p.a).collect();
        let ys: Vec<usize> = alignment.pairs.iter().filter_map(|p| p.b).collect();
        prop_assert_eq!(xs, (0..a.len()).collect::<Vec<_>>());
        prop_assert_eq!(ys, (0..b.len()).collect::<Vec<_>>());
        for pair in &alignment.pairs {
            if let (Some(i), Some(j)) = (pair.a, pair.b) {
                let same = a.tokens[i].form(&text) == b.tokens[j].form(&text);
                prop_assert_eq!(same, pair.op == Op::Match);
            }
        }
    }
}
