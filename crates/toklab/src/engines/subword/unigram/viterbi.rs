//! The one best-path search of a unigram lattice, shared by SentencePiece models, the `hf:`
//! Unigram model and the unigram trainer: one pass over the character boundaries, each piece
//! offered at a start updating the best path ending where it ends when its total is strictly
//! greater (so among equal totals the earliest start, then the shortest piece, wins).
//!
//! What the callers differ in is a parameter, not a copy: the score type (SentencePiece adds
//! `f32` totals, and which of two equal-looking paths wins on runs of one character depends on
//! that rounding; the `hf:` model and the trainer add `f64`), where the candidates come from
//! (a trie, a vocabulary lookup, a word's arcs), whether an unknown piece covers a character no
//! piece covers alone, and whether totals are shifted back to zero on long texts as
//! SentencePiece shifts them.

use std::ops::{Add, SubAssign};

/// A path total: `f32` for SentencePiece's own sums, `f64` elsewhere.
pub trait Score: Copy + Default + PartialOrd + Add<Output = Self> + SubAssign {}

impl Score for f32 {}
impl Score for f64 {}

/// A candidate piece over `start..end` of the text, with the score it adds to a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<S> {
    /// Byte offset of the start in the (normalized) text.
    pub start: usize,
    /// Byte offset of the end.
    pub end: usize,
    /// The piece id (the unknown piece for a character no piece covers).
    pub id: u32,
    /// The piece's score, its log-probability.
    pub score: S,
}

/// How a search treats what its candidates leave open.
#[derive(Clone, Copy, Debug)]
pub struct Viterbi<S> {
    /// The piece and score of a character no candidate covers alone, offered for it; `None`
    /// leaves such a text without a path.
    pub unknown: Option<(u32, S)>,
    /// Shift the totals back to zero when the one reaching a start leaves `-limit..=limit`
    /// (SentencePiece's `kScoreResetThreshold`).
    pub reset: Option<S>,
    /// Keep every node offered, for a trace or the whole lattice.
    pub record: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct BestPath<S> {
    /// The pieces of the best path, `(start, end, id)`, left to right.
    pub pieces: Vec<(usize, usize, u32)>,
    /// Its total (after any reset: the total since the last one).
    pub score: S,
    /// Every node offered, in the order offered, when [`Viterbi::record`] asked for them.
    pub nodes: Vec<Node<S>>,
}

/// The search at one start: candidates [`offer`](Search::offer) their pieces here.
pub struct Search<S> {
    /// `best[j]`: the best total of a path over `text[..j]`, its last piece and that piece's
    /// start.
    best: Vec<Option<(S, u32, usize)>>,
    here: S,
    start: usize,
    width: usize,
    single_char: bool,
    /// The furthest end any piece has reached: the totals a reset must shift.
    frontier: usize,
    /// The next start to scan: the totals of every end before it are final.
    scan: usize,
    nodes: Option<Vec<Node<S>>>,
}

impl<S: Score> Search<S> {
    /// The byte offset candidates start at.
    #[inline]
    pub fn start(&self) -> usize {
        self.start
    }

    /// The byte length of the character at the start.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// A piece of `length` bytes from the start, with its score; offered shortest first.
    #[inline]
    pub fn offer(&mut self, length: usize, id: u32, score: S) {
        self.single_char |= length == self.width;
        let total = self.here + score;
        let end = self.start + length;
        self.frontier = self.frontier.max(end);
        if let Some(nodes) = &mut self.nodes {
            nodes.push(Node {
                start: self.start,
                end,
                id,
                score,
            });
        }
        if self.best[end].is_none_or(|(b, _, _)| total > b) {
            self.best[end] = Some((total, id, self.start));
        }
    }

    /// A search over a text of `len` bytes taken up where `resume` left it.
    fn resumed(resume: &Resume<S>, len: usize, record: bool) -> Search<S> {
        let mut best = vec![None; len + 1];
        let kept = resume.best.len().min(len + 1);
        best[..kept].copy_from_slice(&resume.best[..kept]);
        Search {
            best,
            here: S::default(),
            start: 0,
            width: 0,
            single_char: false,
            frontier: kept - 1,
            scan: resume.scan,
            nodes: record.then(Vec::new),
        }
    }

    /// Scans the starts of `text` before `until` (and the character there, when `until`
    /// falls inside one).
    fn scan_to(
        &mut self,
        text: &str,
        until: usize,
        options: &Viterbi<S>,
        candidates: &mut impl FnMut(&mut Search<S>),
    ) {
        let until = until.min(text.len());
        while self.scan < until {
            let i = self.scan;
            let width = utf8_width(text.as_bytes()[i]);
            self.scan = i + width;
            let Some((mut here, _, _)) = self.best[i] else {
                continue;
            };
            if let Some(limit) = options.reset {
                let mut low = S::default();
                low -= limit;
                if !(low..=limit).contains(&here) {
                    let last = self.frontier.max(i);
                    for (total, _, _) in self.best[i..=last].iter_mut().flatten() {
                        *total -= here;
                    }
                    here = S::default();
                }
            }
            (self.here, self.start, self.width) = (here, i, width);
            self.single_char = false;
            candidates(self);
            if let Some((unk, score)) = options.unknown
                && !self.single_char
            {
                self.offer(width, unk, score);
            }
        }
    }

    /// The best path to `end` and its total, once every start before it is scanned (the
    /// nodes left to the caller).
    fn path_to(&self, end: usize) -> Option<BestPath<S>> {
        let score = self.best[end]?.0;
        let mut pieces = Vec::new();
        let mut at = end;
        while at > 0 {
            let (_, id, start) = self.best[at]?;
            pieces.push((start, at, id));
            at = start;
        }
        pieces.reverse();
        Some(BestPath {
            pieces,
            score,
            nodes: Vec::new(),
        })
    }

    /// The last offset every path the search can still extend passes through, when it is at
    /// or after `floor`: the ends reached at or after the next start (the next start itself
    /// and the ends beyond it, where the paths of every later start begin), each traced back
    /// along its best path until all meet.
    fn meeting_point(&self, floor: usize) -> Option<usize> {
        let last = self.frontier.max(self.scan).min(self.best.len() - 1);
        let mut heads: std::collections::BinaryHeap<usize> = (self.scan..=last)
            .filter(|&j| self.best[j].is_some())
            .collect();
        loop {
            let top = heads.pop()?;
            while heads.peek() == Some(&top) {
                heads.pop();
            }
            if heads.is_empty() {
                return (top >= floor).then_some(top);
            }
            if top <= floor {
                return None;
            }
            heads.push(self.best[top]?.2);
        }
    }

    /// The state a search of the text after `cut` takes up, `cut` being an offset every path
    /// the search can still extend passes through ([`Search::meeting_point`]).
    fn resume_at(&self, cut: usize) -> Resume<S> {
        let last = self.frontier.max(self.scan).min(self.best.len() - 1);
        let best = self.best[cut..=last]
            .iter()
            .enumerate()
            .map(|(k, entry)| match (k, entry) {
                (0, Some((total, _, _))) => Some((*total, u32::MAX, 0)),
                (_, Some((total, id, start))) if *start >= cut => Some((*total, *id, start - cut)),
                _ => None,
            })
            .collect();
        Resume {
            scan: self.scan - cut,
            best,
        }
    }
}

/// The byte length of the UTF-8 character that starts with `first`.
#[inline]
fn utf8_width(first: u8) -> usize {
    match first {
        0..0xE0 => 1 + usize::from(first >= 0xC0),
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

/// Where the search of a piece of a longer text takes up the search of the whole: the best
/// entries from the piece's start on (offsets into the piece), as the whole text's search had
/// them when it reached `scan`. At a cut no piece spans that is just the total at the cut; at
/// a cut found by [`find_cut`] it is also the ends already reached past the cut, so the
/// piece's search goes on with exactly the sums (and SentencePiece's resets) the whole text's
/// search makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Resume<S> {
    scan: usize,
    best: Vec<Option<(S, u32, usize)>>,
}

impl<S: Score> Resume<S> {
    /// A text's search, or the search after a cut no piece spans, where the paths start at
    /// `total`.
    pub fn at(total: S) -> Resume<S> {
        Resume {
            scan: 0,
            best: vec![Some((total, u32::MAX, 0))],
        }
    }
}

/// The best path over `text`, `candidates` offering the pieces at each reached start; `None`
/// when the end of the text cannot be reached (no unknown piece, and a character no piece
/// covers).
pub fn best_path<S: Score>(
    text: &str,
    options: &Viterbi<S>,
    candidates: impl FnMut(&mut Search<S>),
) -> Option<BestPath<S>> {
    best_path_from(S::default(), text, options, candidates)
}

/// [`best_path`] with the paths starting at the total `from` rather than zero: the rest of a
/// longer text after a point every path passes through (no piece spans it), searched on its
/// own with the total the whole text's search had there, which makes the same sums, so the
/// same choices and the same totals, bit for bit, as searching the whole text.
pub fn best_path_from<S: Score>(
    from: S,
    text: &str,
    options: &Viterbi<S>,
    candidates: impl FnMut(&mut Search<S>),
) -> Option<BestPath<S>> {
    best_path_resumed(&Resume::at(from), text, options, candidates)
}

/// [`best_path`] of a piece of a longer text, its search taken up where `resume` says the
/// whole text's search was at the piece's start: the piece's part of the whole text's best
/// path, when the piece ends where [`find_cut`] or a cut no piece spans put its end.
pub fn best_path_resumed<S: Score>(
    resume: &Resume<S>,
    text: &str,
    options: &Viterbi<S>,
    mut candidates: impl FnMut(&mut Search<S>),
) -> Option<BestPath<S>> {
    let mut search = Search::resumed(resume, text.len(), options.record);
    search.scan_to(text, text.len(), options, &mut candidates);
    let mut path = search.path_to(text.len())?;
    path.nodes = search.nodes.take().unwrap_or_default();
    Some(path)
}

/// Where a long text may be cut after `from` without changing its best path: the search
/// (taken up from `resume`) runs on, and every so often the ends it can still extend are
/// traced back; where all their best paths meet, every later path passes through, so the
/// whole text's best path does too, and the search of the rest taken up from the returned
/// [`Resume`] makes the same sums and choices as the whole text's. The first such offset at
/// or after `from` that `accept` allows, given the offset and the id of the best path's piece
/// ending there (the caller's own conditions: a normalizer's step boundary, no unknown piece
/// that the one after it would be fused with), is returned. Only starts up to `trusted` are scanned: past it the caller's
/// text may differ from the whole text's (a window cut short). `None` when the paths do not
/// meet there.
pub fn find_cut<S: Score>(
    resume: &Resume<S>,
    text: &str,
    options: &Viterbi<S>,
    mut candidates: impl FnMut(&mut Search<S>),
    from: usize,
    trusted: usize,
    accept: impl Fn(usize, u32) -> bool,
) -> Option<(usize, Resume<S>)> {
    let trusted = trusted.min(text.len());
    let mut search = Search::resumed(resume, text.len(), false);
    let mut check = from.max(search.scan);
    while search.scan < trusted {
        search.scan_to(text, check.min(trusted), options, &mut candidates);
        let mut at = search.meeting_point(from.max(1));
        while let Some(point) = at.filter(|&p| p >= from.max(1)) {
            let id = search.best[point].map_or(u32::MAX, |(_, id, _)| id);
            if accept(point, id) {
                return Some((point, search.resume_at(point)));
            }
            at = search.best[point].map(|(_, _, start)| start);
        }
        // Checks are close together near `from`, where paths usually meet within a few
        // characters, and further apart past it, so a text where they do not meet costs
        // a few walks back over what was scanned, not one per character.
        check = search.scan + CHECK_EVERY.max(search.scan.saturating_sub(from) / 2);
    }
    None
}

/// The fewest bytes scanned between two looks for where the paths meet.
const CHECK_EVERY: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    /// Offers the pieces of `vocab` (text, score) found at the start, shortest first.
    fn offering(text: &str, vocab: &[(&str, f64)]) -> impl FnMut(&mut Search<f64>) {
        let text = text.to_string();
        let mut sorted: Vec<(usize, (String, f64))> = vocab
            .iter()
            .enumerate()
            .map(|(id, (p, s))| (id, (p.to_string(), *s)))
            .collect();
        sorted.sort_by_key(|(_, (p, _))| p.len());
        move |search| {
            for (id, (piece, score)) in &sorted {
                if text[search.start()..].starts_with(piece.as_str()) {
                    search.offer(piece.len(), *id as u32, *score);
                }
            }
        }
    }

    const PLAIN: Viterbi<f64> = Viterbi {
        unknown: None,
        reset: None,
        record: false,
    };

    #[test]
    fn highest_total_wins_and_ties_keep_the_earliest_start() {
        let vocab = [("a", -1.0), ("b", -1.0), ("ab", -2.5), ("abb", -2.0)];
        let path = best_path("abb", &PLAIN, offering("abb", &vocab)).unwrap();
        assert_eq!(path.pieces, [(0, 3, 3)]);
        // `a`+`b` (-2) against `ab` (-2.5): the two pieces win.
        let path = best_path("ab", &PLAIN, offering("ab", &vocab)).unwrap();
        assert_eq!(path.pieces, [(0, 1, 0), (1, 2, 1)]);
        assert_eq!(path.score, -2.0);
        // Three paths of -3 over `aab`: the end is kept by `ab` from byte 1, offered before `b`
        // from byte 2; byte 2 by `aa` from byte 0, offered before `a` from byte 1.
        let tie = [("a", -1.0), ("aa", -2.0), ("ab", -2.0), ("b", -1.0)];
        let path = best_path("aab", &PLAIN, offering("aab", &tie)).unwrap();
        assert_eq!(path.pieces, [(0, 1, 0), (1, 3, 2)]);
    }

    #[test]
    fn the_unknown_piece_fills_what_no_piece_covers_and_nodes_are_kept() {
        let vocab = [("a", -1.0)];
        assert_eq!(best_path("aé", &PLAIN, offering("aé", &vocab)), None);
        let options = Viterbi {
            unknown: Some((9, -20.0)),
            reset: None,
            record: true,
        };
        let path = best_path("aé", &options, offering("aé", &vocab)).unwrap();
        assert_eq!(path.pieces, [(0, 1, 0), (1, 3, 9)]);
        assert_eq!(path.nodes.len(), 2);
        assert_eq!(path.score, -21.0);
    }

    #[test]
    fn a_reset_shifts_the_totals_without_changing_the_path() {
        let vocab = [("a", -60_000.0), ("aa", -130_000.0)];
        let text = "aaaaaa";
        let plain = best_path(text, &PLAIN, offering(text, &vocab)).unwrap();
        let options = Viterbi {
            unknown: None,
            reset: Some(100_000.0),
            record: false,
        };
        let shifted = best_path(text, &options, offering(text, &vocab)).unwrap();
        assert_eq!(plain.pieces, shifted.pieces);
        assert_eq!(plain.score, -360_000.0);
        assert!(shifted.score > -200_000.0, "{}", shifted.score);
    }

    /// Cuts `text` at every meeting point `find_cut` finds (from one byte past the last cut),
    /// searching each piece from the state the cut left: the pieces' paths, shifted, and the
    /// last total are the whole text's.
    fn in_pieces(text: &str, vocab: &[(&str, f64)], options: &Viterbi<f64>) -> BestPath<f64> {
        let (mut resume, mut at) = (Resume::at(0.0), 0);
        let mut path = BestPath {
            pieces: Vec::new(),
            score: 0.0,
            nodes: Vec::new(),
        };
        loop {
            let rest = &text[at..];
            let cut = find_cut(
                &resume,
                rest,
                options,
                offering(rest, vocab),
                1,
                rest.len(),
                |_, _| true,
            );
            let end = cut.as_ref().map_or(rest.len(), |(cut, _)| *cut);
            let piece = &rest[..end];
            let found = best_path_resumed(&resume, piece, options, offering(piece, vocab)).unwrap();
            path.pieces
                .extend(found.pieces.iter().map(|&(s, e, id)| (s + at, e + at, id)));
            path.score = found.score;
            match cut {
                Some((cut, next)) => (resume, at) = (next, at + cut),
                None => return path,
            }
        }
    }

    #[test]
    fn a_text_cut_where_the_paths_meet_has_the_whole_texts_path() {
        let vocab = [
            ("a", -60_000.1),
            ("b", -41_000.7),
            ("ab", -101_000.3),
            ("ba", -100_999.9),
            ("aab", -150_000.2),
            ("bb", -82_001.5),
        ];
        let options = Viterbi {
            unknown: Some((9, -200_000.0)),
            reset: Some(100_000.0),
            record: false,
        };
        let mut state: u32 = 11;
        for length in 1..120 {
            let text: String = (0..length)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ['a', 'b', 'c'][(state >> 16) as usize % 3]
                })
                .collect();
            let whole = best_path(&text, &options, offering(&text, &vocab)).unwrap();
            let pieces = in_pieces(&text, &vocab, &options);
            assert_eq!(pieces.pieces, whole.pieces, "{text}");
            assert_eq!(pieces.score.to_bits(), whole.score.to_bits(), "{text}");
        }
    }
}
