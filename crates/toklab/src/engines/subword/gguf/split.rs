//! The pre-tokenizers of llama.cpp's byte-level BPE, chosen by `tokenizer.ggml.pre`, and the
//! way llama.cpp runs them (`unicode_regex_split`): each pattern cuts every piece the previous
//! ones left into its matches and the stretches between them. A pattern that names Unicode
//! categories (`\p{L}`, `\p{N}`, `\p{P}`, `\p{M}`, `\p{S}`) runs, as in llama.cpp, over a
//! "collapsed" copy of the text in which every non-ASCII character stands for its category
//! (and non-ASCII white space for a vertical tab), with each category in the pattern widened
//! to its marker plus the ASCII characters llama.cpp gives it; so `\p{P}` matches ASCII `!` but
//! not ASCII `~`, exactly as there. Other patterns run over the text with non-ASCII white
//! space turned into vertical tabs. A missing `pre` is llama.cpp's `default` set, not GPT-2's.

use std::ops::Range;

use fancy_regex::Regex;

use super::unicode::{Category, category};

const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";
const LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const DEEPSEEK_LETTERS: &str = "\\s?[A-Za-z\u{B5}\u{C0}-\u{D6}\u{D8}-\u{F6}\u{F8}-\u{1BA}\u{1BC}-\u{1BF}\u{1C4}-\u{293}\u{295}-\u{2AF}\u{370}-\u{373}\u{376}\u{377}\u{37B}-\u{37D}\u{37F}\u{386}\u{388}-\u{38A}\u{38C}\u{38E}-\u{3A1}\u{3A3}-\u{3F5}\u{3F7}-\u{481}\u{48A}-\u{52F}\u{531}-\u{556}\u{10A0}-\u{10C5}\u{13A0}-\u{13F5}\u{13F8}-\u{13FD}\u{1C90}-\u{1CBA}\u{1CBD}-\u{1CBF}\u{1D00}-\u{1D2B}\u{1D6B}-\u{1D77}\u{1D79}-\u{1D9A}\u{1E00}-\u{1F15}\u{1F18}-\u{1F1D}\u{1F20}-\u{1F45}\u{1F48}-\u{1F4D}\u{1F50}-\u{1F57}\u{1F59}\u{1F5B}\u{1F5D}\u{1F5F}-\u{1F7D}\u{1F80}-\u{1FB4}\u{1FB6}-\u{1FBC}\u{1FBE}\u{1FC2}-\u{1FC4}\u{1FC6}-\u{1FCC}\u{1FD0}-\u{1FD3}\u{1FD6}-\u{1FDB}\u{1FE0}-\u{1FEC}\u{1FF2}-\u{1FF4}\u{1FF6}-\u{1FFC}\u{2102}\u{2107}\u{210A}-\u{2113}\u{2115}\u{2119}-\u{211D}\u{2124}\u{2126}\u{2128}\u{212A}-\u{212D}\u{212F}-\u{2134}\u{2139}\u{213C}-\u{213F}\u{2145}-\u{2149}\u{214E}\u{2183}\u{2184}\u{2C00}-\u{2C7B}\u{2C7E}-\u{2CE4}\u{2CEB}-\u{2CEE}\u{2CF2}\u{2CF3}\u{A640}-\u{A66D}\u{A680}-\u{A69B}\u{A722}-\u{A76F}\u{A771}-\u{A787}\u{A78B}-\u{A78E}\u{AB70}-\u{ABBF}\u{FB00}-\u{FB06}\u{FB13}-\u{FB17}\u{FF21}-\u{FF3A}\u{FF41}-\u{FF5A}\u{10400}-\u{1044F}\u{104B0}-\u{104D3}\u{104D8}-\u{104FB}\u{10C80}-\u{10CB2}\u{10CC0}-\u{10CF2}\u{118A0}-\u{118DF}\u{1E900}-\u{1E943}]+";
const CJK: &str = "[\u{4E00}-\u{9FA5}\u{800}-\u{4E00}\u{AC00}-\u{D7FF}]+";
const BLOOM: &str = " ?[^(\\s|.,!?\u{2026}\u{3002}\u{FF0C}\u{3001}\u{964}\u{6D4}\u{60C})]+";
const TEKKEN: &str = r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const GPT4O: &str = r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const QWEN35: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const KANA_HAN: &str = "[\u{4E00}-\u{9FA5}\u{3040}-\u{309F}\u{30A0}-\u{30FF}]+";
const DEEPSEEK_V3: &str = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";
const SENTINEL: &str = "<sentinel:[0-9]+>";
const IMAGE: &str = "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z";
const TABS_AND_SPACES: &str = "([\\t\\n]|    |  )";
const CHAMELEON_PUNCT: &str = r"[\p{P}!-/:-@\[-`{-~]";
const BAILINGMOE: &str = r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+";
const SEED_CODER: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+";
const LETTER_RUNS: &str = r"\s?\p{L}+";
const DEFAULT_PUNCT: &str = r"[\p{P}\$\+<=>\^~\|]+";
const FALCON_PUNCT: &str = r"[\p{P}\$\+<=>\^~\|`]+";
const THREE_DIGITS: &str = "[0-9][0-9][0-9]";
const NEWLINE: &str = "[\r\n]";
/// Kimi K2's pattern, which llama.cpp runs with its own code on the real categories: here the
/// pattern itself on the text (never collapsed: it has no `\p{L}`-style class of the five).
const KIMI_K2: &str = r"[\p{Han}]+|[^\r\n\p{Letter}\p{Number}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{Mark}&&[^\p{Han}]]*[\p{Ll}\p{Lm}\p{Lo}\p{Mark}&&[^\p{Han}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{Letter}\p{Number}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{Mark}&&[^\p{Han}]]+[\p{Ll}\p{Lm}\p{Lo}\p{Mark}&&[^\p{Han}]]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{Number}{1,3}| ?[^\s\p{Letter}\p{Number}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The patterns llama.cpp applies for a `tokenizer.ggml.pre` value, and whether it keeps a
/// piece that is a whole token unmerged (`ignore_merges`). `None` for a name llama.cpp does
/// not know (it refuses such a file too).
pub fn patterns(pre: &str) -> Option<(Vec<&'static str>, bool)> {
    let starcoder = vec![r"\p{N}", GPT2];
    let list: Vec<&'static str> = match pre {
        "default" => vec![DEFAULT_PUNCT, GPT2, r"\p{N}+", THREE_DIGITS],
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral" | "midm-2.0"
        | "lfm2" => return Some((vec![LLAMA3], true)),
        "tekken" => return Some((vec![TEKKEN], true)),
        "dbrx" | "smaug-bpe" | "glm4" | "chatglm-bpe" => vec![LLAMA3],
        "deepseek-llm" => vec![
            NEWLINE,
            DEEPSEEK_LETTERS,
            "\\s?[!-/:-~\u{FF01}-\u{FF0F}\u{FF1A}-\u{FF5E}\u{2018}-\u{201F}\u{3000}-\u{3002}]+",
            r"\s+$",
            CJK,
            r"\p{N}+",
        ],
        "deepseek-v3" | "hunyuan-dense" => vec![r"\p{N}{1,3}", KANA_HAN, DEEPSEEK_V3],
        "deepseek-coder" => vec![NEWLINE, LETTER_RUNS, r"\s?\p{P}+", CJK, r"\p{N}"],
        "falcon" => vec![FALCON_PUNCT, GPT2, THREE_DIGITS],
        "starcoder" | "refact" | "command-r" | "smollm" | "codeshell" | "exaone" | "minerva-7b" => {
            starcoder
        }
        "gpt-2" | "phi-2" | "jina-es" | "jina-de" | "gigachat" | "jina-v2-es" | "jina-v2-de"
        | "a.x-4.0" | "mellum" | "jina-v1-en" | "jina-v2-code" | "roberta-bpe" | "exaone4"
        | "mpt" | "olmo" | "jais" | "trillion" => vec![GPT2],
        "qwen2" | "deepseek-r1-qwen" | "megrez" | "stablelm2" | "hunyuan" => vec![QWEN2],
        "qwen35" => vec![QWEN35],
        "poro-chat" | "bloom" | "gpt3-finnish" => vec![BLOOM],
        "viking" => vec![BLOOM, r"\p{N}"],
        "chameleon" => vec![
            SENTINEL,
            IMAGE,
            TABS_AND_SPACES,
            r"\p{N}",
            CHAMELEON_PUNCT,
            GPT2,
        ],
        "gpt-4o" | "llama4" => vec![GPT4O],
        "superbpe" => vec![r"\p{N}+", r"(?=(\d{3})+(?!\d))"],
        "bailingmoe" => vec![BAILINGMOE],
        "seed-coder" => vec![SEED_CODER],
        "kimi-k2" => vec![KIMI_K2],
        "gemma4" | "granite-embed-multi-311m" => vec!["[^\n]+|[\n]+"],
        _ => return None,
    };
    Some((list, false))
}

/// Whether the pre-tokenizer `pre` takes the raw text: llama.cpp then skips the byte-level
/// mapping, so those vocabularies are neither mapped nor cut.
pub fn raw(pre: &str) -> bool {
    ["gemma4", "granite-embed-multi-311m"].contains(&pre)
}

/// Patterns after whose pass a space between two ASCII letters is a boundary of pieces, and
/// whose pieces of any text cut there are the pieces of the two parts: a letter run ends
/// before a space (the space is in no letter class) and the space starts the next piece
/// (` ?\p{L}+`, `[^\r\n\p{L}\p{N}]?\p{L}+`, `\s?\p{L}+`, the cased forms, Bloom's ` ?[^…]+`
/// whose class holds the letters and no white space); nothing looks behind, and a look-ahead
/// is either in a match of white space (`\s+(?!\S)`), which holds neither letter, or asks
/// that the character a letter run takes next be a letter (`(?=[\p{L}])`), which the space is
/// not; Kimi K2's cased runs use class intersections instead, which hold no space, and a
/// contraction after a run must start with `'`, which the space is not. A match before the
/// cut never reads past it, so it is the same match in the first part alone.
const SPLITTING: [&str; 13] = [
    GPT2,
    LLAMA3,
    QWEN2,
    TEKKEN,
    GPT4O,
    QWEN35,
    LETTER_RUNS,
    DEEPSEEK_LETTERS,
    BLOOM,
    DEEPSEEK_V3,
    BAILINGMOE,
    SEED_CODER,
    KIMI_K2,
];

/// Patterns no match of which holds a space that has an ASCII letter on each side, with no
/// anchor and no look-around: classes of characters holding no space (digits, punctuation,
/// kana and Han), literals of letters and marks without a space (Chameleon's sentinels and
/// image tags), and runs of two or four spaces (which a lone space is not). An attempt at a
/// match that reaches the space before the cut fails there, in the whole text as at the end of
/// the first part, and the attempts on each side read only their side; so the matches of a
/// text are those of the parts cut there, and the stretch between matches that holds the cut
/// is split in two, which a [`SPLITTING`] pattern after them cuts as it cuts the parts.
const APART: [&str; 12] = [
    NEWLINE,
    r"\p{N}",
    r"\p{N}+",
    r"\p{N}{1,3}",
    THREE_DIGITS,
    DEFAULT_PUNCT,
    FALCON_PUNCT,
    KANA_HAN,
    SENTINEL,
    IMAGE,
    TABS_AND_SPACES,
    CHAMELEON_PUNCT,
];

/// Whether a text split by `patterns` may be cut at a space between two ASCII letters: a
/// [`SPLITTING`] pattern comes after only [`APART`] ones. After it the cut is a boundary of
/// pieces and the pieces are the same, so whatever patterns follow cut each the same way.
/// ASCII letters are themselves in the collapsed text, so a pattern sees the letters and the
/// space the same way in the whole text and in the parts. A list where this cannot be shown
/// (a pattern that reads across a space before any splits letters from spaces, such as
/// `superbpe`'s, which leaves words and spaces one piece) is never cut.
pub fn cuts_at_spaces(patterns: &[&str]) -> bool {
    let splitting = patterns
        .iter()
        .position(|p| at_spaces(p) == AtSpaces::Splits);
    splitting.is_some_and(|at| {
        patterns[..at]
            .iter()
            .all(|p| at_spaces(p) == AtSpaces::Apart)
    })
}

/// What a pre-tokenizer pattern, as llama.cpp and `tokenizer.json` files write it (DeepSeek
/// V3's three), does at a space between two ASCII letters: what lets a pipeline of such
/// patterns be cut there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtSpaces {
    /// It ends a piece before the space and starts the next at it ([`SPLITTING`]).
    Splits,
    /// No match holds the space, and matches near it read only their side ([`APART`]).
    Apart,
    /// Not known.
    Unknown,
}

/// What `pattern` does at a space between two ASCII letters ([`AtSpaces`]).
pub fn at_spaces(pattern: &str) -> AtSpaces {
    if SPLITTING.contains(&pattern) {
        AtSpaces::Splits
    } else if APART.contains(&pattern) {
        AtSpaces::Apart
    } else {
        AtSpaces::Unknown
    }
}

/// One `tokenizer.ggml.pre` name for each list of patterns [`patterns`] knows (the other
/// names are aliases), so that tests can go over every list.
pub const NAMES: [&str; 25] = [
    "default",
    "llama3",
    "tekken",
    "dbrx",
    "deepseek-llm",
    "deepseek-v3",
    "deepseek-coder",
    "falcon",
    "starcoder",
    "gpt-2",
    "qwen2",
    "qwen35",
    "bloom",
    "viking",
    "chameleon",
    "gpt-4o",
    "superbpe",
    "bailingmoe",
    "seed-coder",
    "kimi-k2",
    "gemma4",
    "llama-bpe",
    "pixtral",
    "smaug-bpe",
    "refact",
];

/// The five categories a pattern may name, the marker that stands for each in collapsed text
/// (private-use characters, which no class of the rewritten pattern matches by accident), and
/// the ASCII characters llama.cpp counts in each.
const CATEGORIES: [(&str, char, &str); 5] = [
    (r"\p{N}", '\u{E0D1}', "0-9"),
    (r"\p{L}", '\u{E0D2}', "A-Za-z"),
    (r"\p{P}", '\u{E0D3}', r"!-#%-*,-/:-;?-@\[-\]_\{\}"),
    (r"\p{M}", '\u{E0D4}', ""),
    (r"\p{S}", '\u{E0D5}', r"\$\+<->\^`\|"),
];
/// What a non-ASCII character of no named category (a separator, a control) becomes.
const OTHER_MARK: char = '\u{E0D0}';

/// One pattern, ready to run.
struct Pass {
    regex: Regex,
    collapsed: bool,
}

/// A pre-tokenizer pattern fancy-regex does not compile, named so the message says which of
/// the file's patterns is at fault.
#[derive(Debug)]
pub struct PatternError {
    pattern: String,
    cause: Box<fancy_regex::Error>,
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pre-tokenizer pattern {:?}: {}",
            self.pattern, self.cause
        )
    }
}

impl std::error::Error for PatternError {}

/// A compiled list of patterns.
pub struct Splitter {
    passes: Vec<Pass>,
}

impl Splitter {
    /// Compiles `patterns` as llama.cpp rewrites them. A pattern fancy-regex cannot compile is
    /// an error naming it.
    pub fn new(patterns: &[&str]) -> Result<Splitter, PatternError> {
        let mut passes = Vec::new();
        for &pattern in patterns {
            let collapsed = CATEGORIES.iter().any(|(name, _, _)| pattern.contains(name));
            let source = if collapsed {
                collapse_pattern(pattern)
            } else {
                pattern.to_string()
            };
            let regex = Regex::new(&source).map_err(|cause| PatternError {
                pattern: pattern.to_string(),
                cause: Box::new(cause),
            })?;
            passes.push(Pass { regex, collapsed });
        }
        Ok(Splitter { passes })
    }

    /// The pieces of `text`, as byte ranges covering it in order.
    pub fn split(&self, text: &str) -> Vec<Range<usize>> {
        if text.is_empty() {
            return Vec::new();
        }
        let whole: Range<usize> = 0..text.len();
        let mut pieces = vec![whole];
        let mut views: [Option<View>; 2] = [None, None];
        for pass in &self.passes {
            let view = views[pass.collapsed as usize]
                .get_or_insert_with(|| View::new(text, pass.collapsed));
            let mut next = Vec::with_capacity(pieces.len() * 2);
            for piece in &pieces {
                view.cut(&pass.regex, piece.clone(), &mut next);
            }
            pieces = next;
        }
        pieces
    }
}

/// The text as a pattern sees it, with the way back to the text's byte offsets. Each character
/// of the text is one character here, so offsets move together between the characters whose
/// width changed, and only where those end is kept: a huge text whose characters keep their
/// widths (ASCII, kana and kanji as the 3-byte category markers) costs its copy alone.
struct View {
    text: String,
    /// (text offset, offset here) where each character whose width changed ends, in order.
    breaks: Vec<(usize, usize)>,
}

impl View {
    fn new(text: &str, collapsed: bool) -> View {
        let mut out = String::with_capacity(text.len());
        let mut breaks = Vec::new();
        for (at, c) in text.char_indices() {
            let mapped = if (c as u32) < 128 {
                c
            } else if c.is_whitespace() {
                '\u{0B}'
            } else if !collapsed {
                c
            } else {
                match category(c) {
                    Category::Number => CATEGORIES[0].1,
                    Category::Letter => CATEGORIES[1].1,
                    Category::Punctuation => CATEGORIES[2].1,
                    Category::Mark => CATEGORIES[3].1,
                    Category::Symbol => CATEGORIES[4].1,
                    Category::Control | Category::Other => OTHER_MARK,
                }
            };
            out.push(mapped);
            if mapped.len_utf8() != c.len_utf8() {
                breaks.push((at + c.len_utf8(), out.len()));
            }
        }
        View { text: out, breaks }
    }

    /// The offset here of the text's character boundary `at`.
    fn to_view(&self, at: usize) -> usize {
        match self.breaks.partition_point(|&(t, _)| t <= at) {
            0 => at,
            i => self.breaks[i - 1].1 + (at - self.breaks[i - 1].0),
        }
    }

    /// The text's offset of character boundary `at` here.
    fn to_text(&self, at: usize) -> usize {
        match self.breaks.partition_point(|&(_, v)| v <= at) {
            0 => at,
            i => self.breaks[i - 1].0 + (at - self.breaks[i - 1].1),
        }
    }

    /// Cuts the text's `piece` into the regex's matches and the stretches between them,
    /// appending their ranges (in the original text) to `out`. Empty matches cut nothing. A
    /// pattern that gives up (fancy-regex's backtrack limit) leaves the rest in one piece.
    fn cut(&self, regex: &Regex, piece: Range<usize>, out: &mut Vec<Range<usize>>) {
        let base = self.to_view(piece.start);
        let hay = &self.text[base..self.to_view(piece.end)];
        let mut last = 0;
        for found in regex.find_iter(hay) {
            let Ok(m) = found else { break };
            if m.start() == m.end() {
                continue;
            }
            if m.start() > last {
                out.push(self.to_text(base + last)..self.to_text(base + m.start()));
            }
            out.push(self.to_text(base + m.start())..self.to_text(base + m.end()));
            last = m.end();
        }
        if last < hay.len() {
            out.push(self.to_text(base + last)..piece.end);
        }
    }
}

/// llama.cpp's rewriting of a pattern for collapsed text: each of the five categories becomes
/// its marker plus its ASCII characters, inside brackets unless it already is in a class.
fn collapse_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut inside = false;
    let mut rest = pattern;
    let mut previous = '\0';
    while let Some(c) = rest.chars().next() {
        if c == '[' && previous != '\\' {
            inside = true;
        } else if c == ']' && inside && previous != '\\' {
            inside = false;
        } else if let Some((name, mark, ascii)) = CATEGORIES
            .iter()
            .find(|(name, _, _)| rest.starts_with(name))
        {
            if !inside {
                out.push('[');
            }
            out.push(*mark);
            out.push_str(ascii);
            if !inside {
                out.push(']');
            }
            rest = &rest[name.len()..];
            previous = '}';
            continue;
        }
        out.push(c);
        previous = c;
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(pre: &str, text: &str) -> Vec<String> {
        let (list, _) = patterns(pre).unwrap();
        let splitter = Splitter::new(&list).unwrap();
        splitter
            .split(text)
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    }

    #[test]
    fn every_named_pre_tokenizer_compiles() {
        for pre in NAMES {
            let (list, _) = patterns(pre).unwrap();
            Splitter::new(&list).unwrap_or_else(|e| panic!("{pre}: {e}"));
        }
        assert!(patterns("no-such-pre").is_none());
    }

    #[test]
    fn lists_that_split_a_letter_from_the_space_after_it_first_are_cut() {
        let cuts = |pre: &str| cuts_at_spaces(&patterns(pre).unwrap().0);
        for pre in NAMES {
            assert_eq!(cuts(pre), !["superbpe", "gemma4"].contains(&pre), "{pre}");
        }
    }

    #[test]
    fn gpt2_pieces_and_non_ascii_categories() {
        assert_eq!(
            pieces("gpt-2", "Hello world's  café 123!"),
            ["Hello", " world", "'s", " ", " café", " 123", "!"]
        );
        // A non-ASCII space is white space to the pattern, so it may lead a word.
        assert_eq!(
            pieces("qwen2", "ab12\u{3000}x"),
            ["ab", "1", "2", "\u{3000}x"]
        );
    }

    #[test]
    fn collapsed_punctuation_is_llama_cpps_not_unicodes() {
        // `~` is in none of llama.cpp's ASCII category lists, so the default set's first
        // pattern, `[\p{P}\$\+<=>\^~\|]+`, takes it only through its literal `~`.
        assert_eq!(pieces("default", "a,~b"), ["a", ",~", "b"]);
        assert_eq!(pieces("default", "12345"), ["123", "45"]);
        assert_eq!(pieces("deepseek-coder", "ab,\ncd"), ["ab", ",", "\n", "cd"]);
    }

    #[test]
    fn the_collapsed_pattern_keeps_classes_whole() {
        assert_eq!(
            collapse_pattern(r"[^\s\p{L}]\p{N}"),
            "[^\\s\u{E0D2}A-Za-z][\u{E0D1}0-9]"
        );
    }
}
