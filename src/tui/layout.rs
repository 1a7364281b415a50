//! Laying out the current line as terminal cells: one cell per grapheme cluster, at a display
//! column that is the same in every row, so the same character stands in the same column
//! whichever tokenizer's row it is in.

use unicode_segmentation::UnicodeSegmentation;

use toklab::core::token::Tokenization;

mod edit;
pub use edit::Changed;

/// One grapheme cluster of the line and where it is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Byte range of the grapheme in the line.
    pub start: usize,
    pub end: usize,
    /// Display column of its first terminal cell.
    pub column: usize,
    pub width: usize,
    /// A visible stand-in for tabs, control characters and zero-width clusters; `None` draws
    /// the grapheme itself (most cells: no allocation per cell on long lines).
    pub stand_in: Option<String>,
    pub is_space: bool,
}

/// The cells of one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineLayout {
    pub cells: Vec<Cell>,
    pub width: usize,
}

impl LineLayout {
    pub fn new(text: &str) -> LineLayout {
        let mut cells = Vec::new();
        let mut column = 0;
        for (start, grapheme) in text.grapheme_indices(true) {
            let cell = Cell::of(grapheme, start, column);
            column += cell.width;
            cells.push(cell);
        }
        LineLayout {
            cells,
            width: column,
        }
    }

    /// The index of the cell holding byte `byte` (the last cell if past the end).
    pub fn cell_at_byte(&self, byte: usize) -> usize {
        self.cells
            .partition_point(|c| c.end <= byte)
            .min(self.cells.len().saturating_sub(1))
    }

    /// The display column where byte `byte` is drawn.
    pub fn column_of_byte(&self, byte: usize) -> usize {
        match self.cells.get(self.cell_at_byte(byte)) {
            Some(cell) if byte < cell.end => cell.column,
            _ => self.width,
        }
    }

    /// The cell drawn at display column `column`, if any.
    pub fn cell_at_column(&self, column: usize) -> Option<usize> {
        let i = self.cells.partition_point(|c| c.column + c.width <= column);
        (i < self.cells.len()).then_some(i)
    }

    /// For each cell, the index of the token that covers its first byte, or `None` where the
    /// tokenizer dropped the text.
    pub fn owners(&self, tokens: &Tokenization) -> Vec<Option<usize>> {
        let mut owners = Vec::new();
        self.update_owners(tokens, &mut owners, 0);
        owners
    }

    /// Brings `owners` (of these `tokens` over this layout up to cell `from`, as `owners`
    /// computes them) up to date from cell `from` on, reusing its buffer: after an edit that
    /// kept the tokens, only the cells the edit moved are looked at again.
    pub fn update_owners(
        &self,
        tokens: &Tokenization,
        owners: &mut Vec<Option<usize>>,
        from: usize,
    ) {
        let from = from.min(owners.len()).min(self.cells.len());
        owners.truncate(from);
        // The scan below only moves forward: resuming at the last owner before `from` finds
        // what a scan from the first cell would.
        let mut t = owners.iter().rev().flatten().next().copied().unwrap_or(0);
        for cell in &self.cells[from..] {
            while t < tokens.tokens.len() && tokens.tokens[t].span.end <= cell.start {
                t += 1;
            }
            let covered = tokens
                .tokens
                .get(t)
                .is_some_and(|tok| tok.span.start < cell.end);
            owners.push(covered.then_some(t));
        }
    }
}

/// For each of `count` tokens, its colour (0 or 1) given the cells they own (`owners`): the
/// colour changes from one token shown to the next, counting only tokens that own a cell.
pub fn shades(owners: &[Option<usize>], count: usize) -> Vec<usize> {
    let mut shades = Vec::new();
    update_shades(owners, count, &mut shades, 0);
    shades
}

/// Brings `shades` up to date after `owners` changed from cell `from` on (the tokens being
/// the same unless `from` is 0), reusing its buffer: tokens owning a cell before `from` keep
/// their colour, and the alternation resumes from the last of them.
pub fn update_shades(owners: &[Option<usize>], count: usize, shades: &mut Vec<usize>, from: usize) {
    let from = from.min(owners.len());
    let mut last = owners[..from].iter().rev().flatten().next().copied();
    let mut shown = last.and_then(|l| shades.get(l)).map_or(0, |&s| s + 1);
    shades.resize(count, 0);
    let unseen = last.map_or(0, |l| l + 1).min(count);
    shades[unseen..].fill(0);
    for &owner in owners[from..].iter().flatten() {
        if last != Some(owner) {
            if let Some(shade) = shades.get_mut(owner) {
                *shade = shown % 2;
            }
            shown += 1;
            last = Some(owner);
        }
    }
}

/// Whether `text` has characters whose display width terminals do not agree on: regional
/// indicators (flags), zero-width joiners (emoji sequences) and emoji variation selectors.
pub fn has_unsteady_width(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{1F1E6}'..='\u{1F1FF}' | '\u{200D}' | '\u{FE0F}'))
}

impl Cell {
    /// The cell of `grapheme`, found at byte `start` of the line and drawn from `column`.
    fn of(grapheme: &str, start: usize, column: usize) -> Cell {
        let stand_in = stand_in(grapheme);
        Cell {
            start,
            end: start + grapheme.len(),
            column,
            width: crate::tui::width::of(stand_in.as_deref().unwrap_or(grapheme)).max(1),
            is_space: grapheme.chars().all(char::is_whitespace),
            stand_in,
        }
    }

    /// What to draw for this cell of `line` (the text the layout was made of).
    pub fn symbol<'a>(&'a self, line: &'a str) -> &'a str {
        self.stand_in
            .as_deref()
            .unwrap_or_else(|| line.get(self.start..self.end).unwrap_or("�"))
    }
}

/// The stand-in a grapheme needs to be seen: tabs and control characters get one so no
/// character is invisible or moves the cursor; zero-width clusters get a dotted circle.
pub(crate) fn stand_in(grapheme: &str) -> Option<String> {
    Some(match grapheme {
        "\t" => "→".to_string(),
        g if g.chars().any(toklab::core::display::is_terminal_control) => {
            toklab::core::display::terminal_safe(g, toklab::core::display::Keep::Nothing)
                .into_owned()
        }
        g if crate::tui::width::of(g) == 0 => format!("◌{g}"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::core::token::{Span, Token, TokenKind};

    #[test]
    fn controls_and_bidi_overrides_are_drawn_as_pictures() {
        let text = "a\u{202e}b\u{1b}c\u{9b}";
        let layout = LineLayout::new(text);
        let shown: String = layout.cells.iter().map(|c| c.symbol(text)).collect();
        assert_eq!(shown, "a⟨U+202E⟩b␛c⟨U+009B⟩");
    }

    #[test]
    fn columns_follow_display_width() {
        let layout = LineLayout::new("a語\te\u{301}b");
        let columns: Vec<usize> = layout.cells.iter().map(|c| c.column).collect();
        assert_eq!(columns, [0, 1, 3, 4, 5]);
        let text = "a語\te\u{301}b";
        assert_eq!(layout.cells[2].symbol(text), "→");
        assert_eq!(layout.cells[3].symbol(text), "e\u{301}");
        assert_eq!(layout.width, 6);
        assert_eq!(layout.column_of_byte(1), 1);
        assert_eq!(layout.column_of_byte(4), 3);
        assert_eq!(layout.cell_at_column(2), Some(1));
        assert_eq!(layout.cell_at_column(9), None);
    }

    #[test]
    fn owners_mark_dropped_text() {
        let text = "ab  c";
        let layout = LineLayout::new(text);
        let tokens = Tokenization::new(vec![
            Token::new(Span::new(0, 1), TokenKind::Word),
            Token::new(Span::new(1, 2), TokenKind::Word),
            Token::new(Span::new(4, 5), TokenKind::Word),
        ]);
        assert_eq!(
            layout.owners(&tokens),
            [Some(0), Some(1), None, None, Some(2)]
        );
    }

    #[test]
    fn colours_alternate_between_tokens_shown() {
        // Tokens 1 and 2 are empty, token 3 ends inside the first cell's character.
        let owners = [Some(0), Some(3), Some(5), Some(6), Some(6)];
        assert_eq!(shades(&owners, 7), [0, 0, 0, 1, 0, 0, 1]);
    }

    #[test]
    fn control_characters_are_visible() {
        assert_eq!(LineLayout::new("\u{1}").cells[0].symbol("\u{1}"), "␁");
        assert_eq!(
            LineLayout::new("\u{85}").cells[0].symbol("\u{85}"),
            "⟨U+0085⟩"
        );
    }
}
