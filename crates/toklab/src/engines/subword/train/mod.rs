//! BPE training (Jurafsky §2.4.1, Sennrich et al.): start from single symbols, repeatedly merge
//! the most frequent adjacent pair inside words. Pair counts are kept up to date incrementally
//! (only the neighbours of each merge site change), never recounted, so 8k merges over 10 MB
//! take seconds. Every occurrence of a pair is indexed by its word and position, and a word's
//! symbols are a linked list over their first positions, so a merge costs the occurrences it
//! merges, not the length of the words they are in (with `Pretok::None` a line is one word). The trainer can be stepped one merge at a time for the workbench's training
//! view, and every merge is logged with its pair, count and new token.
//!
//! Tie-breaking: of the pairs with the highest count, the one that occurs first when the words
//! are read in order of descending count (words of equal count in order of first appearance
//! in the corpus), leftmost within the word. On the textbook corpus
//! `set new new renew reset renew` this gives the book's order: ne, new, ␣r, ␣re, ␣new,
//! ␣renew, se, set.

mod gpt2;
mod trained;
pub mod unigram;

pub use gpt2::{Written, write_gpt2, write_gpt2_named};
pub use trained::{END_OF_WORD, TrainedTokenizer, pre_tokens};

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::engines::simple::Matcher;
use crate::engines::subword::formal::{Dictionary, Rule, SymbolUnit, symbol_ends};
use crate::engines::subword::pretok::Gpt2Matcher;

/// How the corpus is cut into words before training; merges never cross a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pretok {
    /// GPT-2's pre-tokenizer (words carry their leading space).
    Gpt2,
    /// No pre-tokenization: each line (without its terminator) is one word.
    None,
    /// The textbook's convention (Jurafsky & Martin §2.4, earlier editions): words are the
    /// runs of non-whitespace, each followed by the end-of-word marker [`END_OF_WORD`], so a
    /// merge can tell a word's last letters (`w_`) from the same letters inside it.
    Textbook,
}

/// One distinct word of the corpus and its current segmentation.
#[derive(Clone, Debug)]
pub struct Word {
    /// The word's bytes.
    pub text: Vec<u8>,
    /// How often it occurs in the corpus.
    pub count: u64,
    /// Token ids of the current segmentation (see [`Trainer::token`]).
    pub symbols: Vec<u32>,
}

/// One merge of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeRecord {
    /// 0-based: the rule's rank.
    pub rank: u32,
    /// Token id of the left side.
    pub left: u32,
    /// Token id of the right side.
    pub right: u32,
    /// Token id of the merged token.
    pub new: u32,
    /// How often the pair occurred (weighted by word counts) when it was chosen.
    pub count: u64,
}

/// A pair and its current count, for the training view's bar chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairCount {
    /// Token id of the left symbol.
    pub left: u32,
    /// Token id of the right symbol.
    pub right: u32,
    /// Occurrences, weighted by word counts.
    pub count: u64,
}

/// Progress of a training run, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Merges made so far.
    pub done: usize,
    /// Merges asked for.
    pub total: usize,
}

type Pair = (u32, u32);
/// Heap order: highest count, then earliest first occurrence (word, symbol position: positions
/// grow with byte offsets, so this is the first occurrence in the text).
type Entry = (u64, Reverse<(u32, u32)>, Reverse<Pair>);

/// No symbol: a position merged into the symbol on its left, or the end of a word.
const NONE: u32 = u32::MAX;

/// A word's current segmentation as a linked list over the positions of its initial symbols:
/// the symbol starting at each position (or [`NONE`] for a position merged away) and the next
/// and previous live positions, so a merge rewrites only its own two positions.
#[derive(Clone, Debug)]
struct Links {
    symbol: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl Links {
    fn new(symbols: &[u32]) -> Links {
        let n = symbols.len() as u32;
        Links {
            symbol: symbols.to_vec(),
            next: (1..=n).map(|i| if i == n { NONE } else { i }).collect(),
            prev: (0..n).map(|i| i.checked_sub(1).unwrap_or(NONE)).collect(),
        }
    }

    /// The symbols in order.
    fn symbols(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = if self.symbol.is_empty() { NONE } else { 0 };
        while at != NONE {
            out.push(self.symbol[at as usize]);
            at = self.next[at as usize];
        }
        out
    }

    /// The pair starting at position `at`, if `at` is live and has a right neighbour.
    fn pair_at(&self, at: u32) -> Option<Pair> {
        let left = *self.symbol.get(at as usize)?;
        let next = self.next[at as usize];
        (left != NONE && next != NONE).then(|| (left, self.symbol[next as usize]))
    }
}

/// A BPE trainer over a corpus, steppable one merge at a time.
pub struct Trainer {
    unit: SymbolUnit,
    pretok: Pretok,
    words: Vec<Word>,
    tokens: Vec<Vec<u8>>,
    /// Token bytes → id: a merge that makes a string already made reuses its id.
    ids: FxHashMap<Vec<u8>, u32>,
    /// The initial symbols (ids `0..base`), sorted.
    base: usize,
    counts: FxHashMap<Pair, i64>,
    /// Every occurrence of each pair: (word, position of its left symbol), kept exact.
    places: FxHashMap<Pair, BTreeSet<(u32, u32)>>,
    /// Each word's segmentation as a linked list (`Word::symbols` is brought up to date from
    /// it after each `step`, and once at the end of `train`).
    links: Vec<Links>,
    heap: BinaryHeap<Entry>,
    merges: Vec<MergeRecord>,
}

impl Trainer {
    /// Counts the words of `corpus` and starts from single symbols (bytes or characters).
    pub fn new<'c>(corpus: &'c str, unit: SymbolUnit, pretok: Pretok) -> Trainer {
        let mut seen: FxHashMap<Cow<'c, [u8]>, (u64, usize)> = FxHashMap::default();
        let mut add = |piece: Cow<'c, [u8]>| {
            let order = seen.len();
            seen.entry(piece).or_insert((0, order)).0 += 1;
        };
        match pretok {
            Pretok::Gpt2 => Gpt2Matcher.find(corpus, &mut |span, _| {
                add(Cow::Borrowed(span.slice(corpus).as_bytes()));
            }),
            Pretok::None => corpus
                .lines()
                .filter(|l| !l.is_empty())
                .for_each(|l| add(Cow::Borrowed(l.as_bytes()))),
            Pretok::Textbook => pre_tokens(pretok, corpus)
                .into_iter()
                .for_each(|(_, w)| add(Cow::Owned(w))),
        }
        let mut distinct: Vec<(Cow<[u8]>, u64, usize)> =
            seen.into_iter().map(|(w, (c, o))| (w, c, o)).collect();
        distinct.sort_by_key(|&(_, count, order)| (Reverse(count), order));
        // The alphabet, sorted, gets the first ids.
        let mut alphabet: Vec<&[u8]> = Vec::new();
        for (w, ..) in &distinct {
            let mut at = 0;
            for e in symbol_ends(unit, w) {
                alphabet.push(&w[at..e]);
                at = e;
            }
        }
        alphabet.sort_unstable();
        alphabet.dedup();
        let tokens: Vec<Vec<u8>> = alphabet.iter().map(|s| s.to_vec()).collect();
        let ids: FxHashMap<&[u8], u32> = alphabet
            .iter()
            .enumerate()
            .map(|(i, s)| (*s, i as u32))
            .collect();
        let words: Vec<Word> = distinct
            .iter()
            .map(|(w, count, _)| {
                let (w, count) = (w.as_ref(), *count);
                let mut at = 0;
                let symbols = symbol_ends(unit, w)
                    .into_iter()
                    .map(|e| {
                        let id = ids[&w[at..e]];
                        at = e;
                        id
                    })
                    .collect();
                Word {
                    text: w.to_vec(),
                    count,
                    symbols,
                }
            })
            .collect();
        let mut trainer = Trainer {
            unit,
            pretok,
            base: tokens.len(),
            ids: tokens
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), i as u32))
                .collect(),
            words,
            tokens,
            counts: FxHashMap::default(),
            places: FxHashMap::default(),
            links: Vec::new(),
            heap: BinaryHeap::new(),
            merges: Vec::new(),
        };
        trainer.links = trainer
            .words
            .iter()
            .map(|w| Links::new(&w.symbols))
            .collect();
        for (index, word) in trainer.words.iter().enumerate() {
            for (at, pair) in word.symbols.windows(2).enumerate() {
                let pair = (pair[0], pair[1]);
                *trainer.counts.entry(pair).or_insert(0) += word.count as i64;
                trainer
                    .places
                    .entry(pair)
                    .or_default()
                    .insert((index as u32, at as u32));
            }
        }
        let pairs: Vec<Pair> = trainer.counts.keys().copied().collect();
        for pair in pairs {
            trainer.push(pair);
        }
        trainer
    }

    /// Whether the trainer merges bytes or characters.
    pub fn unit(&self) -> SymbolUnit {
        self.unit
    }

    /// How the corpus was cut into words (a tokenizer of the merges must cut the same way).
    pub fn pretok(&self) -> Pretok {
        self.pretok
    }

    /// The distinct words, most frequent first, with their current segmentation.
    pub fn words(&self) -> &[Word] {
        &self.words
    }

    /// The bytes of token `id`.
    pub fn token(&self, id: u32) -> &[u8] {
        &self.tokens[id as usize]
    }

    /// The initial symbols (`0..base` are their ids).
    pub fn alphabet(&self) -> &[Vec<u8>] {
        &self.tokens[..self.base]
    }

    /// Every token: the alphabet, then one per merge (fewer when two merges make one string).
    pub fn tokens(&self) -> &[Vec<u8>] {
        &self.tokens
    }

    /// The merges so far (the log).
    pub fn merges(&self) -> &[MergeRecord] {
        &self.merges
    }

    /// The merges as a dictionary, to encode with what was learned.
    pub fn dictionary(&self) -> Dictionary {
        let rules = self
            .merges
            .iter()
            .map(|m| Rule::new(self.token(m.left), self.token(m.right), m.rank))
            .collect();
        Dictionary::new(self.unit, rules).expect("trained merges form a dictionary")
    }

    /// The first occurrence of `pair` in word order: (word, position).
    fn first_place(&self, pair: Pair) -> Option<(u32, u32)> {
        self.places.get(&pair)?.first().copied()
    }

    fn push(&mut self, pair: Pair) {
        let count = self.counts.get(&pair).copied().unwrap_or(0);
        if count <= 0 {
            return;
        }
        if let Some(place) = self.first_place(pair) {
            self.heap
                .push((count as u64, Reverse(place), Reverse(pair)));
        }
    }

    /// The pair the next step will merge and its count, without merging.
    pub fn peek(&mut self) -> Option<PairCount> {
        loop {
            let &(count, Reverse(place), Reverse(pair)) = self.heap.peek()?;
            let current = self.counts.get(&pair).copied().unwrap_or(0);
            if current > 0 && current as u64 == count && self.first_place(pair) == Some(place) {
                return Some(PairCount {
                    left: pair.0,
                    right: pair.1,
                    count,
                });
            }
            self.heap.pop();
            if current > 0 {
                self.push(pair);
            }
        }
    }

    /// Makes one merge; `None` when no pair is left.
    pub fn step(&mut self) -> Option<MergeRecord> {
        self.merge_next(true)
    }

    /// Makes one merge; `sync` brings the merged words' `symbols` up to date (a run of
    /// merges does that once at the end: it costs the words' length).
    fn merge_next(&mut self, sync: bool) -> Option<MergeRecord> {
        let best = self.peek()?;
        self.heap.pop();
        let pair = (best.left, best.right);
        let merged = [self.token(pair.0), self.token(pair.1)].concat();
        let new = match self.ids.get(&merged) {
            Some(&id) => id,
            None => {
                let id = self.tokens.len() as u32;
                self.ids.insert(merged.clone(), id);
                self.tokens.push(merged);
                id
            }
        };
        let record = MergeRecord {
            rank: self.merges.len() as u32,
            left: pair.0,
            right: pair.1,
            new,
            count: best.count,
        };
        let places = self.places.remove(&pair).unwrap_or_default();
        let mut touched: FxHashSet<Pair> = FxHashSet::default();
        let mut words: Vec<u32> = Vec::new();
        for (w, at) in places {
            // An earlier merge in this run may have used this occurrence's left symbol
            // (`a a a`: the second pair's `a` went into the first `aa`).
            if self.links[w as usize].pair_at(at) == Some(pair) {
                self.merge_at(w, at, new, &mut touched);
                if words.last() != Some(&w) {
                    words.push(w);
                }
            }
        }
        self.counts.remove(&pair);
        self.places.remove(&pair);
        if sync {
            for w in words {
                self.words[w as usize].symbols = self.links[w as usize].symbols();
            }
        }
        // Pairs that gained occurrences get a fresh heap entry; the rest only lost some, and
        // their stale entries are corrected when they reach the top.
        for p in touched {
            self.push(p);
        }
        self.merges.push(record.clone());
        Some(record)
    }

    /// Merges the pair at position `at` of word `w` into `new`, moving the two neighbouring
    /// pairs' counts and occurrences.
    fn merge_at(&mut self, w: u32, at: u32, new: u32, touched: &mut FxHashSet<Pair>) {
        let weight = self.words[w as usize].count as i64;
        let links = &mut self.links[w as usize];
        let (left, right_at) = (links.symbol[at as usize], links.next[at as usize]);
        let right = links.symbol[right_at as usize];
        let before = links.prev[at as usize];
        let after = links.next[right_at as usize];
        let mut changes: Vec<(Pair, u32, i64)> = Vec::with_capacity(4);
        if before != NONE {
            let b = links.symbol[before as usize];
            changes.push(((b, left), before, -weight));
            changes.push(((b, new), before, weight));
        }
        if after != NONE {
            let a = links.symbol[after as usize];
            changes.push(((right, a), right_at, -weight));
            changes.push(((new, a), at, weight));
            links.prev[after as usize] = at;
        }
        links.symbol[at as usize] = new;
        links.next[at as usize] = after;
        links.symbol[right_at as usize] = NONE;
        for (p, place, delta) in changes {
            *self.counts.entry(p).or_insert(0) += delta;
            let places = self.places.entry(p).or_default();
            if delta > 0 {
                places.insert((w, place));
                touched.insert(p);
            } else {
                places.remove(&(w, place));
            }
        }
    }

    /// Runs `merges` steps (or until no pair is left), reporting progress.
    pub fn train(&mut self, merges: usize, progress: &mut dyn FnMut(Progress)) {
        let every = (merges / 100).max(1);
        for done in 0..merges {
            if self.merge_next(false).is_none() {
                break;
            }
            if (done + 1) % every == 0 || done + 1 == merges {
                progress(Progress {
                    done: done + 1,
                    total: merges,
                });
            }
        }
        for (word, links) in self.words.iter_mut().zip(&self.links) {
            word.symbols = links.symbols();
        }
    }

    /// The current pair counts, in the order the trainer would choose them, at most `top`.
    pub fn pair_counts(&mut self, top: usize) -> Vec<PairCount> {
        let mut all: Vec<(Pair, i64)> = self
            .counts
            .iter()
            .filter(|&(_, &c)| c > 0)
            .map(|(&p, &c)| (p, c))
            .collect();
        all.sort_by_key(|&(p, c)| (Reverse(c), p));
        all.truncate(top.saturating_mul(4).max(top));
        let mut keyed: Vec<(PairCount, Option<(u32, u32)>)> = all
            .into_iter()
            .map(|((l, r), c)| {
                let place = self.first_place((l, r));
                let pc = PairCount {
                    left: l,
                    right: r,
                    count: c as u64,
                };
                (pc, place)
            })
            .collect();
        keyed.sort_by_key(|(pc, place)| (Reverse(pc.count), *place));
        keyed.into_iter().take(top).map(|(pc, _)| pc).collect()
    }
}

/// Shows a token for logs: spaces as `␣`, other invisible characters escaped.
pub fn show_token(bytes: &[u8]) -> String {
    Dictionary::show(bytes).replace(' ', "␣")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(t: &Trainer) -> Vec<String> {
        t.merges()
            .iter()
            .map(|m| show_token(t.token(m.new)))
            .collect()
    }

    #[test]
    fn textbook_corpus() {
        let mut t = Trainer::new(
            "set new new renew reset renew",
            SymbolUnit::Char,
            Pretok::Gpt2,
        );
        assert_eq!(t.words().len(), 4);
        assert_eq!(show_token(&t.words()[0].text), "␣new");
        assert_eq!(t.alphabet().len(), 7);
        t.train(8, &mut |_| {});
        assert_eq!(
            merged(&t),
            ["ne", "new", "␣r", "␣re", "␣new", "␣renew", "se", "set"]
        );
        let counts: Vec<u64> = t.merges().iter().map(|m| m.count).collect();
        assert_eq!(counts, [4, 4, 3, 3, 2, 2, 2, 2]);
    }

    #[test]
    fn stepping_shows_counts_and_segmentation() {
        let mut t = Trainer::new(
            "set new new renew reset renew",
            SymbolUnit::Char,
            Pretok::Gpt2,
        );
        let top = t.pair_counts(3);
        assert_eq!(
            (
                show_token(t.token(top[0].left)),
                show_token(t.token(top[0].right)),
                top[0].count
            ),
            ("n".into(), "e".into(), 4)
        );
        assert_eq!(t.peek().map(|p| p.count), Some(4));
        t.step();
        let renew = &t.words()[1];
        let shown: Vec<String> = renew
            .symbols
            .iter()
            .map(|&s| show_token(t.token(s)))
            .collect();
        assert_eq!(shown, ["␣", "r", "e", "ne", "w"]);
    }

    #[test]
    fn progress_reaches_the_total() {
        let mut t = Trainer::new(
            "set new new renew reset renew",
            SymbolUnit::Byte,
            Pretok::Gpt2,
        );
        let mut seen = Vec::new();
        t.train(4, &mut |p| seen.push(p));
        assert_eq!(seen.last(), Some(&Progress { done: 4, total: 4 }));
        assert_eq!(seen.len(), 4);
    }

    #[test]
    fn overlapping_pairs_and_exhaustion() {
        let mut t = Trainer::new("aaaa", SymbolUnit::Char, Pretok::None);
        assert_eq!(t.peek().map(|p| p.count), Some(3));
        t.train(10, &mut |_| {});
        assert_eq!(merged(&t), ["aa", "aaaa"]);
        assert!(t.step().is_none());
    }
}
