//! Character classes as one bit vector per code point, as utoken keeps them: its own classes
//! (dash, quote, deletable control, …) and the Unicode classes its regexes use (`\pL`, `\pM`,
//! `\d`, …), so every step tests a class with one AND instead of a table search.
//!
//! Unicode classes come from the `regex` crate's tables (regex-syntax), cut to the Unicode
//! version utoken 0.1.8 saw through each code path: its regexes run on the `regex` module
//! 2021.8.3 (Unicode 13.0), its `str` methods on Python 3.11 (Unicode 14.0). A character
//! assigned later is, to utoken, neither a letter nor a digit, and so it is here.

use std::sync::LazyLock;

use regex_syntax::hir::{Class, HirKind};

/// One class bit.
pub type Bits = u64;

macro_rules! bits {
    ($($name:ident = $n:expr, $doc:literal;)*) => {
        $( #[doc = $doc] pub const $name: Bits = 1 << $n; )*
    };
}

bits! {
    // utoken's own classes (its `char_type_vector_dict`).
    DELETABLE = 0, "C0/C1 controls, DEL, soft hyphen, tatweel, direction marks, BOM: deleted by normalization.";
    VARIATION_SELECTOR = 1, "U+FE00–FE0F and U+E0100–E01EF.";
    NON_STD_SPACE = 2, "No-break and other spaces that normalization turns into U+0020.";
    NON_STD_PUNCT = 3, "U+2024 one dot leader.";
    ZWSP = 4, "U+200B.";
    ZWNJ = 5, "U+200C.";
    ZWJ = 6, "U+200D.";
    AMPERSAND = 7, "`&`.";
    NUMBER_SIGN = 8, "`#`.";
    AT_SIGN = 9, "`@`.";
    SLASH = 10, "`/`.";
    APOSTROPHE = 11, "`'` and `’`.";
    QUOTE = 12, "Quotes of all kinds, apostrophes included.";
    DASH = 13, "`-`, `−`, `–`.";
    LESS_THAN = 14, "`<`.";
    LEFT_BRACKET = 15, "`[`.";
    MICRO_SIGN = 16, "`µ`.";
    ETHIOPIC_NUMBER = 17, "U+1369–U+137F.";
    MISC_SYMBOL = 18, "Arrows … miscellaneous symbols (U+2190–2BFF), pictographs and emoticons (U+1F300–1F64F).";
    ATTACH_TAG = 19, "The mark-up character `@`.";
    UNSTABLE_CASE = 20, "`İ`, whose lower case is two characters.";
    MISCODE = 21, "Characters of typical mis-encodings (`¦§¨±Ã`).";
    INDIC = 22, "Devanagari … Malayalam blocks.";
    HANGUL = 23, "Hangul syllables.";
    HEBREW_BLOCK = 24, "U+0591–U+05FF.";
    GREEK_BLOCK = 25, "U+0370–U+03E1.";
    PY_DIGIT = 26, "Python's `str.isdigit()` (and not a letter): decimal digits plus superscripts, circled digits, ….";
    ALPHA = 27, "Python's `str.isalpha()` (utoken's `char_is_alpha`).";
    MODIFIER = 28, "Unicode category M as Python's `unicodedata` gives it (utoken's `char_is_modifier`).";
    PERIOD = 29, "`.` (not one of utoken's classes: lets steps that need a period skip text without one).";
    // Unicode classes of the regexes.
    L = 32, "`\\pL` (= Python's `isalpha`).";
    M = 33, "`\\pM`.";
    ND = 34, "`\\d` (decimal digits).";
    N = 35, "`\\pN`.";
    LU = 36, "`\\p{Lu}`.";
    LL = 37, "`\\p{Ll}`.";
    P = 38, "`\\pP`.";
    S = 39, "`\\pS`.";
    SPACE = 40, "`\\s` of the regex module (White_Space).";
    PY_SPACE = 41, "Python's `str.isspace()` (White_Space plus U+001C–U+001F).";
    LATIN_LETTER = 42, "`[\\p{Latin}&&\\p{Letter}]`.";
    GREEK_LETTER = 43, "`[\\p{Greek}&&\\p{Letter}]`.";
    HEBREW_LETTER = 44, "`[\\p{Hebrew}&&\\p{Letter}]`.";
    UPPER = 45, "Python's `isupper()` for one character (the Uppercase property).";
    RE_WORD = 46, "`\\w` of Python's `re` module: letters, numbers, `_`.";
    LO = 47, "`\\p{Lo}`.";
}

/// The classes utoken gets from Python's `str` methods and `unicodedata` (Unicode 14.0).
const PYTHON_BITS: Bits = ALPHA | MODIFIER | PY_DIGIT | PY_SPACE | UPPER | RE_WORD;

/// Code points per block of the two-level table.
const BLOCK: usize = 256;

/// The number of a set of class bits in the table of the sets that occur ([`CharTable`]): a
/// line keeps one per character, two bytes where the bits take eight (a huge line's
/// characters are many, and few sets occur).
pub type ClassId = u16;

/// The class bits of every code point, in a two-level table of set numbers (blocks of
/// identical numbers are shared) over the distinct sets, built once per process.
pub struct CharTable {
    index: Vec<u16>,
    blocks: Vec<[ClassId; BLOCK]>,
    sets: Vec<Bits>,
}

static TABLE: LazyLock<CharTable> = LazyLock::new(CharTable::build);

/// The class bits of `c`.
#[inline]
pub fn bits(c: char) -> Bits {
    let table = &*TABLE;
    table.sets[table.id(c) as usize]
}

/// The classes of a line's characters, one set number each.
#[derive(Clone, Debug, Default)]
pub struct LineClasses {
    ids: Vec<ClassId>,
}

impl LineClasses {
    /// Room for `n` characters.
    pub fn with_capacity(n: usize) -> LineClasses {
        LineClasses {
            ids: Vec::with_capacity(n),
        }
    }

    /// Adds the next character; its class bits.
    #[inline]
    pub fn push(&mut self, c: char) -> Bits {
        let table = &*TABLE;
        let id = table.id(c);
        self.ids.push(id);
        table.sets[id as usize]
    }

    /// The classes of all the characters, to read.
    #[inline]
    pub fn view(&self) -> Classes<'_> {
        Classes {
            ids: &self.ids,
            sets: &TABLE.sets,
        }
    }

    /// The class bits of character `i`.
    #[inline]
    pub fn at(&self, i: usize) -> Bits {
        self.view().at(i)
    }

    /// The classes of characters `range`.
    #[inline]
    pub fn range(&self, range: std::ops::Range<usize>) -> Classes<'_> {
        self.view().range(range)
    }
}

impl FromIterator<char> for LineClasses {
    fn from_iter<I: IntoIterator<Item = char>>(chars: I) -> LineClasses {
        let mut classes = LineClasses::default();
        for c in chars {
            classes.push(c);
        }
        classes
    }
}

impl std::ops::Index<usize> for LineClasses {
    type Output = Bits;

    #[inline]
    fn index(&self, i: usize) -> &Bits {
        &TABLE.sets[self.ids[i] as usize]
    }
}

/// The classes of a stretch of a line's characters (a [`LineClasses`] or part of one).
#[derive(Clone, Copy, Debug)]
pub struct Classes<'a> {
    ids: &'a [ClassId],
    sets: &'static [Bits],
}

impl std::ops::Index<usize> for Classes<'_> {
    type Output = Bits;

    #[inline]
    fn index(&self, i: usize) -> &Bits {
        &self.sets[self.ids[i] as usize]
    }
}

impl<'a> Classes<'a> {
    /// How many characters there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// The class bits of character `i`.
    #[inline]
    pub fn at(&self, i: usize) -> Bits {
        self[i]
    }

    /// The classes of characters `range`.
    #[inline]
    pub fn range(&self, range: std::ops::Range<usize>) -> Classes<'a> {
        Classes {
            ids: &self.ids[range],
            sets: self.sets,
        }
    }

    /// The class bits of each character, in order.
    #[inline]
    pub fn iter(self) -> impl DoubleEndedIterator<Item = Bits> + ExactSizeIterator + 'a {
        let sets = self.sets;
        self.ids.iter().map(move |&id| sets[id as usize])
    }

    /// The class bits of character `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Bits> {
        self.ids.get(i).map(|&id| self.sets[id as usize])
    }

    /// The bits any of the characters has.
    pub fn union(&self) -> Bits {
        self.iter().fold(0, |acc, b| acc | b)
    }
}

/// Whether `c` has any of `mask`'s bits.
#[inline]
pub fn is(c: char, mask: Bits) -> bool {
    bits(c) & mask != 0
}

impl CharTable {
    #[inline]
    fn id(&self, c: char) -> ClassId {
        let code = c as usize;
        self.blocks[self.index[code / BLOCK] as usize][code % BLOCK]
    }

    fn build() -> CharTable {
        CharTable::pack(&flat_bits())
    }

    /// The table of per-character set numbers, in blocks shared where they repeat.
    fn pack(flat: &[Bits]) -> CharTable {
        let mut sets: Vec<Bits> = Vec::new();
        let mut set_ids = std::collections::HashMap::new();
        let ids: Vec<ClassId> = flat
            .iter()
            .map(|&bits| {
                *set_ids.entry(bits).or_insert_with(|| {
                    sets.push(bits);
                    ClassId::try_from(sets.len() - 1)
                        .expect("more distinct class sets than a ClassId can number")
                })
            })
            .collect();
        let mut index = Vec::with_capacity(ids.len() / BLOCK);
        let mut blocks: Vec<[ClassId; BLOCK]> = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for chunk in ids.chunks(BLOCK) {
            let block: [ClassId; BLOCK] = chunk.try_into().expect("whole blocks");
            let id = *seen.entry(block).or_insert_with(|| {
                blocks.push(block);
                blocks.len() - 1
            });
            index.push(id as u16);
        }
        CharTable {
            index,
            blocks,
            sets,
        }
    }
}

/// The class bits of every code point, in one flat array.
fn flat_bits() -> Vec<Bits> {
    let mut flat = vec![0 as Bits; 0x110000];
    mark_classes(&mut flat);
    mark_named(&mut flat);
    // A letter is never also one of utoken's digits.
    for b in flat.iter_mut() {
        if *b & ALPHA != 0 {
            *b &= !PY_DIGIT;
        }
    }
    flat
}

/// Sets the bits of the Unicode classes (general categories, scripts, Python's digits) on
/// every code point of `flat`.
fn mark_classes(flat: &mut [Bits]) {
    // The regex module's classes (Unicode 13.0) and Python's (Unicode 14.0).
    let mut set_ranges = |expr: &str, bit: Bits| {
        let age = if bit & PYTHON_BITS != 0 {
            "14.0"
        } else {
            "13.0"
        };
        for (start, end) in class_ranges(&format!(r"[{expr}&&\p{{Age:{age}}}]")) {
            for code in start..=end {
                flat[code as usize] |= bit;
            }
        }
    };
    set_ranges(r"\pL", L);
    set_ranges(r"\pL", ALPHA);
    set_ranges(r"\pM", M);
    set_ranges(r"\pM", MODIFIER);
    set_ranges(r"\p{Nd}", ND);
    set_ranges(r"\pN", N);
    set_ranges(r"\p{Lu}", LU);
    set_ranges(r"\p{Ll}", LL);
    set_ranges(r"\p{Lo}", LO);
    set_ranges(r"\pP", P);
    set_ranges(r"\pS", S);
    set_ranges(r"\s", SPACE);
    set_ranges(r"[\s\x1C-\x1F]", PY_SPACE);
    set_ranges(r"[\p{Latin}&&\pL]", LATIN_LETTER);
    set_ranges(r"[\p{Greek}&&\pL]", GREEK_LETTER);
    set_ranges(r"[\p{Hebrew}&&\pL]", HEBREW_LETTER);
    set_ranges(r"\p{Uppercase}", UPPER);
    set_ranges(r"[\pL\pN_]", RE_WORD);
    // Python's isdigit beyond \d: Numeric_Type=Digit (a fact of the Unicode data, as
    // Python 3.11 reports it).
    set_ranges(r"\p{Nd}", PY_DIGIT);
    for &(start, end) in PY_EXTRA_DIGITS.iter() {
        for code in start..=end {
            flat[code as usize] |= PY_DIGIT;
        }
    }
}

/// Sets the bits of the characters utoken names one by one or by range.
fn mark_named(flat: &mut [Bits]) {
    let mut set = |codes: &mut dyn Iterator<Item = u32>, bit: Bits| {
        for code in codes {
            flat[code as usize] |= bit;
        }
    };
    set(
        &mut (0x00..0x09)
            .chain(0x0B..0x0D)
            .chain(0x0E..0x20)
            .chain([0x7F])
            .chain(0x80..0xA0)
            .chain([0xAD, 0x640])
            .chain(0x200E..0x2010)
            .chain([0xFEFF]),
        DELETABLE,
    );
    set(
        &mut (0xFE00..0xFE10).chain(0xE0100..0xE01F0),
        VARIATION_SELECTOR,
    );
    set(
        &mut (0x2000..0x200C).chain([0xA0, 0x1361, 0x202F, 0x205F, 0x3000]),
        NON_STD_SPACE,
    );
    set(&mut [0x2024].into_iter(), NON_STD_PUNCT);
    set(&mut (0x2190..0x2C00).chain(0x1F300..0x1F650), MISC_SYMBOL);
    set(&mut ['&' as u32].into_iter(), AMPERSAND);
    set(&mut ['#' as u32].into_iter(), NUMBER_SIGN);
    set(&mut ['@' as u32].into_iter(), AT_SIGN | ATTACH_TAG);
    set(&mut ['<' as u32].into_iter(), LESS_THAN);
    set(&mut ['µ' as u32].into_iter(), MICRO_SIGN);
    set(&mut ['[' as u32].into_iter(), LEFT_BRACKET);
    set(&mut ['/' as u32].into_iter(), SLASH);
    set(&mut ['.' as u32].into_iter(), PERIOD);
    set(&mut [0x200B].into_iter(), ZWSP);
    set(&mut [0x200C].into_iter(), ZWNJ);
    set(&mut [0x200D].into_iter(), ZWJ);
    set(&mut "¦§¨±Ã".chars().map(|c| c as u32), MISCODE);
    set(&mut "'’".chars().map(|c| c as u32), APOSTROPHE);
    set(&mut "'‘’`‛\"“”‟".chars().map(|c| c as u32), QUOTE);
    set(&mut "-−–".chars().map(|c| c as u32), DASH);
    set(&mut (0x0370..0x03E2), GREEK_BLOCK);
    set(&mut (0x0591..0x0600), HEBREW_BLOCK);
    set(&mut (0x0900..0x0D80), INDIC);
    set(&mut (0x1369..0x1380), ETHIOPIC_NUMBER);
    set(&mut (0xAC00..0xD7B0), HANGUL);
    set(&mut ['İ' as u32].into_iter(), UNSTABLE_CASE);
}

/// The code point ranges of a class expression. The expressions are fixed in this file; a
/// failure is a programming error.
fn class_ranges(expr: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::parse(expr).unwrap_or_else(|e| panic!("class {expr}: {e}"));
    let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
        panic!("{expr} is not a Unicode class")
    };
    class
        .ranges()
        .iter()
        .map(|r| (r.start() as u32, r.end() as u32))
        .collect()
}

/// Code points for which Python's `str.isdigit()` holds although they are not `\d`.
const PY_EXTRA_DIGITS: &[(u32, u32)] = &[
    (0xB2, 0xB3),
    (0xB9, 0xB9),
    (0x1369, 0x1371),
    (0x19DA, 0x19DA),
    (0x2070, 0x2070),
    (0x2074, 0x2079),
    (0x2080, 0x2089),
    (0x2460, 0x2468),
    (0x2474, 0x247C),
    (0x2488, 0x2490),
    (0x24EA, 0x24EA),
    (0x24F5, 0x24FD),
    (0x24FF, 0x24FF),
    (0x2776, 0x277E),
    (0x2780, 0x2788),
    (0x278A, 0x2792),
    (0x10A40, 0x10A43),
    (0x10E60, 0x10E68),
    (0x11052, 0x1105A),
    (0x1F100, 0x1F10A),
];

/// Case-insensitive matching of a pattern's ASCII letter, as Python's two regex modules do it:
/// besides the other ASCII case, the Kelvin sign matches `k`, the long s `s`, the dotted
/// capital I `i` (and, in `re` only, the dotless small i too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Python's `re` module.
    Re,
    /// The `regex` module.
    Regex,
}

impl Fold {
    /// The ASCII lower-case letter `c` stands for under this folding, if any.
    #[inline]
    pub fn ascii(self, c: char) -> Option<char> {
        match c {
            'a'..='z' => Some(c),
            'A'..='Z' => Some(c.to_ascii_lowercase()),
            '\u{212A}' => Some('k'),
            'ſ' => Some('s'),
            'İ' => Some('i'),
            'ı' if self == Fold::Re => Some('i'),
            _ => None,
        }
    }

    /// Whether `c` matches the pattern character `p` case-insensitively.
    #[inline]
    pub fn eq(self, p: char, c: char) -> bool {
        if p == c {
            return true;
        }
        match (self.ascii(p), self.ascii(c)) {
            (Some(a), Some(b)) => a == b,
            _ => p.to_lowercase().eq(c.to_lowercase()),
        }
    }
}

/// Python's `str.lower()` of one character where it keeps the length (all but `İ`, which
/// utoken maps to `i` itself before lowering, and the contextual final sigma).
#[inline]
pub fn lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == 'İ' {
        return 'i';
    }
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Python's `str.capitalize()`: the first character in title case, the rest in lower case.
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out = titlecase(first);
    out.push_str(&chars.as_str().to_lowercase());
    out
}

/// The title-case mapping where it differs from the upper-case one (digraphs, ligatures,
/// Georgian letters, which Python 3.11 keeps as they are).
fn titlecase(c: char) -> String {
    match c {
        'Ǆ' | 'ǅ' | 'ǆ' => "ǅ".into(),
        'Ǉ' | 'ǈ' | 'ǉ' => "ǈ".into(),
        'Ǌ' | 'ǋ' | 'ǌ' => "ǋ".into(),
        'Ǳ' | 'ǲ' | 'ǳ' => "ǲ".into(),
        'ﬀ' => "Ff".into(),
        'ﬁ' => "Fi".into(),
        'ﬂ' => "Fl".into(),
        'ﬃ' => "Ffi".into(),
        'ﬄ' => "Ffl".into(),
        'ﬅ' | 'ﬆ' => "St".into(),
        'ß' => "Ss".into(),
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => c.to_string(),
        _ => c.to_uppercase().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_of_common_characters() {
        assert!(is('a', L | LL | LATIN_LETTER | RE_WORD));
        assert!(!is('a', LU | ND | M));
        assert!(is('\u{301}', M) && !is('\u{301}', L));
        assert!(is('٣', ND | PY_DIGIT));
        assert!(is('²', PY_DIGIT) && !is('²', ND));
        assert!(is('\u{1c}', PY_SPACE | DELETABLE) && !is('\u{1c}', SPACE));
        assert!(is('\u{a0}', SPACE | NON_STD_SPACE));
        assert!(is('’', APOSTROPHE | QUOTE | P));
        assert!(is('→', MISC_SYMBOL | S));
        assert!(is('@', AT_SIGN | ATTACH_TAG));
        assert!(is('α', GREEK_LETTER | GREEK_BLOCK | LL));
        assert_eq!(bits('\u{10FFFF}') & (L | ND), 0);
    }

    #[test]
    fn set_numbers_give_every_code_points_bits() {
        let flat = flat_bits();
        let table = CharTable::pack(&flat);
        for (code, &expected) in flat.iter().enumerate() {
            if let Some(c) = char::from_u32(code as u32) {
                assert_eq!(table.sets[table.id(c) as usize], expected, "U+{code:04X}");
            }
        }
        let text = "Zoë's 3½ café — 東京\u{200d}😀 \u{a0}x";
        let line: LineClasses = text.chars().collect();
        let each: Vec<Bits> = text.chars().map(bits).collect();
        assert_eq!(line.view().iter().collect::<Vec<_>>(), each);
        assert_eq!(line.range(2..5).iter().collect::<Vec<_>>(), each[2..5]);
        assert_eq!(line.view().union(), each.iter().fold(0, |a, b| a | b));
        assert_eq!(
            (line[4], line.at(4), line.range(4..6).get(2)),
            (each[4], each[4], None)
        );
    }

    #[test]
    fn folding_as_python_does() {
        assert!(Fold::Re.eq('k', '\u{212A}') && Fold::Regex.eq('s', 'ſ'));
        assert!(Fold::Re.eq('i', 'ı') && !Fold::Regex.eq('i', 'ı'));
        assert!(Fold::Regex.eq('i', 'İ') && !Fold::Regex.eq('a', 'b'));
    }

    #[test]
    fn lower_and_capitalize() {
        assert_eq!(lower('Ä'), 'ä');
        assert_eq!(lower('İ'), 'i');
        assert_eq!(capitalize("wILL"), "Will");
        assert_eq!(capitalize("ǆungla"), "ǅungla");
        assert_eq!(capitalize(""), "");
    }
}
