//! The unit tests of `origins.rs`: the runs against a plain range per byte, and their size.

use super::*;
use proptest::prelude::*;
use proptest::sample::Index;

/// The per-byte ranges the runs stand for, as the plain representation would hold them.
fn per_byte(origins: &Origins, text: &str) -> Vec<(usize, usize)> {
    (0..text.len()).map(|at| origins.get(at, text)).collect()
}

#[test]
fn a_replaced_space_in_a_long_text_is_three_runs() {
    let text = "ab cd";
    let mut origins = Origins::default();
    origins.push_shifted(0, 2);
    origins.push_fixed((2, 4), 1); // a two-byte no-break space became a space
    origins.push_shifted(4, 2);
    assert_eq!(origins.runs(), 3);
    assert_eq!(
        per_byte(&origins, text),
        [(0, 1), (1, 2), (2, 4), (4, 5), (5, 6)]
    );
}

#[test]
fn shifted_runs_give_each_multibyte_character_its_range() {
    let text = "é€x";
    let mut origins = Origins::default();
    origins.push_shifted(10, text.len());
    assert_eq!(
        per_byte(&origins, text),
        [(10, 12), (10, 12), (12, 15), (12, 15), (12, 15), (15, 16)]
    );
}

#[test]
fn continuing_runs_merge_and_slices_keep_the_mapping() {
    let text = "abcdef";
    let mut origins = Origins::default();
    origins.push_shifted(0, 2);
    origins.push_shifted(2, 2);
    origins.push_fixed((4, 9), 1);
    origins.push_fixed((4, 9), 1);
    assert_eq!(origins.runs(), 2);
    let whole = per_byte(&origins, text);
    for a in 0..=text.len() {
        for b in a..=text.len() {
            let slice = origins.slice(a..b);
            assert_eq!(per_byte(&slice, &text[a..b]), whole[a..b], "{a}..{b}");
        }
    }
    let mut cut = origins.clone();
    cut.drain_front(3);
    cut.truncate(2);
    assert_eq!(cut, origins.slice(3..5));
    cut.prepend_fixed((0, 0), 2);
    assert_eq!(per_byte(&cut, "--de"), [(0, 0), (0, 0), (3, 4), (4, 9)]);
}

/// Llama 2's normalizer makes each space a three-byte `▁` (a fixed run) before a word
/// kept as it was (a shifted run): such a map of a huge line stays within a few bytes a
/// word.
#[test]
fn a_map_of_many_llama_words_takes_a_few_bytes_a_word() {
    let words = 100_000;
    let mut origins = Origins::default();
    let mut at = 0;
    for i in 0..words {
        let word = 2 + i % 9;
        origins.push_fixed((at, at + 1), 3);
        origins.push_shifted(at + 1, word);
        at += 1 + word;
    }
    origins.shrink_to_fit();
    let per_word = origins.heap_bytes() as f64 / words as f64;
    assert!(per_word <= 5.0, "{per_word} bytes a word");
}

/// Where an appended origin starts: where the last byte's ended (so runs can merge or
/// encode in one byte), or anywhere, past 4 GB too.
#[derive(Clone, Debug)]
enum At {
    Next,
    Some(usize),
}

#[derive(Clone, Debug)]
enum Op {
    Shifted(At, String),
    Fixed(At, usize, String),
    Written(At, usize, String),
    Prepend(At, usize, String),
    Slice(Index, Index),
    DrainFront(Index),
    Truncate(Index),
}

fn at() -> impl Strategy<Value = At> {
    prop_oneof![
        3 => Just(At::Next),
        1 => (0..100usize).prop_map(At::Some),
        1 => ((1usize << 32)..(1 << 40)).prop_map(At::Some),
    ]
}

fn width() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0..9usize, 1 => (1usize << 32)..(1 << 33)]
}

fn chunk() -> impl Strategy<Value = String> {
    let chars = prop::sample::select(vec!['a', 'b', 'é', '€', '𝄞']);
    prop_oneof![
        prop::collection::vec(chars.clone(), 1..4),
        prop::collection::vec(chars, 1..80),
    ]
    .prop_map(|chars| chars.into_iter().collect())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (at(), chunk()).prop_map(|(at, text)| Op::Shifted(at, text)),
        3 => (at(), width(), chunk()).prop_map(|(at, w, text)| Op::Fixed(at, w, text)),
        2 => (at(), width(), chunk()).prop_map(|(at, w, text)| Op::Written(at, w, text)),
        1 => (at(), width(), chunk()).prop_map(|(at, w, text)| Op::Prepend(at, w, text)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Op::Slice(a, b)),
        1 => any::<Index>().prop_map(Op::DrainFront),
        1 => any::<Index>().prop_map(Op::Truncate),
    ]
}

/// The character boundary of `text` that `index` picks (0 and the end included).
fn boundary(text: &str, index: &Index) -> usize {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|&at| text.is_char_boundary(at))
        .collect();
    bounds[index.index(bounds.len())]
}

proptest! {
    /// The runs map every byte as a plain range per byte would, whatever the operations,
    /// and a value equals its own rebuilt copy (one form per mapping).
    #[test]
    fn runs_map_every_byte_as_a_range_per_byte(ops in prop::collection::vec(op(), 0..120)) {
        let (mut origins, mut text) = (Origins::default(), String::new());
        let mut model: Vec<(usize, usize)> = Vec::new();
        for op in &ops {
            let resolve = |at: &At| match at {
                At::Next => model.last().map_or(0, |last| last.1),
                At::Some(at) => *at,
            };
            match op {
                Op::Shifted(at, chunk) => {
                    let at = resolve(at);
                    origins.push_shifted(at, chunk.len());
                    for (i, c) in chunk.char_indices() {
                        let range = (at + i, at + i + c.len_utf8());
                        model.extend(std::iter::repeat_n(range, c.len_utf8()));
                    }
                    text.push_str(chunk);
                }
                Op::Fixed(at, width, chunk) | Op::Written(at, width, chunk) => {
                    let range = (resolve(at), resolve(at) + width);
                    match op {
                        Op::Fixed(..) => origins.push_fixed(range, chunk.len()),
                        _ => origins.push_written(range, chunk),
                    }
                    model.extend(std::iter::repeat_n(range, chunk.len()));
                    text.push_str(chunk);
                }
                Op::Prepend(at, width, chunk) => {
                    let range = (resolve(at), resolve(at) + width);
                    origins.prepend_fixed(range, chunk.len());
                    model.splice(0..0, std::iter::repeat_n(range, chunk.len()));
                    text.insert_str(0, chunk);
                }
                Op::Slice(a, b) => {
                    let (a, b) = (boundary(&text, a), boundary(&text, b));
                    let (a, b) = (a.min(b), a.max(b));
                    origins = origins.slice(a..b);
                    model = model[a..b].to_vec();
                    text = text[a..b].to_string();
                }
                Op::DrainFront(index) => {
                    let n = boundary(&text, index);
                    origins.drain_front(n);
                    model.drain(..n);
                    text.drain(..n);
                }
                Op::Truncate(index) => {
                    let n = boundary(&text, index);
                    origins.truncate(n);
                    model.truncate(n);
                    text.truncate(n);
                }
            }
            prop_assert_eq!(per_byte(&origins, &text), model.clone(), "after {:?}", op);
            prop_assert_eq!(&origins.slice(0..text.len()), &origins);
        }
    }
}
