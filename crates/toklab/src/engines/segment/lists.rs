//! List items: a bullet, or a marker (`1.`, `2.)`, `3)`, `a.`) that continues the numbering of
//! the one before, starts a sentence, and the period in a marker ends none.

use super::words::is_bullet;

/// What the list rules found in a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ListItems {
    /// Byte offsets where an item starts a new sentence (never the text's first item).
    pub starts: Vec<(usize, &'static str)>,
    /// Byte offsets of periods that belong to markers, so they end no sentence.
    pub marker_periods: Vec<usize>,
}

/// A marker's numbering: digits or a lower-case letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Numbering {
    Digits(u32),
    Letter(u32),
}

impl Numbering {
    fn follows(self, before: Numbering) -> bool {
        match (before, self) {
            (Numbering::Digits(a), Numbering::Digits(b)) => b == a + 1,
            (Numbering::Letter(a), Numbering::Letter(b)) => b == a + 1,
            _ => false,
        }
    }
}

/// `1.`, `1.)`, `1)` (one or two digits) or `a.`: its numbering and the period's offset in it.
fn marker(word: &str) -> Option<(Numbering, Option<usize>)> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    let period = rest.starts_with('.').then_some(digits);
    if (1..=2).contains(&digits) && matches!(rest, "." | ".)" | ")") {
        return Some((Numbering::Digits(word[..digits].parse().ok()?), period));
    }
    let mut chars = word.chars();
    match (chars.next(), chars.as_str()) {
        (Some(c), ".") if c.is_ascii_lowercase() => {
            Some((Numbering::Letter(c as u32 - 'a' as u32), Some(1)))
        }
        _ => None,
    }
}

/// Finds the bullets and the markers of `text`.
pub(super) fn list_items(text: &str) -> ListItems {
    let mut items = ListItems::default();
    let mut previous: Option<Numbering> = None;
    let mut after_bullet = false;
    let mut first = true;
    for (start, word) in super::words_of(text) {
        let mut rest = word;
        let mut rest_start = start;
        if let Some(c) = word.chars().next().filter(|&c| is_bullet(c)) {
            if !first {
                items.starts.push((start, "a bullet starts an item"));
            }
            rest = &word[c.len_utf8()..];
            rest_start += c.len_utf8();
            after_bullet = true;
            first = false;
            if rest.is_empty() {
                continue;
            }
        }
        match marker(rest) {
            Some((numbering, period))
                if first || after_bullet || previous.is_some_and(|p| numbering.follows(p)) =>
            {
                if !first && !after_bullet {
                    items
                        .starts
                        .push((start, "a list marker continues the numbering"));
                }
                if let Some(offset) = period {
                    items.marker_periods.push(rest_start + offset);
                }
                previous = Some(numbering);
            }
            _ => {}
        }
        after_bullet = false;
        first = false;
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_and_lettered_items() {
        let items = list_items("1. One thing 2. Another 4. not a marker");
        assert_eq!(
            items.starts,
            [(13, "a list marker continues the numbering")]
        );
        assert_eq!(items.marker_periods, [1, 14]);
        let items = list_items("a. x b. y");
        assert_eq!(items.starts.len(), 1);
        let items = list_items("I have 2. cats");
        assert!(items.starts.is_empty() && items.marker_periods.is_empty());
    }

    #[test]
    fn bullets_with_and_without_space() {
        let items = list_items("• 9. First • 10. Second");
        assert_eq!(items.starts.len(), 1);
        assert_eq!(items.marker_periods.len(), 2);
        let items = list_items("⁃9. First ⁃10. Second");
        assert_eq!(items.starts.len(), 1);
        assert_eq!(items.marker_periods.len(), 2);
    }
}
