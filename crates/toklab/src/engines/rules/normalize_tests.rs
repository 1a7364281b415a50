//! Line normalization: offsets, each of utoken's steps, and the stretch-wise deletions
//! against the same rules run over the whole line.

use super::*;

fn norm(line: &str) -> Sentence<'_> {
    normalize(line, false).0
}

/// The compact offsets are the text's own character offsets, for characters of every
/// UTF-8 length, on both sides of the 64-character words.
#[test]
fn byte_offsets_are_the_char_offsets() {
    let text: String = "aé€😀".chars().cycle().take(301).collect();
    let mut offsets = ByteOffsets::default();
    text.chars().for_each(|c| offsets.push(c));
    let expected: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let got: Vec<usize> = (0..expected.len()).map(|i| offsets.at(i)).collect();
    assert_eq!(got, expected);
}

#[test]
fn plain_text_is_unchanged() {
    let s = norm("Hé said.");
    assert_eq!(s.text(), "Hé said.");
    assert!(
        !s.normalized.is_edited(),
        "nothing to normalize: the line itself"
    );
    assert_eq!(s.span(1, 2), (1, 3));
    let offsets: Vec<usize> = (0..=8).map(|i| s.byte_at(i)).collect();
    assert_eq!(offsets, [0, 1, 3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn entities_controls_and_spaces() {
    let s = norm("a&NBSP;b\u{ad}c\u{a0}d\u{92}s");
    assert_eq!(s.text(), "a bc d’s");
    assert_eq!(s.span(1, 2), (1, 7));
    assert_eq!(
        s.span(3, 4),
        (10, 11),
        "c keeps its own bytes after the soft hyphen"
    );
    assert!(
        s.lv & chars::APOSTROPHE != 0,
        "mapped C1 characters join the line vector"
    );
}

#[test]
fn miscodes_and_joiners() {
    assert_eq!(norm("Espa\u{c3}\u{b1}a").text(), "España");
    assert_eq!(
        norm("\u{200c}ab\u{200c}\u{200c}c\u{200c} d").text(),
        "ab\u{200c}c d"
    );
    assert_eq!(norm("x\u{fe0f}→\u{fe0f}").text(), "x→\u{fe0f}");
}

#[test]
fn chart_map_keeps_utokens_offsets() {
    let (s, map) = normalize("e&nbsp;f\u{1}g", true);
    let map = map.unwrap();
    assert_eq!(map.snt, "e\u{a0}f\u{1}g");
    assert_eq!(s.text(), "e f g".replace(' ', "").replacen("ef", "e f", 1));
    // g is at position 3 of the sentence and index 4 of snt.
    assert_eq!(map.span(3, 4), (4, 5));
}

/// Which characters a pass is about, and its rule over a stretch.
type Pass<'a> = (
    &'a dyn Fn(char) -> bool,
    &'a dyn Fn(&mut Vec<(usize, char)>, bool, bool),
);

/// The deleting rules run over the whole line as one list, as utoken runs them.
fn whole_line(line: &str, edit: impl FnOnce(&mut Vec<(usize, char)>)) -> String {
    let mut list: Vec<(usize, char)> = line.chars().enumerate().collect();
    edit(&mut list);
    list.into_iter().map(|(_, c)| c).collect()
}

proptest::proptest! {
    /// Run stretch by stretch, the joiner and selector rules delete what they delete over the
    /// whole line, and every kept character keeps its own origin.
    #[test]
    fn stretches_delete_what_the_whole_line_would(
        picks in proptest::collection::vec(0usize..9, 0..40)
    ) {
        const ALPHABET: [char; 9] =
            ['a', ' ', '.', '\u{200C}', '\u{200D}', '\u{FE0F}', '→', 'é', '\u{200D}'];
        let line: String = picks.iter().map(|&i| ALPHABET[i]).collect();
        let zw = |c| c == '\u{200C}' || c == '\u{200D}';
        let passes: [Pass; 3] = [
            (&zw, &|cs, first, last| trim_joiners(cs, '\u{200C}', true, first, last)),
            (&|c| c == '\u{200D}', &|cs, first, last| {
                trim_joiners(cs, '\u{200D}', false, first, last)
            }),
            (&|c| chars::is(c, chars::VARIATION_SELECTOR), &|cs, _, _| drop_selectors(cs)),
        ];
        for (special, edit) in passes {
            let mut text = NormalizedString::new(&line);
            delete_around(&mut text, special, |cs, first, last| edit(cs, first, last));
            let expected = whole_line(&line, |cs| edit(cs, true, true));
            proptest::prop_assert_eq!(text.normalized(), expected.as_str(), "{:?}", line);
            for (_, c, span) in text.char_origins() {
                proptest::prop_assert_eq!(span.slice(&line).chars().collect::<Vec<_>>(), vec![c]);
            }
        }
    }
}
