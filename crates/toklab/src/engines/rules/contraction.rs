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
        return out;
    }
    if !source.contains(' ') && !target.contains(' ') {
        return vec![(start as u32, chars.len() as u32, adjust_case(target, text))];
    }
    let mut token: Vec<char> = chars;
    let mut source: Vec<char> = source.chars().collect();
    let mut target: String = target.to_string();
    let mut start_position = start;
    let mut end_position = start + token.len();
    let mut front: Vec<(u32, u32, String)> = Vec::new();
    let mut back: Vec<(u32, u32, String)> = Vec::new();
    let is_space = super::line::is_space;
    while !token.is_empty() {
        let elements: Vec<String> = target
            .split(is_space)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        let ends_with = |src: &[char], el: &str| {
            let el: Vec<char> = el.chars().collect();
            src.len() >= el.len() && src[src.len() - el.len()..] == el[..]
        };
        let starts_with = |src: &[char], el: &str| {
            let el: Vec<char> = el.chars().collect();
            src.len() >= el.len() && src[..el.len()] == el[..]
        };
        if let Some(last) = elements.last().filter(|el| ends_with(&source, el)) {
            let len = last.chars().count();
            let len_tok = len.min(token.len());
            let piece: String = token[token.len() - len_tok..].iter().collect();
            back.insert(
                0,
                (
                    (end_position - len_tok) as u32,
                    len_tok as u32,
                    adjust_case(last, &piece),
                ),
            );
            end_position -= len_tok;
            token.truncate(token.len() - len_tok);
            source.truncate(source.len().saturating_sub(len));
            let keep = target.chars().count().saturating_sub(len);
            target = target
                .chars()
                .take(keep)
                .collect::<String>()
                .trim_end_matches(is_space)
                .to_string();
            while token.last() == Some(&' ') {
                end_position -= 1;
                token.pop();
                if target.ends_with(' ') {
                    target.pop();
                }
            }
        } else if let Some(first) = elements.first().filter(|el| starts_with(&source, el)) {
            let len = first.chars().count();
            let len_tok = len.min(token.len());
            let piece: String = token[..len_tok].iter().collect();
            front.push((
                start_position as u32,
                len_tok as u32,
                adjust_case(first, &piece),
            ));
            start_position += len_tok;
            token.drain(..len_tok);
            source.drain(..len.min(source.len()));
            target = target
                .chars()
                .skip(len)
                .collect::<String>()
                .trim_start_matches(is_space)
                .to_string();
            while token.first() == Some(&' ') {
                start_position += 1;
                token.remove(0);
                if target.starts_with(' ') {
                    target.remove(0);
                }
            }
        } else if !elements.is_empty() {
            let piece: String = token.iter().collect();
            front.push((
                start_position as u32,
                token.len() as u32,
                adjust_case(&target, &piece),
            ));
            token.clear();
        } else {
            break;
        }
    }
    front.extend(back);
    front
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
