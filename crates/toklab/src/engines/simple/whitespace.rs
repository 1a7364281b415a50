use super::Matcher;
use crate::core::token::Span;

/// `ws`: maximal runs of non-whitespace (Unicode White_Space), like Python's `str.split()`.
pub struct WhitespaceMatcher;

impl Matcher for WhitespaceMatcher {
    /// A single space stands for the whitespace between tokens.
    fn joining(&self) -> super::Joining {
        super::Joining::Spaces
    }

    fn find(&self, text: &str, found: &mut dyn FnMut(Span, &'static str)) {
        let mut start = None;
        for (i, c) in text.char_indices() {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    found(Span::new(s, i), "non-space run");
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            found(Span::new(s, text.len()), "non-space run");
        }
    }

    /// Any whitespace character: the token before it ends there, the one after starts later.
    fn cut_point(&self, text: &str, from: usize) -> Option<usize> {
        let from = crate::core::offsets::ceil_char_boundary(text, from);
        text[from..]
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
            .map(|(i, _)| from + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tokenizer::Tokenizer;
    use crate::engines::simple::MatchTokenizer;

    fn forms(text: &str) -> Vec<&str> {
        let t = MatchTokenizer::new("ws", WhitespaceMatcher).tokenize(text);
        t.tokens.iter().map(|tok| tok.span.slice(text)).collect()
    }

    #[test]
    fn splits_on_any_unicode_whitespace() {
        assert_eq!(
            forms("  We're\t350\u{a0}dogs!\u{3000}"),
            ["We're", "350", "dogs!"]
        );
        assert!(forms(" \t ").is_empty());
        assert_eq!(forms("x"), ["x"]);
    }
}
