//! The `UnicodeScripts` pre-tokenizer: a piece is cut where the Unicode script changes, as
//! HuggingFace's (and SentencePiece's `IsValidSentencePiece`) see scripts: Hiragana, Katakana
//! and `ー` count as Han, a space belongs to no script (it joins whatever surrounds it), and
//! the table is theirs (`scripts_table.rs`, made by `tools/gen_unicode_scripts.py`), so code
//! points assigned in later Unicode versions than it knows have no script either.

#[path = "scripts_table.rs"]
mod table;

use crate::core::normalized::NormalizedString;

/// A script as an index into the table's names; `None` is HuggingFace's `Any`.
type Script = Option<u8>;

fn raw_script(c: char) -> Script {
    let c = c as u32;
    let at = table::RANGES.partition_point(|&(_, last, _)| last < c);
    table::RANGES
        .get(at)
        .filter(|&&(first, _, _)| first <= c)
        .map(|&(_, _, script)| script)
}

fn named(name: &str) -> u8 {
    table::NAMES
        .iter()
        .position(|&n| n == name)
        .expect("the table names the script") as u8
}

/// HuggingFace's `fixed_script`.
fn script(c: char) -> Script {
    let han = named("Han");
    match c {
        '\u{30FC}' => Some(han),
        ' ' => None,
        _ => match raw_script(c) {
            Some(s) if s == named("Hiragana") || s == named("Katakana") => Some(han),
            s => s,
        },
    }
}

/// Cuts `piece` where the script changes between two characters that have one (a character
/// with none stays with the piece before it), appending the pieces to `out`. As in
/// HuggingFace, the first piece starts at the first character with a script: what comes
/// before it (spaces, unassigned code points) is dropped, and so is a piece with no script.
pub fn split_by_script<'o>(piece: &NormalizedString<'o>, out: &mut Vec<NormalizedString<'o>>) {
    let text = piece.normalized();
    // The script of the last character that had one; `None` before the first.
    let mut last: Script = None;
    let mut cuts = Vec::new();
    for (at, c) in text.char_indices() {
        let here = script(c);
        if here.is_some() && here != last {
            cuts.push(at);
        }
        if here.is_some() {
            last = here;
        }
    }
    cuts.push(text.len());
    for window in cuts.windows(2) {
        if window[0] < window[1] {
            out.push(piece.slice(window[0]..window[1]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        split_by_script(&NormalizedString::new(text), &mut out);
        out.iter().map(|p| p.normalized().to_string()).collect()
    }

    #[test]
    fn cuts_where_the_script_changes() {
        // A space joins; Hiragana, Katakana and ー count as Han.
        assert_eq!(pieces("これは犬。Dog"), ["これは犬", "。", "Dog"]);
        assert_eq!(pieces("東京タワーへ"), ["東京タワーへ"]);
        assert_eq!(pieces("Cats like ねこ 猫"), ["Cats like ", "ねこ 猫"]);
        assert_eq!(pieces("Test_abc 123"), ["Test", "_", "abc ", "123"]);
        // Nothing before the first character with a script survives.
        assert_eq!(pieces("  \u{10FFFD} x "), ["x "]);
        assert!(pieces("   ").is_empty());
    }

    #[test]
    fn the_table_is_huggingfaces() {
        assert_eq!(raw_script('a'), Some(named("Latin")));
        assert_eq!(raw_script('京'), Some(named("Han")));
        assert_eq!(raw_script('ー'), Some(named("Common")));
        assert_eq!(raw_script('\u{10FFFD}'), None);
    }
}
