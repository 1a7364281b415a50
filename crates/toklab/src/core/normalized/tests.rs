use proptest::prelude::*;
use unicode_normalization::UnicodeNormalization;

use super::*;

fn span(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

#[test]
fn unchanged_text_borrows_the_original() {
    let text = NormalizedString::new("hé!");
    assert!(!text.is_edited());
    assert_eq!(text.normalized(), "hé!");
    assert_eq!(text.original_span(1..3), span(1, 3));
    assert_eq!(text.original_offset(4), 4);
    let mut lower = text.clone();
    lower.lowercase();
    lower.nfc();
    lower.replace("x", "y");
    assert!(
        !lower.is_edited(),
        "operations that change nothing copy nothing"
    );
}

#[test]
fn one_to_many_characters_share_their_origin_and_the_last_owns_it() {
    let mut text = NormalizedString::new("aﬁb");
    text.nfkc();
    assert_eq!(text.normalized(), "afib");
    assert_eq!(text.original_span(1..2), span(1, 4));
    assert_eq!(text.original_span(2..3), span(1, 4));
    assert_eq!(text.original_span_owned(1..2), None);
    assert_eq!(text.original_span_owned(2..4), Some(span(1, 5)));
    assert_eq!(text.original_span_owned(0..2), Some(span(0, 1)));
}

#[test]
fn many_to_one_gets_the_union() {
    let mut text = NormalizedString::new("a&amp;b");
    text.replace("&amp;", "&");
    assert_eq!(text.normalized(), "a&b");
    assert_eq!(text.original_span(1..2), span(1, 6));
    assert_eq!(text.original_span(2..3), span(6, 7));
}

#[test]
fn removed_text_is_a_gap_that_offsets_give_to_the_character_before() {
    let mut text = NormalizedString::new("ab\u{200b}c");
    text.filter(|c| c != '\u{200b}');
    assert_eq!(text.normalized(), "abc");
    assert_eq!(text.original_span(0..2), span(0, 2));
    assert_eq!(text.original_span(2..3), span(5, 6));
    assert_eq!(text.original_offset(2), 5);
}

#[test]
fn stripping_shrinks_the_extent_and_inserted_text_sits_at_its_edges() {
    let mut text = NormalizedString::new("  ab  ");
    text.strip();
    assert_eq!(text.normalized(), "ab");
    assert_eq!(text.extent(), span(2, 4));
    assert!(!text.is_edited());
    text.prepend("▁");
    text.append("▁");
    assert_eq!(text.normalized(), "▁ab▁");
    assert_eq!(text.original_span(0..3), span(2, 2));
    assert_eq!(text.original_span(0..4), span(2, 3));
    assert_eq!(text.original_span(5..8), span(4, 4));
    assert_eq!(text.original_offset(text.len()), 4);
}

#[test]
fn bert_like_chain() {
    let mut text = NormalizedString::new("Héllo  Wörld");
    text.nfd();
    text.filter(|c| !('\u{300}'..='\u{36f}').contains(&c));
    text.lowercase();
    text.collapse_whitespace();
    assert_eq!(text.normalized(), "hello world");
    assert_eq!(text.original_span(1..2), span(1, 3));
    assert_eq!(text.original_span(5..6), span(6, 8));
    assert_eq!(text.original_span(6..11), span(8, 14));
}

#[test]
fn composition_keeps_a_grapheme_together() {
    let mut text = NormalizedString::new("e\u{301}x");
    text.nfc();
    assert_eq!(text.normalized(), "éx");
    assert_eq!(text.original_span(0..2), span(0, 3));
    assert_eq!(text.original_span(2..3), span(3, 4));
}

#[test]
fn into_owned_keeps_everything() {
    let owned = {
        let line = String::from("Ab");
        let mut text = NormalizedString::new(&line);
        text.lowercase();
        text.into_owned()
    };
    assert_eq!(owned.original(), "Ab");
    assert_eq!(owned.normalized(), "ab");
    assert_eq!(owned.original_span(0..1), span(0, 1));
}

/// An operation of the property test, with what it does to a plain string.
#[derive(Clone, Debug)]
enum Op {
    Lowercase,
    Unicode(Form),
    RemoveSpaces,
    DoubleE,
    Replace(&'static str, &'static str),
    Prepend(&'static str),
    Append(&'static str),
    Strip,
    CollapseWhitespace,
    StripStart(usize),
    StripEnd(usize),
}

impl Op {
    fn apply(&self, text: &mut NormalizedString) {
        match *self {
            Op::Lowercase => text.lowercase(),
            Op::Unicode(form) => text.unicode(form),
            Op::RemoveSpaces => text.filter(|c| c != ' '),
            Op::DoubleE => text.map_chars(|c, out| {
                out.push(c);
                if c == 'e' {
                    out.push('e');
                }
            }),
            Op::Replace(pattern, with) => text.replace(pattern, with),
            Op::Prepend(s) => text.prepend(s),
            Op::Append(s) => text.append(s),
            Op::Strip => text.strip(),
            Op::CollapseWhitespace => text.collapse_whitespace(),
            Op::StripStart(n) => text.strip_start(n),
            Op::StripEnd(n) => text.strip_end(n),
        }
    }

    /// The same operation on a plain string.
    fn model(&self, text: &str) -> String {
        match *self {
            Op::Lowercase => text.chars().flat_map(char::to_lowercase).collect(),
            Op::Unicode(Form::Nfc) => text.nfc().collect(),
            Op::Unicode(Form::Nfd) => text.nfd().collect(),
            Op::Unicode(Form::Nfkc) => text.nfkc().collect(),
            Op::Unicode(_) => text.nfkd().collect(),
            Op::RemoveSpaces => text.replace(' ', ""),
            Op::DoubleE => text.replace('e', "ee"),
            Op::Replace(pattern, with) => text.replace(pattern, with),
            Op::Prepend(s) => format!("{s}{text}"),
            Op::Append(s) => format!("{text}{s}"),
            Op::Strip => text.trim().to_string(),
            Op::CollapseWhitespace => {
                let mut out = String::new();
                let mut in_run = false;
                for c in text.chars() {
                    if c.is_whitespace() {
                        if !in_run {
                            out.push(' ');
                        }
                        in_run = true;
                    } else {
                        out.push(c);
                        in_run = false;
                    }
                }
                out
            }
            Op::StripStart(n) => {
                let mut at = n.min(text.len());
                while !text.is_char_boundary(at) {
                    at += 1;
                }
                text[at..].to_string()
            }
            Op::StripEnd(n) => {
                let mut at = text.len() - n.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text[..at].to_string()
            }
        }
    }
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Lowercase),
        prop_oneof![
            Just(Form::Nfc),
            Just(Form::Nfd),
            Just(Form::Nfkc),
            Just(Form::Nfkd)
        ]
        .prop_map(Op::Unicode),
        Just(Op::RemoveSpaces),
        Just(Op::DoubleE),
        Just(Op::Replace("ab", "X")),
        Just(Op::Replace("e", "")),
        Just(Op::Replace(" ", "▁")),
        Just(Op::Prepend("▁")),
        Just(Op::Append("<")),
        Just(Op::Strip),
        Just(Op::CollapseWhitespace),
        (0usize..6).prop_map(Op::StripStart),
        (0usize..6).prop_map(Op::StripEnd),
    ]
}

fn text() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        4 => any::<char>(),
        2 => prop::sample::select(vec!['a', 'b', 'e', 'E', ' ', '\t']),
        1 => prop::sample::select(vec!['é', '\u{301}', 'ﬁ', 'İ', 'Σ', '가', '\u{1100}', '\u{1161}']),
    ];
    prop::collection::vec(c, 0..16).prop_map(|cs| cs.into_iter().collect())
}

/// The alignment invariant: every character's origin is a span on character boundaries of
/// the original inside the extent; origins are ordered; offsets never go back and end at the
/// extent's end, so the original is recovered whole from what lies before the extent, the
/// pieces between offsets, and what lies after it.
fn check_alignment(text: &NormalizedString) {
    let original = text.original();
    let extent = text.extent();
    assert!(extent.end <= original.len());
    assert!(original.is_char_boundary(extent.start) && original.is_char_boundary(extent.end));
    let mut previous = Span::new(extent.start, extent.start);
    for (_, _, origin) in text.char_origins() {
        assert!(original.is_char_boundary(origin.start) && original.is_char_boundary(origin.end));
        assert!(extent.start <= origin.start && origin.end <= extent.end);
        assert!(
            previous.start <= origin.start && previous.end <= origin.end,
            "{origin:?} after {previous:?}"
        );
        previous = origin;
    }
    let normalized = text.normalized();
    let boundaries: Vec<usize> = normalized
        .char_indices()
        .map(|(i, _)| i)
        .chain([normalized.len()])
        .collect();
    let offsets: Vec<usize> = boundaries
        .iter()
        .map(|&b| text.original_offset(b))
        .collect();
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}");
    assert_eq!(offsets.last(), Some(&extent.end));
    let mut rebuilt = String::from(&original[..extent.start]);
    rebuilt.push_str(&original[extent.start..offsets[0]]);
    for w in offsets.windows(2) {
        rebuilt.push_str(&original[w[0]..w[1]]);
    }
    rebuilt.push_str(&original[extent.end..]);
    assert_eq!(rebuilt, original);
    for (i, &a) in boundaries.iter().enumerate() {
        for &b in &boundaries[i..] {
            let span = text.original_span(a..b);
            assert!(span.start <= span.end);
            assert!(original.is_char_boundary(span.start) && original.is_char_boundary(span.end));
        }
    }
}

proptest! {
    #[test]
    fn operations_keep_the_alignment(original in text(), ops in prop::collection::vec(op(), 0..6)) {
        let mut text = NormalizedString::new(&original);
        let mut model = original.clone();
        for op in &ops {
            op.apply(&mut text);
            model = op.model(&model);
            check_alignment(&text);
        }
        prop_assert_eq!(text.normalized(), model.as_str());
    }
}

#[test]
fn a_slice_keeps_mapping_to_the_first_original() {
    let mut text = NormalizedString::new("ab  cd");
    text.replace(" ", "\u{2581}");
    text.prepend("\u{2581}");
    // "▁ab▁▁cd": the slice "▁cd" comes from the second space and "cd".
    let at = text.normalized().rfind('\u{2581}').unwrap();
    let piece = text.slice(at..text.len());
    assert_eq!(piece.normalized(), "\u{2581}cd");
    assert_eq!(piece.original_span(0..piece.len()), span(3, 6));
    assert_eq!(piece.extent(), span(3, 6));
    let plain = NormalizedString::new("hello world").slice(6..11);
    assert!(!plain.is_edited());
    assert_eq!(plain.normalized(), "world");
    assert_eq!(plain.original_span(1..3), span(7, 9));
}

#[test]
fn original_bytes_follow_kept_characters_byte_for_byte() {
    // `▁` replaces the space; `é` and `😀` are kept, so offsets inside them move with them.
    let mut text = NormalizedString::new("é 😀");
    text.replace(" ", "\u{2581}");
    assert_eq!(text.normalized(), "é\u{2581}😀");
    assert_eq!(text.original_byte(1), 1, "inside a kept é");
    assert_eq!(text.original_byte(2), 2, "the start of ▁ is the space");
    assert_eq!(
        text.original_byte(3),
        2,
        "inside ▁: no original byte, the space's start"
    );
    assert_eq!(text.original_byte(5), 3);
    assert_eq!(text.original_byte(7), 5, "two bytes into 😀");
    assert_eq!(text.original_byte(9), 7, "the end");
    // Unchanged text: offsets are the original's.
    assert_eq!(NormalizedString::new("😀").original_byte(3), 3);
}
