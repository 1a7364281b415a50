//! Algorithm 2 of Jung's thesis (Target Segmentation) and the maximisation function (3.1):
//! every complete segmentation of a word over the POS vocabulary, found left to right with
//! morphemes longer than one character (a missing last character is accepted), kept as the
//! permutation tree of Figure 2, then one chosen by its score.

use std::collections::HashMap;

/// The root in (3.1). The formula writes the |s|-th root (the number of segments); the text
/// below it speaks of the s_i-th root (the segment's length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Root {
    /// The |s|-th root, as the formula is written (toklab's default).
    #[default]
    Count,
    /// The s_i-th root, as the text reads.
    Length,
}

impl Root {
    /// The name used in `?root=`.
    pub fn name(self) -> &'static str {
        match self {
            Root::Count => "count",
            Root::Length => "length",
        }
    }

    /// The root called `name`.
    pub fn from_name(name: &str) -> Option<Root> {
        match name {
            "count" => Some(Root::Count),
            "length" => Some(Root::Length),
            _ => None,
        }
    }
}

/// (3.1) for one segmentation: Σ_i ((s_i / t) ÷ |s|)^(1/r), r = |s| or s_i; lengths and t in
/// characters.
pub fn score(lengths: &[usize], root: Root) -> f64 {
    let t: usize = lengths.iter().sum();
    let k = lengths.len() as f64;
    if t == 0 {
        return 0.0;
    }
    lengths
        .iter()
        .map(|&l| {
            let r = match root {
                Root::Count => k,
                Root::Length => l as f64,
            };
            (l as f64 / t as f64 / k).powf(1.0 / r)
        })
        .sum()
}

/// The most segmentations enumerated for one word: the number grows exponentially with the
/// word's length, and a word past it is segmented over the ones found (the trace says so).
pub const MAX_SEGMENTATIONS: usize = 4096;

/// The most tree nodes grown for one word: dead ends count too, so a long word with many
/// partial matches stays bounded even when few segmentations complete.
pub const MAX_NODES: usize = 50_000;

/// Words longer than this (in characters) are not segmented: the tree of a run of letters
/// with no spaces (a pasted hash, a megabyte of one letter) would only hit the limits above,
/// and verbs are far shorter.
pub const MAX_WORD_CHARS: usize = 64;

/// The segmenter's vocabulary: segments longer than one character (Algorithm 2, line 8),
/// in the vocabulary's order, indexed by first character.
#[derive(Clone, Debug, Default)]
pub struct Morphemes {
    by_first: HashMap<char, Vec<Vec<char>>>,
}

impl Morphemes {
    /// The morphemes of a vocabulary's segments (single characters are left out).
    pub fn new<'a>(segments: impl IntoIterator<Item = &'a str>) -> Morphemes {
        let mut by_first: HashMap<char, Vec<Vec<char>>> = HashMap::new();
        for s in segments {
            let chars: Vec<char> = s.chars().collect();
            if chars.len() > 1 {
                let list = by_first.entry(chars[0]).or_default();
                if !list.contains(&chars) {
                    list.push(chars);
                }
            }
        }
        Morphemes { by_first }
    }

    fn starting(&self, rest: &[char]) -> impl Iterator<Item = &Vec<char>> {
        rest.first()
            .and_then(|c| self.by_first.get(c))
            .into_iter()
            .flatten()
            .filter(move |m| rest.starts_with(m))
    }
}

/// One node of the permutation tree: a morpheme placed at `start`, its children, and for a
/// leaf the complete segmentation it ends (an index into [`Segmentation::all`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Character offset of the morpheme in the word.
    pub start: usize,
    /// Its length in characters.
    pub len: usize,
    /// Whether it is the one character Algorithm 2 accepts at the end without a morpheme.
    pub added_last: bool,
    /// The nodes after it.
    pub children: Vec<Node>,
    /// The complete segmentation this leaf ends, if it ends one.
    pub complete: Option<usize>,
}

/// A word's segmentations: the tree, every complete segmentation with its score, and the
/// chosen one.
#[derive(Clone, Debug, PartialEq)]
pub struct Segmentation {
    /// The word's length in characters.
    pub len: usize,
    /// The first morphemes, each the root of a subtree.
    pub tree: Vec<Node>,
    /// Every complete segmentation in the order the tree finds it: segment lengths and score.
    pub all: Vec<(Vec<usize>, f64)>,
    /// The index in `all` of the highest score (the first of equals); `None` when there is no
    /// complete segmentation and the word stays whole.
    pub chosen: Option<usize>,
    /// Whether enumeration stopped at [`MAX_SEGMENTATIONS`] or [`MAX_NODES`].
    pub truncated: bool,
    /// Whether the word is longer than [`MAX_WORD_CHARS`], so it was not segmented.
    pub too_long: bool,
}

impl Segmentation {
    /// The chosen segment lengths, or the whole word.
    pub fn chosen_lengths(&self) -> Vec<usize> {
        match self.chosen {
            Some(i) => self.all[i].0.clone(),
            None => vec![self.len],
        }
    }
}

/// Segments one (lower-cased) word.
pub fn segment(word: &[char], morphemes: &Morphemes, root: Root) -> Segmentation {
    if word.len() > MAX_WORD_CHARS {
        return Segmentation {
            len: word.len(),
            tree: Vec::new(),
            all: Vec::new(),
            chosen: None,
            truncated: false,
            too_long: true,
        };
    }
    let mut grower = Grower {
        word,
        morphemes,
        path: Vec::new(),
        all: Vec::new(),
        nodes: 0,
        truncated: false,
    };
    let tree = grower.grow(0);
    let (all, truncated) = (grower.all, grower.truncated);
    let all: Vec<(Vec<usize>, f64)> = all
        .into_iter()
        .map(|lengths: Vec<usize>| {
            let s = score(&lengths, root);
            (lengths, s)
        })
        .collect();
    let mut chosen: Option<usize> = None;
    for (i, (_, s)) in all.iter().enumerate() {
        // Sums of the same lengths in another order may differ in the last bit: equal within
        // rounding counts as equal, so the first found stays.
        if chosen.is_none_or(|c| *s > all[c].1 + 1e-9) {
            chosen = Some(i);
        }
    }
    Segmentation {
        len: word.len(),
        tree,
        all,
        chosen,
        truncated,
        too_long: false,
    }
}

/// SEGMENTER's recursion state: the word, the path of segment lengths so far, and the
/// complete segmentations found.
struct Grower<'a> {
    word: &'a [char],
    morphemes: &'a Morphemes,
    path: Vec<usize>,
    all: Vec<Vec<usize>>,
    nodes: usize,
    truncated: bool,
}

impl Grower<'_> {
    /// SEGMENTER from `start`: one child per morpheme the rest starts with.
    fn grow(&mut self, start: usize) -> Vec<Node> {
        let mut nodes = Vec::new();
        let word = self.word;
        for m in self.morphemes.starting(&word[start..]) {
            if self.all.len() >= MAX_SEGMENTATIONS || self.nodes >= MAX_NODES {
                self.truncated = true;
                break;
            }
            self.nodes += 1;
            let end = start + m.len();
            self.path.push(m.len());
            let mut node = Node {
                start,
                len: m.len(),
                added_last: false,
                children: Vec::new(),
                complete: None,
            };
            match word.len() - end {
                0 => {
                    node.complete = Some(self.all.len());
                    self.all.push(self.path.clone());
                }
                // Lines 13-16: one character left is accepted as the last segment.
                1 => {
                    self.path.push(1);
                    node.children.push(Node {
                        start: end,
                        len: 1,
                        added_last: true,
                        children: Vec::new(),
                        complete: Some(self.all.len()),
                    });
                    self.all.push(self.path.clone());
                    self.path.pop();
                }
                _ => node.children = self.grow(end),
            }
            self.path.pop();
            nodes.push(node);
        }
        nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(word: &str, lengths: &[usize]) -> String {
        let chars: Vec<char> = word.chars().collect();
        let mut at = 0;
        let mut parts = Vec::new();
        for &l in lengths {
            parts.push(chars[at..at + l].iter().collect::<String>());
            at += l;
        }
        parts.join("|")
    }

    fn all(word: &str, vocab: &str) -> (Vec<String>, String) {
        let m = Morphemes::new(vocab.split(' '));
        let chars: Vec<char> = word.chars().collect();
        let s = segment(&chars, &m, Root::Count);
        let all = s.all.iter().map(|(l, _)| split(word, l)).collect();
        (all, split(word, &s.chosen_lengths()))
    }

    #[test]
    fn every_complete_segmentation_left_to_right() {
        let (segs, chosen) = all("verstehen", "ver vers steh stehen teh en st ehen e");
        assert_eq!(
            segs,
            ["ver|steh|en", "ver|stehen", "ver|st|ehen", "vers|teh|en",]
        );
        // (3.1) with the |s|-th root depends only on the lengths: the first of equals wins.
        assert_eq!(chosen, "ver|steh|en");
    }

    #[test]
    fn a_missing_last_character_is_accepted_and_no_segmentation_keeps_the_word() {
        let (segs, chosen) = all("verstehen", "ver stehe");
        assert_eq!(segs, ["ver|stehe|n"]);
        assert_eq!(chosen, "ver|stehe|n");
        // One character short of the end only: "en" is left and "e" is too short.
        let (segs, _) = all("verstehen", "ver steh e");
        assert!(segs.is_empty());
        let (segs, chosen) = all("verstehen", "ver steh");
        assert!(segs.is_empty());
        assert_eq!(chosen, "verstehen");
        let (segs, _) = all("gehen", "ge he");
        assert_eq!(segs, ["ge|he|n"]);
    }

    #[test]
    fn the_two_roots_differ() {
        // ver|steh|en: (3/9/3)^(1/3) + (4/9/3)^(1/3) + (2/9/3)^(1/3)
        let count = score(&[3, 4, 2], Root::Count);
        assert!((count - 1.4302).abs() < 1e-3, "{count}");
        let length = score(&[3, 4, 2], Root::Length);
        let expected =
            (1.0f64 / 9.0).powf(1.0 / 3.0) + (4.0f64 / 27.0).powf(0.25) + (2.0f64 / 27.0).sqrt();
        assert!((length - expected).abs() < 1e-12);
        assert_eq!(score(&[9], Root::Count), 1.0);
    }

    #[test]
    fn long_words_and_wide_trees_stay_bounded() {
        let m = Morphemes::new(["aa", "aaa"]);
        let long: Vec<char> = "a".repeat(MAX_WORD_CHARS + 1).chars().collect();
        let s = segment(&long, &m, Root::Count);
        assert!(s.too_long && s.chosen.is_none());
        let wide: Vec<char> = "a".repeat(MAX_WORD_CHARS).chars().collect();
        let s = segment(&wide, &m, Root::Count);
        assert!(s.truncated && s.all.len() <= MAX_SEGMENTATIONS);
        assert!(s.chosen.is_some());
    }
}
