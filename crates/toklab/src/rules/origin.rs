//! Provenance of a rule-engine token: the step that split it off, utoken's chart type and
//! semantic class, and for dictionary steps the file and line of the entry that matched.

use std::fmt;
use std::sync::Arc;

use crate::token::{Provenance, SourceLoc, TokenKind};

/// utoken's ordered tokenization steps (1 is normalization, 20 the final whitespace split).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    Normalize = 1,
    Xml,
    Url,
    Email,
    Filename,
    Symbol,
    Hashtag,
    Complexes,
    AbbrevPatterns,
    ResourceEntries,
    Initials,
    AbbrevPeriods,
    Contractions,
    Numbers,
    LexicalEntries,
    ComplexNames,
    MtPunct,
    PunctEntries,
    PostPunct,
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
pub enum ChartType {
    Xml,
    BbCode,
    Url,
    UrlL,
    Email,
    Filename,
    Symbol,
    Hashtag,
    Handle,
    AbbrevP,
    AbbrevIp,
    Abbrev,
    Decontraction,
    Repair,
    LexicalP,
    AbbrevI,
    AbbrevPp,
    Number,
    NumberE,
    Lexical,
    LexicalN,
    PunctMt,
    Dash,
    Punct,
    PunctS,
    PunctE,
    Number2,
    WordB,
    NumberB,
    SymbolB,
    PunctB,
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
    pub step: Step,
    pub chart_type: ChartType,
    pub sem_class: Option<Arc<str>>,
    /// The resource line of the entry that matched (dictionary steps only).
    pub entry: Option<SourceLoc>,
}

impl Provenance for RuleOrigin {
    fn source(&self) -> Option<&SourceLoc> {
        self.entry.as_ref()
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
