//! A working string that remembers, for every byte, which bytes of the original text it came
//! from and which rule inserted it. The Treebank conventions are a list of regex rewrites of
//! the whole text; running them on this string instead of a plain one gives every final token
//! its span in the original and every split the rule that made it. The sources are kept as
//! runs ([`Sources`]), so a rewrite that matches little costs little.

use super::sources::{ByteSource, Sources, cover};
use crate::core::token::Span;

/// One piece of a replacement: literal text or a capture group's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// Text written as given (padding spaces, a rewritten quote).
    Literal(String),
    /// The text of capture group `n` (0 is the whole match).
    Group(usize),
}

/// Parses a replacement written with `$N` group references (`" $1 $2"`).
pub(super) fn parse_template(template: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek().and_then(|d| d.to_digit(10))) {
            ('$', Some(group)) => {
                chars.next();
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Part::Group(group as usize));
            }
            _ => literal.push(c),
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    parts
}

/// The working string and the source of each of its bytes (`sources.len() == text.len()`).
#[derive(Clone, Debug)]
pub(super) struct AlignedText {
    pub text: String,
    sources: Sources,
}

/// One rewrite a rule made: the original text it matched, and what it wrote instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rewrite {
    /// The original bytes behind the match (empty when the match was only padding).
    pub span: Span,
    /// The matched working text.
    pub before: String,
    /// What replaced it.
    pub after: String,
}

impl AlignedText {
    /// The original text, every byte standing for itself.
    pub fn new(text: &str) -> AlignedText {
        AlignedText {
            text: text.to_string(),
            sources: Sources::original(text.len()),
        }
    }

    /// Surrounds the text with one space on each side, written by rule `rule`.
    pub fn pad(&mut self, rule: usize) {
        // Room for the two spaces alone: growing by doubling would keep up to twice the text.
        self.text.reserve_exact(2);
        self.text.insert(0, ' ');
        self.text.push(' ');
        self.sources.pad(rule);
    }

    /// Replaces every match of `regex` by `template`, left to right without overlaps (as
    /// Python's `re.sub`). Bytes copied from a group keep their sources; literal bytes stand
    /// for the part of the match no copied group covers (a `"` rewritten as ` `` `), and
    /// literal spaces are padding written by `rule`. Returns the rewrites made.
    pub fn substitute(
        &mut self,
        regex: &fancy_regex::Regex,
        template: &[Part],
        rule: usize,
    ) -> Vec<Rewrite> {
        // The new text is made when the first match is found: a rule that matches nothing
        // costs no copy.
        let mut text = String::new();
        let mut sources = Sources::default();
        let mut rewrites = Vec::new();
        let mut copied_to = 0;
        for captures in regex.captures_iter(&self.text) {
            // A pattern past fancy-regex's backtracking limit rewrites nothing more: the text
            // keeps its remaining spaces, so no input is lost.
            let Ok(captures) = captures else { break };
            let whole = captures.get(0).expect("group 0 always matches");
            if rewrites.is_empty() {
                text.reserve_exact(self.text.len() + 16);
            }
            text.push_str(&self.text[copied_to..whole.start()]);
            sources.extend_from(&self.sources, copied_to, whole.start());
            let groups: Vec<Option<(usize, usize)>> = template
                .iter()
                .map(|part| match part {
                    Part::Group(n) => captures.get(*n).map(|m| (m.start(), m.end())),
                    Part::Literal(_) => None,
                })
                .collect();
            let uncovered = self.uncovered(whole.start(), whole.end(), &groups);
            // Spaces the match consumed at its edges outside any group (the space after
            // `n't `) are written back by the replacement's edge spaces: those keep their
            // sources, so a split keeps the rule (or the text) that made it.
            let (mut lead, mut trail) = self.edge_spaces(whole.start(), whole.end(), &groups);
            let written_from = text.len();
            let solid = solid_parts(template, &groups);
            let mut written_solid = false;
            let mut seen_solid = 0;
            for (part, group) in template.iter().zip(&groups) {
                match (part, group) {
                    (Part::Group(_), Some((start, end))) => {
                        text.push_str(&self.text[*start..*end]);
                        sources.extend_from(&self.sources, *start, *end);
                        written_solid |= start < end;
                        seen_solid += usize::from(start < end);
                    }
                    (Part::Group(_), None) => {}
                    (Part::Literal(literal), _) => {
                        for c in literal.chars() {
                            let fresh = ByteSource {
                                span: if c == ' ' { Span::default() } else { uncovered },
                                rule: Some(rule),
                            };
                            let source = match c {
                                ' ' if !written_solid => lead.pop().unwrap_or(fresh),
                                ' ' if seen_solid == solid => trail.pop().unwrap_or(fresh),
                                ' ' => fresh,
                                _ => {
                                    written_solid = true;
                                    seen_solid += 1;
                                    fresh
                                }
                            };
                            text.push(c);
                            sources.push(source, c.len_utf8());
                        }
                    }
                }
            }
            rewrites.push(Rewrite {
                span: self.sources.covering(whole.start(), whole.end()),
                before: whole.as_str().to_string(),
                after: text[written_from..].to_string(),
            });
            copied_to = whole.end();
        }
        if rewrites.is_empty() {
            return rewrites;
        }
        text.push_str(&self.text[copied_to..]);
        sources.extend_from(&self.sources, copied_to, self.text.len());
        debug_assert_eq!(sources.len(), text.len(), "a source for every byte");
        self.text = text;
        self.sources = sources;
        rewrites
    }

    /// The sources of the one-byte spaces at the start and at the end of `start..end` that no
    /// copied group covers, each nearest the edge last (to be popped).
    fn edge_spaces(
        &self,
        start: usize,
        end: usize,
        groups: &[Option<(usize, usize)>],
    ) -> (Vec<ByteSource>, Vec<ByteSource>) {
        let loose = |i: usize| {
            self.text.as_bytes()[i] == b' '
                && !groups.iter().flatten().any(|&(s, e)| s <= i && i < e)
        };
        let lead_end = (start..end).find(|&i| !loose(i)).unwrap_or(end);
        let lead: Vec<ByteSource> = (start..lead_end)
            .rev()
            .map(|i| self.sources.get(i))
            .collect();
        let trail_start = (lead_end..end)
            .rev()
            .find(|&i| !loose(i))
            .map_or(lead_end, |i| i + 1);
        let trail: Vec<ByteSource> = (trail_start..end)
            .rev()
            .map(|i| self.sources.get(i))
            .collect();
        (lead, trail)
    }

    /// The original span behind the bytes of `start..end` that no copied group covers.
    fn uncovered(&self, start: usize, end: usize, groups: &[Option<(usize, usize)>]) -> Span {
        cover(
            (start..end)
                .filter(|&i| !groups.iter().flatten().any(|&(s, e)| s <= i && i < e))
                .map(|i| self.sources.get(i).span),
        )
    }

    /// The working text cut at whitespace (as Python's `str.split()`), each piece with the
    /// original span it covers and the rules whose padding ended the gap before it.
    pub fn pieces(&self) -> Vec<Piece> {
        let mut pieces = Vec::new();
        // The rules whose padding is in the gap before the next piece, and whether the gap
        // holds whitespace of the text (then the split was there before any rule).
        let mut gap_rules: Vec<usize> = Vec::new();
        let mut gap_in_text = false;
        let mut current: Option<(usize, usize, Vec<usize>)> = None;
        let push = |pieces: &mut Vec<Piece>, (start, end, split_by): (usize, usize, Vec<usize>)| {
            pieces.push(Piece {
                form: self.text[start..end].to_string(),
                span: self.sources.covering(start, end),
                split_by,
            })
        };
        for (i, c) in self.text.char_indices() {
            if is_python_space(c) {
                if let Some(piece) = current.take() {
                    push(&mut pieces, piece);
                    gap_rules.clear();
                    gap_in_text = false;
                }
                match self.sources.get(i).rule {
                    Some(rule) if !gap_rules.contains(&rule) => gap_rules.push(rule),
                    Some(_) => {}
                    None => gap_in_text = true,
                }
            } else {
                let end = i + c.len_utf8();
                current = Some(match current.take() {
                    Some((start, _, split_by)) => (start, end, split_by),
                    None if pieces.is_empty() || gap_in_text => (i, end, Vec::new()),
                    // The earliest rule whose padding is in the gap made the split; later
                    // rules only rewrote spaces that were already there.
                    None => (
                        i,
                        end,
                        gap_rules.iter().min().into_iter().copied().collect(),
                    ),
                });
            }
        }
        if let Some(piece) = current {
            push(&mut pieces, piece);
        }
        pieces
    }
}

/// How many parts of a replacement write something other than spaces (non-empty groups,
/// other characters), so the spaces after the last of them are known to be trailing.
fn solid_parts(template: &[Part], groups: &[Option<(usize, usize)>]) -> usize {
    template
        .iter()
        .zip(groups)
        .map(|(part, group)| match (part, group) {
            (Part::Group(_), Some((s, e))) => usize::from(s < e),
            (Part::Group(_), None) => 0,
            (Part::Literal(literal), _) => literal.chars().filter(|&c| c != ' ').count(),
        })
        .sum()
}

/// A token of the working text: its form, the original span behind it, and the rules whose
/// padding separated it from the token before (empty when only original whitespace did).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub form: String,
    pub span: Span,
    pub split_by: Vec<usize>,
}

/// Whitespace as Python's `str.isspace` (what `str.split()` cuts at): Unicode white space plus
/// the four information separators U+001C to U+001F.
pub(super) fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(text: &str, pattern: &str, template: &str) -> AlignedText {
        let mut aligned = AlignedText::new(text);
        let regex = fancy_regex::Regex::new(pattern).unwrap();
        aligned.substitute(&regex, &parse_template(template), 7);
        aligned
    }

    #[test]
    fn groups_keep_their_sources_and_padding_names_its_rule() {
        let aligned = rewrite("a,b", "([:,])([^0-9])", " $1 $2");
        assert_eq!(aligned.text, "a , b");
        let pieces = aligned.pieces();
        let spans: Vec<Span> = pieces.iter().map(|p| p.span).collect();
        assert_eq!(spans, [Span::new(0, 1), Span::new(1, 2), Span::new(2, 3)]);
        assert_eq!(pieces[1].split_by, [7]);
    }

    #[test]
    fn a_rewritten_quote_stands_for_the_quote() {
        let aligned = rewrite("say \"hi", "( )(\")", "$1 `` ");
        assert_eq!(aligned.text, "say  `` hi");
        let pieces = aligned.pieces();
        assert_eq!(pieces[1].form, "``");
        assert_eq!(pieces[1].span, Span::new(4, 5));
    }

    #[test]
    fn templates_parse_groups_and_literals() {
        assert_eq!(
            parse_template(" $1 x$0"),
            [
                Part::Literal(" ".into()),
                Part::Group(1),
                Part::Literal(" x".into()),
                Part::Group(0)
            ]
        );
    }
}
