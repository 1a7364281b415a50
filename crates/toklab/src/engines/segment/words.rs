//! The word lists the sentence rules consult: facts of English orthography, lower-cased and
//! without their period.

/// Titles and the like, written before a name (`Mr. Smith`, `Mt. Fuji`): a capital or a
/// digit after them does not start a sentence.
pub const BEFORE_NAMES: &[&str] = &[
    "adm", "approx", "ca", "capt", "cf", "col", "cpl", "dr", "fr", "ft", "gen", "gov", "hon", "lt",
    "maj", "messrs", "mlle", "mme", "mr", "mrs", "ms", "mt", "mx", "pres", "prof", "pvt", "rep",
    "rev", "sen", "sgt", "st", "supt", "vs",
];

/// Abbreviations written before a number (`p. 55`, `No. 5`, `N°. 12`): a digit after them
/// does not start a sentence (a capital may: `… said no. Then …`).
pub const BEFORE_NUMBERS: &[&str] = &[
    "art", "ch", "chap", "fig", "figs", "no", "nos", "nr", "n°", "op", "p", "pp", "sec", "vol",
    "vols",
];

/// Abbreviations that may end a sentence (`… & Co.`, `… etc.`): they end one only when the
/// next word is a usual sentence opener ([`OPENERS`]).
pub const MAY_END: &[&str] = &[
    "al", "apr", "assn", "aug", "ave", "blvd", "bros", "co", "corp", "dec", "dept", "esp", "est",
    "etc", "feb", "fri", "govt", "hr", "hrs", "hwy", "ibid", "inc", "intl", "jan", "jr", "jul",
    "jun", "lb", "lbs", "llc", "ln", "ltd", "mar", "max", "mfg", "min", "misc", "mo", "mon",
    "natl", "nov", "oct", "oz", "rd", "sat", "sep", "sept", "sr", "sun", "thu", "tue", "univ",
    "wed", "yr", "yrs",
];

/// Words that commonly open an English sentence: after an abbreviation that may end one, a
/// capitalized word from this list is taken as a new sentence, any other as a name
/// (`the U.S. How …` against `the U.S. Government …`).
pub const OPENERS: &[&str] = &[
    "a",
    "after",
    "all",
    "also",
    "an",
    "and",
    "as",
    "at",
    "before",
    "but",
    "by",
    "during",
    "each",
    "every",
    "for",
    "from",
    "he",
    "her",
    "here",
    "his",
    "how",
    "however",
    "i",
    "if",
    "in",
    "it",
    "its",
    "let",
    "many",
    "meanwhile",
    "most",
    "my",
    "no",
    "now",
    "on",
    "one",
    "our",
    "please",
    "she",
    "since",
    "so",
    "some",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "today",
    "we",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "why",
    "with",
    "yesterday",
    "you",
    "your",
];

/// Characters that close a quotation or bracket: they stay with the sentence before them.
pub fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '}' | '»' | '›' | '”' | '’')
}

/// Characters that open one: skipped when looking at the next sentence's first word.
pub fn is_opener(c: char) -> bool {
    matches!(c, '"' | '\'' | '(' | '[' | '{' | '«' | '‹' | '“' | '‘')
}

/// List bullets: each starts an item, and so a sentence.
pub fn is_bullet(c: char) -> bool {
    matches!(c, '•' | '⁃' | '◦' | '▪' | '‣' | '●')
}

/// Whether `word` (lower-cased, no period) is in `list`.
pub fn listed(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for list in [BEFORE_NAMES, BEFORE_NUMBERS, MAY_END, OPENERS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        assert!(listed(MAY_END, "co") && !listed(MAY_END, "mr"));
    }
}
