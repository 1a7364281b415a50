//! The seed vocabulary: every character, and the most frequent substrings of the words scored
//! by frequency × length (SentencePiece takes them from a suffix array; counting the
//! substrings of each distinct word once, weighted by the word's frequency, gives the same
//! counts within words), turned into log-probabilities.

use rustc_hash::FxHashMap;

use super::{SPACE, UnigramConfig};

/// The class a character belongs to for the rule that a piece does not mix classes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Other,
}

fn class(c: char) -> Class {
    if c.is_numeric() {
        Class::Digit
    } else if c.is_alphabetic() || is_mark(c) {
        Class::Letter
    } else {
        Class::Other
    }
}

/// Combining marks go with the letters they follow (Devanagari vowel signs, accents).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0900..=0x0DFF | 0x1AB0..=0x1AFF | 0x20D0..=0x20FF)
        && !c.is_alphabetic()
}

/// Whether `piece` may be a vocabulary entry: `▁` only at the start, and after it characters
/// of one class.
pub fn valid_piece(piece: &[char]) -> bool {
    let body = match piece.first() {
        Some(&SPACE) => &piece[1..],
        _ => piece,
    };
    if body.contains(&SPACE) {
        return false;
    }
    match body.first() {
        None => true,
        Some(&first) => body.iter().all(|&c| class(c) == class(first)),
    }
}

/// The distinct characters (as one-character pieces) and the seed pieces with their
/// log-probabilities.
pub fn seed_pieces(
    words: &[(String, u64)],
    config: &UnigramConfig,
) -> (Vec<String>, Vec<(String, f64)>) {
    let mut chars: FxHashMap<char, u64> = FxHashMap::default();
    // Keyed by slices of the words: a substring is copied only if it becomes a candidate.
    let mut substrings: FxHashMap<&str, u64> = FxHashMap::default();
    let mut letters: Vec<char> = Vec::new();
    let mut bounds: Vec<usize> = Vec::new();
    for (word, freq) in words {
        letters.clear();
        bounds.clear();
        for (at, c) in word.char_indices() {
            letters.push(c);
            bounds.push(at);
            *chars.entry(c).or_insert(0) += freq;
        }
        bounds.push(word.len());
        for start in 0..letters.len() {
            let longest = (letters.len() - start).min(config.max_piece_len);
            for len in 2..=longest {
                if !valid_piece(&letters[start..start + len]) {
                    break;
                }
                *substrings
                    .entry(&word[bounds[start]..bounds[start + len]])
                    .or_insert(0) += freq;
            }
        }
    }
    let mut scored: Vec<(String, u64)> = chars.iter().map(|(c, f)| (c.to_string(), *f)).collect();
    let mut candidates: Vec<(String, u64)> = substrings
        .into_iter()
        .filter(|(_, f)| *f > 1)
        .map(|(s, f)| (s.to_string(), f * s.chars().count() as u64))
        .collect();
    candidates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    candidates.truncate(config.seed_size.saturating_sub(scored.len()));
    scored.extend(candidates);
    let total: f64 = scored.iter().map(|(_, f)| *f as f64).sum();
    let pieces = scored
        .iter()
        .map(|(s, f)| (s.clone(), (*f as f64).ln() - total.ln()))
        .collect();
    let mut char_pieces: Vec<String> = chars.keys().map(|c| c.to_string()).collect();
    char_pieces.sort();
    (char_pieces, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_keep_the_marker_at_the_start_and_one_class() {
        let p = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(valid_piece(&p("▁the")));
        assert!(!valid_piece(&p("e▁t")));
        assert!(!valid_piece(&p("a1")));
        assert!(!valid_piece(&p("d,")));
        assert!(valid_piece(&p("▁12")));
        assert!(valid_piece(&p("...")));
    }

    #[test]
    fn seeds_are_characters_and_repeated_substrings() {
        let words = vec![("▁abab".to_string(), 3), ("▁ab".to_string(), 1)];
        let (chars, pieces) = seed_pieces(&words, &UnigramConfig::new(100));
        assert_eq!(chars, ["a", "b", "▁"]);
        let names: Vec<&str> = pieces.iter().map(|(p, _)| p.as_str()).collect();
        assert!(names.contains(&"ab") && names.contains(&"▁ab"), "{names:?}");
        let sum: f64 = pieces.iter().map(|(_, s)| s.exp()).sum();
        assert!((sum - 1.0).abs() < 1e-9);
    }
}
