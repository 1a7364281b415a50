//! The rest of a line past utoken's depth limit, split a part at a time by the walk, gives
//! exactly the tokens the run gives when it splits that rest itself: spans, forms, kinds,
//! provenance (the cut marked on the same token) and sentence ends, on the shipped rules, for
//! lines below the limit and far above it.

use std::path::Path;

use super::*;
use crate::core::tokenizer::Tokenizer;
use crate::engines::rules::LoadOptions;

fn shipped() -> RulesTokenizer {
    let options = LoadOptions {
        lang: Some("eng".into()),
        ..LoadOptions::default()
    };
    RulesTokenizer::load_dir(Path::new("../../rules"), &options).unwrap()
}

/// Words that send a line through most steps: URLs, e-mail, abbreviations, initials,
/// contractions, numbers, paired quotes and dashes that get `@` mark-up, CJK and emoji.
const WORDS: &[&str] = &[
    "the",
    "Ferry",
    "left",
    "at",
    "9:45,",
    "about",
    "1.5",
    "hours",
    "late",
    "(again).",
    "They",
    "won't",
    "ask",
    "\"how\"",
    "--",
    "i.e.",
    "N.Y.",
    "boats",
    "résumé",
    "Åsa",
    "🙂",
    "漢字",
    "well-known",
    "€7.25",
    "http://example.net/x?y=2",
    "a.b@example.net",
    "@someone",
    "Dr.",
    "Jones",
    "done.",
    "'single'",
    "...",
    "x/y",
    "100%",
    "so,",
    "yes!",
];

/// A line of at least `len` bytes of [`WORDS`] picked by a fixed generator from `seed`, with
/// one or two spaces, a tab or nothing between them (so the depth limit can hand over a rest
/// that starts inside a run of characters).
fn line(seed: u64, len: usize) -> String {
    let mut out = String::new();
    let mut state = seed | 1;
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push_str(WORDS[(state % WORDS.len() as u64) as usize]);
        out.push_str(match state >> 40 & 15 {
            0 => "  ",
            1 => "\t",
            2 | 3 => "",
            _ => " ",
        });
    }
    out
}

/// The tokenization built with the rest of each line split in parts (`defer`) or whole.
fn tokens(rules: &RulesTokenizer, text: &str, defer: bool) -> Tokenization {
    let mut tokens = Tokens::new(rules);
    rules.walk_deferring(text, &mut tokens, defer);
    tokens.finish()
}

/// Whether the run of `line` left a rest to the caller, and where it starts.
fn tail_of(rules: &RulesTokenizer, line: &str) -> Option<usize> {
    let (sentence, _) = normalize::normalize(line, false);
    let mut run = Run::new(&rules.rules, &sentence, None);
    run.defer_tail = true;
    run.run_deferring().2.map(|tail| tail.start)
}

#[test]
fn the_rest_in_parts_gives_the_tokens_of_the_whole() {
    let rules = shipped();
    let mut deferred = 0;
    for seed in [3, 17, 2024, 99_991] {
        for len in [200, 5_000, 120_000, 400_000] {
            let text = line(seed, len);
            let whole = tokens(&rules, &text, false);
            let parts = tokens(&rules, &text, true);
            assert!(!whole.is_empty());
            if whole != parts {
                let at = (0..whole.len())
                    .find(|&i| whole.tokens.get(i) != parts.tokens.get(i))
                    .unwrap_or(whole.len());
                panic!(
                    "seed {seed}, {len} bytes: token {at} differs: whole {:?}, in parts {:?}",
                    whole.tokens.get(at),
                    parts.tokens.get(at)
                );
            }
            if tail_of(&rules, &text).is_some() {
                deferred += 1;
                assert!(
                    whole.gave_up().is_some(),
                    "a rest without a cut, seed {seed}"
                );
            }
        }
    }
    // The long lines reach the limit with the rest of the line left over.
    assert!(
        deferred >= 8,
        "only {deferred} lines left a rest to the walk"
    );
}

#[test]
fn lines_of_a_text_keep_their_order_and_sentence_ends() {
    let rules = shipped();
    let text = [
        line(5, 300),
        line(6, 150_000),
        String::new(),
        line(7, 90_000),
    ]
    .join("\n");
    let whole = tokens(&rules, &text, false);
    assert_eq!(tokens(&rules, &text, true), whole);
    assert_eq!(whole.sentence_ends.len(), 2);
    assert_eq!(rules.tokenize(&text), whole);
}

#[test]
fn parts_and_ids_agree_with_the_tokens() {
    let rules = shipped();
    for text in [line(11, 100), line(12, 300_000)] {
        let whole = rules.tokenize(&text);
        let mut parts = Vec::new();
        let mut carry = crate::core::pieces::Carry::default();
        rules.tokenize_piece_in_parts(&text, &mut carry, &mut |part| parts.push(part));
        assert!(parts.iter().all(|p| p.len() <= PART_TOKENS));
        let joined: Vec<Token> = parts.into_iter().flat_map(|p| p.tokens).collect();
        assert_eq!(joined, whole.tokens);
        let mut ids = vec![7];
        let gave_up = rules.ids_into(&text, &mut ids);
        assert_eq!(ids.len(), 1 + whole.len());
        assert!(
            ids[1..]
                .iter()
                .all(|&id| id == crate::core::tokenizer::NO_ID)
        );
        assert_eq!(gave_up, whole.gave_up());
    }
}

/// Tokens made alike hold one provenance record on a short line too, so tokenizing makes no
/// record (and touches none of the rules' shared strings) per token: on a line of words
/// split by the final whitespace step, every word's origin is the same allocation.
#[test]
fn a_short_lines_tokens_made_alike_share_one_record() {
    let rules = shipped();
    let tokens = rules.tokenize("the boats left the harbour and the ships came in");
    let main: Vec<_> = tokens
        .tokens
        .iter()
        .filter_map(|t| match &t.origin {
            Origin::Detail(detail) => Some(detail),
            _ => None,
        })
        .filter(|d| {
            (***d)
                .as_any()
                .downcast_ref::<RuleOrigin>()
                .is_some_and(|o| o.step == Step::Main && o.entry.is_none())
        })
        .collect();
    assert!(main.len() >= 5, "{} tokens of the main step", main.len());
    assert!(main.iter().all(|d| Arc::ptr_eq(d, main[0])));
}
