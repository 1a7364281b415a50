use super::*;

fn tok(start: usize, end: usize) -> Token {
    Token::new(Span::new(start, end), TokenKind::Word)
}

#[test]
fn a_token_stays_small() {
    // Tokens are copied millions of times over a corpus; 72 bytes is what they cost since
    // the rule engine's provenance went behind a pointer.
    assert_eq!(std::mem::size_of::<Token>(), 72);
    assert!(std::mem::size_of::<Origin>() <= 24);
}

#[derive(Debug, PartialEq)]
struct Entry(SourceLoc);

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}", self.0)
    }
}

impl Provenance for Entry {
    fn source(&self) -> Option<&SourceLoc> {
        Some(&self.0)
    }
}

#[test]
fn detail_origins_compare_downcast_and_name_their_source() {
    let at = |line| SourceLoc {
        file: Arc::from("x.txt"),
        line,
    };
    let a = Origin::detail(Entry(at(3)));
    assert_eq!(a, Origin::detail(Entry(at(3))));
    assert_ne!(a, Origin::detail(Entry(at(4))));
    assert_ne!(a, Origin::Engine);
    assert_eq!(a.clone(), a);
    assert_eq!(a.detail_as::<Entry>().map(|e| e.0.line), Some(3));
    assert_eq!(
        a.source().map(|s| s.to_string()).as_deref(),
        Some("x.txt:3")
    );
    assert_eq!(a.to_string(), "entry x.txt:3");
    assert!(Origin::Engine.detail_as::<Entry>().is_none());
}

#[test]
fn form_falls_back_to_surface() {
    let text = "won't go";
    let plain = tok(6, 8);
    assert_eq!(plain.form(text), "go");
    let rewritten = tok(0, 3).with_form("will");
    assert_eq!(rewritten.form(text), "will");
    assert_eq!(rewritten.surface(text), "won");
}

#[test]
fn sentences_close_at_text_end() {
    let t = Tokenization {
        tokens: vec![tok(0, 2), tok(2, 3), tok(4, 6), tok(6, 7)],
        sentence_ends: vec![1],
    };
    assert_eq!(t.sentence_ranges(), vec![0..2, 2..4]);
    assert_eq!(t.sentences(), vec![Span::new(0, 3), Span::new(4, 7)]);
    assert!(t.ends_sentence(3));
    assert!(!t.ends_sentence(2));
}

#[test]
fn no_tokens_no_sentences() {
    assert!(Tokenization::default().sentences().is_empty());
}

#[test]
fn check_rejects_overlap_and_bad_boundaries() {
    let text = "héllo";
    assert!(Tokenization::new(vec![tok(0, 2)]).check(text).is_err());
    assert!(
        Tokenization::new(vec![tok(0, 3), tok(2, 4)])
            .check(text)
            .is_err()
    );
    assert!(
        Tokenization::new(vec![tok(0, 3), tok(3, 6)])
            .check(text)
            .is_ok()
    );
    let bad_end = Tokenization {
        tokens: vec![tok(0, 3)],
        sentence_ends: vec![1],
    };
    assert!(bad_end.check(text).is_err());
}

#[test]
fn classify_basic_kinds() {
    assert_eq!(TokenKind::classify("dogs"), TokenKind::Word);
    assert_eq!(TokenKind::classify(" 350"), TokenKind::Number);
    assert_eq!(TokenKind::classify("?!"), TokenKind::Punct);
    assert_eq!(TokenKind::classify("  "), TokenKind::Space);
    assert_eq!(TokenKind::classify("€"), TokenKind::Symbol);
    assert_eq!(TokenKind::classify("don't"), TokenKind::Word);
}
