//! A batch of texts in one buffer: what `toklab tokenize`, `compare` and the workbench's scans
//! hand to a worker.

/// Consecutive texts (lines) handed to a worker together, in one buffer, with the number of the
/// first: a batch costs two allocations however many texts it holds, and a batch written is
/// refilled (see [`ordered_map`](super::ordered_map)'s `next`) without allocating at all. Strings of their own
/// would cost an allocation a text, and refilled one by one each would grow to the longest
/// text it ever held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The number of the first text (its line number, say).
    pub first: usize,
    /// The texts one after the other.
    text: String,
    /// Where each text ends in `text`.
    ends: Vec<usize>,
}

impl Batch {
    /// A batch of `text` cut at `ends` (where each text ends, in order), or the parts back
    /// when an end is out of order, past the text or inside a character.
    pub fn from_parts(
        first: usize,
        text: String,
        ends: Vec<usize>,
    ) -> Result<Batch, (String, Vec<usize>)> {
        let mut start = 0;
        for &end in &ends {
            if end < start || !text.is_char_boundary(end) {
                return Err((text, ends));
            }
            start = end;
        }
        Ok(Batch { first, text, ends })
    }

    /// The text and the ends, to be filled again (emptied, their capacity kept).
    pub fn into_parts(self) -> (String, Vec<usize>) {
        let (mut text, mut ends) = (self.text, self.ends);
        text.clear();
        ends.clear();
        (text, ends)
    }

    /// Empties the batch and makes `first` the number of the text pushed next.
    pub fn clear(&mut self, first: usize) {
        self.first = first;
        self.text.clear();
        self.ends.clear();
    }

    /// Adds a text at the end.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len());
    }

    /// How many texts the batch holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the batch holds no text.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all the texts together.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    /// Text `i`, counted from 0 (its number is `first + i`).
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// The texts in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The texts in order with their numbers.
    pub fn numbered(&self) -> impl Iterator<Item = (usize, &str)> {
        self.iter()
            .enumerate()
            .map(|(i, text)| (self.first + i, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch gives back the texts pushed, numbered from its first, and takes parts only
    /// when every end is in order and between characters.
    #[test]
    fn a_batch_holds_its_texts_in_one_buffer() {
        let mut batch = Batch::default();
        batch.clear(7);
        for text in ["één", "", "two words", "ß"] {
            batch.push(text);
        }
        let numbered: Vec<_> = batch.numbered().collect();
        assert_eq!(numbered, [(7, "één"), (8, ""), (9, "two words"), (10, "ß")]);
        assert_eq!((batch.len(), batch.bytes()), (4, 16));
        let (text, ends) = batch.clone().into_parts();
        assert!(text.is_empty() && ends.is_empty() && text.capacity() >= 16);
        let again = Batch::from_parts(7, "ééntwo wordsß".into(), vec![5, 5, 14, 16]);
        assert_eq!(again.unwrap(), batch);
        for ends in [vec![1], vec![4, 2], vec![17]] {
            assert!(
                Batch::from_parts(0, "ééntwo wordsß".into(), ends.clone()).is_err(),
                "{ends:?}"
            );
        }
    }
}
