//! The Penn Treebank conventions as NLTK's `TreebankWordTokenizer` and
//! `TreebankWordDetokenizer` write them: ordered regex rewrites of the whole text. The patterns
//! are facts of the format (what a conforming tokenizer must do), restated for Rust's regex
//! syntax: Python's `$` (end, or before a final newline) is `(?=\n?\z)`.

/// One rewrite: a name for traces, the pattern, and its replacement (`$N` is group N).
#[derive(Clone, Copy, Debug)]
pub struct PtbRule {
    /// What the rule does, as the trace names it.
    pub name: &'static str,
    /// The pattern (fancy-regex syntax).
    pub pattern: &'static str,
    /// The replacement, `$N` for group N.
    pub replacement: &'static str,
}

/// One step of the tokenizer: a rewrite, or padding the whole text with a space on each side
/// (done once, before the closing quotes and clitics, whose patterns need a space after).
#[derive(Clone, Copy, Debug)]
pub enum PtbStep {
    /// A rewrite rule.
    Rule(PtbRule),
    /// `" " + text + " "`.
    Pad,
    /// Whitespace trimmed from both ends (the detokenizer's `strip()`).
    Strip,
}

const fn rule(name: &'static str, pattern: &'static str, replacement: &'static str) -> PtbStep {
    PtbStep::Rule(PtbRule {
        name,
        pattern,
        replacement,
    })
}

/// Opening quotes, punctuation and brackets, before the parentheses may be converted.
pub const BEFORE_PARENS: &[PtbStep] = &[
    rule("opening quote at the start", r#"\A""#, "``"),
    rule("`` stands apart", r"(``)", " $1 "),
    rule(
        "opening quote after a space or bracket",
        r#"([ (\[{<])("|'')"#,
        "$1 `` ",
    ),
    rule(
        "comma or colon before a non-digit",
        r"([:,])([^\d])",
        " $1 $2",
    ),
    rule("comma or colon at the end", r"([:,])(?=\n?\z)", " $1 "),
    rule("ellipsis", r"\.\.\.", " ... "),
    rule("symbol ; @ # $ % &", r"[;@#$%&]", " $0 "),
    rule(
        "final period (before closing brackets and quotes)",
        r#"([^.])(\.)([\])}>"']*)\s*(?=\n?\z)"#,
        "$1 $2$3 ",
    ),
    rule("? and !", r"[?!]", " $0 "),
    rule("single quote before a space", r"([^'])' ", "$1 ' "),
    rule("bracket", r"[\]\[(){}<>]", " $0 "),
];

/// `?parens=1`: brackets written as the Treebank's -LRB- … -RCB-.
pub const CONVERT_PARENS: &[PtbStep] = &[
    rule("( as -LRB-", r"\(", "-LRB-"),
    rule(") as -RRB-", r"\)", "-RRB-"),
    rule("[ as -LSB-", r"\[", "-LSB-"),
    rule("] as -RSB-", r"\]", "-RSB-"),
    rule("{ as -LCB-", r"\{", "-LCB-"),
    rule("} as -RCB-", r"\}", "-RCB-"),
];

/// Dashes, closing quotes, clitics and the two- and three-part contractions.
pub const AFTER_PARENS: &[PtbStep] = &[
    rule("double dash", r"--", " -- "),
    PtbStep::Pad,
    rule("closing ''", r"''", " '' "),
    rule("closing \" as ''", r#"""#, " '' "),
    rule(
        "clitic 's 'm 'd or '",
        r"([^' ])('[sS]|'[mM]|'[dD]|') ",
        "$1 $2 ",
    ),
    rule(
        "clitic 'll 're 've n't",
        r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ",
        "$1 $2 ",
    ),
    rule("can|not", r"(?i)\b(can)(not)\b", " $1 $2 "),
    rule("d|'ye", r"(?i)\b(d)('ye)\b", " $1 $2 "),
    rule("gim|me", r"(?i)\b(gim)(me)\b", " $1 $2 "),
    rule("gon|na", r"(?i)\b(gon)(na)\b", " $1 $2 "),
    rule("got|ta", r"(?i)\b(got)(ta)\b", " $1 $2 "),
    rule("lem|me", r"(?i)\b(lem)(me)\b", " $1 $2 "),
    rule("more|'n", r"(?i)\b(more)('n)\b", " $1 $2 "),
    rule("wan|na", r"(?i)\b(wan)(na)(?=\s)", " $1 $2 "),
    rule("'t|is", r"(?i) ('t)(is)\b", " $1 $2 "),
    rule("'t|was", r"(?i) ('t)(was)\b", " $1 $2 "),
];

/// The detokenizer's rewrites of the space-joined tokens, in order; `strip` marks where the
/// text is trimmed ([`PtbStep::Strip`]). They undo the tokenizer's padding rule by rule.
pub const DETOKENIZE: &[PtbStep] = &[
    PtbStep::Pad,
    rule("'t|is", r"(?i) ('t)\s(is)\b", "$1$2"),
    rule("'t|was", r"(?i) ('t)\s(was)\b", "$1$2"),
    rule("can|not", r"(?i)\b(can)\s(not)\b", "$1$2"),
    rule("d|'ye", r"(?i)\b(d)\s('ye)\b", "$1$2"),
    rule("gim|me", r"(?i)\b(gim)\s(me)\b", "$1$2"),
    rule("gon|na", r"(?i)\b(gon)\s(na)\b", "$1$2"),
    rule("got|ta", r"(?i)\b(got)\s(ta)\b", "$1$2"),
    rule("lem|me", r"(?i)\b(lem)\s(me)\b", "$1$2"),
    rule("more|'n", r"(?i)\b(more)\s('n)\b", "$1$2"),
    rule("wan|na", r"(?i)\b(wan)\s(na)(?=\s)", "$1$2"),
    rule(
        "clitic 'll 're 've n't",
        r"([^' ])\s('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ",
        "$1$2 ",
    ),
    rule(
        "clitic 's 'm 'd or '",
        r"([^' ])\s('[sS]|'[mM]|'[dD]|') ",
        "$1$2 ",
    ),
    rule("'' after a word", r"([^'\s])\s('')", "$1$2"),
    rule(
        "closing quote after punctuation",
        r#"([,.;:!?'])\s+("|'')"#,
        "$1$2",
    ),
    rule("'' before punctuation", r"('')\s([.,:)\]>};%])", "$1$2"),
    rule("'' as \"", r"''", "\""),
    rule("quote order ,\"' as ,'\"", r#"([,.;:!?])"(')"#, "$1$2\""),
    PtbStep::Strip,
    rule("double dash", r" -- ", "--"),
];

/// `?parens=1` on the way back: -LRB- … -RCB- as brackets again.
pub const DETOKENIZE_PARENS: &[PtbStep] = &[
    rule("-LRB- as (", r"-LRB-", "("),
    rule("-RRB- as )", r"-RRB-", ")"),
    rule("-LSB- as [", r"-LSB-", "["),
    rule("-RSB- as ]", r"-RSB-", "]"),
    rule("-LCB- as {", r"-LCB-", "{"),
    rule("-RCB- as }", r"-RCB-", "}"),
];

/// The detokenizer's rewrites after the brackets are back.
pub const DETOKENIZE_REST: &[PtbStep] = &[
    rule("opening bracket", r"([\[({<])\s", "$1"),
    rule("closing bracket", r"\s([\])}>])", "$1"),
    rule(
        "closing bracket before punctuation",
        r"([\])}>])\s([:;,.])",
        "$1$2",
    ),
    rule("single quote", r"([^'])\s'\s", "$1' "),
    rule("? and !", r"\s([?!])", "$1"),
    rule("period", r#"([^.])\s(\.)(?!\.)([\])}>"']*)"#, "$1$2$3"),
    rule("# and $", r"([#$])\s", "$1"),
    rule("; and %", r"\s([;%])", "$1"),
    rule("ellipsis", r"\s\.\.\.\s", "..."),
    rule("comma or colon", r"\s([:,])", "$1"),
    rule(
        "opening `` after a space or bracket",
        r"([ (\[{<])\s``",
        "$1``",
    ),
    rule("`` before a word", r"(``)\s", "$1"),
    rule("`` as \"", r"``", "\""),
    PtbStep::Strip,
];
