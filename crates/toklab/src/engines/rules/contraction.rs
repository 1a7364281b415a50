//! utoken's mapping of a contraction or repair onto the text it matched: which characters
//! each output token covers, and the output's case adjusted to the text's.

use crate::engines::rules::chars::{self, L};

/// utoken's `map_contraction`: splits the matched text into the target's tokens, each with
/// the characters it covers and the case of the text (`WON'T` → `WILL N'T`).
pub fn map_contraction(
    text: &str,
    source: &str,
    target: &str,
    start: usize,
    char_splits: Option<&[usize]>,
) -> Vec<(u32, u32, String)> {
    let chars: Vec<char> = text.chars().collect();
    if let Some(splits) = char_splits {
        return map_by_splits(&chars, target, start, splits);
    }
    if !source.contains(' ') && !target.contains(' ') {
        return vec![(start as u32, chars.len() as u32, adjust_case(target, text))];
    }
    Peeling {
        start_position: start,
        end_position: start + chars.len(),
        token: chars,
        source: source.chars().collect(),
        target: target.to_string(),
        front: Vec::new(),
        back: Vec::new(),
    }
    .run()
}

/// A rule that says how many characters each target token covers (`wont` → 2 + 2): the
/// text is cut at those counts, one target token per piece.
fn map_by_splits(
    chars: &[char],
    target: &str,
    start: usize,
    splits: &[usize],
) -> Vec<(u32, u32, String)> {
    let targets: Vec<&str> = target
        .split(super::line::is_space)
        .filter(|t| !t.is_empty())
        .collect();
    let mut out = Vec::new();
    let mut pos = 0;
    for (i, &n) in splits.iter().enumerate() {
        let n = n.min(chars.len().saturating_sub(pos));
        let piece: String = chars[pos..pos + n].iter().collect();
        let t = targets.get(i).copied().unwrap_or("");
        out.push(((start + pos) as u32, n as u32, adjust_case(t, &piece)));
        pos += n;
    }
    out
}

/// utoken's peeling of a multi-token contraction: target tokens that the source ends with
/// are taken off the text's end, those it starts with off its front, until the text is used
/// up or no target token matches; what is left goes to the remaining target.
struct Peeling {
    /// The text not yet given to a target token.
    token: Vec<char>,
    /// The rule's source, shrinking with `token`.
    source: Vec<char>,
    /// The target tokens not yet placed, space-separated.
    target: String,
    /// Where `token` starts in the line.
    start_position: usize,
    /// Where `token` ends in the line.
    end_position: usize,
    /// Pieces taken off the front, in order.
    front: Vec<(u32, u32, String)>,
    /// Pieces taken off the end, in order.
    back: Vec<(u32, u32, String)>,
}

impl Peeling {
    fn run(mut self) -> Vec<(u32, u32, String)> {
        while !self.token.is_empty() {
            let elements: Vec<String> = self
                .target
                .split(super::line::is_space)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect();
            if let Some(last) = elements.last().filter(|el| ends_with(&self.source, el)) {
                self.peel_back(last);
            } else if let Some(first) = elements.first().filter(|el| starts_with(&self.source, el))
            {
                self.peel_front(first);
            } else if !elements.is_empty() {
                let piece: String = self.token.iter().collect();
                self.front.push((
                    self.start_position as u32,
                    self.token.len() as u32,
                    adjust_case(&self.target, &piece),
                ));
                self.token.clear();
            } else {
                break;
            }
        }
        self.front.extend(self.back);
        self.front
    }

    /// Gives the text's last characters to the target's last token, then drops the spaces
    /// before them.
    fn peel_back(&mut self, last: &str) {
        let is_space = super::line::is_space;
        let len = last.chars().count();
        let len_tok = len.min(self.token.len());
        let piece: String = self.token[self.token.len() - len_tok..].iter().collect();
        self.back.insert(
            0,
            (
                (self.end_position - len_tok) as u32,
                len_tok as u32,
                adjust_case(last, &piece),
            ),
        );
        self.end_position -= len_tok;
        self.token.truncate(self.token.len() - len_tok);
        self.source.truncate(self.source.len().saturating_sub(len));
        let keep = self.target.chars().count().saturating_sub(len);
        self.target = self
            .target
            .chars()
            .take(keep)
            .collect::<String>()
            .trim_end_matches(is_space)
            .to_string();
        while self.token.last() == Some(&' ') {
            self.end_position -= 1;
            self.token.pop();
            if self.target.ends_with(' ') {
                self.target.pop();
            }
        }
    }

    /// Gives the text's first characters to the target's first token, then drops the spaces
    /// after them.
    fn peel_front(&mut self, first: &str) {
        let is_space = super::line::is_space;
        let len = first.chars().count();
        let len_tok = len.min(self.token.len());
        let piece: String = self.token[..len_tok].iter().collect();
        self.front.push((
            self.start_position as u32,
            len_tok as u32,
            adjust_case(first, &piece),
        ));
        self.start_position += len_tok;
        self.token.drain(..len_tok);
        self.source.drain(..len.min(self.source.len()));
        self.target = self
            .target
            .chars()
            .skip(len)
            .collect::<String>()
            .trim_start_matches(is_space)
            .to_string();
        while self.token.first() == Some(&' ') {
            self.start_position += 1;
            self.token.remove(0);
            if self.target.starts_with(' ') {
                self.target.remove(0);
            }
        }
    }
}

/// Whether the characters `src` end with `el`.
fn ends_with(src: &[char], el: &str) -> bool {
    let el: Vec<char> = el.chars().collect();
    src.len() >= el.len() && src[src.len() - el.len()..] == el[..]
}

/// Whether the characters `src` start with `el`.
fn starts_with(src: &[char], el: &str) -> bool {
    let el: Vec<char> = el.chars().collect();
    src.len() >= el.len() && src[..el.len()] == el[..]
}

/// utoken's `adjust_capitalization`: `will` for `Wo` gives `Will`, for `WO` gives `WILL`.
pub fn adjust_case(s: &str, orig: &str) -> String {
    if s == orig {
        return s.to_string();
    }
    let letters = |x: &str| -> String { x.chars().filter(|&c| chars::is(c, L)).collect() };
    let orig_letters: Vec<char> = letters(orig).chars().collect();
    if letters(s) == letters(orig) {
        return s.to_string();
    }
    match orig_letters.as_slice() {
        [first, rest @ ..] if chars::is(*first, chars::UPPER) => {
            if rest.first().is_some_and(|c| chars::is(*c, chars::UPPER)) {
                s.to_uppercase()
            } else {
                // (\P{L}+)(\p{L}.*): keep leading non-letters, capitalize from the first letter.
                let split = s
                    .char_indices()
                    .find(|&(_, c)| chars::is(c, L))
                    .map(|(i, _)| i);
                match split {
                    Some(i) if i > 0 && !s[..i].contains('\n') => {
                        format!("{}{}", &s[..i], chars::capitalize(&s[i..]))
                    }
                    _ => chars::capitalize(s),
                }
            }
        }
        _ => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(
        text: &str,
        source: &str,
        target: &str,
        splits: Option<&[usize]>,
    ) -> Vec<(u32, u32, String)> {
        map_contraction(text, source, target, 0, splits)
    }

    #[test]
    fn contractions_keep_case_and_positions() {
        assert_eq!(
            forms("Can't", "can't", "can n't", None),
            vec![(0, 2, "Can".to_string()), (2, 3, "n't".to_string())]
        );
        assert_eq!(
            forms("WON'T", "won't", "will n't", None),
            vec![(0, 2, "WILL".to_string()), (2, 3, "N'T".to_string())]
        );
        assert_eq!(
            forms("wont", "wont", "will n't", Some(&[2, 2])),
            vec![(0, 2, "will".to_string()), (2, 2, "n't".to_string())]
        );
        assert_eq!(
            forms("Cannot", "cannot", "can not", None),
            vec![(0, 3, "Can".to_string()), (3, 3, "not".to_string())]
        );
        assert_eq!(
            forms("recieve", "recieve", "receive", None),
            vec![(0, 7, "receive".to_string())]
        );
        assert_eq!(
            forms("ca n't", "ca n't", "can n't", None),
            vec![(0, 2, "can".to_string()), (3, 3, "n't".to_string())]
        );
    }

    #[test]
    fn adjust_case_like_utoken() {
        assert_eq!(adjust_case("will", "Wo"), "Will");
        assert_eq!(adjust_case("will", "WO"), "WILL");
        assert_eq!(adjust_case("'tis", "'Tis"), "'Tis");
        assert_eq!(adjust_case("it", "'T"), "It");
        assert_eq!(adjust_case("e.g.", "E.g"), "E.g.");
        assert_eq!(adjust_case("n't", "n't"), "n't");
    }
}
