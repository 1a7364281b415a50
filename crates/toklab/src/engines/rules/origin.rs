//! Provenance of a rule-engine token: the step that split it off, utoken's chart type and
//! semantic class, and for dictionary steps the file and line of the entry that matched.

use std::fmt;
use std::sync::Arc;

use crate::core::token::{Provenance, SourceLoc, TokenKind};

/// utoken's ordered tokenization steps (1 is normalization, 20 the final whitespace split).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// 1: character normalization before any split.
    Normalize = 1,
    /// 2: XML and BBCode tags.
    Xml,
    /// 3: URLs.
    Url,
    /// 4: e-mail addresses.
    Email,
    /// 5: file names.
    Filename,
    /// 6: runs of symbols kept together.
    Symbol,
    /// 7: hashtags and @-handles.
    Hashtag,
    /// 8: utoken's complex-token step, which splits nothing off here.
    Complexes,
    /// 9: abbreviations recognised by pattern.
    AbbrevPatterns,
    /// 10: abbreviations and other resource entries.
    ResourceEntries,
    /// 11: initials such as `J.`.
    Initials,
    /// 12: abbreviations ending in a period.
    AbbrevPeriods,
    /// 13: contractions split into their parts.
    Contractions,
    /// 14: numbers, with their separators.
    Numbers,
    /// 15: lexical resource entries.
    LexicalEntries,
    /// 16: names joined by dashes.
    ComplexNames,
    /// 17: punctuation split off for machine translation.
    MtPunct,
    /// 18: punctuation resource entries.
    PunctEntries,
    /// 19: punctuation left after the other steps.
    PostPunct,
    /// 20: the final whitespace split.
    Main,
}

impl Step {
    /// The steps in utoken's order.
    pub const ALL: [Step; 20] = [
        Step::Normalize,
        Step::Xml,
        Step::Url,
        Step::Email,
        Step::Filename,
        Step::Symbol,
        Step::Hashtag,
        Step::Complexes,
        Step::AbbrevPatterns,
        Step::ResourceEntries,
        Step::Initials,
        Step::AbbrevPeriods,
        Step::Contractions,
        Step::Numbers,
        Step::LexicalEntries,
        Step::ComplexNames,
        Step::MtPunct,
        Step::PunctEntries,
        Step::PostPunct,
        Step::Main,
    ];

    /// The step's position in utoken's list (1–20).
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The step a segment goes to when this one finds nothing in it.
    pub fn next(self) -> Option<Step> {
        Step::ALL.get(self as usize).copied()
    }

    /// utoken's name for the step (its method name), so traces can be read beside its code.
    pub fn name(self) -> &'static str {
        match self {
            Step::Normalize => "normalize_characters",
            Step::Xml => "tokenize_xmls",
            Step::Url => "tokenize_urls",
            Step::Email => "tokenize_emails",
            Step::Filename => "tokenize_filenames",
            Step::Symbol => "tokenize_symbol_group",
            Step::Hashtag => "tokenize_hashtags_and_handles",
            Step::Complexes => "tokenize_complexes",
            Step::AbbrevPatterns => "tokenize_abbreviation_patterns",
            Step::ResourceEntries => "tokenize_according_to_resource_entries",
            Step::Initials => "tokenize_abbreviation_initials",
            Step::AbbrevPeriods => "tokenize_abbreviation_periods",
            Step::Contractions => "tokenize_contractions",
            Step::Numbers => "tokenize_numbers",
            Step::LexicalEntries => "tokenize_lexical_according_to_resource_entries",
            Step::ComplexNames => "tokenize_complex_names",
            Step::MtPunct => "tokenize_mt_punctuation",
            Step::PunctEntries => "tokenize_punctuation_according_to_resource_entries",
            Step::PostPunct => "tokenize_post_punct",
            Step::Main => "tokenize_main",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} {}", self.number(), self.name())
    }
}

/// The `type` of a token in utoken's chart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChartType {
    /// `XML`: an XML tag.
    Xml,
    /// `BBCode`: a BBCode tag.
    BbCode,
    /// `URL`: a URL.
    Url,
    /// `URL-L`: a URL found by its left context.
    UrlL,
    /// `EMAIL-ADDRESS`.
    Email,
    /// `FILENAME`.
    Filename,
    /// `SYMBOL`: a symbol group.
    Symbol,
    /// `HASHTAG`.
    Hashtag,
    /// `HANDLE`: an @-handle.
    Handle,
    /// `ABBREV-P`: an abbreviation by pattern.
    AbbrevP,
    /// `ABBREV-IP`: an abbreviation by the language's phonetic pattern.
    AbbrevIp,
    /// `ABBREV`: an abbreviation resource entry.
    Abbrev,
    /// `DECONTRACTION`: a part of a split contraction.
    Decontraction,
    /// `REPAIR`: a repaired (re-joined) token.
    Repair,
    /// `LEXICAL-P`: a lexical entry of high priority.
    LexicalP,
    /// `ABBREV-I`: an initial.
    AbbrevI,
    /// `ABBREV-PP`: an abbreviation by its period.
    AbbrevPp,
    /// `NUMBER`.
    Number,
    /// `NUMBER-E`: an Ethiopic numeral.
    NumberE,
    /// `LEXICAL`: a lexical resource entry.
    Lexical,
    /// `LEXICAL-N`: a name joined by dashes (step 16).
    LexicalN,
    /// `PUNCT-MT`: punctuation split for machine translation.
    PunctMt,
    /// `DASH`.
    Dash,
    /// `PUNCT`: a punctuation entry.
    Punct,
    /// `PUNCT-S`: punctuation split off the start of a word.
    PunctS,
    /// `PUNCT-E`: punctuation split off the end of a word.
    PunctE,
    /// `NUMBER-2`: an integer left after punctuation splitting (step 19).
    Number2,
    /// `WORD-B`: a word from the final whitespace split.
    WordB,
    /// `NUMBER-B`: a number from the final split.
    NumberB,
    /// `SYMBOL-B`: a symbol from the final split.
    SymbolB,
    /// `PUNCT-B`: punctuation from the final split.
    PunctB,
    /// `MISC-B`: anything else from the final split.
    MiscB,
    /// A lexical entry's `::tag` (such as `DECONTRACTION-R`).
    Tag(Arc<str>),
}

impl ChartType {
    /// The type as utoken's chart writes it.
    pub fn as_str(&self) -> &str {
        match self {
            ChartType::Xml => "XML",
            ChartType::BbCode => "BBCode",
            ChartType::Url => "URL",
            ChartType::UrlL => "URL-L",
            ChartType::Email => "EMAIL-ADDRESS",
            ChartType::Filename => "FILENAME",
            ChartType::Symbol => "SYMBOL",
            ChartType::Hashtag => "HASHTAG",
            ChartType::Handle => "HANDLE",
            ChartType::AbbrevP => "ABBREV-P",
            ChartType::AbbrevIp => "ABBREV-IP",
            ChartType::Abbrev => "ABBREV",
            ChartType::Decontraction => "DECONTRACTION",
            ChartType::Repair => "REPAIR",
            ChartType::LexicalP => "LEXICAL-P",
            ChartType::AbbrevI => "ABBREV-I",
            ChartType::AbbrevPp => "ABBREV-PP",
            ChartType::Number => "NUMBER",
            ChartType::NumberE => "NUMBER-E",
            ChartType::Lexical => "LEXICAL",
            ChartType::LexicalN => "LEXICAL-N",
            ChartType::PunctMt => "PUNCT-MT",
            ChartType::Dash => "DASH",
            ChartType::Punct => "PUNCT",
            ChartType::PunctS => "PUNCT-S",
            ChartType::PunctE => "PUNCT-E",
            ChartType::Number2 => "NUMBER-2",
            ChartType::WordB => "WORD-B",
            ChartType::NumberB => "NUMBER-B",
            ChartType::SymbolB => "SYMBOL-B",
            ChartType::PunctB => "PUNCT-B",
            ChartType::MiscB => "MISC-B",
            ChartType::Tag(t) => t,
        }
    }

    /// The coarse kind the views colour by.
    pub fn kind(&self, sem_class: Option<&str>) -> TokenKind {
        match self {
            ChartType::Xml | ChartType::BbCode => TokenKind::Xml,
            ChartType::Url | ChartType::UrlL => TokenKind::Url,
            ChartType::Email => TokenKind::Email,
            ChartType::Filename => TokenKind::Filename,
            ChartType::Symbol | ChartType::SymbolB => TokenKind::Symbol,
            ChartType::Hashtag => TokenKind::Hashtag,
            ChartType::Handle => TokenKind::Handle,
            ChartType::AbbrevP
            | ChartType::AbbrevIp
            | ChartType::Abbrev
            | ChartType::AbbrevI
            | ChartType::AbbrevPp => TokenKind::Abbreviation,
            ChartType::Decontraction => TokenKind::Contraction,
            ChartType::Tag(t) if t.starts_with("DECONTRACTION") => TokenKind::Contraction,
            ChartType::Number | ChartType::NumberE | ChartType::Number2 | ChartType::NumberB => {
                TokenKind::Number
            }
            ChartType::PunctMt
            | ChartType::Dash
            | ChartType::Punct
            | ChartType::PunctS
            | ChartType::PunctE
            | ChartType::PunctB => TokenKind::Punct,
            ChartType::MiscB => TokenKind::Other,
            _ if sem_class == Some("emoticon") => TokenKind::Emoticon,
            _ => TokenKind::Word,
        }
    }
}

impl fmt::Display for ChartType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a rule-engine token exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOrigin {
    /// The step that split the token off.
    pub step: Step,
    /// utoken's chart type for it.
    pub chart_type: ChartType,
    /// The matching entry's `::sem-class`, if it has one.
    pub sem_class: Option<Arc<str>>,
    /// The resource line of the entry that matched (dictionary steps only).
    pub entry: Option<SourceLoc>,
    /// Set on the first token past utoken's depth limit, where the rest of the line stopped
    /// being analysed: the output is utoken's, but the user should hear of it.
    pub gave_up: Option<&'static str>,
}

impl Provenance for RuleOrigin {
    fn source(&self) -> Option<&SourceLoc> {
        self.entry.as_ref()
    }

    fn gave_up(&self) -> Option<&'static str> {
        self.gave_up
    }
}

impl fmt::Display for RuleOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.step, self.chart_type)?;
        if let Some(sem) = &self.sem_class {
            write!(f, " sem-class {sem}")?;
        }
        if let Some(entry) = &self.entry {
            write!(f, " from {entry}")?;
        }
        if let Some(reason) = self.gave_up {
            write!(f, "; {reason}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_numbered_and_chained() {
        assert_eq!(Step::Xml.number(), 2);
        assert_eq!(Step::Main.number(), 20);
        assert_eq!(Step::PostPunct.next(), Some(Step::Main));
        assert_eq!(Step::Main.next(), None);
        assert_eq!(Step::Numbers.to_string(), "step 14 tokenize_numbers");
    }

    #[test]
    fn origin_display() {
        let o = RuleOrigin {
            step: Step::ResourceEntries,
            chart_type: ChartType::Abbrev,
            sem_class: Some(Arc::from("military-rank")),
            entry: Some(SourceLoc {
                file: Arc::from("tok.txt"),
                line: 12,
            }),
            gave_up: None,
        };
        assert_eq!(
            o.to_string(),
            "step 10 tokenize_according_to_resource_entries ABBREV sem-class military-rank from tok.txt:12"
        );
        assert_eq!(
            ChartType::Tag(Arc::from("DECONTRACTION-R")).kind(None),
            TokenKind::Contraction
        );
    }
}
