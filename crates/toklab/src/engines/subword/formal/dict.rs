//! A byte pair dictionary as the paper defines it (Definition 1): an ordered list of rules
//! `u ⟩ v` over symbol strings, priority by position. Any loaded model converts into it (GPT-2
//! merge lists keep their order; rank-only formats such as tiktoken give every rule the rank of
//! the token it makes), so the semantics, the analysis and the incremental algorithm are
//! written once, over this one clear representation.

use rustc_hash::FxHashMap;

/// What one symbol of the initial tokenization `T∅(w)` is: a byte (byte-level models: GPT-2,
/// tiktoken) or a Unicode character (the paper's examples, character-level models).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolUnit {
    /// Bytes of the UTF-8 text.
    Byte,
    /// Unicode characters.
    Char,
}

/// One rule `left ⟩ right`. `rank` is its priority (lower applies first). Rules may share a
/// rank: a SentencePiece model gives pieces of equal score equal rank, and SentencePiece then
/// merges the leftmost such pair first, which is what both semantics do here (under Definition
/// 4 a pass applies the chosen rule only, see `encode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// `u`, the left side.
    pub left: Box<[u8]>,
    /// `v`, the right side.
    pub right: Box<[u8]>,
    /// Priority: lower applies first.
    pub rank: u32,
}

impl Rule {
    /// A rule from its two sides, as bytes or text.
    pub fn new(left: impl AsRef<[u8]>, right: impl AsRef<[u8]>, rank: u32) -> Rule {
        Rule {
            left: left.as_ref().into(),
            right: right.as_ref().into(),
            rank,
        }
    }

    /// The token the rule makes, `uv`.
    pub fn merged(&self) -> Vec<u8> {
        [&self.left[..], &self.right[..]].concat()
    }
}

/// Sentinel id for a symbol no rule mentions: it never matches a pair.
pub const NO_ID: u32 = u32::MAX;

/// An ordered byte pair dictionary, with its strings interned so that pairs are looked up by
/// two integers.
#[derive(Clone, Debug)]
pub struct Dictionary {
    unit: SymbolUnit,
    rules: Vec<Rule>,
    strings: Vec<Box<[u8]>>,
    ids: FxHashMap<Box<[u8]>, u32>,
    /// `(left id, right id)` → index of the first (highest-priority) rule with that pair.
    pairs: FxHashMap<(u32, u32), u32>,
    /// Per rule: interned ids of left, right and merged strings.
    rule_ids: Vec<[u32; 3]>,
    /// Later rules whose pair an earlier rule already has: never applied, reported by analysis.
    duplicates: Vec<usize>,
}

/// Why a list of rules cannot be a dictionary.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DictError {
    /// A rule with nothing on one side would merge a symbol with nothing.
    #[error("rule {index} has an empty side")]
    EmptySide {
        /// The rule's position in the list, from 0.
        index: usize,
    },
    /// Rules must come in priority order, so the list position and the rank agree.
    #[error(
        "rule {index} (rank {rank}) comes after a rule of rank {previous}: rules must be in rank order"
    )]
    OutOfOrder {
        /// The rule's position in the list, from 0.
        index: usize,
        /// Its rank.
        rank: u32,
        /// The higher rank of the rule before it.
        previous: u32,
    },
    /// An item of [`Dictionary::parse_paper`]'s notation that is not `left right`.
    #[error("rule `{rule}` is not two sides")]
    NotTwoSides {
        /// The item as written.
        rule: String,
    },
}

impl From<DictError> for crate::Error {
    fn from(error: DictError) -> Self {
        crate::Error::invalid(error)
    }
}

impl Dictionary {
    /// A dictionary from rules in priority order (ranks ascending).
    pub fn new(unit: SymbolUnit, rules: Vec<Rule>) -> Result<Dictionary, DictError> {
        let mut dict = Dictionary {
            unit,
            rules: Vec::with_capacity(rules.len()),
            strings: Vec::new(),
            ids: FxHashMap::default(),
            pairs: FxHashMap::default(),
            rule_ids: Vec::with_capacity(rules.len()),
            duplicates: Vec::new(),
        };
        for rule in rules {
            dict.push(rule)?;
        }
        Ok(dict)
    }

    /// Appends a rule of lower (or equal) priority than every rule so far. Lets a rank-only
    /// table be converted rule by rule, encoding each token with the rules before it.
    pub fn push(&mut self, rule: Rule) -> Result<(), DictError> {
        let index = self.rules.len();
        if rule.left.is_empty() || rule.right.is_empty() {
            return Err(DictError::EmptySide { index });
        }
        if let Some(previous) = self.rules.last()
            && rule.rank < previous.rank
        {
            return Err(DictError::OutOfOrder {
                index,
                rank: rule.rank,
                previous: previous.rank,
            });
        }
        let left = self.intern(&rule.left);
        let right = self.intern(&rule.right);
        let merged = self.intern(&rule.merged());
        match self.pairs.entry((left, right)) {
            std::collections::hash_map::Entry::Occupied(_) => self.duplicates.push(index),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(index as u32);
            }
        }
        self.rule_ids.push([left, right, merged]);
        self.rules.push(rule);
        Ok(())
    }

    /// A dictionary written the paper's way: `"ab a, a b"` with `⟩` or a space between the two
    /// sides of a rule, rules separated by commas, characters as symbols, priority by position.
    /// For tests and lessons.
    pub fn parse_paper(text: &str) -> Result<Dictionary, DictError> {
        let mut rules = Vec::new();
        for (rank, item) in text.split(',').map(str::trim).enumerate() {
            let sides: Vec<&str> = item
                .split(|c: char| c.is_whitespace() || c == '⟩' || c == '≀')
                .filter(|s| !s.is_empty())
                .collect();
            let [left, right] = sides[..] else {
                return Err(DictError::NotTwoSides {
                    rule: item.to_string(),
                });
            };
            rules.push(Rule::new(left, right, rank as u32));
        }
        Dictionary::new(SymbolUnit::Char, rules)
    }

    fn intern(&mut self, s: &[u8]) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(s.into());
        self.ids.insert(s.into(), id);
        id
    }

    /// What the rules' symbols are, which decides how text is split before merging.
    pub fn unit(&self) -> SymbolUnit {
        self.unit
    }

    /// The rules in priority order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// How many rules, duplicates included.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are no rules (every text stays in single symbols).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Indices of rules whose pair an earlier rule already has (never applied).
    pub fn duplicates(&self) -> &[usize] {
        &self.duplicates
    }

    /// The interned id of a string, if any rule mentions it.
    pub fn id(&self, s: &[u8]) -> Option<u32> {
        self.ids.get(s).copied()
    }

    /// The string of an interned id.
    pub fn string(&self, id: u32) -> &[u8] {
        &self.strings[id as usize]
    }

    /// The ids of rule `index`'s left side, right side and merged token.
    pub fn rule_ids(&self, index: usize) -> [u32; 3] {
        self.rule_ids[index]
    }

    /// The highest-priority rule for an adjacent pair of ids.
    #[inline]
    pub fn rule_for(&self, left: u32, right: u32) -> Option<usize> {
        if left == NO_ID || right == NO_ID {
            return None;
        }
        self.pairs.get(&(left, right)).map(|&i| i as usize)
    }

    /// `max{|uv|}` in symbols: the factor in the lookahead bounds.
    pub fn max_rule_symbols(&self) -> usize {
        self.rules
            .iter()
            .map(|r| self.symbol_count(&r.merged()))
            .max()
            .unwrap_or(0)
    }

    /// The number of symbols (bytes or characters) in a string.
    pub fn symbol_count(&self, s: &[u8]) -> usize {
        match self.unit {
            SymbolUnit::Byte => s.len(),
            SymbolUnit::Char => symbol_ends(SymbolUnit::Char, s).len(),
        }
    }

    /// Shows a dictionary string: text where it is valid UTF-8, with control characters and
    /// bytes that are not made visible (`\n`, `\x9f`).
    pub fn show(s: &[u8]) -> String {
        crate::core::trace::show_bytes(s)
    }

    /// Shows rule `index` as `«u» ⟩ «v»`.
    pub fn show_rule(&self, index: usize) -> String {
        let rule = &self.rules[index];
        format!(
            "«{}» ⟩ «{}»",
            Dictionary::show(&rule.left),
            Dictionary::show(&rule.right)
        )
    }
}

/// The end offsets of the initial symbols of `s`: every byte, or every character (a byte that
/// is not valid UTF-8 is a symbol of its own, so nothing is lost).
pub fn symbol_ends(unit: SymbolUnit, s: &[u8]) -> Vec<usize> {
    match unit {
        SymbolUnit::Byte => (1..=s.len()).collect(),
        SymbolUnit::Char => {
            let mut ends = Vec::with_capacity(s.len());
            let mut at = 0;
            for chunk in s.utf8_chunks() {
                for c in chunk.valid().chars() {
                    at += c.len_utf8();
                    ends.push(at);
                }
                for _ in chunk.invalid() {
                    at += 1;
                    ends.push(at);
                }
            }
            ends
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_notation_errors_quote_the_rule() {
        let error = Dictionary::parse_paper("a b, abc").unwrap_err();
        assert_eq!(error, DictError::NotTwoSides { rule: "abc".into() });
        assert_eq!(error.to_string(), "rule `abc` is not two sides");
        assert_eq!(
            Dictionary::parse_paper("a b, a").unwrap_err().to_string(),
            "rule `a` is not two sides"
        );
    }

    #[test]
    fn paper_notation_and_ids() {
        let d = Dictionary::parse_paper("a b, a bc, b c, ab c").unwrap();
        assert_eq!(d.len(), 4);
        let (a, b) = (d.id(b"a").unwrap(), d.id(b"b").unwrap());
        assert_eq!(d.rule_for(a, b), Some(0));
        assert_eq!(d.rule_for(b, a), None);
        assert_eq!(d.show_rule(3), "«ab» ⟩ «c»");
        assert_eq!(d.max_rule_symbols(), 3);
    }

    #[test]
    fn rejects_disorder_and_empty_sides() {
        let out_of_order = vec![Rule::new("a", "b", 2), Rule::new("b", "c", 1)];
        assert!(matches!(
            Dictionary::new(SymbolUnit::Byte, out_of_order),
            Err(DictError::OutOfOrder { index: 1, .. })
        ));
        let tied = vec![Rule::new("a", "bc", 0), Rule::new("ab", "d", 0)];
        assert!(Dictionary::new(SymbolUnit::Byte, tied).is_ok());
        assert!(Dictionary::new(SymbolUnit::Byte, vec![Rule::new("", "b", 0)]).is_err());
    }

    #[test]
    fn duplicates_are_kept_first() {
        let d = Dictionary::parse_paper("a b, b c, a b").unwrap();
        assert_eq!(d.duplicates(), &[2]);
        let (a, b) = (d.id(b"a").unwrap(), d.id(b"b").unwrap());
        assert_eq!(d.rule_for(a, b), Some(0));
    }

    #[test]
    fn char_symbols_keep_invalid_bytes() {
        assert_eq!(symbol_ends(SymbolUnit::Char, "aé".as_bytes()), vec![1, 3]);
        assert_eq!(symbol_ends(SymbolUnit::Char, b"a\xffb"), vec![1, 2, 3]);
        assert_eq!(symbol_ends(SymbolUnit::Byte, "é".as_bytes()), vec![1, 2]);
        assert_eq!(Dictionary::show(b"a\xff\n"), "a<0xFF>␊");
    }
}
