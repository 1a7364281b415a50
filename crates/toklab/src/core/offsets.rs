//! Byte offsets to code point offsets: utoken and Datok count code points, our spans count
//! bytes, and the conversion must stay linear over a whole text.

/// Converts ascending byte offsets of one text to code point offsets in a single pass.
/// Asking for an offset before the previous one restarts from the beginning (still correct,
/// only slower), so callers need not guarantee order.
pub struct CodePoints<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl<'a> CodePoints<'a> {
    /// A counter at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        CodePoints {
            text,
            byte: 0,
            chars: 0,
        }
    }

    /// The code point index of byte offset `byte` (a char boundary of the text).
    pub fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.chars = 0;
        }
        self.chars += count_chars(&self.text.as_bytes()[self.byte..byte]);
        self.byte = byte;
        self.chars
    }
}

/// Counts code points in UTF-8 bytes: every byte that is not a continuation byte starts one.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The byte offset of code point index `index` in `text` (the text's length if past the end).
pub fn byte_of_codepoint(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(b, _)| b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_code_points_not_bytes() {
        let text = "aé😀b";
        let mut cp = CodePoints::new(text);
        assert_eq!(cp.at(0), 0);
        assert_eq!(cp.at(1), 1);
        assert_eq!(cp.at(3), 2);
        assert_eq!(cp.at(7), 3);
        assert_eq!(cp.at(8), 4);
        assert_eq!(cp.at(3), 2, "going back restarts");
        assert_eq!(byte_of_codepoint(text, 3), 7);
        assert_eq!(byte_of_codepoint(text, 9), 8);
    }
}
