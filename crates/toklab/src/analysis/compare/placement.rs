//! Where each gold character lies in the text: an edit-distance alignment of the two character
//! sequences. A full alignment costs the product of their lengths (a 400 KB line took 20 s),
//! so long pairs are aligned only where they differ: characters that agree are taken in step,
//! and after a difference the nearest place where both agree again for [`ANCHOR`] characters
//! closes a small window that is aligned exactly. Gold differs from its text in short places
//! (`will n't` for `won't`, normalised quotes), so that is linear in the length and finds the
//! same alignment wherever the differences are further apart than their own length; it is
//! not always minimal elsewhere, which only the edit count shows.

use crate::analysis::align::{self, Costs};

/// Pairs up to this many DP cells are aligned exactly, as a whole.
const EXACT_CELLS: usize = 1 << 22;

/// Characters both must agree on after a difference to be taken as back in step.
const ANCHOR: usize = 4;

/// How far past a difference an anchor is looked for (growing by four up to this): beyond
/// it, a window this long on both sides is aligned as it is.
const REACHES: [usize; 4] = [16, 64, 256, 1024];

/// Text positions for gold characters.
#[derive(Debug, PartialEq, Eq)]
pub struct Placement {
    /// For each gold character, the text position (character index) before it.
    pub before: Vec<usize>,
    /// For each gold character, the text position after it (= `before` when the text has no
    /// character for it).
    pub after: Vec<usize>,
    /// Character edits between the two.
    pub edits: u64,
}

/// Places the gold characters `g` on the text characters `t`.
pub fn place(g: &[u32], t: &[u32]) -> Placement {
    let mut placement = Placement {
        before: (0..g.len()).collect(),
        after: (1..=g.len()).collect(),
        edits: 0,
    };
    if g == t {
        return placement;
    }
    placement.edits = if g.len().saturating_mul(t.len()) <= EXACT_CELLS {
        align_window(g, t, 0, 0, &mut placement)
    } else {
        anchored(g, t, &mut placement)
    };
    placement
}

/// Aligns `g` with `t` exactly, the window starting at gold character `gi` and text position
/// `tj`; returns its cost.
fn align_window(g: &[u32], t: &[u32], gi: usize, tj: usize, placement: &mut Placement) -> u64 {
    let alignment = align::align(g, t, Costs::LEVENSHTEIN);
    let mut position = tj;
    for pair in &alignment.pairs {
        let next = position + usize::from(pair.b.is_some());
        if let Some(i) = pair.a {
            placement.before[gi + i] = position;
            placement.after[gi + i] = next;
        }
        position = next;
    }
    alignment.cost
}

/// Long sequences: in step where they agree, exact windows where they differ.
fn anchored(g: &[u32], t: &[u32], placement: &mut Placement) -> u64 {
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < g.len() && j < t.len() {
        if g[i] == t[j] {
            placement.before[i] = j;
            placement.after[i] = j + 1;
            i += 1;
            j += 1;
            continue;
        }
        let (a, b) = resync(&g[i..], &t[j..]);
        edits += align_window(&g[i..i + a], &t[j..j + b], i, j, placement);
        i += a;
        j += b;
    }
    // Gold characters past the end of the text have no characters there.
    for k in i..g.len() {
        placement.before[k] = j;
        placement.after[k] = j;
    }
    edits + (g.len() - i + t.len() - j) as u64
}

/// After a difference at the start of both: how many characters of each to align before they
/// agree again for [`ANCHOR`] characters (the nearest such place), or a window of the last
/// reach when there is none.
fn resync(g: &[u32], t: &[u32]) -> (usize, usize) {
    let mut reach = 0;
    for r in REACHES {
        reach = r;
        let (rg, rt) = (r.min(g.len()), r.min(t.len()));
        let mut starts: rustc_hash::FxHashMap<&[u32], usize> = Default::default();
        for b in (0..rt).filter(|b| b + ANCHOR <= t.len()) {
            starts.entry(&t[b..b + ANCHOR]).or_insert(b);
        }
        let best = (0..rg)
            .filter(|a| a + ANCHOR <= g.len())
            .filter_map(|a| starts.get(&g[a..a + ANCHOR]).map(|&b| (a + b, a, b)))
            .min();
        if let Some((_, a, b)) = best {
            return (a, b);
        }
        if rg == g.len() && rt == t.len() {
            break;
        }
    }
    (reach.min(g.len()), reach.min(t.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<u32> {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .map(u32::from)
            .collect()
    }

    #[test]
    fn anchored_windows_agree_with_the_exact_alignment_on_local_differences() {
        let gold = chars("I will n't go , he said . ").repeat(50);
        let text = chars("I won't go, he said. ").repeat(50);
        let mut exact = Placement {
            before: vec![0; gold.len()],
            after: vec![0; gold.len()],
            edits: 0,
        };
        exact.edits = align_window(&gold, &text, 0, 0, &mut exact);
        let mut windows = Placement {
            before: vec![0; gold.len()],
            after: vec![0; gold.len()],
            edits: 0,
        };
        windows.edits = anchored(&gold, &text, &mut windows);
        assert_eq!(windows.edits, exact.edits);
        assert!(windows.before.windows(2).all(|w| w[0] <= w[1]));
        assert!(windows.after.iter().all(|&p| p <= text.len()));
    }

    #[test]
    fn unrelated_or_uneven_sequences_still_place_every_character() {
        let g: Vec<u32> = (0..3000).map(|k| k % 7).collect();
        let t: Vec<u32> = (0..2000).map(|k| 100 + k % 5).collect();
        let p = place(&g, &t);
        assert_eq!(p.before.len(), g.len());
        assert!(p.before.windows(2).all(|w| w[0] <= w[1]));
        assert!(p.after.iter().all(|&x| x <= t.len()));
        assert!(p.edits >= 3000);
        let short = place(&chars("ab"), &chars("axb"));
        assert_eq!(
            (short.before, short.after, short.edits),
            (vec![0, 2], vec![1, 3], 1)
        );
    }
}
