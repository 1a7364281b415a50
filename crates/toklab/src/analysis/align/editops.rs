//! The alignment rapidfuzz's `Levenshtein.editops` returns, choice for choice, and its edit
//! operations in rapidfuzz's terms (`replace`, `insert`, `delete` with a source and a target
//! position), so a script written against rapidfuzz can read `toklab align --format ops`.
//!
//! Among the many cheapest alignments rapidfuzz picks one by three rules this module follows:
//! the common prefix and suffix are matches; a part whose stored band of bit-vectors would
//! take a megabyte or more (and has at least 65 source and 10 target symbols) is split by
//! Hirschberg's method at the middle target symbol, in the first source position (from 1)
//! where the two halves' distances add up to the least, and each half is aligned the same way;
//! a part below is traced back from its last cell preferring a deletion, then an insertion
//! where the diagonal cell is one above the left one, then the diagonal. The
//! committed expected outputs of `tools/gen_editops_expected.py` check the choice.

use super::band::levenshtein_within;
use super::bitalign::{StoredBand, Ties, gaps, split_point};
use super::bitparallel::{PatternMatch, levenshtein};
use super::strip::first_bound;
use super::{AlignedPair, Alignment, Op, common_affixes, short};

/// Below this many bytes of stored bit-vectors (two bits per cell of the band) rapidfuzz
/// traces a part back in one piece; at or above it, it splits the part in two.
const WHOLE_BYTES: usize = 1 << 20;

/// What an edit operation does, named as rapidfuzz names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// A source symbol replaced by a different target symbol.
    Replace,
    /// A target symbol with no counterpart in the source.
    Insert,
    /// A source symbol with no counterpart in the target.
    Delete,
}

impl EditKind {
    /// rapidfuzz's tag: `replace`, `insert`, `delete`.
    pub fn name(self) -> &'static str {
        match self {
            EditKind::Replace => "replace",
            EditKind::Insert => "insert",
            EditKind::Delete => "delete",
        }
    }
}

/// One edit operation: `src` and `dest` are the positions in the source and the target where
/// it applies (for an insertion, the source position before which the symbol goes; for a
/// deletion, the target position reached), as in rapidfuzz's `Editop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EditOp {
    /// What the operation does.
    pub kind: EditKind,
    /// Position in the source.
    pub src: usize,
    /// Position in the target.
    pub dest: usize,
}

impl Alignment {
    /// The alignment's edit operations in order (matches left out), with rapidfuzz's positions.
    pub fn editops(&self) -> impl Iterator<Item = EditOp> + '_ {
        let (mut src, mut dest) = (0, 0);
        self.pairs.iter().filter_map(move |pair| {
            let kind = match pair.op {
                Op::Match => None,
                Op::Sub => Some(EditKind::Replace),
                Op::Ins => Some(EditKind::Insert),
                Op::Del => Some(EditKind::Delete),
            };
            let op = kind.map(|kind| EditOp { kind, src, dest });
            src += usize::from(pair.op != Op::Ins);
            dest += usize::from(pair.op != Op::Del);
            op
        })
    }
}

/// The Levenshtein alignment (unit costs) of `a` against `b` that rapidfuzz's
/// `Levenshtein.editops(a, b)` gives, matches included; its cost is the distance.
pub fn rapidfuzz_align(a: &[u32], b: &[u32]) -> Alignment {
    let mut aligner = RapidfuzzAligner::new();
    aligner.align(a, b);
    aligner.alignment
}

/// [`rapidfuzz_align`] for many pairs in a row: the alignment, the pattern's match table and
/// the stored band stay allocated from one pair to the next, so a run over thousands of pairs
/// neither allocates nor clears a table per pair.
#[derive(Default)]
pub struct RapidfuzzAligner {
    alignment: Alignment,
    peq: PatternMatch,
    stored: StoredBand,
}

impl RapidfuzzAligner {
    /// An aligner with nothing allocated yet.
    pub fn new() -> RapidfuzzAligner {
        RapidfuzzAligner::default()
    }

    /// The alignment [`rapidfuzz_align`] gives for `a` against `b`, held until the next call.
    pub fn align(&mut self, a: &[u32], b: &[u32]) -> &Alignment {
        let mut pairs = std::mem::take(&mut self.alignment.pairs);
        pairs.clear();
        pairs.reserve(a.len().max(b.len()));
        let distance = self.part(a, 0, b, 0, None, &mut pairs);
        self.alignment = Alignment {
            pairs,
            cost: distance as u64,
        };
        &self.alignment
    }

    /// Appends the alignment of one part: `a` from `a0` on against `b` from `b0` on, whose
    /// distance is `distance` when known; returns the distance.
    fn part(
        &mut self,
        a: &[u32],
        a0: usize,
        b: &[u32],
        b0: usize,
        distance: Option<usize>,
        out: &mut Vec<AlignedPair>,
    ) -> usize {
        let (prefix, suffix) = common_affixes(a, b);
        matches(a0, b0, prefix, out);
        let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
        let (a0, b0) = (a0 + prefix, b0 + prefix);
        let distance = if a.is_empty() || b.is_empty() {
            gaps(a.len(), b.len(), (a0, b0), out);
            a.len() + b.len()
        } else {
            match self.traced(a, (a0, b0), b, distance, out) {
                Ok(distance) => distance,
                Err(distance) => {
                    // rapidfuzz splits after at least one source symbol; when only a split
                    // before the first one is cheapest, that one is taken (any other would
                    // cost more than the distance).
                    let (row, left, right) = split_point(a, b, distance, 1)
                        .or_else(|| split_point(a, b, distance, 0))
                        .expect("the bound is the part's distance");
                    let column = b.len() / 2;
                    self.part(&a[..row], a0, &b[..column], b0, Some(left), out);
                    self.part(
                        &a[row..],
                        a0 + row,
                        &b[column..],
                        b0 + column,
                        Some(right),
                        out,
                    );
                    distance
                }
            }
        };
        matches(a0 + a.len(), b0 + b.len(), suffix, out);
        distance
    }

    /// Appends the backtrace of a part (neither side empty, starting at `origin`) and returns
    /// its distance when rapidfuzz traces it in one piece; else returns the distance to split
    /// it at, appending nothing. The values come from every whole column when a side is
    /// short, else from the band stored under the strip's bound (see `strip`), which holds the
    /// distance at once for close inputs (else the bound grows from the rate at which the band
    /// ran out, while the band it would store is one rapidfuzz traces whole).
    fn traced(
        &mut self,
        a: &[u32],
        origin: (usize, usize),
        b: &[u32],
        known: Option<usize>,
        out: &mut Vec<AlignedPair>,
    ) -> Result<usize, usize> {
        let (n, m) = (a.len(), b.len());
        if let Some((pairs, distance)) = short::backtrace(a, b, usize::MAX, Ties::Rapidfuzz) {
            if !whole(n, m, distance) {
                return Err(distance);
            }
            out.extend(pairs.into_iter().map(|pair| AlignedPair {
                op: pair.op,
                a: pair.a.map(|i| i + origin.0),
                b: pair.b.map(|j| j + origin.1),
            }));
            return Ok(distance);
        }
        let peq = &mut self.peq;
        peq.set(a);
        let ceiling = n.max(m);
        let mut bound = known.unwrap_or_else(|| first_bound(peq, a, b)).min(ceiling);
        loop {
            if !whole(n, m, bound) {
                let distance = known.unwrap_or_else(|| {
                    levenshtein_within(peq, n, b, bound).unwrap_or_else(|_| levenshtein(a, b))
                });
                if !whole(n, m, distance) {
                    return Err(distance);
                }
                bound = distance;
            }
            match self.stored.fill(peq, a, b, bound) {
                Ok(distance) if whole(n, m, distance) => {
                    self.stored
                        .trace(a, b, distance, origin, Ties::Rapidfuzz, out);
                    return Ok(distance);
                }
                Ok(distance) => return Err(distance),
                Err(next) => bound = next.min(ceiling).max(bound + 1),
            }
        }
    }
}

/// Whether rapidfuzz traces a part of `rows` × `columns` symbols at `distance` back in one
/// piece rather than splitting it.
fn whole(rows: usize, columns: usize, distance: usize) -> bool {
    let band = rows.min(distance.saturating_mul(2).saturating_add(1));
    band.saturating_mul(columns) / 4 < WHOLE_BYTES || rows < 65 || columns < 10
}

/// Appends `count` matches from `(a0, b0)` on.
fn matches(a0: usize, b0: usize, count: usize, out: &mut Vec<AlignedPair>) {
    out.extend((0..count).map(|k| AlignedPair {
        op: Op::Match,
        a: Some(a0 + k),
        b: Some(b0 + k),
    }));
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Matrix, codepoints};
    use super::*;

    /// The full matrix's backtrace under rapidfuzz's rule, for checking the banded one.
    fn by_matrix(a: &[u32], b: &[u32]) -> Vec<(EditKind, usize, usize)> {
        let matrix = Matrix::new(a, b, Costs::LEVENSHTEIN);
        let d = |i, j| matrix.value(i, j).map(|v| v as usize);
        let mut pairs = Vec::new();
        let distance = d(a.len(), b.len()).unwrap();
        super::super::bitalign::trace(a, b, distance, (0, 0), Ties::Rapidfuzz, &mut pairs, &d);
        let alignment = Alignment {
            pairs,
            cost: distance as u64,
        };
        alignment
            .editops()
            .map(|o| (o.kind, o.src, o.dest))
            .collect()
    }

    fn listed(a: &str, b: &str) -> Vec<(&'static str, usize, usize)> {
        rapidfuzz_align(&codepoints(a), &codepoints(b))
            .editops()
            .map(|o| (o.kind.name(), o.src, o.dest))
            .collect()
    }

    #[test]
    fn small_pairs_as_rapidfuzz_lists_them() {
        // Expected lists written from rapidfuzz 3.14's `Levenshtein.editops(a, b).as_list()`.
        assert_eq!(listed("ab", "ba"), [("insert", 0, 0), ("delete", 1, 2)]);
        assert_eq!(listed("aaa", "aa"), [("delete", 2, 2)]);
        assert_eq!(listed("abc", "xabc"), [("insert", 0, 0)]);
        assert_eq!(
            listed("leda", "deal"),
            [("replace", 0, 0), ("replace", 2, 2), ("replace", 3, 3)]
        );
        assert_eq!(listed("", "xy"), [("insert", 0, 0), ("insert", 0, 1)]);
        assert_eq!(listed("xy", ""), [("delete", 0, 0), ("delete", 1, 0)]);
        assert!(listed("same", "same").is_empty());
    }

    #[test]
    fn a_part_cheapest_to_split_before_its_first_symbol_is_split_there() {
        // 64,000 insertions before the source: the band is over a megabyte, so the part is
        // split at the target's middle, which the cheapest path crosses before the source's
        // first symbol. rapidfuzz 3.14 lists the insertions, then one replacement.
        let text: String = "abcdefgh".repeat(8);
        let a = codepoints(&format!("x{text}q"));
        let b = codepoints(&format!("{}x{text}r", "y".repeat(64_000)));
        let alignment = rapidfuzz_align(&a, &b);
        assert_eq!(alignment.replay(&a, &b).unwrap(), b);
        let listed: Vec<_> = alignment
            .editops()
            .map(|o| (o.kind, o.src, o.dest))
            .collect();
        let mut expected: Vec<_> = (0..64_000).map(|k| (EditKind::Insert, 0, k)).collect();
        expected.push((EditKind::Replace, 65, 64_065));
        assert_eq!(listed, expected);
    }

    #[test]
    fn one_aligner_for_many_pairs_aligns_each_as_a_fresh_one() {
        // Lengths that shrink and grow the pattern's words, symbols on both sides of 256 (the
        // flat table and the map), so rows a pair leaves behind would show in the next.
        let text: Vec<u32> = (0..900u32).map(|i| (i * 7919 + i / 5) % 300).collect();
        let mut aligner = RapidfuzzAligner::new();
        for (k, length) in [900, 130, 700, 200, 900, 140].into_iter().enumerate() {
            let a = &text[k * 3..k * 3 + length.min(900 - k * 3)];
            let mut b: Vec<u32> = a.iter().rev().copied().collect();
            b.truncate(length * 9 / 10);
            let near: Vec<u32> = a.iter().copied().filter(|&s| s % 11 != k as u32).collect();
            for target in [&b, &near] {
                let fresh = rapidfuzz_align(a, target);
                assert!(aligner.align(a, target) == &fresh, "pair {k}, {length}");
                assert_eq!(fresh.replay(a, target).unwrap(), *target);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Below the split size the banded and short backtraces take the steps the full
        /// matrix's does under the same rule, and every alignment replays at the distance.
        #[test]
        fn same_steps_as_the_full_matrix(
            a in proptest::collection::vec(0u32..4, 0..300),
            edits in proptest::collection::vec((0usize..300, 0u32..6), 0..80),
        ) {
            let b = super::super::edited(&a, &edits, 5, 4);
            let alignment = rapidfuzz_align(&a, &b);
            proptest::prop_assert_eq!(alignment.replay(&a, &b).unwrap(), b.clone());
            proptest::prop_assert_eq!(alignment.cost, levenshtein(&a, &b) as u64);
            let (prefix, suffix) = common_affixes(&a, &b);
            let (x, y) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
            let ours: Vec<_> = rapidfuzz_align(x, y).editops().map(|o| (o.kind, o.src, o.dest)).collect();
            proptest::prop_assert_eq!(ours, by_matrix(x, y));
        }
    }
}
