//! Texts for the tokenizer targets: lines of the shipped samples, mutated with the classes of
//! text that break tokenizers (runs of one punctuation character, one letter, spaces, CJK,
//! combining marks, emoji ZWJ sequences, digits, URLs, odd line endings and controls).

use crate::rng::Rng;

/// The longest text an iteration builds, in bytes: long enough for runs and nesting, short
/// enough for thousands of iterations a second.
pub const MAX_LEN: usize = 3000;

/// Snippets inserted whole.
const SNIPPETS: &[&str] = &[
    "don't",
    "won't",
    "n't",
    "'s",
    "Dr.",
    "e.g.",
    "U.S.A.",
    "etc.",
    "...",
    "…",
    "—",
    "–",
    "-",
    "--",
    "'",
    "\"",
    "“",
    "”",
    "‘",
    "’",
    "«",
    "»",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<b>",
    "</b>",
    "<a href=\"x\">",
    "&amp;",
    "http://example.com/a?b=c&d=e#f",
    "www.example.org",
    "a@b.co",
    "@handle",
    "#tag",
    ":-)",
    "3.14",
    "1,000,000",
    "-42",
    "+1",
    "2026-11-23",
    "10:30",
    "½",
    "€5",
    "$3.88",
    "100%",
    "東京都",
    "北京大学生",
    "日本語の文",
    "한국어",
    "ไทย",
    "العربية",
    "עברית",
    "e\u{301}",
    "a\u{308}\u{323}",
    "\u{200d}",
    "👩\u{200d}💻",
    "👨\u{200d}👩\u{200d}👧",
    "🇩🇪",
    "👍🏽",
    "\u{fe0f}",
    "\u{a0}",
    "\u{2009}",
    "\u{3000}",
    "\t",
    "\r",
    "\r\n",
    "\n",
    "\u{0}",
    "\u{7f}",
    "\u{feff}",
    "\u{200b}",
    "\u{202e}",
    "İ",
    "ß",
    "ﬁ",
    "Σσς",
    "ǅ",
    "<|endoftext|>",
    "[CLS]",
    "[UNK]",
    "<unk>",
    "<s>",
    "</s>",
    "▁",
    "Ġ",
    "##",
    "ing",
    " the",
    "Hello world",
];

/// Characters repeated into runs.
const RUN_CHARS: &[char] = &[
    '.', '\'', '-', '"', '—', ':', ',', '!', '?', '/', '*', '_', '=', 'a', 'x', 'Z', '0', '9', ' ',
    '\t', '東', 'é', '\u{301}', '😀', '@', '#', '&', '<', '>', '(', ')',
];

/// A text for one iteration: a seed line (or several), then a few mutations.
pub fn generate(rng: &mut Rng, seeds: &[String]) -> String {
    let mut text = String::new();
    for _ in 0..1 + rng.below(3) {
        if !text.is_empty() {
            text.push(if rng.one_in(4) { '\n' } else { ' ' });
        }
        let seed: &String = rng.pick(seeds);
        text.push_str(seed);
    }
    for _ in 0..rng.below(6) {
        mutate(rng, &mut text);
    }
    truncate(&mut text, MAX_LEN);
    text
}

/// A small edit of `text`, as a user makes in the workbench: the incremental check compares
/// re-tokenizing after it with tokenizing from scratch.
pub fn edit(rng: &mut Rng, text: &str) -> String {
    let mut new = text.to_string();
    for _ in 0..1 + rng.below(2) {
        mutate(rng, &mut new);
    }
    truncate(&mut new, MAX_LEN);
    new
}

/// One mutation at a random character boundary.
pub fn mutate(rng: &mut Rng, text: &mut String) {
    let at = boundary(rng, text);
    match rng.below(6) {
        0 | 1 => {
            let snippet: &&str = rng.pick(SNIPPETS);
            text.insert_str(at, snippet);
        }
        2 => {
            let c = *rng.pick(RUN_CHARS);
            let longest = if rng.one_in(8) { 400 } else { 12 };
            let n = 1 + rng.below(longest);
            text.insert_str(at, &c.to_string().repeat(n));
        }
        3 => {
            let end = boundary_after(rng, text, at, 40);
            text.replace_range(at..end, "");
        }
        4 => {
            let end = boundary_after(rng, text, at, 60);
            let copy = text[at..end].to_string();
            text.insert_str(end, &copy);
        }
        _ => {
            let c = char::from_u32(rng.below(0x3_0000) as u32).unwrap_or('\u{fffd}');
            text.insert(at, c);
        }
    }
}

fn boundary(rng: &mut Rng, text: &str) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn boundary_after(rng: &mut Rng, text: &str, at: usize, most: usize) -> usize {
    let mut end = (at + rng.below(most + 1)).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

fn truncate(text: &mut String, len: usize) {
    if text.len() > len {
        let mut end = len;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_reproducible_and_bounded() {
        let seeds = vec!["Hello, world.".to_string(), "東京".to_string()];
        let a = generate(&mut Rng::new(7, 3), &seeds);
        assert_eq!(a, generate(&mut Rng::new(7, 3), &seeds));
        for n in 0..500 {
            let mut rng = Rng::new(1, n);
            let text = generate(&mut rng, &seeds);
            assert!(text.len() <= MAX_LEN);
            assert!(edit(&mut rng, &text).len() <= MAX_LEN);
        }
    }
}
