//! Laying out an edited line again without segmenting all of it: only the stretch around the
//! change is split into grapheme clusters; the cells before it stay and the cells after it are
//! moved by the change's byte and column shift. Keys typed into a 100 KB line then cost the
//! interface thread work in proportion to the edit, not to the line.

use unicode_segmentation::UnicodeSegmentation;

use super::{Cell, LineLayout};

/// Bytes compared at once when looking for where two texts start to differ (slice equality is
/// a `memcmp`, far quicker than comparing byte by byte).
const CHUNK: usize = 64;

/// The length of the longest common prefix of `a` and `b`, in bytes.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let limit = a.len().min(b.len());
    let mut n = 0;
    while n + CHUNK <= limit && a[n..n + CHUNK] == b[n..n + CHUNK] {
        n += CHUNK;
    }
    n + a[n..limit]
        .iter()
        .zip(&b[n..limit])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the longest common suffix of `a` and `b`, in bytes, at most `limit`.
fn common_suffix(a: &[u8], b: &[u8], limit: usize) -> usize {
    let mut n = 0;
    while n + CHUNK <= limit
        && a[a.len() - n - CHUNK..a.len() - n] == b[b.len() - n - CHUNK..b.len() - n]
    {
        n += CHUNK;
    }
    n + a[..a.len() - n]
        .iter()
        .rev()
        .zip(b[..b.len() - n].iter().rev())
        .take(limit - n)
        .take_while(|(x, y)| x == y)
        .count()
}

/// Where an edit changed a line: what is before stayed as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Changed {
    /// The first cell that may differ from before.
    pub cell: usize,
    /// The first byte of the text that differs (on a character boundary).
    pub byte: usize,
}

impl LineLayout {
    /// Turns this layout of `old` into the layout of `new` (equal to `LineLayout::new(new)`),
    /// segmenting only from the cell before the first changed byte to the first cluster
    /// boundary after the change that the old text had too. Returns where the text and the
    /// cells start to differ: cells before `cell` are untouched.
    ///
    /// Why a shared boundary is enough: whether a cluster ends before a character depends on
    /// that character and on what precedes it only within the same cluster (combining marks,
    /// joiners, CR LF) or within a run of regional indicators, whose pairing restarts evenly
    /// at any boundary. So past a boundary both texts share, in the unchanged tail, the tail
    /// splits as it did before.
    pub fn edit(&mut self, old: &str, new: &str) -> Changed {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = common_prefix(a, b);
        while !new.is_char_boundary(prefix) {
            prefix -= 1;
        }
        if prefix == a.len() && prefix == b.len() {
            return Changed {
                cell: self.cells.len(),
                byte: prefix,
            };
        }
        let mut suffix = common_suffix(a, b, a.len().min(b.len()) - prefix);
        while !new.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        let (old_end, new_end) = (a.len() - suffix, b.len() - suffix);
        // Restart at the cell before the one holding the first changed byte: its start is a
        // boundary of both texts, whatever the change joins to the cell holding it.
        let first = self
            .cells
            .partition_point(|c| c.end <= prefix)
            .saturating_sub(1);
        let (from, mut column) = self
            .cells
            .get(first)
            .map_or((0, 0), |c| (c.start, c.column));
        let mut fresh = Vec::new();
        // The old cells from where the new segmentation meets the old one again.
        let mut rejoin = self.cells.len();
        for (offset, grapheme) in new[from..].grapheme_indices(true) {
            let start = from + offset;
            if start >= new_end {
                let old_start = start - new_end + old_end;
                let k = self.cells.partition_point(|c| c.start < old_start);
                if self.cells.get(k).is_some_and(|c| c.start == old_start) {
                    rejoin = k;
                    break;
                }
            }
            let cell = Cell::of(grapheme, start, column);
            column += cell.width;
            fresh.push(cell);
        }
        let (tail, tail_column) = match self.cells.get(rejoin) {
            Some(c) => (self.cells.len() - rejoin, c.column),
            None => (0, self.width),
        };
        self.cells.splice(first..rejoin, fresh);
        let len = self.cells.len();
        for cell in &mut self.cells[len - tail..] {
            cell.start = cell.start - old_end + new_end;
            cell.end = cell.end - old_end + new_end;
            cell.column = cell.column - tail_column + column;
        }
        self.width = self.width - tail_column + column;
        Changed {
            cell: first,
            byte: prefix,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::update_shades;
    use super::*;
    use proptest::prelude::*;
    use toklab::core::token::{Span, Token, TokenKind, Tokenization};

    /// Pieces that segmentation treats specially: combining marks, CR LF, flags (regional
    /// indicators, whose pairing depends on how many precede), emoji joined by ZWJ, a variation
    /// selector, Hangul jamo, a virama, tabs, control characters and wide characters.
    const PIECES: &[&str] = &[
        "a",
        "b",
        " ",
        "e\u{301}",
        "\u{301}",
        "\u{308}",
        "\r",
        "\n",
        "\r\n",
        "\u{1F1E9}",
        "\u{1F1EA}",
        "\u{1F1E8}",
        "\u{1F468}",
        "\u{200D}",
        "\u{1F469}",
        "\u{FE0F}",
        "\u{1100}",
        "\u{1161}",
        "\u{11A8}",
        "क",
        "\u{94D}",
        "ष",
        "\t",
        "\u{1}",
        "\u{85}",
        "語",
        "\u{200B}",
    ];

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::sample::select(PIECES), 0..40)
            .prop_map(|pieces| pieces.concat())
    }

    /// A byte offset of `s` on a character boundary, chosen by `pick`.
    fn boundary(s: &str, pick: usize) -> usize {
        let mut at = pick % (s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn an_edited_layout_equals_a_fresh_one(
            old in text(),
            inserted in text(),
            from in any::<usize>(),
            len in 0usize..12,
        ) {
            let start = boundary(&old, from);
            let end = boundary(&old, start + len).max(start);
            let mut new = old.clone();
            new.replace_range(start..end, &inserted);
            let mut layout = LineLayout::new(&old);
            let changed = layout.edit(&old, &new);
            prop_assert_eq!(&old[..changed.byte], &new[..changed.byte]);
            // The first character after the common start differs (or the texts are equal).
            prop_assert!(
                old == new
                    || old[changed.byte..].chars().next() != new[changed.byte..].chars().next()
            );
            let first = changed.cell;
            let fresh = LineLayout::new(&new);
            prop_assert_eq!(&layout, &fresh);
            let untouched = LineLayout::new(&old);
            prop_assert!(first <= untouched.cells.len());
            prop_assert_eq!(&layout.cells[..first.min(layout.cells.len())], &untouched.cells[..first.min(layout.cells.len())]);
        }
    }

    /// Tokens over `len` bytes cut at `cuts`, every third one left out (dropped text), some
    /// of them empty.
    fn tokens(len: usize, cuts: &[usize]) -> Tokenization {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
        cuts.push(len);
        cuts.sort_unstable();
        let mut start = 0;
        let mut list = Vec::new();
        for (i, &end) in cuts.iter().enumerate() {
            if i % 3 != 2 {
                list.push(Token::new(Span::new(start, end), TokenKind::Word));
            }
            start = end;
        }
        Tokenization::new(list)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        #[test]
        fn owners_and_shades_updated_after_an_edit_equal_fresh_ones(
            old in text(),
            inserted in text(),
            from in any::<usize>(),
            len in 0usize..12,
            cuts in proptest::collection::vec(any::<usize>(), 0..30),
        ) {
            let start = boundary(&old, from);
            let end = boundary(&old, start + len).max(start);
            let mut new = old.clone();
            new.replace_range(start..end, &inserted);
            // The tokens of the old text, kept while the new ones are computed.
            let tokens = tokens(old.len(), &cuts);
            let mut layout = LineLayout::new(&old);
            let mut owners = layout.owners(&tokens);
            let mut shades = super::super::shades(&owners, tokens.len());
            let first = layout.edit(&old, &new).cell;
            layout.update_owners(&tokens, &mut owners, first);
            update_shades(&owners, tokens.len(), &mut shades, first);
            let fresh = layout.owners(&tokens);
            prop_assert_eq!(&owners, &fresh);
            prop_assert_eq!(shades, super::super::shades(&fresh, tokens.len()));
        }
    }

    #[test]
    fn typing_at_the_end_keeps_the_cells_before() {
        let old = "a\u{1F1E9}\u{1F1EA}b";
        let new = "a\u{1F1E9}\u{1F1EA}bc";
        let mut layout = LineLayout::new(old);
        assert_eq!(layout.edit(old, new), Changed { cell: 2, byte: 10 });
        assert_eq!(layout, LineLayout::new(new));
        // A flag's second half typed after its first joins the cell before.
        let (old, new) = ("x\u{1F1E9}", "x\u{1F1E9}\u{1F1EA}");
        let mut layout = LineLayout::new(old);
        layout.edit(old, new);
        assert_eq!(layout.cells.len(), 2);
        assert_eq!(layout, LineLayout::new(new));
    }
}
