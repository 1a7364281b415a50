use super::*;

fn forms(text: &str) -> Vec<String> {
    let tokenizer = PtbTokenizer::new(false);
    let tokens = tokenizer.tokenize(text);
    tokens.check(text).unwrap();
    tokens
        .tokens
        .iter()
        .map(|t| t.form(text).to_string())
        .collect()
}

#[test]
fn every_pattern_compiles() {
    let _ = PtbTokenizer::new(true);
}

#[test]
fn nltk_docstring_examples() {
    // The examples in NLTK's TreebankWordTokenizer documentation.
    assert_eq!(
        forms("Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks."),
        [
            "Good", "muffins", "cost", "$", "3.88", "in", "New", "York.", "Please", "buy", "me",
            "two", "of", "them.", "Thanks", "."
        ]
    );
    assert_eq!(
        forms("They'll save and invest more."),
        ["They", "'ll", "save", "and", "invest", "more", "."]
    );
    assert_eq!(
        forms("hi, my name can't hello,"),
        ["hi", ",", "my", "name", "ca", "n't", "hello", ","]
    );
}

#[test]
fn quotes_become_treebank_quotes_covering_the_original() {
    let text = "\"Don't,\" she said.";
    let tokenizer = PtbTokenizer::new(false);
    let tokens = tokenizer.tokenize(text);
    let shown: Vec<(&str, &str)> = tokens
        .tokens
        .iter()
        .map(|t| (t.form(text), t.surface(text)))
        .collect();
    assert_eq!(
        shown,
        [
            ("``", "\""),
            ("Do", "Do"),
            ("n't", "n't"),
            (",", ","),
            ("''", "\""),
            ("she", "she"),
            ("said", "said"),
            (".", ".")
        ]
    );
    assert_eq!(tokens.tokens[2].kind, TokenKind::Contraction);
}

#[test]
fn the_trace_names_the_rule_of_each_split() {
    let tokenizer = PtbTokenizer::new(false);
    let trace = tokenizer.trace("I cannot go.");
    let splits: Vec<(&str, Vec<&str>)> = trace
        .tokens
        .iter()
        .map(|t| (t.form.as_str(), t.split_by.clone()))
        .collect();
    assert_eq!(
        splits,
        [
            ("I", vec![]),
            ("can", vec![]),
            ("not", vec!["can|not"]),
            ("go", vec![]),
            (
                ".",
                vec!["final period (before closing brackets and quotes)"]
            ),
        ]
    );
    let shown = tokenizer.explain("I cannot go.").to_text();
    assert!(shown.contains("rule can|not  ×1"), "{shown}");
    assert!(
        shown.contains("token    11..12 «.»  split by: final period"),
        "{shown}"
    );
}

#[test]
fn parens_option_converts_brackets_both_ways() {
    let tokenizer = PtbTokenizer::new(true);
    let text = "(a [b])";
    let tokens = tokenizer.tokenize(text);
    let forms = tokens.forms(text);
    assert_eq!(forms, ["-LRB-", "a", "-LSB-", "b", "-RSB-", "-RRB-"]);
    assert_eq!(tokens.tokens[0].span, Span::new(0, 1));
    assert_eq!(tokenizer.detokenize_tokens(&forms), "(a [b])");
}

#[test]
fn detokenize_undoes_the_padding() {
    let tokenizer = PtbTokenizer::new(false);
    let tokens = [
        "``", "Do", "n't", ",", "''", "she", "said", "(", "twice", ")", ".",
    ];
    assert_eq!(
        tokenizer.detokenize_tokens(&tokens),
        "\"Don't,\" she said (twice)."
    );
    assert_eq!(tokenizer.detokenize_tokens(&[]), "");
}

#[test]
fn loads_from_a_spec() {
    assert!(crate::load("ptb").is_ok());
    assert!(crate::load("ptb?parens=1").is_ok());
    let e = crate::load("ptb?x=1").err().unwrap().to_string();
    assert!(e.contains("unknown option `x`"), "{e}");
}

#[test]
fn a_split_keeps_the_rule_that_made_it_when_later_rules_rewrite_its_space() {
    let tokenizer = PtbTokenizer::new(false);
    let trace = tokenizer.trace("I can't, he said.");
    let comma = trace.tokens.iter().find(|t| t.form == ",").unwrap();
    assert_eq!(comma.split_by, ["comma or colon before a non-digit"]);
    let clitic = trace.tokens.iter().find(|t| t.form == "n't").unwrap();
    assert_eq!(clitic.split_by, ["clitic 'll 're 've n't"]);
    let he = trace.tokens.iter().find(|t| t.form == "he").unwrap();
    assert!(he.split_by.is_empty(), "a space of the text split it");
}
