//! SentencePiece's normalizer: the precompiled character map, whitespace clean-up and the `▁`
//! escape, as operations on a [`NormalizedString`], so tokens get spans of the text the user
//! gave. Spans follow SentencePiece: a token runs from where its first character came from to
//! where the next token's did ([`NormalizedString::original_offset`]), so removed text goes
//! to the token before it; stripped leading and trailing whitespace goes to none.

pub use crate::normalized::CharsMap;
use crate::normalized::NormalizedString;

/// `▁` (U+2581), SentencePiece's visible space.
pub const SPACE: &str = "\u{2581}";

/// How a model normalizes.
#[derive(Clone, Debug)]
pub struct Normalizer {
    /// The precompiled character rewrites (NFKC and the model's own rules).
    pub map: CharsMap,
    /// Whether a space is put before the text, so a first word looks like any other.
    pub add_dummy_prefix: bool,
    /// Whether leading, trailing and repeated spaces are dropped.
    pub remove_extra_whitespaces: bool,
    /// Whether spaces become `▁`.
    pub escape_whitespaces: bool,
    /// Whether `▁` ends a piece instead of starting one.
    pub treat_whitespace_as_suffix: bool,
    /// User-defined pieces, passed through unnormalized (longest first match).
    pub user_defined: Vec<String>,
}

impl Normalizer {
    /// One normalization step at the start of `input`: the replacement and the input length.
    fn prefix<'a>(&'a self, input: &'a str) -> (&'a str, usize) {
        if let Some(user) = self
            .user_defined
            .iter()
            .filter(|u| input.starts_with(u.as_str()))
            .max_by_key(|u| u.len())
        {
            return (user, user.len());
        }
        if let Some(rule) = self.map.rule(input) {
            return rule;
        }
        let len = input.chars().next().map_or(1, char::len_utf8);
        (&input[..len], len)
    }

    /// Normalizes `input` as SentencePiece does.
    pub fn normalize<'t>(&self, input: &'t str) -> NormalizedString<'t> {
        let mut text = NormalizedString::new(input);
        if self.remove_extra_whitespaces {
            let (mut leading, mut rest) = (0, input);
            while !rest.is_empty() {
                let (replacement, len) = self.prefix(rest);
                if replacement != " " {
                    break;
                }
                rest = &rest[len..];
                leading += len;
            }
            text.strip_start(leading);
        }
        if text.is_empty() {
            return text;
        }
        let space = if self.escape_whitespaces { SPACE } else { " " };
        let mut previous_space = self.remove_extra_whitespaces;
        text.rewrite(|rest, out| {
            let (replacement, len) = self.prefix(rest);
            let mut piece = replacement;
            while previous_space && piece.starts_with(' ') {
                piece = &piece[1..];
            }
            if !piece.is_empty() {
                for c in piece.chars() {
                    match c {
                        ' ' => out.push_str(space),
                        c => out.push(c),
                    }
                }
                previous_space = piece.ends_with(' ');
            }
            if !self.remove_extra_whitespaces {
                previous_space = false;
            }
            len
        });
        let dummy_prefix = self.add_dummy_prefix && !self.treat_whitespace_as_suffix;
        if dummy_prefix {
            text.prepend(space);
        }
        if self.remove_extra_whitespaces {
            text.trim_end_matches(|c| space.starts_with(c));
        }
        if self.add_dummy_prefix && self.treat_whitespace_as_suffix {
            text.append(space);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Normalizer {
        Normalizer {
            map: CharsMap::default(),
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
            treat_whitespace_as_suffix: false,
            user_defined: Vec::new(),
        }
    }

    #[test]
    fn spaces_are_collapsed_escaped_and_mapped_back() {
        let n = plain().normalize("  ab   c ");
        assert_eq!(n.normalized(), "▁ab▁c");
        // The dummy prefix points at the first kept character; the inner ▁ at the first space
        // of its run; the end at the start of the trailing space.
        assert_eq!(n.original_offset(0), 2);
        assert_eq!(n.original_offset(3), 2);
        assert_eq!(n.original_offset(5), 4);
        assert_eq!(n.original_offset(8), 7);
        assert_eq!(n.original_offset(n.len()), 8);
    }

    #[test]
    fn only_spaces_normalize_to_nothing() {
        assert_eq!(plain().normalize("   ").normalized(), "");
    }
}
