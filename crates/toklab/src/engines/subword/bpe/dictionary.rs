//! A loaded model as a formal byte pair dictionary (`crate::engines::subword::formal::Dictionary`), so the
//! paper's machinery — both semantics as step lists, properness, usefulness, lookahead bounds,
//! Algorithm 1 — runs on the real GPT-2, tiktoken and SentencePiece tables, and the encoder can
//! follow Definition 4 (`semantics=hf`).
//!
//! - A merge list (GPT-2 `vocab.bpe`, the merges of a `tokenizer.json`) is the dictionary as
//!   written: rule = line, rank = line, proper or not.
//! - A ranked vocabulary (tiktoken, SentencePiece) implies a rule for every split of a token
//!   into two tokens. Only one of them can ever apply: the last merge that encoding the
//!   token's own string makes (tokens never cross the span of a token that is being built, so
//!   its derivation inside any text is the derivation of its own string, Lemma 2). So each token
//!   gets that one rule, at its own rank; a token that its own string does not encode to is
//!   unreachable by merging (tiktoken still outputs it when a whole piece is that token). Every
//!   step of the encoder uses one of these rules and the rest never applies, so the dictionary
//!   encodes exactly as the model does, under both semantics.
//!
//! Built once per model, on first use ([`super::BpeModel::formal`]); encoding under the
//! default semantics never needs it.

use super::merge_loop::{MergeStep, NO_ID, Symbol};
use super::model::{Alphabet, BpeModel, Rules};
use super::vocab::Vocab;
use crate::core::token::Span;
use crate::core::trace::Observer;
use crate::engines::subword::formal::{
    Comparison, Dictionary, MergeEvent, Rule, Semantics, SymbolUnit, WordSteps, encode_observed,
};

/// Where the dictionary's rules came from, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleSource {
    /// An explicit merge list, taken as written.
    MergeList,
    /// A ranked vocabulary (tiktoken ranks, SentencePiece scores): one rule per reachable token.
    RankedVocabulary,
}

impl RuleSource {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            RuleSource::MergeList => "merge list",
            RuleSource::RankedVocabulary => "ranked vocabulary, one rule per reachable token",
        }
    }
}

/// A model's rules as a formal dictionary, with the vocabulary ids of every rule.
#[derive(Debug)]
pub struct FormalDictionary {
    /// The rules as the paper's dictionary, over bytes or characters as the model's alphabet.
    pub dict: Dictionary,
    /// Per rule of `dict`: the ids of its left side, right side and the token it makes.
    pub tokens: Vec<[u32; 3]>,
    /// Tokens of two or more symbols that merging never makes (ranked vocabularies only),
    /// ascending by rank.
    pub unreachable: Vec<u32>,
    /// How the rules were found, for reports.
    pub source: RuleSource,
}

impl FormalDictionary {
    /// The dictionary of a model's rules.
    pub fn of(model: &BpeModel) -> FormalDictionary {
        let unit = match model.alphabet {
            Alphabet::Bytes(_) => SymbolUnit::Byte,
            Alphabet::Chars => SymbolUnit::Char,
        };
        let mut dict = Dictionary::new(unit, Vec::new()).expect("an empty dictionary");
        let mut tokens = Vec::new();
        let mut unreachable = Vec::new();
        let vocab = &model.vocab;
        let bytes = |id: u32| vocab.bytes(id).expect("rules name vocabulary tokens");
        let source = match &model.rules {
            Rules::Table(table) => {
                for rule in table.rules() {
                    let formal = Rule::new(bytes(rule.left), bytes(rule.right), rule.rank);
                    dict.push(formal).expect("rules() is in rank order");
                    tokens.push([rule.left, rule.right, rule.merged]);
                }
                RuleSource::MergeList
            }
            Rules::Implied(_) | Rules::Concatenation(_) => {
                let mut ranked: Vec<(u32, u32)> = vocab
                    .iter()
                    .filter_map(|(id, _)| model.rank_of_token(id).map(|rank| (rank, id)))
                    .collect();
                ranked.sort_unstable();
                let mut symbols = Vec::new();
                for (rank, id) in ranked {
                    let token = bytes(id);
                    symbols.clear();
                    model.initial_symbols(token, &mut symbols);
                    if symbols.len() < 2 {
                        continue;
                    }
                    let mut last = None;
                    model.merge_fast(token, &mut symbols, &mut |step| last = Some(step));
                    match last {
                        Some(step) if symbols.len() == 1 && symbols[0].id == id => {
                            let formal = Rule::new(bytes(step.left), bytes(step.right), rank);
                            dict.push(formal).expect("tokens are taken in rank order");
                            tokens.push([step.left, step.right, id]);
                        }
                        _ => unreachable.push(id),
                    }
                }
                RuleSource::RankedVocabulary
            }
        };
        FormalDictionary {
            dict,
            tokens,
            unreachable,
            source,
        }
    }

    /// Merges the symbols of `piece` by the dictionary under `semantics`, in O(n log n):
    /// what the encoder does for `semantics=hf` (and for `sp` gives what the fast loop gives).
    /// `observe` sees every step with the vocabulary's ids; `symbols` ends as the tokens.
    pub fn merge(
        &self,
        vocab: &Vocab,
        piece: &[u8],
        semantics: Semantics,
        symbols: &mut Vec<Symbol>,
        observe: &mut dyn Observer<MergeStep>,
    ) {
        let mut ends = Vec::with_capacity(piece.len());
        encode_observed(
            &self.dict,
            piece,
            semantics,
            &mut ends,
            &mut |e: &MergeEvent| {
                let [left, right, merged] = self.tokens[e.rule];
                observe.observe(MergeStep {
                    rank: self.dict.rules()[e.rule].rank,
                    left,
                    right,
                    merged,
                    start: e.start as u32,
                });
            },
        );
        symbols.clear();
        let mut at = 0;
        for end in ends {
            symbols.push(Symbol {
                id: vocab.id(&piece[at..end]).unwrap_or(NO_ID),
                start: at as u32,
            });
            at = end;
        }
    }

    /// The steps of one word under both semantics, showing `shown`; `span` is where the word
    /// is in the original text, `to_text` how its bytes map there when they are not the text
    /// under `span` (see [`WordSteps::to_text`]).
    pub fn word_steps(
        &self,
        word: &[u8],
        span: Span,
        to_text: Option<Vec<usize>>,
        shown: Semantics,
    ) -> WordSteps {
        let comparison = Comparison::new(&self.dict, word);
        let mut steps = WordSteps::compared(
            &self.dict,
            span,
            comparison,
            shown == Semantics::HuggingFace,
        );
        steps.to_text = to_text;
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::bpe::merge_table::MergeTable;
    use crate::engines::subword::formal::{Semantics, encode_strings};
    use std::sync::OnceLock;

    /// A rank-only vocabulary: a b c ab bc abc, then «aca» that merging cannot reach.
    fn ranked() -> BpeModel {
        let mut vocab = Vocab::default();
        for (id, t) in ["a", "b", "c", "ab", "bc", "abc", "aca"].iter().enumerate() {
            vocab.insert(id as u32, t.as_bytes()).unwrap();
        }
        BpeModel::new(vocab, Rules::Concatenation(OnceLock::new()))
    }

    #[test]
    fn a_ranked_vocabulary_gives_one_rule_per_reachable_token() {
        let model = ranked();
        let formal = model.formal();
        let shown: Vec<String> = (0..formal.dict.len())
            .map(|i| formal.dict.show_rule(i))
            .collect();
        // «abc» is only ever made from «ab» «c»: «a» «bc» never meet (a b merges first).
        assert_eq!(shown, ["«a» ⟩ «b»", "«b» ⟩ «c»", "«ab» ⟩ «c»"]);
        assert_eq!(formal.tokens[2], [3, 2, 5]);
        assert_eq!(formal.unreachable, [6]);
        assert_eq!(formal.source, RuleSource::RankedVocabulary);
    }

    #[test]
    fn a_merge_list_is_taken_as_written() {
        // The paper's Example 3, improper: [ab a, a b].
        let mut vocab = Vocab::default();
        for (id, t) in ["a", "b", "ab", "aba"].iter().enumerate() {
            vocab.insert(id as u32, t.as_bytes()).unwrap();
        }
        let mut table = MergeTable::default();
        use crate::engines::subword::bpe::merge_table::Merge;
        table.insert(2, 0, Merge { rank: 0, merged: 3 });
        table.insert(0, 1, Merge { rank: 1, merged: 2 });
        let mut model = BpeModel::new(vocab, Rules::Table(table));
        let d = model.dictionary();
        assert_eq!(d.show_rule(0), "«ab» ⟩ «a»");
        assert_eq!(
            encode_strings(d, "abababab", Semantics::HuggingFace),
            ["ab", "ab", "ab", "ab"]
        );
        // The encoder itself under both semantics.
        let ids = |m: &BpeModel| m.encode("abababab");
        assert_eq!(ids(&model), [3, 1, 3, 1]);
        model.semantics = Semantics::HuggingFace;
        assert_eq!(ids(&model), [2, 2, 2, 2]);
    }

    #[test]
    fn the_dictionary_encodes_as_the_fast_loop() {
        let model = ranked();
        for word in ["abcabc", "acab", "bcabcab", "aca", "cba"] {
            let mut fast = Vec::new();
            model.initial_symbols(word.as_bytes(), &mut fast);
            let mut fast_steps = Vec::new();
            model.merge_fast(word.as_bytes(), &mut fast, &mut |s| fast_steps.push(s));
            let mut formal = Vec::new();
            let mut formal_steps = Vec::new();
            model.formal().merge(
                &model.vocab,
                word.as_bytes(),
                Semantics::SentencePiece,
                &mut formal,
                &mut |s| formal_steps.push(s),
            );
            assert_eq!(fast, formal, "{word}");
            assert_eq!(fast_steps, formal_steps, "{word}");
        }
    }
}
