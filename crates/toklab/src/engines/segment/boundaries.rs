//! Where sentences end: every run of terminators (`.`, `?`, `!`, `…`, spaced ellipses) is a
//! candidate, decided by the first rule that applies, and list items start sentences.

use super::lists::list_items;
use super::words::{BEFORE_NAMES, BEFORE_NUMBERS, MAY_END, OPENERS, is_closer, is_opener, listed};
use crate::core::token::Span;

/// One decision: a terminator run (or a list item) and whether a sentence ends there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The terminators (with the closing quotes and brackets kept with them), or the start
    /// of a list item.
    pub span: Span,
    /// Where the next sentence starts, when one ends here.
    pub next: Option<usize>,
    /// The rule that decided.
    pub rule: &'static str,
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '?' | '!' | '…')
}

/// The word that ends at `end` (back to whitespace), without opening quotes or brackets.
fn word_before(text: &str, end: usize) -> (usize, &str) {
    let start = text[..end]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = text[start..end].trim_start_matches(is_opener);
    (end - word.len(), word)
}

/// The first character after `at` past whitespace and opening quotes and brackets, and the
/// word of letters it starts.
fn next_word(text: &str, at: usize) -> (Option<char>, &str) {
    let rest = text[at..].trim_start().trim_start_matches(is_opener);
    let end = rest
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(rest.len(), |(i, _)| i);
    (rest.chars().next(), &rest[..end])
}

/// `U.S`, `a.m`, `e.g` (the final period is the candidate): single letters between periods.
fn is_dotted_acronym(word: &str) -> bool {
    word.contains('.')
        && word.split('.').all(|part| {
            let mut chars = part.chars();
            chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
        })
}

/// `a.m` / `p.m` in any case (the final period is the candidate): a time of day is the last
/// thing of many sentences, so before a capital it ends one, unless it opens the sentence.
fn is_time_of_day(lower_word: &str) -> bool {
    matches!(lower_word, "a.m" | "p.m")
}

/// How many words stand between the sentence's start (the last terminator followed by
/// whitespace, or the text's start) and `at`: a sentence cannot be only a fronted phrase like
/// `At 5 a.m.`, so a time of day after at most two words continues the sentence.
fn words_before_in_sentence(text: &str, at: usize) -> usize {
    let before = &text[..at];
    let start = before
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            is_terminator(c) && before[i + c.len_utf8()..].starts_with(char::is_whitespace)
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    before[start..].split_whitespace().count()
}

/// The end of the terminator run starting at `start`: terminators, and spaces followed by a
/// period inside a run of periods (`. . .`).
fn run_end(text: &str, start: usize) -> usize {
    let mut end = start;
    loop {
        let rest = &text[end..];
        match rest.chars().next() {
            Some(c) if is_terminator(c) => end += c.len_utf8(),
            Some(' ') if rest[1..].starts_with('.') && text[start..end].ends_with('.') => end += 1,
            _ => return end,
        }
    }
}

/// Decides every candidate of `text`, in text order.
pub fn decide(text: &str) -> Vec<Decision> {
    let items = list_items(text);
    let mut decisions: Vec<Decision> = items
        .starts
        .iter()
        .map(|&(at, rule)| Decision {
            span: Span::new(at, at),
            next: Some(at),
            rule,
        })
        .collect();
    let mut at = 0;
    while let Some((offset, c)) = text[at..].char_indices().find(|&(_, c)| is_terminator(c)) {
        let start = at + offset;
        if c == '.' && items.marker_periods.contains(&start) {
            at = start + 1;
            continue;
        }
        let end = run_end(text, start);
        let closed = end + text[end..].len() - text[end..].trim_start_matches(is_closer).len();
        at = end;
        let span = Span::new(start, closed);
        let (next, rule) = decide_run(text, start, end, closed);
        decisions.push(Decision { span, next, rule });
    }
    decisions.sort_by_key(|d| (d.span.start, d.span.end));
    decisions
}

/// Whether the run `start..end` (closers up to `closed`) ends a sentence, and why.
fn decide_run(
    text: &str,
    start: usize,
    end: usize,
    closed: usize,
) -> (Option<usize>, &'static str) {
    let after = &text[closed..];
    if !after.is_empty() && !after.starts_with(char::is_whitespace) {
        return (None, "no space after it: inside a word, number or address");
    }
    let next_start = closed + after.len() - after.trim_start().len();
    if next_start == text.len() {
        return (None, "the end of the text");
    }
    let run = &text[start..end];
    let (first, word) = next_word(text, closed);
    let lower_next = first.is_some_and(char::is_lowercase);
    let dots = run.matches('.').count() + 3 * run.matches('…').count();
    let attached = start > 0 && !text[..start].ends_with(char::is_whitespace);
    if run.contains(['?', '!']) {
        return if lower_next {
            (None, "? or ! before a lower-case word")
        } else {
            (Some(next_start), "? or !")
        };
    }
    if attached && run.starts_with(". .") && dots >= 4 && !lower_next {
        // `words. . . . The`: the period ends the sentence, the ellipsis opens the next.
        let ellipsis = start + 1 + run[1..].len() - run[1..].trim_start().len();
        return (
            Some(ellipsis),
            "a period, then an ellipsis opening the next sentence",
        );
    }
    if dots == 3 {
        return (None, "an ellipsis inside a sentence");
    }
    if lower_next {
        return (None, "a lower-case word follows");
    }
    if dots >= 4 {
        return (Some(next_start), "an ellipsis and a period");
    }
    let (word_start, before) = word_before(text, start);
    let lower = before.to_lowercase();
    if listed(BEFORE_NAMES, &lower) {
        return (None, "an abbreviation written before names");
    }
    if listed(BEFORE_NUMBERS, &lower) && first.is_some_and(|c| c.is_ascii_digit()) {
        return (
            None,
            "an abbreviation written before numbers, then a number",
        );
    }
    if is_time_of_day(&lower) && first.is_some_and(char::is_uppercase) {
        return if words_before_in_sentence(text, word_start) <= 2 {
            (
                None,
                "a time of day opening the sentence (`At 5 a.m. Mr. …`)",
            )
        } else {
            (Some(next_start), "a time of day, then a capital")
        };
    }
    if is_dotted_acronym(before) || listed(MAY_END, &lower) {
        return if listed(OPENERS, &word.to_lowercase()) {
            (
                Some(next_start),
                "an abbreviation, then a usual sentence opener",
            )
        } else {
            (None, "an abbreviation, then a name")
        };
    }
    let mut chars = before.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_uppercase()
    {
        let (_, previous) = word_before(text, text[..word_start].trim_end().len());
        if previous.starts_with(char::is_uppercase) {
            return (None, "an initial inside a name");
        }
    }
    (
        Some(next_start),
        "a period before a capital, digit or symbol",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(text: &str) -> Vec<&str> {
        super::super::sentence_spans(text)
            .iter()
            .map(|s| s.slice(text))
            .collect()
    }

    #[test]
    fn abbreviations_initials_and_openers() {
        assert_eq!(
            sentences("I live in the U.S. How about you? I work for the U.S. Government."),
            [
                "I live in the U.S.",
                "How about you?",
                "I work for the U.S. Government."
            ]
        );
        assert_eq!(
            sentences("We make a team, you and I. Did you see Albert I. Jones?"),
            ["We make a team, you and I.", "Did you see Albert I. Jones?"]
        );
        assert_eq!(
            sentences("Mr. Smith saw Mt. Fuji."),
            ["Mr. Smith saw Mt. Fuji."]
        );
    }

    #[test]
    fn a_time_of_day_ends_a_sentence_unless_it_opens_it() {
        assert_eq!(
            sentences("At 5 a.m. Mr. Smith left. He came back at 6 P.M. Mr. Jones stayed."),
            [
                "At 5 a.m. Mr. Smith left.",
                "He came back at 6 P.M.",
                "Mr. Jones stayed."
            ]
        );
        assert_eq!(
            sentences("We met at 9 a.m. then left."),
            ["We met at 9 a.m. then left."]
        );
    }

    #[test]
    fn quotes_brackets_and_ellipses() {
        assert_eq!(
            sentences("He said, \"Go.\" She went. (It rained.) Then... nothing. . . . The end"),
            [
                "He said, \"Go.\"",
                "She went.",
                "(It rained.)",
                "Then... nothing.",
                ". . . The end"
            ]
        );
    }

    #[test]
    fn every_decision_names_its_rule() {
        let decisions = decide("Wait! it is 3.5 p. 4. Yes");
        let rules: Vec<&str> = decisions.iter().map(|d| d.rule).collect();
        assert_eq!(
            rules,
            [
                "? or ! before a lower-case word",
                "no space after it: inside a word, number or address",
                "an abbreviation written before numbers, then a number",
                "a period before a capital, digit or symbol",
            ]
        );
    }
}
