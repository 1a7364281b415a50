//! An Aho–Corasick automaton over characters that answers, at every point of a scan, "how
//! long is the longest dictionary word ending here?" in amortised constant time. Maximum
//! matching needs exactly that: backward matching asks it of the text, forward matching asks
//! it of the reversed text with the reversed words. Trying every candidate length at every
//! point instead costs the square of the longest word (10,000 characters against a
//! 20,000-character word took half a minute); this costs the length of the text, whatever the
//! dictionary holds.

use rustc_hash::FxHashMap;

/// The root state: the empty string.
const ROOT: u32 = 0;

/// A character automaton over a set of words.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// Trie edges: (state, character) → state.
    goto: FxHashMap<(u32, char), u32>,
    /// Per state: the state of its longest proper suffix that is also a trie prefix.
    fail: Vec<u32>,
    /// Per state: the length in characters of the longest word that is a suffix of it (0: none).
    longest_word: Vec<u32>,
}

impl Default for Automaton {
    fn default() -> Automaton {
        Automaton::new(std::iter::empty::<std::str::Chars>())
    }
}

impl Automaton {
    /// Builds the automaton of `words`, each given as its characters in scanning order.
    pub fn new<W: Iterator<Item = char>>(words: impl IntoIterator<Item = W>) -> Automaton {
        let mut goto = FxHashMap::default();
        let mut depth = vec![0u32];
        let mut is_word = vec![false];
        // Children in insertion order, for the breadth-first pass.
        let mut children: Vec<Vec<(char, u32)>> = vec![Vec::new()];
        for word in words {
            let mut state = ROOT;
            for c in word {
                state = *goto.entry((state, c)).or_insert_with(|| {
                    let next = depth.len() as u32;
                    depth.push(depth[state as usize] + 1);
                    is_word.push(false);
                    children.push(Vec::new());
                    children[state as usize].push((c, next));
                    next
                });
            }
            is_word[state as usize] = state != ROOT;
        }
        let n = depth.len();
        let mut fail = vec![ROOT; n];
        let mut longest_word = vec![0u32; n];
        let mut queue = std::collections::VecDeque::from([ROOT]);
        while let Some(state) = queue.pop_front() {
            for &(c, child) in &children[state as usize] {
                fail[child as usize] = if state == ROOT {
                    ROOT
                } else {
                    let mut f = fail[state as usize];
                    loop {
                        if let Some(&next) = goto.get(&(f, c)) {
                            break next;
                        }
                        if f == ROOT {
                            break ROOT;
                        }
                        f = fail[f as usize];
                    }
                };
                longest_word[child as usize] = if is_word[child as usize] {
                    depth[child as usize]
                } else {
                    longest_word[fail[child as usize] as usize]
                };
                queue.push_back(child);
            }
        }
        Automaton {
            goto,
            fail,
            longest_word,
        }
    }

    /// The length in characters of the longest word ending at each point of `chars`, in
    /// order: entry `i` is for the text just after the `i`-th character.
    pub fn longest_ending(&self, chars: impl Iterator<Item = char>) -> Vec<u32> {
        let mut state = ROOT;
        chars
            .map(|c| {
                state = loop {
                    if let Some(&next) = self.goto.get(&(state, c)) {
                        break next;
                    }
                    if state == ROOT {
                        break ROOT;
                    }
                    state = self.fail[state as usize];
                };
                self.longest_word[state as usize]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longest(words: &[&str], text: &str) -> Vec<u32> {
        Automaton::new(words.iter().map(|w| w.chars())).longest_ending(text.chars())
    }

    #[test]
    fn longest_word_ending_at_each_point() {
        assert_eq!(
            longest(&["he", "she", "hers"], "ushers"),
            [0, 0, 0, 3, 0, 4]
        );
        assert_eq!(longest(&["a", "aa", "aaa"], "aaaa"), [1, 2, 3, 3]);
        // A word found through a failure link: "bc" inside "abcd" with "abx" in the trie.
        assert_eq!(longest(&["abx", "bc"], "abcd"), [0, 0, 2, 0]);
        assert_eq!(longest(&[], "abc"), [0, 0, 0]);
        assert_eq!(longest(&["研究", "研究生"], "研究生"), [0, 2, 3]);
    }

    #[test]
    fn agrees_with_trying_every_length() {
        let words = ["ab", "b", "bab", "abab", "ba", "aab"];
        let automaton = Automaton::new(words.iter().map(|w| w.chars()));
        for text in ["abababaab", "bbbb", "aabab", "x", "babxab"] {
            let chars: Vec<char> = text.chars().collect();
            let expected: Vec<u32> = (1..=chars.len())
                .map(|end| {
                    (0..end)
                        .map(|start| chars[start..end].iter().collect::<String>())
                        .filter(|w| words.contains(&w.as_str()))
                        .map(|w| w.chars().count() as u32)
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            assert_eq!(automaton.longest_ending(text.chars()), expected, "{text}");
        }
    }
}
