//! Properties of maximum matching on random word lists and texts: both directions cover every
//! non-space character exactly once, every piece is a dictionary word or one character, each
//! forward piece is the longest word starting there (backward: ending there), and outside the
//! spans marked ambiguous the two directions give the same pieces.

use proptest::prelude::*;
use std::path::Path;
use toklab::engines::simple::maxmatch::{Direction, Piece, WordList, ambiguous_spans, segment};

const CHARS: [char; 5] = ['天', '气', '好', '人', ' '];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(CHARS.to_vec()), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

fn word_list() -> impl Strategy<Value = (WordList, Vec<String>)> {
    prop::collection::vec(
        prop::collection::vec(prop::sample::select(CHARS[..4].to_vec()), 1..4)
            .prop_map(|v| v.into_iter().collect::<String>()),
        0..10,
    )
    .prop_map(|words| {
        let list = WordList::parse(Path::new("w"), words.join("\n").as_bytes()).unwrap();
        (list, words)
    })
}

fn check_cover(text: &str, pieces: &[Piece], words: &[String]) -> Result<(), TestCaseError> {
    let joined: String = pieces.iter().map(|p| p.span.slice(text)).collect();
    let expected: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    prop_assert_eq!(joined, expected);
    for p in pieces {
        let s = p.span.slice(text);
        prop_assert_eq!(p.in_dictionary, words.iter().any(|w| w == s));
        prop_assert!(p.in_dictionary || s.chars().count() == 1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(500))]

    #[test]
    fn maximum_matching_properties((list, words) in word_list(), text in text(30)) {
        let fwd = segment(&list, &text, Direction::Forward);
        let bwd = segment(&list, &text, Direction::Backward);
        check_cover(&text, &fwd, &words)?;
        check_cover(&text, &bwd, &words)?;
        for p in &fwd {
            let rest = &text[p.span.start..];
            let longer = words.iter().any(|w| w.len() > p.span.len() && rest.starts_with(w.as_str()));
            prop_assert!(!longer, "a longer word starts at {}", p.span.start);
        }
        for p in &bwd {
            let before = &text[..p.span.end];
            let longer = words.iter().any(|w| w.len() > p.span.len() && before.ends_with(w.as_str()));
            prop_assert!(!longer, "a longer word ends at {}", p.span.end);
        }
        let ambiguous = ambiguous_spans(&fwd, &bwd);
        let inside = |p: &Piece| ambiguous.iter().any(|a| a.start <= p.span.start && p.span.end <= a.end);
        let outside_f: Vec<_> = fwd.iter().filter(|p| !inside(p)).collect();
        let outside_b: Vec<_> = bwd.iter().filter(|p| !inside(p)).collect();
        prop_assert_eq!(outside_f, outside_b);
        for a in &ambiguous {
            let f: Vec<_> = fwd.iter().filter(|p| a.start <= p.span.start && p.span.end <= a.end).collect();
            let b: Vec<_> = bwd.iter().filter(|p| a.start <= p.span.start && p.span.end <= a.end).collect();
            prop_assert_ne!(f, b);
        }
    }
}
